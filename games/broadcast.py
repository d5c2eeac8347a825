"""The one module that talks to the channel layer.

Services call ``game_changed`` from ``transaction.on_commit``; every consumer
of the game's group then receives the new state. Other apps (hints, review
progress) push their own events to the game's sockets with ``send_to_game``.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    """The channel-layer group of every socket watching ``game_id``."""
    return f"game-{game_id}"


def game_changed(game_id: int) -> None:
    """Send the game's current state to its group (call after commit)."""
    from games.models import Game
    from games.state import build_state

    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    _group_send(game_id, {"type": "game.state", "state": build_state(game)})


def send_to_game(game_id: int, payload: dict[str, Any]) -> None:
    """Forward ``payload`` (a JSON object with a ``type``) to the game's sockets."""
    _group_send(game_id, {"type": "game.event", "payload": payload})


def _group_send(game_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), message)
    except Exception:
        # The state is committed; a socket that missed it refetches on the
        # version gap, so a failed push must not fail the move.
        log.exception("broadcast to game %s failed", game_id)
