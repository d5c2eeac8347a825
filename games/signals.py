"""Signals other apps connect to; sent by ``games.services`` after commit."""

from __future__ import annotations

from django.dispatch import Signal

# Sent once, after the transaction that finished the game commits, with
# ``game_id=<int>``. "learning" connects its review job here.
game_finished = Signal()
