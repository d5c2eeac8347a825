"""runtime.checkpoint on SQLite: the sockets' thread leaves checkpoints of the
write-ahead log to a thread of its own, which keeps the log short (issue 16)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection

from runtime import checkpoint, dbthreads

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _sqlite_only() -> Iterator[None]:
    if connection.vendor != "sqlite":
        pytest.skip("the write-ahead log and its checkpoints are SQLite's")
    yield
    dbthreads.close()
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS guard_pages")


def on_pool(fn: Callable[[], Any]) -> Any:
    return asyncio.run(dbthreads.run(fn))


def write(rows: int) -> None:
    """``rows`` commits, each on a page of its own (a few KB of log each)."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS guard_pages (id INTEGER PRIMARY KEY, blob TEXT)")
        for _ in range(rows):
            cursor.execute("INSERT INTO guard_pages (blob) VALUES (%s)", ["x" * 3000])


def log_pages() -> tuple[int, int]:
    """(pages in the log, of them copied into the database), changing nothing."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        _busy, frames, copied = cursor.fetchone()
    return frames, copied


def autocheckpoint() -> int:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        return int(cursor.fetchone()[0])


def test_the_pool_thread_does_not_checkpoint_and_other_connections_still_do() -> None:
    on_pool(autocheckpoint)  # the call that opens the connection tells it at its end
    assert on_pool(autocheckpoint) == 0
    assert autocheckpoint() == 1000  # requests, tasks: SQLite's default, a backstop


def test_the_checkpointer_keeps_the_pool_threads_log_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(checkpoint, "CHECKPOINT_SECONDS", 0.02)
    monkeypatch.setattr(checkpoint, "WAL_RESTART_FRAMES", 20)
    on_pool(lambda: write(60))  # no one else commits, so only the checkpointer copies
    time.sleep(0.5)
    on_pool(lambda: write(1))
    assert log_pages()[0] < 10  # started over: the checkpointer copied the 60 and restarted


@pytest.mark.parametrize("restart_past", [20, 10**6])
def test_a_checkpoint_copies_the_whole_log(
    monkeypatch: pytest.MonkeyPatch, restart_past: int
) -> None:
    monkeypatch.setattr(checkpoint, "WAL_RESTART_FRAMES", restart_past)
    write(60)
    frames, copied = checkpoint.checkpoint()
    assert frames >= 60 and copied == frames
    write(1)  # with the whole log copied, the next commit writes from its start
    assert log_pages()[0] < 10
