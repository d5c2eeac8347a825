"""The zero set-up channel layer: Channels' in-memory layer, cheaper to run.

- Expired entries are swept once a second, not on every ``receive`` and
  ``group_send``: 200 open games spent a tenth of the process sweeping
  (bench/live.py, py-spy), and expiry only bounds memory of sockets gone.
- Each member gets a copy of a message's top level, not a deep copy and a
  task of its own (the whole state, each step); a handler copies what it
  changes (``GameConsumer.game_state``; the others change nothing).
- A state sent for one socket's command (``sender``, games' broadcast.answered_by)
  is left out of that socket's queue, which answers with it itself; with no
  other member the send is not made (``reaches_others``): no hop to the loop.

It overrides and reads channels' private parts (``_clean_expired``,
``channels``, ``groups``, the queue's ``(expiry, message)`` entries),
listed with the versions checked in runtime/internals.py;
tests/runtime/test_private_names.py fails when they change.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):  # type: ignore[misc]  # untyped
    _next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        sender = message.get("sender")
        for channel in list(self.groups.get(group, ())):
            if channel == sender:
                continue
            queue = self.channels.setdefault(channel, asyncio.Queue(self.get_capacity(channel)))
            # As channels' layer: a full channel misses the message.
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait((time.time() + self.expiry, dict(message)))

    def reaches_others(self, group: str, sender: str) -> bool:
        """Whether ``group`` has a member besides ``sender``; from any thread (one
        read of the members). A socket joining later reads the state after it
        joins (GameConsumer._join), so misses nothing."""
        members = self.groups.get(group)
        return bool(members) and not (len(members) == 1 and sender in members)
