"""A bare WebSocket client over a plain TCP socket, for clients that
misbehave on purpose: never read, or send frames over the server's limit."""

from __future__ import annotations

import base64
import os
import socket
import struct
from urllib.parse import urlsplit


def open_raw(url: str, path: str, cookie: str, receive_buffer: int | None = None) -> socket.socket:
    """Connect and finish the opening handshake; the socket is then left alone."""
    parts = urlsplit(url)
    sock = socket.socket()
    if receive_buffer is not None:  # before connect, so the window stays small
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(10)
    sock.connect((parts.hostname or "127.0.0.1", parts.port or 80))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {url}\r\nCookie: {cookie}\r\n\r\n"
    )
    sock.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        head += chunk
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise ConnectionError(head.decode(errors="replace"))
    return sock


def frame(text: str | bytes) -> bytes:
    """One masked text frame, as a client must send it."""
    payload = text.encode() if isinstance(text, str) else text
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x81, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x81, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x81, 0x80 | 127, length)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


def read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """(opcode, payload) of the next server frame (unmasked)."""
    first, second = _exactly(sock, 2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", _exactly(sock, 2))
    elif length == 127:
        (length,) = struct.unpack("!Q", _exactly(sock, 8))
    return first & 0x0F, _exactly(sock, length)


def _exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise LookupError("no VmRSS")
