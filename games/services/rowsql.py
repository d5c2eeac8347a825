"""The game row's two statements of every command, built once per process.

Each person's command reads its game row under lock and writes back the
columns it changed. Django builds a query's SQL anew on every call, and
that building was most of a step's CPU in the web process (bench/live.py,
"Live play"). Here each statement is built once by the ORM itself (the same
SQL, the same converters for what is read, the same ``pre_save`` and
``get_db_prep_save`` for what is written) and then only executed: the same
code on SQLite and PostgreSQL.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.models import Session
from django.db import DatabaseError, connection
from django.db.models import Field
from django.utils import timezone

from games.models import Game
from games.services.errors import SessionEndedError

_lock = threading.Lock()


@dataclass(frozen=True)
class _Read:
    sql: str
    attnames: list[str]
    converters: list[tuple[int, list[Any], Any]]


# The row's columns by attribute name (``match_id``) and field name (``match``).
_COLUMNS: dict[str, Field[Any, Any]] = {
    **{f.name: f for f in Game._meta.concrete_fields},
    **{f.attname: f for f in Game._meta.concrete_fields},
}
_STAMP = _COLUMNS["updated_at"]
_reads: dict[tuple[str, str, bool], _Read] = {}
_writes: dict[tuple[str, str, tuple[str, ...], bool, bool], str] = {}

# The session a socket's command runs under (``under_session``): its write
# holds only while that session's row does, checked in the write's own
# statement, so a log-out that commits before it refuses the command
# whatever the push's timing, at no extra query.
_session: ContextVar[str | None] = ContextVar("games_command_session", default=None)


@contextmanager
def under_session(session_key: str | None) -> Iterator[None]:
    """Every game row write inside is made only if ``session_key``'s row is
    there and unexpired (None: no condition); ``SessionEndedError`` if not."""
    token = _session.set(session_key)
    try:
        yield
    finally:
        _session.reset(token)


def locked_game(game_id: int) -> Game:
    """``Game.objects.select_for_update().get(pk=game_id)``, its SQL built once.

    Call inside ``transaction.atomic()``; ``Game.DoesNotExist`` if there is none.
    """
    return _fetch(_read(locked=True), game_id)


def game(game_id: int) -> Game:
    """``Game.objects.get(pk=game_id)``, its SQL built once."""
    return _fetch(_read(locked=False), game_id)


def _fetch(read: _Read, game_id: int) -> Game:
    with _cursor() as cursor:
        cursor.execute(read.sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    values = list(row)
    for pos, converters, expression in read.converters:
        for convert in converters:
            values[pos] = convert(values[pos], expression, connection)
    return Game.from_db(connection.alias, read.attnames, values)


def update(game: Game, attnames: list[str], *, at_version: int | None = None) -> bool:
    """``game.save(update_fields=attnames)``; with ``at_version``, only if the
    stored row is still at that version and was last written when ``game``
    says (its ``updated_at``; False if not).

    Without ``at_version`` the row must exist (its lock is held).
    """
    names = tuple(attnames)
    fields = [_COLUMNS[name] for name in names]
    # Read before pre_save below sets it anew. A row at the same version
    # written since is a hint's (hints_used, which does not change the
    # version): the instance no longer shows the row as stored.
    where: list[Any] = [game.pk]
    if at_version is not None:
        where += [at_version, _STAMP.get_db_prep_save(game.updated_at, connection)]
    session = _session.get()
    if session is not None:
        where += [session, connection.ops.adapt_datetimefield_value(timezone.now())]
    params = [f.get_db_prep_save(f.pre_save(game, False), connection) for f in fields]
    params += where
    with _cursor() as cursor:
        cursor.execute(_write(names, at_version is not None, session is not None), params)
        changed = cursor.rowcount
    if at_version is None and changed != 1:
        if session is not None:  # the row is locked and there: the session is gone
            raise SessionEndedError(f"game {game.pk}: session ended before the write")
        raise DatabaseError(f"game {game.pk}: the update changed {changed} rows")
    return bool(changed == 1)


# PostgreSQL prepares these few statements once a connection has run one
# this often: parsed and planned once per connection, not for every command.
PREPARE_AFTER = 2


def _cursor() -> Any:
    """``connection.cursor()``; on PostgreSQL one that binds its parameters on
    the server, so that psycopg prepares the statement (Django's default
    cursor merges them into the SQL text, which nothing prepares).

    A prepared statement is its connection's (psycopg keeps its name with
    the connection): one replaced after a restart prepares it again. Only
    these cursors prepare; Django's own stay as configured. (A pooler in
    transaction mode in front of PostgreSQL would need its support for
    prepared statements.)
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql import base

    db: Any = connection  # as Django's own cursor(), with the other cursor class
    db.close_if_health_check_failed()
    db.ensure_connection()
    with db.wrap_database_errors:
        raw = db.connection
        if raw.prepare_threshold is None:  # Django turns preparing off by default
            raw.prepare_threshold = PREPARE_AFTER
        bound = base.ServerBindingCursor  # type: ignore[attr-defined]  # (psycopg 3 only)
        factory, raw.cursor_factory = raw.cursor_factory, bound
        try:
            cursor = db.create_cursor()
        finally:
            raw.cursor_factory = factory
        return db._prepare_cursor(cursor)


def _read(*, locked: bool) -> _Read:
    key = (connection.alias, connection.vendor, locked)
    read = _reads.get(key)
    if read is None:
        with _lock:
            rows = Game.objects.select_for_update() if locked else Game.objects.all()
            compiler = rows.filter(pk=0).query.get_compiler(connection=connection)
            sql, _params = compiler.as_sql()
            columns = [col for col, _sql, _alias in compiler.select]
            converters = compiler.get_converters(columns)
            read = _Read(
                sql,
                [col.target.attname for col in columns],
                [(pos, convs, expr) for pos, (convs, expr) in converters.items()],
            )
            _reads[key] = read
    return read


def _write(names: tuple[str, ...], conditional: bool, guarded: bool) -> str:
    key = (connection.alias, connection.vendor, names, conditional, guarded)
    sql = _writes.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        meta = Game._meta
        sets = ", ".join(f"{quote(_COLUMNS[n].column)} = %s" for n in names)
        pk = _COLUMNS["id"].column
        sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(pk)} = %s"
        if conditional:
            sql += f" AND {quote(_COLUMNS['version'].column)} = %s"
            sql += f" AND {quote(_STAMP.column)} = %s"
        if guarded:
            session = Session._meta
            sql += (
                f" AND EXISTS (SELECT 1 FROM {quote(session.db_table)}"
                f" WHERE {quote(session.get_field('session_key').column)} = %s"
                f" AND {quote(session.get_field('expire_date').column)} > %s)"
            )
        _writes[key] = sql
    return sql
