"""The game's WebSocket: thin, every command goes to ``games.services``; the
protocol, its errors and close codes: docs/interfaces.md §4. Outward events go
through signals: the writer sends ``games.signals`` after commit and never
imports this package; ``games.live.broadcast.push_state`` (connected in
``GamesConfig.ready()``) pushes each new state to this consumer's group.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.middleware import is_database_unavailable
from accounts.preferences import board_prefs
from games import services, tutor
from games.live import broadcast
from games.live.commands import Command, CommandError, parse_command, run_command
from games.live.sessions import session_expiry
from games.live.state import build_state, describe_state
from games.models import Game
from games.row_checks import READ_ERRORS
from games.services import hold_opened
from games.words.cube import word_cube
from runtime import dbthreads

log = logging.getLogger(__name__)

# The close codes, as docs/interfaces.md §4 describes them.
CLOSE_FORBIDDEN = 4403
CLOSE_SIGNED_OUT = 4401
CLOSE_TOO_FAST = 4429
# The database is down: come back later. Not RFC 6455's 1013 "try again
# later": daphne's autobahn lets a server close only with 1000 or 3000-4999
# (1013 raised inside daphne, and the page saw 1011).
CLOSE_TRY_AGAIN = 4503
# Ids remembered per socket to answer a repeated command without re-running it.
REMEMBERED_IDS = 256


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    game_id: int
    user: Any
    language: str
    sent_version: int

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.sent_version = 0
        self.seen_ids: deque[str] = deque(maxlen=REMEMBERED_IDS)
        broadcast.attach_loop(asyncio.get_running_loop())
        await self.accept()
        try:
            await self._join()
        except Exception as exc:
            await self._unavailable(exc)
            # The page reconnects (with backoff) on any code but 4401/4403.
            await self.close(code=CLOSE_TRY_AGAIN)

    async def _join(self) -> None:
        # Who is asking: in the opening's one trip to the database, not by
        # channels' auth middleware, whose two lookups on the one shared sync
        # thread queued every socket on the others after a restart.
        self.session_key = self.scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        if not self.session_key:
            await self.close(code=CLOSE_FORBIDDEN)  # signed out: nothing to ask
            return
        self.bucket = CommandBucket()
        # In the groups first, so that no change after the state below passes
        # this socket by; nothing is sent on it until the owner is checked
        # (the group events wait until connect returns, and check ``group``).
        self.groups_joined = [
            broadcast.group_name(self.game_id),
            broadcast.session_group(self.session_key),
        ]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        opening = await dbthreads.run(self._opening_sync)
        if opening is None:
            # Accept-then-close so the browser sees a reason code, not a bare 403.
            self.closing = True
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.user, self.language, state = opening
        # The user's group (a password change, a deactivation) once the user is
        # known. A push before this join is not lost: the watch asks again at
        # once, and a command before it answers asks itself (expires still 0).
        self.groups_joined.append(broadcast.user_group(self.user.pk))
        await self.channel_layer.group_add(self.groups_joined[-1], self.channel_name)
        self.group = self.groups_joined[0]
        self.watch = asyncio.create_task(self._watch_session())
        await self._send_state(state, force=True)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "watch"):
            self.watch.cancel()
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._joined:
            return
        if not self.bucket.take():
            await self._too_fast()
            return
        try:
            await self._receive_command(text_data, bytes_data)
        except Exception as exc:
            await self._unavailable(exc)

    async def _unavailable(self, exc: Exception, command_id: str | None = None) -> None:
        """Answer a database outage in words (re-raise anything else)."""
        if not is_database_unavailable(exc):
            raise exc
        log.warning("database unavailable for game %s: %s", self.game_id, exc)
        # Before the opening read the owner's language: the request's.
        with translation.override(getattr(self, "language", None) or _socket_language(self.scope)):
            message = _(
                "The game is temporarily unavailable; your move is not lost. "
                "Please try again in a moment."
            )
        await self._say(command_id, "unavailable", message)

    async def _receive_command(self, text_data: str | None, bytes_data: bytes | None) -> None:
        try:
            with translation.override(self.language):  # refused here, on the loop
                command = parse_command(text_data, bytes_data)
                if command.id in self.seen_ids:
                    words = _("This command was already received.")
                    raise CommandError("duplicate", words, command.id)
        except CommandError as exc:
            await self._error(exc.command_id, exc.code, exc.message)
            return
        try:
            outcome = await self._run_when_ranked(command)
        except Exception as exc:
            # The command's own id, so that the page knows which one was not done.
            await self._unavailable(exc, command.id)
            return
        if outcome is None:
            await self._end_session(command.id)
            return
        reply, state = outcome
        if reply["type"] == "ack":
            # Only a command that was carried out is answered "duplicate" when
            # repeated; a refused or stale one may be sent again.
            self.seen_ids.append(command.id)
        await self._send_json(reply)
        if state is not None:
            await self._send_state(state, force=reply["type"] == "error")

    async def _run_when_ranked(
        self, command: Command
    ) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
        """``_run_sync``, once the tutor's ranking of the decision the command
        would commit is there: waited for here, the one place, off the
        database thread, at most ``tutor.WAIT_SECONDS`` (then the writer
        finds none and records the decision unchecked)."""
        if command.type in tutor.CHECKED_COMMANDS and not command.args.get("anyway"):
            look = await dbthreads.run(self._ranking_sync, command)
            if look is not None:
                await _ranked(look)
        return await dbthreads.run(self._run_sync, command)

    def _ranking_sync(self, command: Command) -> Callable[[], bool] | None:
        try:
            return services.ranking_awaited(
                self.game_id, command.version, command.type, command.args
            )
        except (Game.DoesNotExist, *READ_ERRORS):
            return None  # the command itself says what is wrong

    def _run_sync(self, command: Command) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
        """The reply and state, or None when the socket's session has ended."""
        if time.time() >= self.session_expires and not self._session_checked():
            return None
        if command.type == "hint":
            # One job per (game, version) while it may run; its answer goes to every socket.
            key = f"hint-requested:{self.game_id}:{command.version}"
            if not cache.add(key, 1, timeout=settings.HINT_REQUEST_SECONDS):
                return {"type": "ack", "id": command.id, "version": command.version}, None
        # The state goes with the reply (``_receive_command``); the write holds
        # only while the session's row does (a log-out since the check refuses it).
        with (
            broadcast.answered_by(self.channel_name),
            translation.override(self.language),
            services.under_session(self.session_key),
        ):
            try:
                return run_command(self.game_id, self.user, command)
            except services.SessionEndedError:
                self.session_expires = 0.0
                return None

    # ------------------------------------------------------------ sessions, abuse

    closing = False

    @property
    def _joined(self) -> bool:
        """In the game's groups as its owner's socket, and not closing."""
        return hasattr(self, "group") and not self.closing

    # Until when (time.time()) the session holds without asking the database:
    # its expire date once a check passed; pushes and the watch ask again.
    session_expires = 0.0

    def _session_checked(self) -> bool:
        """Sync: ask the database whether the session holds, and until when."""
        self.session_expires = 0.0  # if the asking fails, the next command asks again
        expires = session_expiry(self.session_key, self.user.pk)
        self.session_expires = expires or 0.0
        return expires is not None

    async def _watch_session(self) -> None:
        """Close the socket once its session no longer holds (a change no
        signal sees). It asks first at once, so the page's first command asks
        nothing (after a restart every game's at once: bench/live.py)."""
        while not self.closing:
            try:
                await self.session_check({})
            except Exception:  # the database may be down: check again later
                log.warning("session check of a game socket failed", exc_info=True)
            await asyncio.sleep(settings.SOCKET_SESSION_CHECK_SECONDS)

    async def session_check(self, event: dict[str, Any]) -> None:
        if not self.closing and not await dbthreads.run(self._session_checked):
            await self._end_session(None)

    async def _end_session(self, command_id: str | None) -> None:
        if self.closing:
            return
        self.closing = True
        with translation.override(self.language):
            message = _(
                "You were signed out, or your password was changed. "
                "Reload the page and sign in to go on playing."
            )
        await self._say(command_id, "signed_out", message)
        await self.close(code=CLOSE_SIGNED_OUT)

    async def _too_fast(self) -> None:
        if self.bucket.strikes > settings.SOCKET_COMMAND_STRIKES:
            self.closing = True
            await self.close(code=CLOSE_TOO_FAST)
            return
        if self.bucket.strikes == 1:  # once per burst, not a reply to every frame
            with translation.override(self.language):
                message = _("Too many commands at once; slow down.")
            await self._say(None, "slow_down", message)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Kept: channels' own hops to its one sync thread per message to close
        # old connections (every socket waited behind any sync view there);
        # runtime.dbthreads does that around each of this consumer's calls.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def game_state(self, event: dict[str, Any]) -> None:
        if not self._joined:
            return
        if event["state"]["version"] <= self.sent_version:
            return  # this socket already sent it (its own command's reply)
        state = dict(event["state"])
        with translation.override(self.language):
            if state.get("cube"):
                state["cube"] = dict(state["cube"])
                word_cube(state)  # a broadcast's words are its sender's language
            state["message"] = describe_state(state)
        await self._send_state(state)

    async def game_event(self, event: dict[str, Any]) -> None:
        if not self._joined:
            return
        payload = event["payload"]
        # An event worded in every language (a hint): this page's language's.
        worded = payload.get("by_language")
        if worded:
            payload = worded.get(self.language) or next(iter(worded.values()))
        await self._send_json(payload)

    async def _send_state(self, state: dict[str, Any], *, force: bool = False) -> None:
        # A broadcast can arrive after this socket already sent a newer state.
        if state["version"] < self.sent_version or (
            state["version"] == self.sent_version and not force
        ):
            return
        self.sent_version = state["version"]
        await self._send_json(state)

    async def _error(self, command_id: str | None, code: str, message: str) -> None:
        """The error, then the current state (the page may have been out of step)."""
        await self._say(command_id, code, message)
        await self._send_state(await dbthreads.run(self._current_state), force=True)

    async def _say(self, command_id: str | None, code: str, message: str) -> None:
        await self._send_json({"type": "error", "id": command_id, "code": code, "message": message})

    async def _send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload, separators=(",", ":")))

    def _opening_sync(self) -> tuple[Any, str, dict[str, Any]] | None:
        """The game's owner, the page's language and the game's state, or None
        unless the socket's session signs in the game's owner (the game's row
        read with its owner and the owner's preferences, in one query)."""
        game = Game.objects.select_related("owner__preferences").filter(pk=self.game_id).first()
        if game is None or session_expiry(self.session_key, game.owner_id) is None:
            return None
        language = _socket_language(self.scope, game.owner)
        with translation.override(language):
            state = build_state(game)
        hold_opened(game)  # the socket's first command starts from this read
        return game.owner, language, state

    def _current_state(self) -> dict[str, Any]:
        with translation.override(self.language):
            return build_state(Game.objects.get(pk=self.game_id))


class CommandBucket:
    """A token bucket: ``SOCKET_COMMAND_BURST`` commands at once, then
    ``SOCKET_COMMANDS_PER_SECOND``; ``strikes`` counts commands refused in a row."""

    def __init__(self) -> None:
        self.tokens = float(settings.SOCKET_COMMAND_BURST)
        self.stamp = time.monotonic()
        self.strikes = 0

    def take(self) -> bool:
        now = time.monotonic()
        rate = settings.SOCKET_COMMANDS_PER_SECOND
        self.tokens = min(settings.SOCKET_COMMAND_BURST, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.strikes = 0
            return True
        self.strikes += 1
        return False


async def _ranked(look: Callable[[], bool]) -> None:
    """Wait until ``look()`` says the ranking is there, at most
    ``tutor.WAIT_SECONDS``: looked after 20 ms, then twice as long each time."""
    give_up, pause = time.monotonic() + tutor.WAIT_SECONDS, tutor.POLL_SECONDS
    while (left := give_up - time.monotonic()) > 0:
        await asyncio.sleep(min(pause, left))
        if await asyncio.to_thread(look):
            return
        pause = min(2 * pause, tutor.POLL_MAX_SECONDS)


def _socket_language(scope: dict[str, Any], user: Any = None) -> str:
    """The page language: the user's preference, else what Django's
    LocaleMiddleware finds for the socket's request (the language cookie,
    Accept-Language, ``LANGUAGE_CODE``)."""
    chosen = board_prefs(user).get("language") if user is not None else None
    if chosen and translation.check_for_language(chosen):
        return translation.get_supported_language_variant(chosen)
    accept = dict(scope["headers"]).get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(COOKIES=scope["cookies"], META={"HTTP_ACCEPT_LANGUAGE": accept})
    return translation.get_language_from_request(request)  # type: ignore[arg-type]
