"""Row-level helpers for the storage tests: commands as another web process
runs them, out of sight of this one's held rows."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from games.services import rows


@contextmanager
def another_process() -> Iterator[None]:
    """Commands run as another web process's: this one's held rows out of their sight."""
    mine = rows._held
    rows._held = {}
    try:
        yield
    finally:
        rows._held = mine
