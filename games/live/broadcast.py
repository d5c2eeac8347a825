"""The one module that talks to the channel layer: ``push_state``,
``send_to_game``, a session's groups (docs/interfaces.md §3).

Sends come from any thread. Once a consumer has told the server's event loop
(``attach_loop``) a send runs on it, as the in-memory layer needs. A process
without sockets (a Celery worker, a script, a test) sends from one long-lived
loop of its own: ``async_to_sync`` made a new loop, and a new Redis connection,
per send (5-6 ms of a computer turn), and refuses a thread with a running loop
(a test driving Playwright's sync API).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from channels.layers import get_channel_layer

from runtime.layers import InMemoryChannelLayer as ProcessLayer

if TYPE_CHECKING:
    from games.models import Game

log = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None
_own_loop: asyncio.AbstractEventLoop | None = None
_own_loop_pid = 0
_own_loop_lock = threading.Lock()
SEND_TIMEOUT = 10.0  # seconds
# A kept Redis connection dies with a Redis restart, and a send on it fails;
# the layer drops the broken connection (redis-py's pool), so a retry opens
# a new one.
SEND_ATTEMPTS = 3


def attach_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop the sockets of this process live on."""
    global _server_loop
    _server_loop = loop


class _Answering(threading.local):
    channel: str | None = None


_answering = _Answering()


@contextmanager
def answered_by(channel_name: str) -> Iterator[None]:
    """A socket's command runs in the block and the socket answers it with
    the new state itself: the first state broadcast in the block names it
    as its ``sender``, and a layer may leave that socket out (runtime.layers)."""
    _answering.channel = channel_name
    try:
        yield
    finally:
        _answering.channel = None


def group_name(game_id: int) -> str:
    """The channel-layer group of every socket watching ``game_id``."""
    return f"game-{game_id}"


def push_state(sender: object, game: Game, **kwargs: Any) -> dict[str, Any]:
    """Send the game's current state to its group (``state_changed``'s
    receiver) and return it (the writer keeps it: ``Game.sent_state``)."""
    from games.live.state import build_state

    state = build_state(game)
    message: dict[str, Any] = {"type": "game.state", "state": state}
    group = group_name(game.pk)
    sender, _answering.channel = _answering.channel, None
    if sender is not None:
        # Only the command's own state: anything later in the block goes to all.
        message["sender"] = sender
        layer = get_channel_layer()
        # (Not getattr: channels_redis's layer looks a name up on this thread's loop.)
        if isinstance(layer, ProcessLayer) and not layer.reaches_others(group, sender):
            return state  # the sender alone is watching
    group_send(group, message)
    return state


def send_to_game(game_id: int, payload: dict[str, Any]) -> None:
    """Forward ``payload`` (a JSON object with a ``type``) to the game's sockets."""
    group_send(group_name(game_id), {"type": "game.event", "payload": payload})


def session_group(session_key: str) -> str:
    """The group of every socket opened under one session (hashed: keys are secrets)."""
    return f"session-{hashlib.sha256(session_key.encode()).hexdigest()[:32]}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def warm_up() -> None:
    """Connect this process to the channel layer now, not in its first send (a
    Celery worker's child before its first computer turn): a send to no one."""
    group_send("warm-up", {"type": "warm.up"})


async def _send(layer: Any, group: str, message: dict[str, Any]) -> None:
    """``layer.group_send``, tried again (on a fresh connection) if it fails."""
    for attempt in range(1, SEND_ATTEMPTS + 1):
        try:
            await layer.group_send(group, message)
            return
        except Exception as exc:
            if attempt == SEND_ATTEMPTS:
                raise
            log.warning("broadcast failed (%r); trying again on a fresh connection", exc)
            await asyncio.sleep(0.05 * attempt)


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group``, on the server loop if there is one, from any
    thread. Never raises: the state is committed, and a socket that missed it
    refetches on the version gap, so a failed push must not fail the move."""
    layer = get_channel_layer()
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    loop = _server_loop
    try:
        if loop is None or loop.is_closed() or not loop.is_running():
            # Waited for: a worker's task is acknowledged only once it is sent.
            sending = asyncio.run_coroutine_threadsafe(_send(layer, group, message), _sender_loop())
            sending.result(SEND_TIMEOUT)
        elif running is loop:  # called from a coroutine on the server loop: cannot block it
            loop.create_task(_send(layer, group, message))
        else:
            # Not waited for: the database thread (shared by every socket of the
            # process) must not idle until the busy loop gets round to it. Sends are
            # scheduled in order; a socket never sends an older state after a newer.
            sending = asyncio.run_coroutine_threadsafe(_send(layer, group, message), loop)
            sending.add_done_callback(_log_failure)
    except Exception:
        log.exception("broadcast to %s failed", group)


def _sender_loop() -> asyncio.AbstractEventLoop:
    """This process's own loop for channel-layer sends, on a daemon thread."""
    global _own_loop, _own_loop_pid
    with _own_loop_lock:
        # A forked child (Celery's prefork pool) has the loop but not its thread.
        if _own_loop is None or _own_loop_pid != os.getpid():
            _own_loop, _own_loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(
                target=_own_loop.run_forever, name="broadcast-loop", daemon=True
            ).start()
        return _own_loop


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("broadcast failed", exc_info=future.exception())
