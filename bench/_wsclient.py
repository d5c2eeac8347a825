"""A minimal RFC 6455 client (text frames, pong, close) on asyncio streams.

bench/live.py drives the echo and the game sockets with it, so its own cost
is in both figures alike.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
from typing import Any

HOST = "127.0.0.1"


class Socket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        # With start_reader, frames are read as they come (a close is seen
        # at once, as a browser sees it) and recv takes them from here.
        self.inbox: asyncio.Queue[str | BaseException] | None = None
        self.reading: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, port: int, path: str, cookie: str = "") -> Socket:
        reader, writer = await asyncio.open_connection(HOST, port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {HOST}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: http://{HOST}:{port}",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except BaseException:
            writer.close()
            raise
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            writer.close()
            raise ConnectionError(head.decode(errors="replace"))
        return cls(reader, writer)

    def send(self, payload: dict[str, Any] | str) -> None:
        self._frame(0x1, (payload if isinstance(payload, str) else json.dumps(payload)).encode())

    def _frame(self, opcode: int, data: bytes) -> None:
        n = len(data)
        head = bytearray([0x80 | opcode])
        if n < 126:
            head.append(0x80 | n)
        elif n < 65536:
            head.append(0x80 | 126)
            head += n.to_bytes(2, "big")
        else:
            head.append(0x80 | 127)
            head += n.to_bytes(8, "big")
        mask = os.urandom(4)
        key = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
        self.writer.write(bytes(head) + mask + masked)

    def start_reader(self) -> None:
        self.inbox = asyncio.Queue()
        self.reading = asyncio.create_task(self._read_all())

    async def _read_all(self) -> None:
        assert self.inbox is not None
        try:
            while True:
                self.inbox.put_nowait(await self._read_frame())
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 - handed to the reader of the inbox
            self.inbox.put_nowait(exc)

    async def recv(self) -> str:
        if self.inbox is None:
            return await self._read_frame()
        item = await self.inbox.get()
        if isinstance(item, BaseException):
            self.inbox.put_nowait(item)  # every later recv fails the same way
            raise item
        return item

    async def idle(self, seconds: float) -> None:
        """Wait ``seconds``, reading (and dropping) what arrives; raise if the socket closes."""
        assert self.inbox is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (remaining := deadline - loop.time()) > 0:
            try:
                item = await asyncio.wait_for(self.inbox.get(), remaining)
            except TimeoutError:
                return
            if isinstance(item, BaseException):
                self.inbox.put_nowait(item)
                raise item

    async def _read_frame(self) -> str:
        while True:
            b0, b1 = await self.reader.readexactly(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(await self.reader.readexactly(2), "big")
            elif n == 127:
                n = int.from_bytes(await self.reader.readexactly(8), "big")
            data = await self.reader.readexactly(n)
            opcode = b0 & 0x0F
            if opcode == 0x9:  # ping: daphne pings idle sockets
                self._frame(0xA, data)
            elif opcode == 0x8:
                raise ConnectionError(f"closed by the server: {data[:2].hex()}")
            elif opcode == 0x1:
                return data.decode()

    async def recv_json(self) -> dict[str, Any]:
        return json.loads(await self.recv())  # type: ignore[no-any-return]

    async def close(self) -> None:
        if self.reading is not None:
            self.reading.cancel()
        try:
            self._frame(0x8, (1000).to_bytes(2, "big"))
            await self.writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.writer.close()

    def abort(self) -> None:
        if self.reading is not None:
            self.reading.cancel()
        self.writer.close()
