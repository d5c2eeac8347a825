"""Row-level helpers for the storage tests: the SQL a connection ran, commands
as another web process runs them, a database session ended as a restart does."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection

from games.services import rows


@contextmanager
def executed() -> Iterator[list[str]]:
    """Each statement's SQL as run on the connection. (Django's own query log
    has None for a statement psycopg ran prepared: rowsql's on PostgreSQL.)"""
    seen: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


@contextmanager
def another_process() -> Iterator[None]:
    """Commands run as another web process's: this one's held rows out of their sight."""
    mine = rows._held
    rows._held = {}
    try:
        yield
    finally:
        rows._held = mine


def end_backend(backend: int) -> None:
    """The server ends that connection's session, as a restart does; back once it is gone."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [backend])
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.05)
