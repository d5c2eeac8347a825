"""The game row's read and write, the one storage seam of every command.

``locked_game`` and ``game`` read the row; ``update`` writes the changed
columns, optionally only if the row is still at the version (and
``updated_at``) the caller read, and, inside ``under_session``, only while
the command's session is there: all in the write's one statement.
On PostgreSQL the statements are bound and prepared by the server
(``server_side_binding`` and ``prepare_threshold`` in config/settings.py).
"""

from __future__ import annotations

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

# The session a socket's command runs under (``under_session``): its write
# holds only while that session's row does, checked in the write's own
# statement, so a log-out that commits before it refuses the command
# whatever the push's timing, at no extra query.
# The row's columns by attribute name (``match_id``).
_COLUMNS: dict[str, Field[Any, Any]] = {f.attname: f for f in Game._meta.concrete_fields}
_STAMP = _COLUMNS["updated_at"]

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


# Kept: the ORM's SELECT of the row's 40-odd columns, built anew for every
# command, was a third of a command's CPU (bench/README.md, "issue 29").
@dataclass(frozen=True)
class _Read:
    sql: str
    attnames: list[str]
    converters: list[tuple[int, list[Any], Any]]


_reads: dict[tuple[str, str, bool], _Read] = {}


def _read(*, locked: bool) -> _Read:
    """The ORM's own statement, columns and converters, built once per connection kind."""
    key = (connection.alias, connection.vendor, locked)
    read = _reads.get(key)
    if read is None:
        rows = Game.objects.select_for_update() if locked else Game.objects.all()
        compiler = rows.filter(pk=0).query.get_compiler(connection=connection)
        sql, _params = compiler.as_sql()
        columns = [col for col, _sql, _alias in compiler.select]
        converters = compiler.get_converters(columns)
        read = _reads[key] = _Read(
            sql,
            [col.target.attname for col in columns],
            [(pos, convs, expr) for pos, (convs, expr) in converters.items()],
        )
    return read


def _fetch(read: _Read, game_id: int) -> Game:
    with connection.cursor() as cursor:
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
    """``game.save(update_fields=attnames)``, its SQL built once; with
    ``at_version``, only if the stored row is still at that version and was
    last written when ``game`` says (its ``updated_at``; False if not).

    Without ``at_version`` the row must exist (its lock is held).
    """
    fields = [_COLUMNS[name] for name in attnames]
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
    with connection.cursor() as cursor:
        sql = _write(tuple(attnames), at_version is not None, session is not None)
        cursor.execute(sql, params + where)
        changed = cursor.rowcount
    if at_version is None and changed != 1:
        if session is not None:  # the row is locked and there: the session is gone
            raise SessionEndedError(f"game {game.pk}: session ended before the write")
        raise DatabaseError(f"game {game.pk}: the update changed {changed} rows")
    return bool(changed == 1)


_writes: dict[tuple[str, str, tuple[str, ...], bool, bool], str] = {}


def _write(names: tuple[str, ...], conditional: bool, guarded: bool) -> str:
    # Kept: the ORM's UPDATE built anew cost a command more than its read
    # (bench/README.md, "issue 29").
    key = (connection.alias, connection.vendor, names, conditional, guarded)
    sql = _writes.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sets = ", ".join(f"{quote(_COLUMNS[n].column)} = %s" for n in names)
        pk = quote(_COLUMNS["id"].column)
        sql = f"UPDATE {quote(Game._meta.db_table)} SET {sets} WHERE {pk} = %s"
        if conditional:
            sql += f" AND {quote(_COLUMNS['version'].column)} = %s AND {quote(_STAMP.column)} = %s"
        if guarded:
            session = Session._meta
            sql += (
                f" AND EXISTS (SELECT 1 FROM {quote(session.db_table)}"
                f" WHERE {quote(session.get_field('session_key').column)} = %s"
                f" AND {quote(session.get_field('expire_date').column)} > %s)"
            )
        _writes[key] = sql
    return sql
