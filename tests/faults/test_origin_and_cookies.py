"""Issue 13, "also found": the socket's Origin check compares scheme, host
and port; the language cookie is Secure in production."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.settings_runs import PRODUCTION, ROOT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(30)]


async def handshake(origin: bytes, host: bytes = b"127.0.0.1", **extra: bytes) -> bool:
    headers = [(b"origin", origin), (b"host", host), *((k.encode(), v) for k, v in extra.items())]
    socket = WebsocketCommunicator(application, "/ws/games/1/", headers=headers)
    connected, _ = await socket.connect()
    await socket.disconnect()
    return bool(connected)


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (b"http://127.0.0.1", b"127.0.0.1", True),
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000", True),
        (b"https://127.0.0.1", b"127.0.0.1", False),  # another scheme of the same host
        (b"http://127.0.0.1:9999", b"127.0.0.1:8000", False),  # another port
        (b"http://localhost:8000", b"127.0.0.1:8000", False),  # another allowed host
        (b"http://evil.example", b"evil.example", False),  # a host not allowed
        (b"null", b"127.0.0.1", False),
    ],
)
async def test_the_origin_must_be_the_sockets_own(
    origin: bytes, host: bytes, allowed: bool
) -> None:
    # Accepted means the socket reached the consumer (which then closes it,
    # 4403, for want of a session); refused means the handshake was denied.
    assert await handshake(origin, host) is allowed


async def test_behind_the_proxy_the_https_page_is_the_origin(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proto = {"x-forwarded-proto": b"https"}
    assert await handshake(b"https://127.0.0.1", **proto)
    assert not await handshake(b"http://127.0.0.1", **proto)


async def test_a_csrf_trusted_origin_is_allowed(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com"]
    assert await handshake(b"https://play.example.com")
    assert not await handshake(b"https://play.example.com:8443")


def test_the_language_cookie_is_secure_in_production() -> None:
    code = "import django; from django.conf import settings; django.setup(); "
    code += "print(settings.LANGUAGE_COOKIE_SECURE, settings.SESSION_COOKIE_SECURE)"
    env = {"PATH": "/usr/bin:/bin", **PRODUCTION, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.stdout.split() == ["True", "True"], result.stderr
