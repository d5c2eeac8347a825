"""A game socket lives only as long as the session it was opened under.

A session row deleted (log-out, ``flush``, a new key at log-in, the admin,
``clearsessions``) closes that session's sockets at once; a password change
makes the user's sockets check their session, so the other sessions' close.
Whatever else ends a session (expiry) is caught by the check each socket
makes before every command and every ``SOCKET_SESSION_CHECK_SECONDS``.
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from accounts.signals import password_changed
from games import broadcast


def session_holds(session_key: str | None, user_id: int) -> bool:
    """Whether the session still exists, is not expired, and still signs in
    ``user_id`` (its password hash unchanged). Sync: two small queries."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    # get_user checks the password hash the session was made with, as every
    # HTTP request does; a session that fails it is flushed there too.
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return bool(user.is_authenticated and user.pk == user_id)


@receiver(post_delete, sender=Session, dispatch_uid="games.sessions.session_deleted")
def _session_deleted(sender: Any, instance: Session, **kwargs: Any) -> None:
    key = instance.session_key
    transaction.on_commit(lambda: broadcast.end_session(key))


@receiver(password_changed, dispatch_uid="games.sessions.password_changed")
def _password_changed(sender: Any, user: Any, **kwargs: Any) -> None:
    broadcast.check_sessions(user.pk)
