"""A game socket lives only as long as the session it was opened under
(docs/interfaces.md §4, the close 4401). The session's and the user's
``post_save``/``post_delete`` (below) push to its sockets, so every way of
changing them is seen (log-out, ``clearsessions``, ``set_password``, the
admin, a script's ``save``); the watch catches what no signal sees (raw SQL,
a queryset ``update``). The check before every command it replaces was one
query and an eighth of a command's CPU in the web process (bench/live.py).
A password changed while a push travels is not seen by the write, but the
push closes the socket right after. The check and the write's guard read the
sessions as database rows (the default engine: config/settings.py sets no other).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from games.live import broadcast

# What a session and its user looked like when they last passed the whole
# check: (session key, user id) -> (session data, password hash, active, expire date).
_passed: dict[tuple[str, int], tuple[Any, ...]] = {}
PASSED_KEPT = 20_000
# A user's fields the session check reads (ModelBackend.get_user, the
# session's password hash).
USER_FIELDS_CHECKED = frozenset({"password", "is_active"})


def session_expiry(session_key: str | None, user_id: int) -> float | None:
    """If the session still exists, is not expired and still signs in
    ``user_id`` (its password hash unchanged), until when (a ``time.time()``
    stamp: its expire date); None if it does not. Sync. While the session's
    row and the user's password and active flag are as when the whole check
    last passed, the one query that reads them is enough.
    """
    if not session_key:
        return None
    facts = _session_facts(session_key, user_id)
    if facts is None:
        return None  # no such unexpired session, or no such user
    if _passed.get((session_key, user_id)) != facts:
        # get_user checks the password hash the session was made with, as every
        # HTTP request does; a session that fails it is flushed there too.
        request = SimpleNamespace(session=SessionStore(session_key))
        user = get_user(request)  # type: ignore[arg-type]
        if not (user.is_authenticated and user.pk == user_id):
            return None
        if len(_passed) >= PASSED_KEPT:
            _passed.clear()
        _passed[(session_key, user_id)] = facts
    expires: datetime = facts[3]  # a datetime on SQLite too (by its declared type)
    if timezone.is_naive(expires):  # SQLite's, stored in UTC (USE_TZ)
        expires = expires.replace(tzinfo=UTC)
    return expires.timestamp()


def _session_facts(session_key: str, user_id: int) -> tuple[Any, ...] | None:
    """The unexpired session's data and expire date, the user's password hash and active flag."""
    # Kept as one plain statement: built by the ORM at every socket opening
    # and watch it cost daphne 1.7 ms more CPU a socket (bench/live.py, 1,000
    # sockets at once: the first commands' p99 33 -> 457 ms).
    with connection.cursor() as cursor:
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        cursor.execute(_facts_sql(connection.vendor), [user_id, session_key, now])
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


@lru_cache(maxsize=4)
def _facts_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    session, user = Session._meta, get_user_model()._meta

    def column(meta: Any, name: str) -> str:
        return f"{quote(meta.db_table)}.{quote(meta.get_field(name).column)}"

    return (
        f"SELECT {column(session, 'session_data')}, {column(user, 'password')},"
        f" {column(user, 'is_active')}, {column(session, 'expire_date')}"
        f" FROM {quote(session.db_table)} INNER JOIN {quote(user.db_table)}"
        f" ON {quote(user.db_table)}.{quote(user.pk.column)} = %s"
        f" WHERE {column(session, 'session_key')} = %s AND {column(session, 'expire_date')} > %s"
    )


@receiver([post_save, post_delete], sender=Session, dispatch_uid="games.live.sessions.session")
def _session_changed(sender: Any, instance: Session, created: bool = False, **kwargs: Any) -> None:
    if created:
        return  # a new key: no socket was opened under it yet
    group = broadcast.session_group(instance.session_key)
    transaction.on_commit(lambda: broadcast.group_send(group, {"type": "session.check"}))


@receiver(
    [post_save, post_delete],
    sender=settings.AUTH_USER_MODEL,
    dispatch_uid="games.live.sessions.user",
)
def _user_changed(
    sender: Any, instance: Any, created: bool = False, update_fields: Any = None, **kwargs: Any
) -> None:
    if created or (update_fields is not None and not USER_FIELDS_CHECKED & set(update_fields)):
        return  # last_login at each log-in, say: no session's answer changes
    group = broadcast.user_group(instance.pk)
    transaction.on_commit(lambda: broadcast.group_send(group, {"type": "session.check"}))
