"""Django's SQLite backend whose writers in one process queue on a lock.

SQLite lets one connection write at a time. A writer that finds the database
locked sleeps in SQLite's busy handler, 1, 2, 5, 10 ... 100 ms a try, however
soon the lock is given back: at 200 games in zero set-up, with the game
sockets', the computer's and the reviews' threads writing side by side, one
socket command in a hundred waited 10-330 ms that way, and every command
queued behind it on the sockets' thread with it (bench/README.md, "Stop 42").
Here a write transaction (``BEGIN IMMEDIATE``, committed or rolled back) and a
write outside one take a lock of the process first, and the next writer wakes
as soon as it is given back. Writers of other processes still meet SQLite's
own wait; one that holds the lock longer than the connection's ``timeout``
lets the next one go on to SQLite's wait, as before.

It overrides Django's ``_start_transaction_under_autocommit``, ``_commit``,
``_rollback`` and ``_close`` (runtime/internals.py);
tests/runtime/test_private_names.py fails when they change.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db.backends.sqlite3 import base

WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER"})

_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def writer_lock(name: str) -> threading.Lock:
    """The process's lock for the writers of database file ``name``."""
    with _locks_lock:
        return _locks.setdefault(str(name), threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._writing = False
        self.execute_wrappers.append(self._one_write)

    def _take(self) -> None:
        if self._writing:
            return
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        # Past the timeout, on to SQLite's own wait (and its "locked" error).
        self._writing = writer_lock(self.settings_dict["NAME"]).acquire(timeout=timeout)

    def _give(self) -> None:
        if self._writing:
            self._writing = False
            writer_lock(self.settings_dict["NAME"]).release()

    def _one_write(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        verb = sql.lstrip()[:7].split(" ")[0].upper()
        if self._writing or self.in_atomic_block or verb not in WRITES:
            return execute(sql, params, many, context)
        self._take()
        try:
            return execute(sql, params, many, context)
        finally:
            self._give()

    def _start_transaction_under_autocommit(self) -> None:
        self._take()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # not in django-stubs
        except BaseException:
            self._give()
            raise

    def _commit(self) -> Any:
        try:
            return super()._commit()  # type: ignore[misc]  # not in django-stubs
        finally:
            self._give()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()  # type: ignore[misc]  # not in django-stubs
        finally:
            self._give()

    def _close(self) -> Any:
        try:
            return super()._close()  # type: ignore[misc]  # not in django-stubs
        finally:
            self._give()
