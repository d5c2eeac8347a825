"""The production channel layer: channels_redis's pub/sub layer, a broadcast cheaper.

The wire is channels_redis's own (a PUBLISH of the msgpack'd message on the
group's channel), so any process running channels_redis's layer, or this one,
reads what the other sends. Two things change, both for the game's state
sent after every command (bench/live.py, py-spy of one daphne, 400 games x
1 s: the PUBLISH was a tenth of the process's CPU, three quarters of it
redis-py's pool, locks, retry wrapper and reply timeout, not the send):

- A PUBLISH goes out on one connection the shard keeps (``Publisher``),
  written at once and pipelined: its reply is read by one reader task and
  handed back in order, so a publish waits for its own reply (a send that
  failed is tried again by games.broadcast, on a fresh connection) without
  holding a lock over the round trip. A broken or silent connection fails
  every publish waiting on it and the next one connects again (a Redis
  restart: tests/faults/test_redis_restart.py).
- The process is subscribed to the group of every game it has a socket on,
  so its own PUBLISH comes back to it. A game's state sent on behalf of one
  socket's command names it (``sender``, games.broadcast.answered_by): that
  socket answers the command with that state itself, and the copy was
  decoded, queued, dispatched and dropped by version. The bytes published
  with a sender that is subscribed here are remembered; when they come back
  they go to the group's other sockets in this process and not the sender,
  undecoded. Other processes get every message as before.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any
from urllib.parse import unquote, urlsplit

from channels_redis.pubsub import RedisPubSubChannelLayer as ChannelsPubSubLayer
from channels_redis.pubsub import RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, decode_hosts

# Messages published with a sender whose copy has not come back yet; past
# this many (copies lost in a Redis restart) the oldest are forgotten, and
# such a copy, if it came, would reach its sender and be dropped by version.
OWN_COPIES = 1024
REPLY_TIMEOUT = 15.0  # seconds, as the connection's socket_timeout in settings


class RedisPubSubChannelLayer(ChannelsPubSubLayer):  # type: ignore[misc]  # untyped
    """channels_redis's layer with ``LoopLayer`` on each event loop."""

    # channels_redis reaches these through __getattr__ and a partial of a
    # proxy coroutine, each call: one frame fewer, every message.
    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._get_layer().group_send(group, message)

    async def receive(self, channel: str) -> dict[str, Any]:
        message: dict[str, Any] = await self._get_layer().receive(channel)
        return message

    def _get_layer(self) -> LoopLayer:
        loop = asyncio.get_running_loop()
        try:
            layer: LoopLayer = self._layers[loop]
        except KeyError:
            layer = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)  # as channels_redis: flushed when the loop closes
        return layer


class LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]  # untyped
    def __init__(self, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(hosts, **kwargs)
        self._shards = [Shard(host, self) for host in decode_hosts(hosts)]

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        group_channel = self._get_group_channel_name(group)
        shard: Shard = self._get_shard(group_channel)
        data = self.channel_layer.serialize(message)
        sender = message.get("sender")
        if sender is not None and sender in self.groups.get(group_channel, ()):
            shard.own_copy(data, sender)  # before the PUBLISH: its copy may come first
        await shard.publish(group_channel, data)


class Shard(RedisSingleShardConnection):  # type: ignore[misc]  # untyped
    def __init__(self, host: dict[str, Any], channel_layer: LoopLayer) -> None:
        super().__init__(host, channel_layer)
        self._publisher = Publisher.for_host(host)
        self._own: dict[bytes, str] = {}  # published bytes -> the sender left out

    def own_copy(self, data: bytes, sender: str) -> None:
        own = self._own
        own[data] = sender
        if len(own) > OWN_COPIES:
            del own[next(iter(own))]

    async def publish(self, channel: str, message: bytes) -> None:
        if self._publisher is None:
            await super().publish(channel, message)
        else:
            await self._publisher.publish(channel.encode(), message)

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        sender = self._own.pop(message["data"], None) if self._own else None
        if sender is None:
            super()._receive_message(message)
            return
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        channels = self.channel_layer.channels
        for channel_name in self.channel_layer.groups.get(name, ()):
            if channel_name != sender and channel_name in channels:
                channels[channel_name].put_nowait(message["data"])

    async def flush(self) -> None:
        await super().flush()
        self._own.clear()
        if self._publisher is not None:
            self._publisher.close()


class Publisher:
    """PUBLISH on one kept connection, replies read in order by one task."""

    def __init__(self, host: str, port: int, username: str | None, password: str | None) -> None:
        self.address = (host, port)
        self.auth = [x for x in (username, password) if x]
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._replies: deque[tuple[asyncio.Future[None], float]] = deque()
        self._reading: asyncio.Task[None] | None = None
        self._connecting = asyncio.Lock()

    @classmethod
    def for_host(cls, host: dict[str, Any]) -> Publisher | None:
        """One for a plain ``redis://`` address; None (redis-py's pool, as
        channels_redis) for TLS, a socket file, Sentinel."""
        url = urlsplit(host.get("address", ""))
        if url.scheme != "redis" or not url.hostname:
            return None
        username = unquote(url.username) if url.username else None
        password = unquote(url.password) if url.password else None
        return cls(url.hostname, url.port or 6379, username, password)

    async def publish(self, channel: bytes, data: bytes) -> None:
        writer = self._writer
        if writer is None or writer.is_closing():
            writer = await self._connect()
        elif self._replies and time.monotonic() - self._replies[0][1] > REPLY_TIMEOUT:
            self._fail(TimeoutError("no reply from Redis to a PUBLISH"))
            writer = await self._connect()
        reply = asyncio.get_running_loop().create_future()
        # Written and queued in one step: the replies come back in this order.
        head = b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%b\r\n$%d\r\n" % (len(channel), channel, len(data))
        writer.write(b"".join((head, data, b"\r\n")))
        self._replies.append((reply, time.monotonic()))
        await reply

    async def _connect(self) -> asyncio.StreamWriter:
        async with self._connecting:
            if self._writer is not None:
                if not self._writer.is_closing():
                    return self._writer  # another publish connected meanwhile
                self._fail(ConnectionError("Redis connection closed"))
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(*self.address), REPLY_TIMEOUT
            )
            try:
                if self.auth:
                    words = [b"AUTH", *(x.encode() for x in self.auth)]
                    writer.write(b"*%d\r\n" % len(words))
                    for word in words:
                        writer.write(b"$%d\r\n%b\r\n" % (len(word), word))
                    line = await asyncio.wait_for(reader.readline(), REPLY_TIMEOUT)
                    if not line.startswith(b"+"):
                        raise ConnectionError(f"Redis refused AUTH: {line!r}")
            except BaseException:
                writer.close()
                raise
            self._reader, self._writer = reader, writer
            self._reading = asyncio.ensure_future(self._read(reader))
            return writer

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line.endswith(b"\n"):
                    raise ConnectionError("Redis closed the connection")
                reply, _sent = self._replies.popleft()
                if line.startswith(b":"):
                    if not reply.done():
                        reply.set_result(None)
                elif not reply.done():
                    reply.set_exception(ConnectionError(f"Redis answered a PUBLISH {line!r}"))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if self._reader is reader:
                self._fail(exc)

    def _fail(self, exc: BaseException) -> None:
        """Drop the connection; each publish waiting on it fails (and is retried)."""
        if self._writer is not None:
            self._writer.close()
        if self._reading is not None and self._reading is not asyncio.current_task():
            self._reading.cancel()
        self._reader = self._writer = self._reading = None
        replies, self._replies = self._replies, deque()
        for reply, _sent in replies:
            if not reply.done():
                reply.set_exception(ConnectionError(f"Redis connection lost: {exc!r}"))

    def close(self) -> None:
        self._fail(ConnectionError("channel layer flushed"))
