"""The engine's memo tables, and how big a web process keeps them.

Each table is a ``functools.lru_cache`` whose entries are plays and positions:
dozens of objects an entry, every one walked by each full pass of the garbage
collector, which stops every thread of the process. A process that searches
(a Celery worker, an engine lane's child) keeps them at their full sizes; a
web process, which checks the steps of the games open on it, shrinks them
to its full sizes divided by ``ENGINE_MEMO_DIVISOR`` from the environment,
which its launcher sets (``runtime.serve``: an eighth): at 200 games in zero
set-up its full passes took up to 269 ms with full tables and 85 ms with an
eighth (bench/README.md, "Stop 42"). A search barely uses them (one entry a
ranking): an engine lane's child, which inherits the variable, searches as
fast with an eighth.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# (module, function name, full size) of every table.
_tables: list[tuple[str, str, int]] = []
LEAST = 64  # entries a table keeps however it is divided


def divisor() -> int:
    """``ENGINE_MEMO_DIVISOR`` (unset or empty: 1, the full sizes)."""
    value = os.environ.get("ENGINE_MEMO_DIVISOR", "")
    if not value:
        return 1
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"ENGINE_MEMO_DIVISOR must be a whole number >= 1, not {value!r}")
    return int(value)


def memo(maxsize: int) -> Callable[[F], F]:
    """``lru_cache(maxsize)`` divided by ``divisor()``, resizable by ``shrink``;
    the function must be called through its module's global name (as a
    recursive one is)."""

    def wrap(fn: F) -> F:
        _tables.append((fn.__module__, fn.__name__, maxsize))
        return lru_cache(maxsize=max(LEAST, maxsize // divisor()))(fn)  # type: ignore[return-value]

    return wrap


def shrink(by: int) -> None:
    """Every table at its full size divided by ``by`` (at least ``LEAST`` entries), emptied."""
    for module, name, size in _tables:
        full = getattr(sys.modules[module], name).__wrapped__
        setattr(sys.modules[module], name, lru_cache(maxsize=max(LEAST, size // by))(full))


def clear() -> None:
    """Empty every table (benches time a cold engine)."""
    for module, name, _size in _tables:
        getattr(sys.modules[module], name).cache_clear()


def sizes() -> dict[str, int | None]:
    """Each table's size now (for tests)."""
    return {
        f"{module}.{name}": getattr(sys.modules[module], name).cache_parameters()["maxsize"]
        for module, name, _size in _tables
    }
