"""autobahn's debug-line helpers, made lazy by games.wslogs, still say the same."""

from __future__ import annotations

from pprint import pformat

from autobahn import util
from autobahn.twisted import websocket
from autobahn.websocket import protocol

from games import wslogs


def test_the_helpers_format_only_when_shown_and_say_the_same() -> None:
    wslogs.install()
    wslogs.install()  # once per process: a second call changes nothing
    assert isinstance(
        protocol.hltype(test_the_helpers_format_only_when_shown_and_say_the_same), wslogs.Lazy
    )
    assert str(protocol.hlval(42)) == util.hlval(42)
    # Twisted's adapter (every socket read) has its own names for them.
    assert isinstance(websocket.hltype(pformat), wslogs.Lazy)
    assert (
        f"{websocket.hltype(pformat)}|{websocket.hlval(7)}"
        == f"{util.hltype(pformat)}|{util.hlval(7)}"
    )
    assert f"{protocol.hltype(pformat)}" == util.hltype(pformat)
    assert str(protocol.pformat({"a": [1, 2]})) == pformat({"a": [1, 2]})
    timings = protocol.Timings()
    timings.track("x")
    assert str(timings) == pformat(timings._timings)
