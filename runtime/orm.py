"""Django's ORM below its public face, for the game row's one storage seam
(``games.services.store``, ``games.services.rows``).

- ``compile_read``: the ORM's own SELECT of a queryset, its columns and its
  converters, built once and kept: the SELECT of the game row's 40-odd
  columns, built anew for every command, was a third of a command's CPU
  (bench/README.md, "issue 29"). ``load`` runs the converters and
  ``Model.from_db`` on a row read with that SQL.
- ``detached``: a copy of an instance with a ``ModelState`` of its own, so
  it shares no related instance cached on the original (the held row,
  ``games.services.rows``).

The SQL compiler (``query.get_compiler``, ``as_sql``, ``select``,
``get_converters``) and ``ModelState`` are Django's internals
(runtime/internals.py); tests/runtime/test_orm.py fails when they change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from django.db.models.base import ModelState

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class CompiledRead:
    """A queryset's SELECT as the ORM builds it: its SQL (with its
    parameters' placeholders), the attribute of each column, and the
    converters of those that have any (position, converters, expression)."""

    sql: str
    attnames: list[str]
    converters: list[tuple[int, list[Any], Any]]


def compile_read(rows: QuerySet[Any], connection: Any) -> CompiledRead:
    """``rows``' SELECT on ``connection``'s database, as the ORM would run it."""
    compiler = rows.query.get_compiler(connection=connection)
    sql, _params = compiler.as_sql()
    columns = [col for col, _sql, _alias in compiler.select]
    converters = compiler.get_converters(columns)
    return CompiledRead(
        sql,
        [col.target.attname for col in columns],
        [(pos, convs, expr) for pos, (convs, expr) in converters.items()],
    )


def load(model: type[M], read: CompiledRead, row: Sequence[Any], connection: Any) -> M:
    """The instance of ``model`` a row read with ``read.sql`` holds, its values
    converted as the ORM converts them."""
    values = list(row)
    for pos, converters, expression in read.converters:
        for convert in converters:
            values[pos] = convert(values[pos], expression, connection)
    return model.from_db(connection.alias, read.attnames, values)


def detached(instance: M) -> M:
    """A copy of ``instance`` (its ``__dict__`` copied, not its values), saved
    in the same database, with no related instance cached."""
    copy = type(instance).__new__(type(instance))
    copy.__dict__.update(instance.__dict__)
    copy._state = ModelState()
    copy._state.adding, copy._state.db = False, instance._state.db
    return copy
