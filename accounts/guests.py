"""Guest accounts: a first-time visitor plays at once under a real account.

The guest row is the one that later becomes the named account at sign-up
(``accounts.views.SignUpView``), so games and preferences stay with it.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import login
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts import throttling
from accounts.models import User

# Guests never authenticate with a password; login() needs a backend name.
GUEST_BACKEND = "django.contrib.auth.backends.ModelBackend"


def create_guest() -> User:
    """A new guest account with an unusable password and a unique name."""
    while True:
        username = f"guest-{secrets.token_hex(6)}"
        if not User.objects.filter(username=username).exists():
            break
    user = User(username=username, is_guest=True)
    user.set_unusable_password()
    user.save()
    return user


def ensure_player(request: HttpRequest) -> User:
    """The signed-in user, or a new guest account logged in on this request.

    Call it where a visitor first needs an account (lobby, preferences,
    starting a game). Too many guests from one address raise
    ``ThrottledError`` (a 429 page, ``accounts.middleware``). Sync only: from async code wrap it in
    ``database_sync_to_async``.
    """
    user = request.user
    if user.is_authenticated:
        assert isinstance(user, User)
        return user
    throttling.GUEST.check(throttling.client_ip(request) or "")
    guest = create_guest()
    login(request, guest, backend=GUEST_BACKEND)
    return guest


def stale_guests(days: int) -> QuerySet[User]:
    """Guests not seen for ``days`` days: their session cookie is long gone
    (SESSION_COOKIE_DAYS), so nobody can reach their games any more."""
    cutoff = timezone.now() - timedelta(days=days)
    seen_before = Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff)
    return User.objects.filter(seen_before, is_guest=True)


def prune_guests(days: int) -> int:
    """Delete the guests ``stale_guests(days)`` finds, their games with them; how many."""
    guests = stale_guests(days)
    count = guests.count()
    guests.delete()
    return count
