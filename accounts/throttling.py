"""Who is asking, and how often: the client's address and the throttles.

Login has three locks. django-axes counts wrong passwords per username and
address (``AXES_FAILURE_LIMIT``). On top of it, counters kept in the cache
(Redis in production) hold:

- one address trying many usernames (``login-address``);
- one username tried from many addresses (``login-username``). A browser that
  signed in as that user before carries a signed device cookie and is not
  held by this lock, so a spray of guesses cannot lock the owner out; the
  lock also ends after its window, and a password reset clears it;
- one address making guest accounts (``guest``) or asking for password-reset
  mail (``password-reset``).

Each throttle is a count in a window that starts with its first hit.
"""

from __future__ import annotations

import hashlib
import ipaddress
from dataclasses import dataclass
from functools import cache as memoize

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "shuanglu_device"
DEVICE_SALT = "accounts.throttling.device"
DEVICE_COOKIE_AGE = 365 * 24 * 3600


class ThrottledError(Exception):
    """Too many requests of one kind from one client; ``throttle`` says which."""

    def __init__(self, throttle: Throttle) -> None:
        super().__init__(throttle.name)
        self.throttle = throttle


@dataclass(frozen=True)
class Throttle:
    """At most ``settings.THROTTLES[name] = (limit, seconds)`` hits per key."""

    name: str

    @property
    def limit(self) -> int:
        return int(settings.THROTTLES[self.name][0])

    @property
    def seconds(self) -> int:
        return int(settings.THROTTLES[self.name][1])

    def _key(self, value: str) -> str:
        # Hashed: a key may come from a form field of any length.
        digest = hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:40]
        return f"throttle:{_generation()}:{self.name}:{digest}"

    def count(self, value: str) -> int:
        return int(cache.get(self._key(value), 0))

    def blocked(self, value: str) -> bool:
        return 0 < self.limit <= self.count(value)

    def hit(self, value: str) -> int:
        """Count one more; the window starts with the first hit."""
        key = self._key(value)
        cache.add(key, 0, timeout=self.seconds)
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=self.seconds)
            return 1

    def clear(self, value: str) -> None:
        cache.delete(self._key(value))

    def check(self, value: str) -> None:
        """Count a hit, raising ``ThrottledError`` if the limit was already reached."""
        if self.blocked(value):
            raise ThrottledError(self)
        self.hit(value)


GENERATION_KEY = "throttle:generation"


def _generation() -> int:
    return int(cache.get(GENERATION_KEY, 0))


def forget_all() -> None:
    """Start every throttle afresh (the test suite does, between tests)."""
    cache.add(GENERATION_KEY, 0, timeout=None)
    cache.incr(GENERATION_KEY)


LOGIN_ADDRESS = Throttle("login-address")
LOGIN_USERNAME = Throttle("login-username")
GUEST = Throttle("guest")
PASSWORD_RESET = Throttle("password-reset")


def username_key(username: str) -> str:
    return username.strip().casefold()


def login_blocked(request: HttpRequest, username: str) -> bool:
    """Whether this login attempt is held by the address or the username lock."""
    if LOGIN_ADDRESS.blocked(client_ip(request) or ""):
        return True
    name = username_key(username)
    return LOGIN_USERNAME.blocked(name) and not is_known_device(request, name)


def login_failed(request: HttpRequest, username: str) -> None:
    LOGIN_ADDRESS.hit(client_ip(request) or "")
    LOGIN_USERNAME.hit(username_key(username))


def is_known_device(request: HttpRequest, name: str) -> bool:
    signed = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT)
    return signed is not None and signed == name


def remember_device(response: HttpResponse, username: str) -> None:
    """Mark this browser as one the user signed in from (see ``login_blocked``)."""
    response.set_signed_cookie(
        DEVICE_COOKIE,
        username_key(username),
        salt=DEVICE_SALT,
        max_age=DEVICE_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, for the throttles and django-axes.

    X-Forwarded-For is read only as far as it was written by a trusted proxy:
    from the right, each entry counts while the address that wrote it is in
    ``TRUSTED_PROXIES``. Reached directly, a forged header is ignored.
    """
    address: str | None = request.META.get("REMOTE_ADDR")
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    chain = [a for a in forwarded if a]
    while address and chain and _is_trusted(address):
        candidate = chain.pop()
        if _parse(candidate) is None:
            break  # not an address: stop at the proxy that passed it on
        address = candidate
    return address


def _parse(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


def _is_trusted(address: str) -> bool:
    parsed = _parse(address)
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    return parsed is not None and any(parsed in net for net in networks)


@memoize
def _networks(
    proxies: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)
