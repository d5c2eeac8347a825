"""The game sockets' database work, off the event loop, on threads that keep
their connections.

A fixed ``ThreadPoolExecutor``, not Channels' ``database_sync_to_async``, whose
one shared thread queued 200 PostgreSQL games behind each other (bench/live.py:
p50 331 ms): one thread on SQLite (one writer), up to ``POSTGRES_THREADS`` on
PostgreSQL, half the psycopg pool at most (requests and tasks share the rest).

Each thread keeps its connection between calls (``kept``): taken from the pool
each call, its check cost a round trip, more than a command's row read
(bench/live.py). It is dropped when it failed, is older than ``HOLD_SECONDS``,
or the server hung up on it while idle (a restart).
"""

from __future__ import annotations

import asyncio
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, connection, connections

from runtime import checkpoint

T = TypeVar("T")

# Enough to keep PostgreSQL busy from one web process without crowding it.
POSTGRES_THREADS = 4
# A thread's connection is given back to the pool and taken again this often.
HOLD_SECONDS = 60

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_size = 0
_checkpointer: checkpoint.Checkpointer | None = None


class _Held(threading.local):
    close_at: float | None = None


_held = _Held()


def threads() -> int:
    """One on SQLite; on PostgreSQL up to ``POSTGRES_THREADS``, half the pool at most."""
    if connection.vendor == "sqlite":
        return 1
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    size = pool.get("max_size") if isinstance(pool, dict) else None
    return POSTGRES_THREADS if size is None else max(1, min(POSTGRES_THREADS, size // 2))


def _executor() -> ThreadPoolExecutor:
    global _pool, _size, _checkpointer
    with _lock:
        if _pool is None:
            _size = threads()
            _pool = ThreadPoolExecutor(_size, thread_name_prefix="game-db")
            if connection.vendor == "sqlite":
                _checkpointer = checkpoint.Checkpointer()
                _checkpointer.start()
        return _pool


# The sockets' calls running or waiting for a thread (read by ``wait_quiet``).
_in_flight = 0


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on the sockets' threads, awaited from the event loop."""
    global _in_flight
    loop = asyncio.get_running_loop()
    _in_flight += 1  # on the event loop's thread only
    try:
        return await loop.run_in_executor(_pool or _executor(), _call, fn, args)
    finally:
        _in_flight -= 1


def wait_quiet(limit: float, pause: float = 0.005) -> None:
    """Wait until no socket's call is running or waiting, at most ``limit``
    seconds: work that may wait (a review) lets a person's command go first."""
    deadline = time.monotonic() + limit
    while _in_flight and time.monotonic() < deadline:
        time.sleep(pause)


def _call(fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    try:
        return kept(fn, *args)
    finally:
        checkpoint.leave_to_checkpointer()


def kept(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on this thread, its connection kept for the next call (the
    sockets' threads, a Celery worker child's computer turns); inside a
    transaction (a test's), the transaction's."""
    if connection.in_atomic_block:
        return fn(*args)
    close_old_connections()  # failed and not answering, or older than HOLD_SECONDS
    raw = connection.connection
    if raw is not None and _hung_up(raw):
        connection.close()
    try:
        return fn(*args)
    finally:
        _hold()
        close_old_connections()


def _hold() -> None:
    """Keep a connection this call opened for ``HOLD_SECONDS``, not this call alone."""
    # Django's connect() sets close_at (CONN_MAX_AGE: 0 with the pool, so at
    # the end of the call): one that is not the value set here is new.
    close_at = connection.close_at
    if connection.connection is None or close_at is None or close_at == _held.close_at:
        return
    _held.close_at = connection.close_at = max(close_at, time.monotonic() + HOLD_SECONDS)


def _hung_up(raw: Any) -> bool:
    """The server sent something to an idle connection, which asks and LISTENs
    to nothing between calls: its goodbye (or EOF). A poll, not a round trip."""
    pgconn = getattr(raw, "pgconn", None)
    if pgconn is None:
        return False  # SQLite's: no socket
    try:
        fd = pgconn.socket
    except Exception:  # psycopg: the connection is already closed
        return True
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def shut_down(pool: ThreadPoolExecutor, workers: int) -> None:
    """Close the database connection of each of ``pool``'s ``workers`` threads,
    then stop it (PostgreSQL will not drop a database a connection still holds)."""
    # The barrier holds each close job until all are running, so each one
    # lands on its own thread and closes that thread's connection.
    barrier = threading.Barrier(workers)

    def close_here() -> None:
        try:
            barrier.wait(timeout=5)
        except threading.BrokenBarrierError:
            pass
        connections.close_all()

    for _ in range(workers):
        pool.submit(close_here)
    pool.shutdown(wait=True)


def close() -> None:
    """Stop the sockets' threads (and the checkpointer), their connections
    closed: for shutdown and the end of a test session."""
    global _pool, _checkpointer
    with _lock:
        pool, _pool = _pool, None
        checkpointer, _checkpointer = _checkpointer, None
    if pool is not None:
        shut_down(pool, _size)
    if checkpointer is not None:
        checkpointer.stop()
