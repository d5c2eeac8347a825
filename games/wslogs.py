"""autobahn's debug lines, formatted only when one is written.

autobahn (daphne's WebSocket layer) builds the arguments of its debug log
calls before making them: a pretty-printed dump of its thirty options for
every new connection, coloured names (through click) for every frame sent
and, in its Twisted adapter, every read from a socket (about 30 us each),
with debug logging off as much as on. That was a tenth of the CPU of a
socket's connecting and a few per cent of each command's (bench/live.py
--profile). ``install`` makes those helpers return objects that format
themselves when a line is written: the same text when debug logging is on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Lazy:
    """``fn(*args)``, formatted when first shown.

    >>> shown = []
    >>> lazy = Lazy(lambda x: shown.append(x) or f"<{x}>", 1)
    >>> shown
    []
    >>> f"{lazy} {lazy!s}"
    '<1> <1>'
    """

    __slots__ = ("args", "fn")

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.fn = fn
        self.args = args

    def __str__(self) -> str:
        return str(self.fn(*self.args))

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def lazily(fn: Callable[..., Any]) -> Callable[..., Lazy]:
    def deferred(*args: Any) -> Lazy:
        return Lazy(fn, *args)

    deferred.lazy = True  # type: ignore[attr-defined]
    return deferred


def install() -> None:
    """Once per process (a no-op without autobahn)."""
    try:
        from autobahn.twisted import websocket as twisted_imported
        from autobahn.websocket import protocol as imported
    except ImportError:  # pragma: no cover - daphne depends on it
        return
    protocol: Any = imported
    if getattr(protocol.hltype, "lazy", False):
        return
    pformat = protocol.pformat
    # Its one use that is not a log line's argument.
    protocol.Timings.__str__ = lambda self: pformat(self._timings)
    for name in ("pformat", "hltype", "hlval"):
        setattr(protocol, name, lazily(getattr(protocol, name)))
    # Each module imported the helpers by name: daphne's protocol calls both.
    for name in ("hltype", "hlval"):
        setattr(twisted_imported, name, getattr(protocol, name))
