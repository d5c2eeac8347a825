"""A bound on the replies a game socket may leave unread.

daphne (Twisted) keeps every frame the site sends in the connection's write
buffer until the client reads it. A client that sends commands but never
reads grew that buffer, and the process, without end (issue 13); daphne
restarts its ping clock on every received frame, so it never noticed. ASGI
gives the application no view of that buffer, so ``install`` wraps daphne's
``WebSocketProtocol.serverSend``: before a frame is queued, the bytes still
unsent are counted (Twisted's buffer and the kernel's send queue, which
would otherwise hold megabytes first), and a connection over
``SOCKET_MAX_UNSENT_BYTES`` is dropped.
"""

from __future__ import annotations

import fcntl
import logging
import struct
import termios
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


def unsent_bytes(transport: Any) -> int:
    """Bytes a Twisted transport holds that the peer has not taken yet."""
    data = getattr(transport, "dataBuffer", b"")
    offset = int(getattr(transport, "offset", 0))
    pending = int(getattr(transport, "_tempDataLen", 0))
    return len(data) - offset + pending + _kernel_unsent(transport)


def _kernel_unsent(transport: Any) -> int:
    """Bytes in the socket's kernel send queue the peer has not acknowledged."""
    try:
        queued = fcntl.ioctl(transport.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except (AttributeError, OSError, ValueError):
        return 0
    return int(struct.unpack("i", queued)[0])


def install() -> None:
    """Wrap daphne's send once per process (a no-op without daphne)."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # pragma: no cover - daphne is a dependency
        return
    original = WebSocketProtocol.serverSend
    if getattr(original, "bounded", False):
        return

    def server_send(self: Any, content: Any, binary: bool = False) -> None:
        unsent = unsent_bytes(self.transport)
        if unsent > settings.SOCKET_MAX_UNSENT_BYTES:
            if not getattr(self, "dropped_unread", False):
                self.dropped_unread = True
                log.warning(
                    "dropping WebSocket %s: %d bytes of replies unread", self.client_addr, unsent
                )
                self.dropConnection(abort=True)
            return
        original(self, content, binary)

    server_send.bounded = True  # type: ignore[attr-defined]
    WebSocketProtocol.serverSend = server_send
    _write_through()


def _write_through() -> None:
    """Twisted's accepted connections send at once when nothing waits before.

    Twisted's ``write`` only buffers, registers the socket with the event
    loop for writing and sends on the loop's next turn, then unregisters it:
    for every frame the site sends, two changes of the loop's interest and
    one more event to dispatch. Sent here when its buffer is empty (so the
    order of bytes is kept), the rest, if the kernel took only part, is
    buffered as before; an error leaves the frame to Twisted's own path,
    which reports the lost connection. TCP_NODELAY is on (autobahn sets it),
    so frames sent one by one are not held back by Nagle's algorithm.
    """
    from twisted.internet import tcp

    original: Any = tcp.Server.write
    if getattr(original, "through", False):
        return

    def write(self: Any, data: bytes) -> None:
        if (
            self.connected
            and not self.disconnecting
            and not self._writeDisconnected
            and not self._tempDataLen
            and self.offset == len(self.dataBuffer)
            and type(data) is bytes
        ):
            sent = self.writeSomeData(data)
            if isinstance(sent, int):
                if sent == len(data):
                    return
                data = data[sent:]
        original(self, data)

    write.through = True  # type: ignore[attr-defined]
    tcp.Server.write = write  # type: ignore[method-assign]
