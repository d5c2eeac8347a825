"""The game row's write stays in place on PostgreSQL (issue 16): no column a
step or undo writes is in an index, so the update is a heap-only tuple; and
its statements run prepared (config/settings.py's OPTIONS)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Game, Status
from runtime import dbthreads
from tests.runtime.fixtures_connections import end_backend

pytestmark = pytest.mark.django_db


@contextmanager
def executed() -> Iterator[list[str]]:
    """Each statement's SQL as run on the connection."""
    seen: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


def indexed_columns() -> set[str]:
    """Every column in an index of the game table, as the database has them."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Game._meta.db_table)
    return {
        column for c in constraints.values() if c["index"] or c["unique"] for column in c["columns"]
    }


def test_no_column_a_step_or_undo_writes_is_indexed(make_game: Any, user: Any) -> None:
    game = make_game(status=Status.OPENING, dice=[5, 2])
    with executed() as queries:
        services.make_step(game.pk, user, 1, 13, 8)
        services.undo_step(game.pk, user, 2)
    updates = [sql for sql in queries if sql.lstrip().upper().startswith("UPDATE")]
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


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_row_statements_run_prepared_and_again_on_a_new_connection(
    make_game: Any, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    monkeypatch.setattr(dbthreads, "POSTGRES_THREADS", 1)
    game = make_game(dice=[5, 2])

    def play(version: int) -> tuple[list[str], int]:
        """On the pool's thread, as a socket's command: a step and its undo;
        then what this connection has prepared, and its backend."""
        services.make_step(game.pk, user, version, 13, 8)
        services.undo_step(game.pk, user, version + 1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row[0] for row in cursor.fetchall()]
            cursor.execute("SELECT pg_backend_pid()")
            return prepared, cursor.fetchone()[0]

    def on_pool(version: int) -> tuple[list[str], int]:
        return asyncio.run(dbthreads.run(play, version))

    on_pool(1)
    prepared, backend = on_pool(3)
    assert any(sql.startswith('UPDATE "games_game" SET') for sql in prepared)
    end_backend(backend)
    on_pool(5)  # on a new connection: its statements prepared anew, not missing
    prepared, again = on_pool(7)
    assert again != backend
    assert any(sql.startswith('UPDATE "games_game" SET') for sql in prepared)
    assert Game.objects.get(pk=game.pk).version == 9
