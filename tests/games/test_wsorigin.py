"""The game socket's origin check (games/live/wsorigin.py): the page must come
from the socket's own scheme, host and port, or from a trusted origin."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from games.live.wsorigin import origin_allowed


def scope(origin: str, host: str = "site.example", **extra: Any) -> dict[str, Any]:
    headers = [(b"origin", origin.encode()), (b"host", host.encode())]
    headers += [(name.encode(), value.encode()) for name, value in extra.pop("headers", {}).items()]
    return {"type": "websocket", "scheme": "ws", "headers": headers, **extra}


@pytest.mark.parametrize(
    ("the_scope", "allowed"),
    [
        (scope("http://site.example"), True),
        (scope("http://site.example:80"), True),  # the default port, written out
        (scope("http://SITE.example", host="site.example:80"), True),
        (scope("http://site.example:8080"), False),  # another port
        (scope("https://site.example"), False),  # another scheme
        (scope("https://site.example", scheme="wss"), True),
        (scope("http://site.example", scheme="wss"), False),
        (scope("https://site.example", headers={"X-Forwarded-Proto": "https"}), True),
        (scope("http://other.example", host="other.example"), False),  # not an allowed host
        (scope("https://app.example:8443"), True),  # a trusted origin
        (scope("https://app.example"), False),
        (scope("null"), False),
        (scope(""), False),
    ],
)
def test_only_the_sockets_own_origin_or_a_trusted_one_is_allowed(
    the_scope: dict[str, Any], allowed: bool
) -> None:
    with override_settings(
        ALLOWED_HOSTS=["site.example"],
        CSRF_TRUSTED_ORIGINS=["https://app.example:8443"],
        SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
    ):
        assert origin_allowed(the_scope) is allowed
