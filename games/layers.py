"""The zero set-up channel layer: Channels' in-memory layer, cheaper to run.

Channels' ``InMemoryChannelLayer`` sweeps every channel and every group for
expired entries on each ``receive`` and ``group_send``, so one process with
200 open games spent a tenth of its time sweeping (bench/live.py, py-spy).
Expiry only bounds memory held for sockets that went away (messages live
60 s, group memberships a day), so sweeping once a second loses nothing.
"""

from __future__ import annotations

import time

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
