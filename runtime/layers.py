"""The zero set-up channel layer: Channels' in-memory layer, cheaper to run.

Channels' ``InMemoryChannelLayer`` sweeps every channel and every group for
expired entries on each ``receive`` and ``group_send``, so one process with
200 open games spent a tenth of its time sweeping (bench/live.py, py-spy).
Expiry only bounds memory held for sockets that went away (messages live
60 s, group memberships a day), so sweeping once a second loses nothing.

It also deep-copied every message for every member of a group (the whole
game state, each step) and made a task per member. Here each member gets
its own copy of the message's top level; what is below is shared, so a
handler copies what it changes (``GameConsumer.game_state`` does, and the
other handlers change nothing).

A game's state sent on behalf of one socket's command (``sender``,
games' broadcast.answered_by) is not put in that socket's own queue: the
socket answers its command with that state itself, and the copy was woken
for, read and dropped by version (every command's, in this one process).
When that socket is the group's only member (one tab on the game) the send
is not made at all (``reaches_others``): no hop to the event loop.

It overrides and reads channels' private parts (``_clean_expired``,
``channels``, ``groups``, the queue's ``(expiry, message)`` entries),
checked with channels 4.3.0-4.3.2; tests/runtime/test_private_names.py
fails when they change.
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
        """Whether ``group`` has a member besides ``sender``; from any thread.

        One read of the members, each step atomic. A socket that joins after
        it reads its game's state after joining (GameConsumer._join), so
        after the commit this is asked about: it misses nothing.
        """
        members = self.groups.get(group)
        return bool(members) and not (len(members) == 1 and sender in members)
