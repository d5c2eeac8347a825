"""Who is asking, and how often: the client's address and the throttles.

Login has four locks, counted in the cache (Redis in production); each locks
its key when its count of wrong passwords reaches the limit in its window,
for a time that grows with each lock of that key in a day
(``LOCKOUT_STEPS``: 1 minute, then 5, 15, 60 …), and the page says how long:

- one username from one address (``login-pair``);
- one address trying many usernames (``login-address``);
- one username tried from many addresses (``login-username``);
- one browser that signed in as that username before (``login-device``).

A browser that signed in as the user before carries a signed device cookie
(the username and a token of that browser): it is held only by its own
wrong passwords, never by the other three locks, so a spray of guesses from
elsewhere, its own address included, cannot lock the owner out. A password
reset clears the username's locks. django-axes only records the attempts.
Two more throttles hold one address making guest accounts (``guest``) or
asking for password-reset mail (``password-reset``): a count in a window
that starts with its first hit.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import secrets
import time
from dataclasses import dataclass
from functools import cache as memoize

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "shuanglu_device"
DEVICE_SALT = "accounts.throttling.device"
DEVICE_COOKIE_AGE = 365 * 24 * 3600
STRIKES_SECONDS = 24 * 3600  # how long a lock is remembered for the next one's length


def _now() -> float:
    return time.time()


class ThrottledError(Exception):
    """Too many requests of one kind from one client; ``throttle`` says which."""

    def __init__(self, throttle: Throttle) -> None:
        super().__init__(throttle.name)
        self.throttle = throttle


@dataclass(frozen=True)
class Throttle:
    """At most ``settings.THROTTLES[name] = (limit, seconds)`` hits per key.

    A ``locks`` throttle, once its count reaches the limit, locks the key
    for the next of ``settings.LOCKOUT_STEPS`` and counts afresh after it;
    the others hold the key until their window ends.
    """

    name: str
    locks: bool = False

    @property
    def limit(self) -> int:
        return int(settings.THROTTLES[self.name][0])

    @property
    def seconds(self) -> int:
        return int(settings.THROTTLES[self.name][1])

    def _key(self, value: str, kind: str = "count") -> str:
        # Hashed: a key may come from a form field of any length.
        digest = hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:40]
        return f"throttle:{_generation()}:{self.name}:{kind}:{digest}"

    def count(self, value: str) -> int:
        return int(cache.get(self._key(value), 0))

    def wait_seconds(self, value: str) -> int:
        """How long the key is held from now (0: it is not)."""
        if self.locks:
            until = cache.get(self._key(value, "lock"))
            return max(0, math.ceil(float(until) - _now())) if until else 0
        return self.seconds if 0 < self.limit <= self.count(value) else 0

    def blocked(self, value: str) -> bool:
        return self.wait_seconds(value) > 0

    def hit(self, value: str) -> int:
        """Count one more; the window starts with the first hit."""
        key = self._key(value)
        cache.add(key, 0, timeout=self.seconds)
        try:
            count = int(cache.incr(key))
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=self.seconds)
            count = 1
        if self.locks and 0 < self.limit <= count:
            self._lock(value)
        return count

    def _lock(self, value: str) -> None:
        strikes_key = self._key(value, "strikes")
        cache.add(strikes_key, 0, timeout=STRIKES_SECONDS)
        try:
            strikes = int(cache.incr(strikes_key))
        except ValueError:
            cache.set(strikes_key, 1, timeout=STRIKES_SECONDS)
            strikes = 1
        steps = settings.LOCKOUT_STEPS
        seconds = int(steps[min(strikes, len(steps)) - 1])
        # The value is the lock's end; the cache keeps it a little longer.
        cache.set(self._key(value, "lock"), _now() + seconds, timeout=seconds + 60)
        cache.delete(self._key(value))

    def clear(self, value: str) -> None:
        cache.delete_many([self._key(value, kind) for kind in ("count", "lock", "strikes")])

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


LOGIN_PAIR = Throttle("login-pair", locks=True)
LOGIN_ADDRESS = Throttle("login-address", locks=True)
LOGIN_USERNAME = Throttle("login-username", locks=True)
LOGIN_DEVICE = Throttle("login-device", locks=True)
LOGIN_THROTTLES = (LOGIN_PAIR, LOGIN_ADDRESS, LOGIN_USERNAME, LOGIN_DEVICE)
GUEST = Throttle("guest")
PASSWORD_RESET = Throttle("password-reset")


def username_key(username: str) -> str:
    return username.strip().casefold()


def _login_keys(request: HttpRequest, username: str) -> list[tuple[Throttle, str]]:
    """The locks this attempt answers to, each with its key."""
    name = username_key(username)
    device = known_device(request, name)
    if device is not None:
        return [(LOGIN_DEVICE, f"{name}\n{device}")]
    address = client_ip(request) or ""
    return [(LOGIN_PAIR, f"{name}\n{address}"), (LOGIN_ADDRESS, address), (LOGIN_USERNAME, name)]


def login_wait(request: HttpRequest, username: str) -> int:
    """How many seconds this login attempt is held for (0: it may go ahead)."""
    return max((t.wait_seconds(key) for t, key in _login_keys(request, username)), default=0)


def login_failed(request: HttpRequest, username: str) -> None:
    for throttle, key in _login_keys(request, username):
        throttle.hit(key)


def clear_username_locks(request: HttpRequest, username: str) -> None:
    """The owner proved the mailbox: lift the username's locks (from here too)."""
    name = username_key(username)
    LOGIN_USERNAME.clear(name)
    LOGIN_PAIR.clear(f"{name}\n{client_ip(request) or ''}")


def known_device(request: HttpRequest, name: str) -> str | None:
    """This browser's token if it signed in as ``name`` before, else None
    (a cookie from before the token was kept: "")."""
    signed = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT)
    if signed is None:
        return None
    owner, _sep, token = str(signed).partition("|")
    return token if owner == name else None


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Mark this browser as one the user signed in from (see ``_login_keys``)."""
    name = username_key(username)
    token = known_device(request, name) or secrets.token_urlsafe(12)
    response.set_signed_cookie(
        DEVICE_COOKIE,
        f"{name}|{token}",  # Django's usernames hold no "|"
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
