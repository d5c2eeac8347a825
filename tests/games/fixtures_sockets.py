"""Opening a game socket through the real ASGI app (channels' WebsocketCommunicator),
signed in with a real session cookie: for the socket tests of tests/games."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games.models import Game

ORIGIN = b"http://127.0.0.1"
TIMEOUT = 5


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def open_socket(
    game_id: int, user: Any | None, origin: bytes = ORIGIN, language: bytes = b"zh-CN"
) -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"127.0.0.1"), (b"accept-language", language)]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def connect_socket(
    game_id: int, user: Any, **kwargs: Any
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """An open socket on ``game_id`` as ``user``, and the first state it was sent."""
    socket = await open_socket(game_id, user, **kwargs)
    connected, _ = await socket.connect()
    assert connected
    state = await socket.receive_json_from(TIMEOUT)
    assert state["type"] == "state"
    return socket, state


@database_sync_to_async
def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)
