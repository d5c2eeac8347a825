"""The game socket accepts only pages of this site: the Origin is the socket's
own (its scheme, ``https`` when the trusted proxy says so, and its Host, an
allowed host) or one of ``CSRF_TRUSTED_ORIGINS``. Channels' validator compares
host names only (a page on http://host:8080 could open https://host's socket).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_allowed(scope: dict[str, Any]) -> bool:
    headers = {k.lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    claimed = _origin(headers.get(b"origin", ""))
    if claimed is None:
        return False
    host = headers.get(b"host", "")
    secure = scope.get("scheme") == "wss"
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name = proxy_header[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        secure = secure or headers.get(name, "") == proxy_header[1]
    own = f"{'https' if secure else 'http'}://{host}"
    if validate_host(split_domain_port(host.lower())[0], settings.ALLOWED_HOSTS):
        if claimed == _origin(own):
            return True
    return claimed in {_origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS}


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of ``url``, with the scheme's default port filled in."""
    parts = urlsplit(url)
    host, port = split_domain_port(parts.netloc.lower())
    if not host or parts.scheme not in DEFAULT_PORTS:
        return None
    return parts.scheme, host, int(port) if port else DEFAULT_PORTS[parts.scheme]


class SameOriginValidator:
    """ASGI middleware: refuse a WebSocket whose Origin is not this site's."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
