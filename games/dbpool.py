"""Threads that run the game sockets' database work off the event loop.

Channels' ``database_sync_to_async`` runs every call on one shared thread,
so with PostgreSQL, where a command is mostly waiting on round trips and the
commit, 200 games queue behind each other (bench/live.py: p50 331 ms). Here
the socket's database calls run on a small pool, one connection per thread.
SQLite takes one writer at a time, so there the pool has a single thread and
behaves as before.

Each thread keeps its connection from one call to the next (on PostgreSQL,
borrowed from the process's psycopg pool and held): giving it back after
every call and taking one again, checked with a round trip, cost a command
more than its own row read (bench/live.py, "Live play"). A held connection
is dropped when it failed and no longer answers (Django's ``errors_occurred``
then ``is_usable``), when it is older than ``HOLD_SECONDS``, or when the
server has hung up on it while it was idle (a restart: its socket reads as
ready with nothing asked), so the next call takes a fresh one from the pool.
The threads hold at most half of the pool (``DB_POOL_SIZE``): requests and
channels' own lookups share the rest.
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

T = TypeVar("T")

# Enough to keep PostgreSQL busy from one web process without crowding it.
POSTGRES_THREADS = 4
# A thread's connection is given back to the pool and taken again this often.
HOLD_SECONDS = 60

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


class _Held(threading.local):
    close_at: float | None = None


_held = _Held()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="game-db")
        return _pool


def threads() -> int:
    """One on SQLite; on PostgreSQL up to ``POSTGRES_THREADS``, half the pool at most."""
    if connection.vendor == "sqlite":
        return 1
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    size = pool.get("max_size") if isinstance(pool, dict) else None
    return POSTGRES_THREADS if size is None else max(1, min(POSTGRES_THREADS, size // 2))


def _call(fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    # As channels' database_sync_to_async does around each call, except that
    # a connection still fit for use is kept (the module's docstring).
    _drop_unfit()
    try:
        return fn(*args)
    finally:
        _hold()
        close_old_connections()


def _drop_unfit() -> None:
    close_old_connections()  # failed and not answering, or older than HOLD_SECONDS
    raw = connection.connection
    if raw is not None and _hung_up(raw):
        connection.close()


def _hold() -> None:
    """Keep a connection this call opened for ``HOLD_SECONDS``, not this call alone."""
    # Django's connect() sets close_at (CONN_MAX_AGE: 0 with the pool, so at
    # the end of the call): one that is not the value set here is new.
    close_at = connection.close_at
    if connection.connection is None or close_at is None or close_at == _held.close_at:
        return
    _held.close_at = connection.close_at = max(close_at, time.monotonic() + HOLD_SECONDS)


def _hung_up(raw: Any) -> bool:
    """The server sent something to an idle connection: its goodbye (or EOF).

    Nothing is asked between calls and these connections LISTEN to nothing,
    so a readable socket means the server ended the session. A poll, not a
    round trip; SQLite's connection has no socket.
    """
    pgconn = getattr(raw, "pgconn", None)
    if pgconn is None:
        return False
    try:
        fd = pgconn.socket
    except Exception:  # psycopg: the connection is already closed
        return True
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


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
