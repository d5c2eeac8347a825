"""Threads that run the game sockets' database work off the event loop.

Channels' ``database_sync_to_async`` runs every call on one shared thread,
so with PostgreSQL, where a command is mostly waiting on round trips and the
commit, 200 games queue behind each other (bench/live.py: p50 331 ms). Here
the socket's database calls run on a small pool, one connection per thread.
SQLite takes one writer at a time, so there the pool has a single thread and
behaves as before.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.db import close_old_connections, connection, connections

T = TypeVar("T")

# Enough to keep PostgreSQL busy from one web process without crowding it.
POSTGRES_THREADS = 4

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            size = 1 if connection.vendor == "sqlite" else POSTGRES_THREADS
            _pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="game-db")
        return _pool


def _call(fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    # As channels' database_sync_to_async does around each call.
    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on the pool, awaited from the event loop."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor(), _call, fn, args)


def close() -> None:
    """Close every pool thread's connection and stop the pool.

    For shutdown and the end of a test session (PostgreSQL will not drop a
    database that a connection still holds).
    """
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        shut_down(pool)


def shut_down(pool: ThreadPoolExecutor) -> None:
    """Close the database connection of each of ``pool``'s threads, then stop it."""
    workers = pool._max_workers
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
