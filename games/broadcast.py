"""The one module that talks to the channel layer.

Services call ``game_changed`` from ``transaction.on_commit``; every consumer
of the game's group then receives the new state. Other apps (hints, review
progress) push their own events to the game's sockets with ``send_to_game``.

Sends may come from any thread: the consumer's database thread, the
in-process computer-player pool, a Celery worker. The in-memory channel
layer is bound to the server's event loop, so once a consumer has told us
that loop (``attach_loop``) a send from another thread is run on it; without
one (a Celery worker, plain scripts) ``async_to_sync`` is used.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

if TYPE_CHECKING:
    from games.models import Game

log = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None


def attach_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop the sockets of this process live on."""
    global _server_loop
    _server_loop = loop


def group_name(game_id: int) -> str:
    """The channel-layer group of every socket watching ``game_id``."""
    return f"game-{game_id}"


def game_changed(game: Game | int) -> dict[str, Any] | None:
    """Send the game's current state to its group (call after commit).

    Returns the state sent, so the caller that made the change can answer
    its own socket without building it again.
    """
    from games.models import Game
    from games.state import build_state

    if isinstance(game, int):
        found = Game.objects.filter(pk=game).first()
        if found is None:
            return None
        game = found
    state = build_state(game)
    _group_send(game.pk, {"type": "game.state", "state": state})
    return state


def send_to_game(game_id: int, payload: dict[str, Any]) -> None:
    """Forward ``payload`` (a JSON object with a ``type``) to the game's sockets."""
    _group_send(game_id, {"type": "game.event", "payload": payload})


def _group_send(game_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _run(layer.group_send, group_name(game_id), message)
    except Exception:
        # The state is committed; a socket that missed it refetches on the
        # version gap, so a failed push must not fail the move.
        log.exception("broadcast to game %s failed", game_id)


def _run(send: Any, *args: Any) -> None:
    """Await ``send(*args)`` on the server loop if there is one, from any thread."""
    loop = _server_loop
    if loop is None or loop.is_closed() or not loop.is_running():
        async_to_sync(send)(*args)
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:  # called from a coroutine on the server loop: cannot block it
        loop.create_task(send(*args))
        return
    # Not waited for: the database thread (shared by every socket of the
    # process) must not idle until the busy loop gets round to it. Sends are
    # scheduled in order; a socket never sends an older state after a newer.
    future = asyncio.run_coroutine_threadsafe(send(*args), loop)
    future.add_done_callback(_log_failure)


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("broadcast failed", exc_info=future.exception())
