"""The game row's write stays in place on PostgreSQL (issue 16): no column a
step or undo writes is in an index, so the update is a heap-only tuple."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Status

pytestmark = pytest.mark.django_db


def indexed_columns() -> set[str]:
    """Every column in an index of the game table, as the database has them."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Game._meta.db_table)
    return {
        column for c in constraints.values() if c["index"] or c["unique"] for column in c["columns"]
    }


def test_no_column_a_step_or_undo_writes_is_indexed(make_game: Any, user: Any) -> None:
    game = make_game(status=Status.OPENING, dice=[5, 2])
    with CaptureQueriesContext(connection) as queries:
        services.make_step(game.pk, user, 1, 13, 8)
        services.undo_step(game.pk, user, 2)
    updates = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]
    assert len(updates) == 2
    written = {
        f.column
        for f in Game._meta.concrete_fields
        if any(
            f"{connection.ops.quote_name(f.column)} = " in sql.split(" WHERE ")[0]
            for sql in updates
        )
    }
    assert {"steps", "version", "updated_at"} <= written
    assert not written & indexed_columns()
