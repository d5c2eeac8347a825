"""A new row's INSERT, built once per model: the Turn every finished turn stores.

``Model.objects.create`` builds its INSERT anew on every call; for a
computer turn that building was a tenth of the worker's CPU
(bench/live.py --replies). Here the statement is written once per model
and connection from the model's own fields, and each row's values go
through the fields' own ``pre_save`` and ``get_db_prep_save``, as a
``save`` does: the same code on SQLite and PostgreSQL. The row's id is not
read back (nothing that stores a turn reads it), and no ``post_save`` is
sent (the models inserted here have no receivers).
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import Field, Model

_inserts: dict[tuple[str, str, type[Model]], tuple[str, list[Field[Any, Any]]]] = {}


def insert(row: Model) -> None:
    """``row.save()`` of a new ``row`` (its id left unset), the SQL built once."""
    sql, fields = _insert(type(row))
    params = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    row._state.adding = False
    row._state.db = connection.alias


def _insert(model: type[Model]) -> tuple[str, list[Field[Any, Any]]]:
    key = (connection.alias, connection.vendor, model)
    built = _inserts.get(key)
    if built is None:
        assert model._meta.auto_field is not None, "the id is the database's to give"
        quote = connection.ops.quote_name
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        columns = ", ".join(quote(f.column) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
        built = _inserts[key] = (sql, fields)
    return built
