"""The libraries' private parts runtime/ reads or overrides are still there,
as checked (each use in runtime/ names its versions): when a library
changes them, this fails rather than the site quietly losing what they
gave it."""

from __future__ import annotations

import asyncio
import inspect
import socket
from typing import Any

from channels.layers import InMemoryChannelLayer as ChannelsLayer
from daphne.ws_protocol import WebSocketProtocol
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper
from twisted.internet import abstract

from runtime import serve
from runtime.layers import InMemoryChannelLayer


def test_twisted_keeps_a_transports_unsent_bytes_where_unsent_bytes_reads_them() -> None:
    assert serve.TWISTED_BUFFER == ("dataBuffer", "offset", "_tempDataLen")
    for name in ("dataBuffer", "offset"):
        assert hasattr(abstract.FileDescriptor, name)
    source = inspect.getsource(abstract.FileDescriptor)
    assert "self._tempDataLen = 0" in source
    assert "len(self.dataBuffer) - self.offset" in source


class Transport:
    """A Twisted transport's buffer as FileDescriptor keeps it, on a real socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.dataBuffer, self.offset, self._tempDataLen = b"x" * 700, 200, 50

    def fileno(self) -> int:
        return self.sock.fileno()


def test_unsent_bytes_counts_twisteds_buffer_and_the_kernels_queue() -> None:
    here, there = socket.socketpair()
    try:
        transport = Transport(here)
        assert serve.unsent_bytes(transport) == 550
        here.send(b"y" * 1000)  # the peer reads none of it
        assert serve.unsent_bytes(transport) >= 550
    finally:
        here.close()
        there.close()


def test_daphnes_send_is_the_one_bound_unread_wraps() -> None:
    params = list(inspect.signature(WebSocketProtocol.serverSend).parameters)
    assert params == ["self", "content", "binary"]
    serve.bound_unread()
    serve.bound_unread()  # once per process
    assert getattr(WebSocketProtocol.serverSend, "bounded", False)


def test_channels_in_memory_layer_has_the_parts_runtime_layers_overrides() -> None:
    assert list(inspect.signature(ChannelsLayer._clean_expired).parameters) == ["self"]
    layer = ChannelsLayer()
    assert layer.channels == {} and layer.groups == {}
    assert isinstance(layer.expiry, int | float)


def test_the_in_memory_layer_delivers_to_every_member_but_the_sender() -> None:
    async def main() -> list[Any]:
        layer = InMemoryChannelLayer()
        a, b = await layer.new_channel(), await layer.new_channel()
        for name in (a, b):
            await layer.group_add("g", name)
        await layer.group_send("g", {"type": "x", "n": 1, "sender": a})
        await layer.group_send("g", {"type": "x", "n": 2})
        got_b = [await layer.receive(b), await layer.receive(b)]
        return [await layer.receive(a), *got_b]

    first_a, *for_b = asyncio.run(main())
    assert first_a["n"] == 2  # its own command's state was not queued for it
    assert [m["n"] for m in for_b] == [1, 2]


def test_djangos_sqlite_backend_has_the_transaction_steps_runtime_sqlite_overrides() -> None:
    for name in ("_start_transaction_under_autocommit", "_commit", "_rollback", "_close"):
        assert list(inspect.signature(getattr(SQLiteWrapper, name)).parameters) == ["self"], name
    assert 'f"BEGIN {self.transaction_mode}"' in inspect.getsource(
        SQLiteWrapper._start_transaction_under_autocommit
    )
    assert "execute_wrappers" in inspect.getsource(BaseDatabaseWrapper.__init__)
