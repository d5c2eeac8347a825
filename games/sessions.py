"""A game socket lives only as long as the session it was opened under.

A session row deleted (log-out, ``flush``, a new key at log-in, the admin,
``clearsessions``) closes that session's sockets at once; a password change
makes the user's sockets check their session, so the other sessions' close.
Whatever else ends a session (expiry) is caught by the check each socket
makes before every command and every ``SOCKET_SESSION_CHECK_SECONDS``.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user, get_user_model
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone

from accounts.signals import password_changed
from games import broadcast

# What a session and its user looked like when they last passed the whole
# check: (session key, user id) -> (session data, password hash, active).
_passed: dict[tuple[str, int], tuple[Any, ...]] = {}
PASSED_KEPT = 20_000
DATABASE_ENGINES = (
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
)


def session_holds(session_key: str | None, user_id: int) -> bool:
    """Whether the session still exists, is not expired, and still signs in
    ``user_id`` (its password hash unchanged). Sync: one small query.

    The whole check (decoding the session, loading the user, comparing the
    password hash) gives the same answer while the session's row and the
    user's password and active flag are what they were when it last passed,
    so then the one query that reads them is enough (a command a socket
    makes checks its session; the whole check was two ORM queries and most
    of a step's CPU in the web process).
    """
    if not session_key:
        return False
    facts = _session_facts(session_key, user_id) if _rows_hold_sessions() else None
    if facts is not None and _passed.get((session_key, user_id)) == facts:
        return True
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    # get_user checks the password hash the session was made with, as every
    # HTTP request does; a session that fails it is flushed there too.
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    holds = bool(user.is_authenticated and user.pk == user_id)
    if holds and facts is not None:
        if len(_passed) >= PASSED_KEPT:
            _passed.clear()
        _passed[(session_key, user_id)] = facts
    return holds


def _rows_hold_sessions() -> bool:
    return settings.SESSION_ENGINE in DATABASE_ENGINES


def _session_facts(session_key: str, user_id: int) -> tuple[Any, ...] | None:
    """The unexpired session's data and the user's password hash and active flag."""
    with connection.cursor() as cursor:
        cursor.execute(_facts_sql(), [user_id, session_key, _now_param()])
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def _now_param() -> Any:
    return connection.ops.adapt_datetimefield_value(timezone.now())


@lru_cache(maxsize=4)
def _facts_sql_for(vendor: str) -> str:
    quote = connection.ops.quote_name
    session, user = Session._meta, get_user_model()._meta

    def column(meta: Any, name: str) -> str:
        return f"{quote(meta.db_table)}.{quote(meta.get_field(name).column)}"

    return (
        f"SELECT {column(session, 'session_data')}, {column(user, 'password')},"
        f" {column(user, 'is_active')}"
        f" FROM {quote(session.db_table)} INNER JOIN {quote(user.db_table)}"
        f" ON {quote(user.db_table)}.{quote(user.pk.column)} = %s"
        f" WHERE {column(session, 'session_key')} = %s AND {column(session, 'expire_date')} > %s"
    )


def _facts_sql() -> str:
    return _facts_sql_for(connection.vendor)


@receiver(post_delete, sender=Session, dispatch_uid="games.sessions.session_deleted")
def _session_deleted(sender: Any, instance: Session, **kwargs: Any) -> None:
    key = instance.session_key
    transaction.on_commit(lambda: broadcast.end_session(key))


@receiver(password_changed, dispatch_uid="games.sessions.password_changed")
def _password_changed(sender: Any, user: Any, **kwargs: Any) -> None:
    broadcast.check_sessions(user.pk)
