"""A game socket opened with a real session cookie, and what a signed-out one
says: for the socket tests of tests/faults (real sessions, the real ASGI app)."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games.live.consumers import CLOSE_SIGNED_OUT

TIMEOUT = 5


def signed_in(user: Any, password: str) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def cookie_of(client: Client) -> bytes:
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def open_game(game_id: int, client: Client) -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1"),
        (b"accept-language", b"en"),
        (b"cookie", cookie_of(client)),
    ]
    socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "state"
    return socket


async def next_error(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The socket's next error, passing over what its groups may push to it
    at any moment (a state, an event). CI once saw such a push arrive before
    the signed-out error, on SQLite + Redis under load."""
    pushed: list[str] = []
    while True:
        message = await socket.receive_json_from(TIMEOUT)
        if message["type"] == "error":
            return message
        assert message["type"] != "ack", f"an ack, not an error, after {pushed}: {message}"
        pushed.append(message["type"])


async def assert_signed_out(socket: WebsocketCommunicator) -> None:
    error = await next_error(socket)
    assert (error["type"], error["code"]) == ("error", "signed_out")
    assert "signed out" in error["message"]
    closed = await socket.receive_output(TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_SIGNED_OUT}
