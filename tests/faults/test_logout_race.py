"""Issue 30, item 5: a socket's command is applied only while its session is alive.

The socket knows until when its session holds (games/live/sessions.py) and a
log-out reaches it by a push; a command already past that check when the
log-out commits ran anyway (acked, the step played, a resignation ended the
game). Made deterministic here: the command is held on the server after the
socket's check (before the service runs, or right before its write), the
person logs out over HTTP meanwhile, then the command goes on. It must be
refused (the socket says signed out and closes 4401) and the game unchanged.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Status
from games.services import store
from tests.faults.fixtures_sockets import assert_signed_out, open_game, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


class Hold:
    """Wraps a function: its first call waits (on the socket's database
    thread) until the test releases it; the real function then runs."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.reached.is_set():
            self.reached.set()
            assert self.release.wait(20), "the test never released the command"
        return self.real(*args, **kwargs)


@pytest.fixture(params=["before the service", "before the write"])
def hold(request: pytest.FixtureRequest) -> Iterator[Hold]:
    if request.param == "before the service":
        holder = Hold(services.make_step)
        with mock.patch.dict(services.PERSON_COMMANDS, {"step": holder}):
            yield holder
    else:
        holder = Hold(store.update)
        with mock.patch.object(store, "update", holder):
            yield holder


@pytest.fixture
def game(make_game: Any) -> Game:
    return make_game(dice=[5, 2])


@database_sync_to_async
def stored(game: Game) -> tuple[int, list[Any], str]:
    row = Game.objects.get(pk=game.pk)
    return row.version, row.steps, row.status


async def test_a_command_held_across_a_log_out_is_refused_and_changes_nothing(
    game: Game, user: Any, password: str, hold: Hold
) -> None:
    client: Client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    before = await stored(game)
    step = {"type": "step", "id": "s1", "version": game.version, "from": 13, "to": 8}
    await socket.send_json_to(step)
    assert await asyncio.to_thread(hold.reached.wait, 10), "the command never reached the hold"
    response = await database_sync_to_async(client.post)(reverse("accounts:logout"))
    assert response.status_code == 302
    hold.release.set()
    await assert_signed_out(socket)
    assert await stored(game) == before
    assert before[2] == Status.PLAYING and before[1] == []


async def test_a_command_of_a_live_session_still_runs_through_the_hold(
    game: Game, user: Any, password: str, hold: Hold
) -> None:
    client: Client = await database_sync_to_async(signed_in)(user, password)
    socket = await open_game(game.pk, client)
    hold.release.set()
    step = {"type": "step", "id": "s1", "version": game.version, "from": 13, "to": 8}
    await socket.send_json_to(step)
    reply = await socket.receive_json_from(5)
    assert (reply["type"], reply["id"]) == ("ack", "s1")
    version, steps, _status = await stored(game)
    assert version == game.version + 1 and steps == [[13, 8, 5, 0]]
    await socket.disconnect()
