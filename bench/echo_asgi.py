"""bench/live.py's server: the site's ASGI app plus a bare echo socket at
``/ws/echo/``, the yardstick the game socket is measured against.

The echo goes through an origin check and the same cookie middleware as the
game socket, and dispatches its frames as the game's consumer does (without
channels' hop to its database thread before every message, which neither
needs), so the two differ only by what the game's consumer does.
Served as ``daphne bench.echo_asgi:application`` (daphne puts the working
directory, the repository root, on the path). Not part of the site.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware
from django.urls import path

from config.asgi import application as site


class EchoConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def dispatch(self, message: dict[str, Any]) -> None:
        await getattr(self, get_handler_name(message))(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


ECHO_PATH = "/ws/echo/"
echo = AllowedHostsOriginValidator(
    CookieMiddleware(URLRouter([path(ECHO_PATH.strip("/") + "/", EchoConsumer.as_asgi())]))
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"] == ECHO_PATH:
        await echo(scope, receive, send)
    else:
        await site(scope, receive, send)
