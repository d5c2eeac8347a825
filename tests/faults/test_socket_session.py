"""Issue 13, item 1: a game socket ends with its session, and the
per-socket guards (rate, stale retries, one hint job per version).

Real sockets on the real ASGI app (WebsocketCommunicator), real sessions in
the database, log-out and password change through the real URLs.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.live.consumers import CLOSE_SIGNED_OUT, CLOSE_TOO_FAST
from games.models import Game
from tests.faults.fixtures_sockets import (
    TIMEOUT,
    assert_signed_out,
    next_error,
    open_game,
    signed_in,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

STEP = {"type": "step", "from": 13, "to": 8}
# Long enough for a socket to open and run a command first, on a loaded machine.
EXPIRES_IN = 3


def expire_session(client: Client, expiry: Any) -> datetime:
    """Save the client's session with ``expiry`` (``set_expiry``'s); its expire date."""
    session = client.session
    session.set_expiry(expiry)
    session.save()
    return Session.objects.get(session_key=session.session_key).expire_date


async def assert_a_command_runs(socket: WebsocketCommunicator) -> None:
    """A stale command, refused (its session held), and the state after it."""
    await socket.send_json_to({**STEP, "id": "probe", "version": 99})
    assert (await socket.receive_json_from(TIMEOUT))["code"] == "stale"
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "state"


@database_sync_to_async
def version_of(game: Game) -> tuple[int, list[Any]]:
    stored = Game.objects.get(pk=game.pk)
    return stored.version, stored.steps


@pytest.fixture
def game(make_game: Any) -> Game:
    return make_game(dice=[5, 2])


async def test_logging_out_closes_the_sessions_socket(game: Game, user: Any, password: str) -> None:
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    await database_sync_to_async(client.post)(reverse("accounts:logout"))
    await assert_signed_out(socket)


async def test_a_password_change_closes_every_socket_of_the_user(
    game: Game, user: Any, password: str
) -> None:
    here = await database_sync_to_async(signed_in)(user, password)
    elsewhere = await database_sync_to_async(signed_in)(user, password)
    socket_here = await open_game(game.pk, here)
    socket_elsewhere = await open_game(game.pk, elsewhere)
    new = "Another-Shuang-lu-2027!"
    fields = {"old_password": password, "new_password1": new, "new_password2": new}
    response = await database_sync_to_async(here.post)(reverse("accounts:password_change"), fields)
    assert response.status_code == 302
    await assert_signed_out(socket_elsewhere)  # its session's password hash is stale
    await assert_signed_out(socket_here)  # the session that changed it got a new key
    # The page reloaded in the changing browser opens a working socket again.
    again = await open_game(game.pk, here)
    await again.disconnect()


async def test_a_deleted_session_closes_its_socket(game: Game, user: Any, password: str) -> None:
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    key = client.session.session_key
    await database_sync_to_async(Session.objects.filter(session_key=key).delete)()
    await assert_signed_out(socket)


async def test_no_command_is_accepted_once_the_session_expired(
    game: Game, user: Any, password: str
) -> None:
    client = await database_sync_to_async(signed_in)(user, password)
    # A real expiry: the row's expire date, no signal when it passes.
    expires = await database_sync_to_async(expire_session)(client, EXPIRES_IN)
    socket = await open_game(game.pk, client)
    await socket.send_json_to({**STEP, "id": "s1", "version": 1})  # the socket learns the date
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 2
    await asyncio.sleep(max(0.0, (expires - timezone.now()).total_seconds()) + 0.05)
    await socket.send_json_to({"type": "undo", "id": "u1", "version": 2})
    error = await next_error(socket)
    assert (error["id"], error["code"]) == ("u1", "signed_out")
    assert await socket.receive_output(TIMEOUT) == {
        "type": "websocket.close",
        "code": CLOSE_SIGNED_OUT,
    }
    assert await version_of(game) == (2, [[13, 8, 5, 0]])


async def test_a_session_saved_with_an_earlier_expiry_closes_its_socket(
    game: Game, user: Any, password: str
) -> None:
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    await assert_a_command_runs(socket)  # the socket knows the session held, until when
    # A saved session row: its sockets ask again.
    await database_sync_to_async(expire_session)(client, timezone.now() - timedelta(seconds=1))
    await assert_signed_out(socket)


@pytest.mark.parametrize("change", ["deactivated", "new password"])
async def test_a_user_saved_deactivated_or_with_a_new_password_closes_its_sockets(
    game: Game, user: Any, password: str, change: str
) -> None:
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    await assert_a_command_runs(socket)

    def save_user() -> None:  # through the model, as the admin or a script would
        if change == "deactivated":
            user.is_active = False
            user.save(update_fields=["is_active"])
        else:
            user.set_password("Another-Shuang-lu-2027!")
            user.save()

    await database_sync_to_async(save_user)()
    await assert_signed_out(socket)


async def test_the_session_watch_closes_an_idle_socket_after_a_raw_change(
    game: Game, user: Any, password: str, settings: Any
) -> None:
    settings.SOCKET_SESSION_CHECK_SECONDS = 0.3
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    await assert_a_command_runs(socket)  # the socket knows the session held, until when
    past = timezone.now() - timedelta(seconds=1)
    expire = Session.objects.filter(session_key=client.session.session_key).update
    await database_sync_to_async(expire)(expire_date=past)  # no signal: only the watch sees it
    await assert_signed_out(socket)


def count_session_checks(monkeypatch: pytest.MonkeyPatch, then: Any = None) -> list[int]:
    """Each session check a game socket makes (``then`` run after the first)."""
    from games.live import consumers

    asked: list[int] = []
    real = consumers.session_expiry

    def counted(session_key: str, user_id: int) -> float | None:
        expires = real(session_key, user_id)
        asked.append(user_id)
        if then is not None and len(asked) == 1:
            then(session_key)
        return expires

    monkeypatch.setattr(consumers, "session_expiry", counted)
    return asked


async def until(done: Any, seconds: float = TIMEOUT) -> None:
    for _ in range(int(seconds / 0.02)):
        if done():
            return
        await asyncio.sleep(0.02)


async def test_the_socket_asks_once_its_groups_are_joined_and_its_first_command_asks_nothing(
    game: Game, user: Any, password: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = count_session_checks(monkeypatch)
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    await until(lambda: len(asked) == 2)  # the opening's check, then the watch's
    assert asked == [user.pk, user.pk]
    await socket.send_json_to({**STEP, "id": "s1", "version": 1})
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 2
    assert len(asked) == 2  # the command ran on what the watch learnt
    await socket.disconnect()


async def test_a_session_ended_between_the_opening_and_its_groups_closes_the_socket_at_once(
    game: Game, user: Any, password: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def expire_unseen(session_key: str) -> None:  # no signal, no push: raw SQL's way
        past = timezone.now() - timedelta(seconds=1)
        Session.objects.filter(session_key=session_key).update(expire_date=past)

    count_session_checks(monkeypatch, then=expire_unseen)
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)  # the opening's check passed
    await assert_signed_out(socket)  # no command sent, the watch a minute from its next turn
    assert await version_of(game) == (1, [])


async def test_a_flood_of_commands_is_told_to_slow_down_then_closed(
    game: Game, user: Any, password: str, settings: Any
) -> None:
    settings.SOCKET_COMMAND_BURST = 3
    settings.SOCKET_COMMANDS_PER_SECOND = 0.001
    settings.SOCKET_COMMAND_STRIKES = 5
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    for i in range(3):  # the burst: each answered (stale: version 99)
        await socket.send_json_to({**STEP, "id": f"b{i}", "version": 99})
        assert (await socket.receive_json_from(TIMEOUT))["code"] == "stale"
        assert (await socket.receive_json_from(TIMEOUT))["type"] == "state"
    await socket.send_json_to({**STEP, "id": "x0", "version": 1})
    slow = await socket.receive_json_from(TIMEOUT)
    assert (slow["code"], slow["message"]) == ("slow_down", "Too many commands at once; slow down.")
    for i in range(1, 7):
        await socket.send_json_to({**STEP, "id": f"x{i}", "version": 1})
    assert await socket.receive_output(TIMEOUT) == {
        "type": "websocket.close",
        "code": CLOSE_TOO_FAST,
    }
    assert await version_of(game) == (1, [])  # none of the flood ran


async def test_a_command_refused_as_stale_may_be_sent_again(
    game: Game, user: Any, password: str
) -> None:
    client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    await socket.send_json_to({**STEP, "id": "c1", "version": 7})
    assert (await socket.receive_json_from(TIMEOUT))["code"] == "stale"
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 1
    await socket.send_json_to({**STEP, "id": "c1", "version": 1})  # retried on the fresh state
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 2
    assert await version_of(game) == (2, [[13, 8, 5, 0]])
    await socket.disconnect()


async def test_repeated_hint_requests_for_one_version_queue_one_job(
    game: Game, user: Any, password: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr("learning.tasks.enqueue_hint", lambda g, v: queued.append((g, v)))
    client = await database_sync_to_async(signed_in)(user, password)
    first, second = await open_game(game.pk, client), await open_game(game.pk, client)
    for socket, ids in ((first, ("h1", "h2")), (second, ("h3",))):
        for hint_id in ids:
            await socket.send_json_to({"type": "hint", "id": hint_id, "version": 1})
            assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    assert queued == [(game.pk, 1)]
    await first.disconnect()
    await second.disconnect()
