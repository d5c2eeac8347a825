from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for login throttling (django-axes).

    Behind ``TRUSTED_PROXY_COUNT`` proxies it is that many entries from the
    right of X-Forwarded-For: entries further left are written by the client
    and can be forged.
    """
    remote: str | None = request.META.get("REMOTE_ADDR")
    count: int = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    chain = [a.strip() for a in forwarded.split(",")]
    chain = [a for a in chain if a]
    if len(chain) >= count:
        return chain[-count]
    return remote
