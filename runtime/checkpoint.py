"""SQLite's write-ahead log checkpointed on a thread of its own.

SQLite checkpoints in whichever commit passes 1,000 pages of log: the
sockets' one database thread, about once a second, 10-15 ms (up to 56 ms)
with every command queued behind it. That thread leaves it to the
``Checkpointer`` (``leave_to_checkpointer``): PASSIVE four times a second,
and past ``WAL_RESTART_FRAMES`` a RESTART (1-3 ms), since under a steady
stream of commits a lock-free checkpoint never gets the log started over.
What a commit guarantees is unchanged (``synchronous`` as configured).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import connection, connections

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 0.25
WAL_RESTART_FRAMES = 2000


class _Quiet(threading.local):
    # The SQLite connection of this thread told not to checkpoint.
    connection: Any = None


_quiet = _Quiet()


def leave_to_checkpointer() -> None:
    """This thread's SQLite connection leaves checkpoints to the ``Checkpointer``
    (from the end of the call that opened it); nothing on PostgreSQL."""
    if connection.vendor != "sqlite":
        return
    if connection.connection is not None and _quiet.connection is not connection.connection:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint = 0")
        _quiet.connection = connection.connection


class Checkpointer(threading.Thread):
    def __init__(self) -> None:
        super().__init__(name="game-db-checkpoint", daemon=True)
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.wait(CHECKPOINT_SECONDS):
                try:
                    with connection.cursor() as cursor:
                        # Waiting on no one: a RESTART that would have to wait
                        # copies what it can and returns, instead of holding
                        # every writer off while it waits.
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
    Returns (the log's pages, of them copied) before any restart."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        _busy, frames, copied = cursor.fetchone()
        if frames > WAL_RESTART_FRAMES:
            cursor.execute("PRAGMA wal_checkpoint(RESTART)")
    return frames, copied
