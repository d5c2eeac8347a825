"""The game row's read and write, the one storage seam of every command:
``game`` reads the row, ``update`` writes it, each in one statement (bound
and prepared by PostgreSQL: ``server_side_binding`` in config/settings.py).
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

from django.contrib.sessions.models import Session
from django.db import DatabaseError, connection
from django.db.models import Field
from django.utils import timezone

from games.models import Game
from games.services.errors import SessionEndedError
from runtime import orm

# The row's columns by attribute name (``match_id``).
_COLUMNS: dict[str, Field[Any, Any]] = {f.attname: f for f in Game._meta.concrete_fields}
_STAMP = _COLUMNS["updated_at"]
# Every column a transition may change (updated_at is always written).
SAVED_FIELDS = tuple(
    name
    for name, f in _COLUMNS.items()
    if not f.primary_key and f.name not in ("owner", "created_at", "updated_at")
)
_saved_values = operator.attrgetter(*SAVED_FIELDS)
# Of them, those holding lists and dicts (copied for change detection).
JSON_FIELDS = tuple(
    name for name in SAVED_FIELDS if _COLUMNS[name].get_internal_type() == "JSONField"
)

# The session a socket's command runs under (docs/interfaces.md §4, 4401).
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


def game(game_id: int, *, locked: bool = False) -> Game:
    """``Game.objects.get(pk=game_id)``, its SQL built once; ``locked``:
    ``select_for_update()``, inside ``transaction.atomic()``.
    ``Game.DoesNotExist`` if there is none."""
    read = _read(connection.alias, connection.vendor, locked)
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    loaded = orm.load(Game, read, row, connection)
    remember(loaded)
    return loaded


# Kept: the ORM's SELECT of the row's 40-odd columns, built anew for every
# command, was a third of a command's CPU (bench/README.md, "issue 29").
@cache
def _read(alias: str, vendor: str, locked: bool) -> orm.CompiledRead:
    """The ORM's own statement, columns and converters, built once per connection kind."""
    rows = Game.objects.select_for_update() if locked else Game.objects.all()
    return orm.compile_read(rows.filter(pk=0), connection)


def remember(game: Game) -> None:
    """Keep ``game``'s values as they are stored now: ``update`` writes only
    the columns changed since."""
    game.loaded_values = _values(game)


def _values(game: Game) -> dict[str, Any]:
    # JSON values are copied so a change made in place is still seen.
    values = dict(zip(SAVED_FIELDS, _saved_values(game), strict=True))
    for name in JSON_FIELDS:
        values[name] = copy(values[name])
    return values


def copy(value: Any) -> Any:
    """A JSON value's copy: lists, dicts and scalars only, copied without
    deepcopy's memo (which was a fifth of a step's CPU)."""
    if type(value) is list:
        return [copy(item) for item in value]
    if type(value) is dict:
        return {key: copy(item) for key, item in value.items()}
    return value


def update(game: Game, attnames: list[str] | None = None, *, at_version: int | None = None) -> bool:
    """``game.save(update_fields=attnames)``, its SQL built once; ``attnames``
    None: the columns changed since ``remember`` and ``updated_at`` (kept: a
    command changes two or three, and the full UPDATE was a third of a step's
    server time). With ``at_version``: only if the row is still at that
    version and ``game.updated_at`` (False if not); without it the row must
    exist (its lock is held)."""
    if attnames is None:
        values, loaded = _values(game), game.loaded_values or {}
        attnames = [n for n, v in values.items() if n not in loaded or loaded[n] != v]
        attnames.append("updated_at")
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
        key = (connection.alias, connection.vendor, tuple(attnames))
        cursor.execute(_write(*key, at_version is not None, session is not None), params + where)
        changed = cursor.rowcount
    if at_version is None and changed != 1:
        if session is not None:  # the row is locked and there: the session is gone
            raise SessionEndedError(f"game {game.pk}: session ended before the write")
        raise DatabaseError(f"game {game.pk}: the update changed {changed} rows")
    if changed and game.loaded_values is not None:  # those columns are stored now
        values = _values(game)
        game.loaded_values.update({name: values[name] for name in attnames if name in values})
    return bool(changed == 1)


# Kept: the ORM's UPDATE built anew cost a command more than its read
# (bench/README.md, "issue 29").
@cache
def _write(
    alias: str, vendor: str, names: tuple[str, ...], conditional: bool, guarded: bool
) -> str:
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
    return sql
