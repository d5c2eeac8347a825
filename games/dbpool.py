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

On SQLite the pool's thread does not checkpoint the write-ahead log: a
thread of its own does (``Checkpointer``). SQLite checkpoints in whichever
connection's commit passes 1,000 pages of log, which with the sockets'
commands was the pool's thread about once a second, 10-15 ms each (up to
56 ms on this shared machine: two fsyncs) while every command queued
behind it. The checkpointer copies the log into the database without a
lock (PASSIVE) four times a second; past ``WAL_RESTART_FRAMES`` it also
asks for the log to start over (RESTART, which holds writers off for the
little copied since, 1-3 ms), since under a steady stream of commits a
lock-free checkpoint never finds the moment to. What a commit guarantees
is unchanged (``synchronous`` as configured); only who pays for the copy.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import select
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, connection, connections

T = TypeVar("T")
log = logging.getLogger(__name__)

# Enough to keep PostgreSQL busy from one web process without crowding it.
POSTGRES_THREADS = 4
# A thread's connection is given back to the pool and taken again this often.
HOLD_SECONDS = 60
# SQLite: the log is checkpointed this often, and started over past this many pages.
CHECKPOINT_SECONDS = 0.25
WAL_RESTART_FRAMES = 2000

_lock = threading.Lock()
_pool: Threads | None = None
_checkpointer: Checkpointer | None = None


class _Held(threading.local):
    close_at: float | None = None
    # The SQLite connection told not to checkpoint (``_no_autocheckpoint``).
    quiet: Any = None


_held = _Held()


def _executor() -> Threads:
    pool = _pool
    if pool is not None:  # every call but the first: no lock
        return pool
    return _start()


def _start() -> Threads:
    global _pool, _checkpointer
    with _lock:
        if _pool is None:
            _pool = Threads(threads())
            if connection.vendor == "sqlite":
                _checkpointer = Checkpointer()
                _checkpointer.start()
        return _pool


class _Hop(threading.local):
    # On a pool thread during a call: what to run on the caller's loop with
    # the call's result (``after_call``).
    after: list[tuple[Callable[..., Any], tuple[Any, ...]]] | None = None
    loop: asyncio.AbstractEventLoop | None = None


_hop = _Hop()


class Threads:
    """The pool: threads taking calls from one queue, each call's result (and
    what ``after_call`` gave it) handed to its event loop in one
    ``call_soon_threadsafe``.

    What ``loop.run_in_executor`` did with a ``ThreadPoolExecutor``, with less
    on the way (bench/live.py, "Live play"): there each call made a
    concurrent future (a condition and its lock), a work item, an asyncio
    future chained to it both ways, and took two locks and a semaphore; and a
    command's broadcast woke the loop once more (``run_coroutine_threadsafe``)
    just before its result did. A call whose caller gave up on it before it
    started is not run, as there.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.closed = False
        # Daemon threads: a process that exits drops the calls not yet run (a
        # command not acknowledged, which the page sends again).
        self.threads = [
            threading.Thread(target=self._work, name=f"game-db_{n}", daemon=True)
            for n in range(workers)
        ]
        for thread in self.threads:
            thread.start()

    def put(
        self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], fn: Any, args: Any
    ) -> None:
        if self.closed:  # as an executor shut down: no call waits for ever
            raise RuntimeError("the game sockets' database pool is closed")
        self.calls.put((loop, future, fn, args))

    def _work(self) -> None:
        while True:
            job = self.calls.get()
            if job is None:  # close(): this thread's connection, then its end
                connections.close_all()
                return
            loop, future, fn, args = job
            if future.cancelled():
                continue
            after: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
            _hop.after, _hop.loop = after, loop
            result = error = None
            try:
                result = _call(fn, args)
            except BaseException as exc:  # handed to the caller, as an executor does
                error = exc
            finally:
                _hop.after = _hop.loop = None
            try:
                loop.call_soon_threadsafe(_deliver, after, future, result, error)
            except RuntimeError:  # the loop is closed: no one is waiting
                pass
            del job, loop, future, fn, args, result, error, after

    def stop(self) -> None:
        """Close each thread's database connection and end the threads."""
        self.closed = True
        for _ in self.threads:
            self.calls.put(None)
        for thread in self.threads:
            thread.join()


def after_call(loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> bool:
    """Run ``fn(*args)`` on ``loop`` when this pool call's result is handed
    back there, just before it; False (nothing done) unless called from a
    pool call made from ``loop``. For what the call starts that need not wait
    for the call to end (a command's broadcast: the result follows at once)."""
    after = _hop.after
    if after is None or _hop.loop is not loop:
        return False
    after.append((fn, args))
    return True


def _deliver(
    after: list[tuple[Callable[..., Any], tuple[Any, ...]]],
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
) -> None:
    for fn, args in after:
        try:
            fn(*args)
        except Exception:
            log.exception("a pool call's follow-up failed")
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


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
    try:
        return kept(fn, *args)
    finally:
        if connection.vendor == "sqlite":
            _no_autocheckpoint()


def _drop_unfit() -> None:
    close_old_connections()  # failed and not answering, or older than HOLD_SECONDS
    raw = connection.connection
    if raw is not None and _hung_up(raw):
        connection.close()


def _no_autocheckpoint() -> None:
    """This thread's SQLite connection leaves checkpoints to the ``Checkpointer``
    (from the end of the call that opened it)."""
    if connection.connection is not None and _held.quiet is not connection.connection:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint = 0")
        _held.quiet = connection.connection


class Checkpointer(threading.Thread):
    """SQLite's log checkpointed on a thread of its own (the module's docstring)."""

    def __init__(self) -> None:
        super().__init__(name="game-db-checkpoint", daemon=True)
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.wait(CHECKPOINT_SECONDS):
                try:
                    with connection.cursor() as cursor:
                        # Waiting on no one: a RESTART that would have to wait
                        # (on a writer, or a reader of an old snapshot) copies
                        # what it can and returns, instead of holding every
                        # writer off while it waits.
                        cursor.execute("PRAGMA busy_timeout = 0")
                    checkpoint()
                except Exception:  # a locked or missing file: try again, connected anew
                    log.warning("checkpoint of the SQLite log failed", exc_info=True)
                    connection.close()
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.stopping.set()
        self.join()


def checkpoint() -> tuple[int, int]:
    """Copy the log into the database; start the log over when it is long.

    Returns (the log's pages, of them copied) before any restart.
    """
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        _busy, frames, copied = cursor.fetchone()
        if frames > WAL_RESTART_FRAMES:
            cursor.execute("PRAGMA wal_checkpoint(RESTART)")
    return frames, copied


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
    future: asyncio.Future[T] = loop.create_future()
    _executor().put(loop, future, fn, args)
    return await future


def close() -> None:
    """Close every pool thread's connection and stop the pool (and the checkpointer).

    For shutdown and the end of a test session (PostgreSQL will not drop a
    database that a connection still holds).
    """
    global _pool, _checkpointer
    with _lock:
        pool, _pool = _pool, None
        checkpointer, _checkpointer = _checkpointer, None
    if pool is not None:
        pool.stop()
    if checkpointer is not None:
        checkpointer.stop()


def kept(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on this thread, its connection kept for the next call as
    the pool's threads keep theirs: for threads and processes outside the
    pool that run one call after another (a Celery worker child's computer
    turns, the in-process task threads). Given back to the psycopg pool
    after every call, each call took it again with a round trip's check.
    Inside a transaction (a test's) the connection is the transaction's."""
    if connection.in_atomic_block:
        return fn(*args)
    _drop_unfit()
    try:
        return fn(*args)
    finally:
        _hold()
        close_old_connections()
