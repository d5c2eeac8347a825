"""Issue 13, item 2: a broadcast survives a Redis restart.

A Redis of the test's own, on its own port, is stopped and started again
between two pushes; the second push, the first on the sender's pooled (now
dead) connection, must still reach a subscribed socket's channel.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from games.live import broadcast
from tests.conftest import PrivateRedis

pytestmark = [pytest.mark.timeout(60)]


async def wait_for(check: Any, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def test_a_push_after_a_redis_restart_still_arrives(
    private_redis: PrivateRedis, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    layer = RedisPubSubChannelLayer(hosts=[private_redis.url])
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(broadcast, "_server_loop", None)  # sent as a worker sends
    channel = await layer.new_channel()
    await layer.group_add(broadcast.group_name(1), channel)
    await asyncio.to_thread(broadcast.send_to_game, 1, {"type": "move", "n": 1})
    assert (await asyncio.wait_for(layer.receive(channel), 5))["payload"]["n"] == 1

    private_redis.stop()
    private_redis.start()
    redis_channel = layer._get_layer()._get_group_channel_name(broadcast.group_name(1))
    await wait_for(lambda: private_redis.subscribers(redis_channel) == 1)  # socket side back

    await asyncio.to_thread(broadcast.send_to_game, 1, {"type": "move", "n": 2})
    assert (await asyncio.wait_for(layer.receive(channel), 5))["payload"]["n"] == 2
    assert "broadcast to game-1 failed" not in caplog.text
    await layer.flush()
