"""教练模式 through the game socket: an End turn whose ranking is not there
yet waits for it before the command runs, off the database thread, in one
place (``games.live.consumers``), and is checked once it lands; one that
never lands goes through after the second, unchecked, saying so; one that
nothing was ranking is asked for by that wait and checked.

The ranking is the real one (``learning.tutor.prepare``), put in the cache
by the test at the moment it chooses: the receiver that would queue it when
the socket opens is held for the test.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import Preferences
from games import services
from games.engine import Position
from games.models import Game
from learning import tutor
from tests.games.fixtures_sockets import connect_socket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(60),
    pytest.mark.usefixtures("fresh_cache", "held_computer_turns", "rankings_held"),
]

# The opening 31 from the person's side: 13/10 6/5 gives away ~0.18 (very bad).
ERROR = [(13, 10), (6, 5)]


@pytest.fixture(autouse=True)
async def close_socket_thread_connections() -> Any:
    """The consumer's database thread lets go of the test database (PostgreSQL)."""
    yield
    from django.db import connections

    await database_sync_to_async(connections.close_all)()


@database_sync_to_async
def error_played(user: Any) -> Game:
    Preferences.objects.update_or_create(
        user=user, defaults={"tutor": "bad", "auto_end_turn": False}
    )
    game = services.start_game_from(user, "casual", Position.start(), dice=[3, 1])
    for src, dst in ERROR:
        game = services.make_step(game.pk, user, game.version, src, dst)
    return game


async def end_turn(user: Any, land_after: float | None) -> tuple[dict[str, Any], float]:
    """End turn on the error; the ranking put in the cache ``land_after``
    seconds later (never if None). The reply, and the seconds it took."""
    game = await error_played(user)
    socket, state = await connect_socket(game.pk, user)
    began = time.monotonic()
    await socket.send_json_to({"type": "end_turn", "id": "e1", "version": state["version"]})
    if land_after is not None:
        await asyncio.sleep(land_after)
        await database_sync_to_async(tutor.prepare)(game.pk, state["version"])
    reply = await socket.receive_json_from(10)
    took = time.monotonic() - began
    await socket.disconnect()
    return reply, took


async def test_a_ranking_that_lands_while_end_turn_waits_is_checked_against(user: Any) -> None:
    reply, _ = await end_turn(user, land_after=0.1)
    assert reply["type"] == "ack" and reply["tutor"]["warning"]["error"] == "very_bad"
    assert "unchecked" not in reply["tutor"]  # checked: it landed inside the wait


async def test_a_ranking_that_never_lands_lets_the_turn_through_after_a_second(user: Any) -> None:
    reply, took = await end_turn(user, land_after=None)
    assert reply["type"] == "ack" and reply["tutor"]["unchecked"]
    assert reply["tutor"]["message"]
    assert took >= 1.0  # it waited the second out (and the reply came: within 10 s)


async def test_a_ranking_never_asked_for_is_asked_by_the_wait_and_checked(
    user: Any, settings: Any
) -> None:
    # Nothing ranked the roll (the tutor switched on mid-turn, a lost
    # message): the socket's wait asks for it, and End turn is checked
    # against it within the second instead of going through unchecked.
    from games.signals import person_to_decide
    from learning.receivers import queue_tutor

    settings.CELERY_BROKER_URL = ""  # the ranking on this process's own pool
    game = await error_played(user)
    socket, state = await connect_socket(game.pk, user)
    person_to_decide.connect(queue_tutor, dispatch_uid="learning.prepare_tutor")
    await socket.send_json_to({"type": "end_turn", "id": "e1", "version": state["version"]})
    reply = await socket.receive_json_from(10)
    await socket.disconnect()
    assert reply["type"] == "ack" and "unchecked" not in reply["tutor"], reply
    assert reply["tutor"]["warning"]["error"] == "very_bad"
    # Checked, not let through: it came inside the wait's second (the wall
    # clock of the whole trip is the machine's, and belongs in bench/tutor.py).


async def test_a_step_that_ends_the_turn_waits_for_the_ranking_and_others_do_not(
    user: Any,
) -> None:
    # With the turn ended by its last step (the default), that step is the
    # command that commits: it waits; a first step never does.
    @database_sync_to_async
    def first_step_made() -> Game:
        Preferences.objects.update_or_create(
            user=user, defaults={"tutor": "bad", "auto_end_turn": True}
        )
        game = services.start_game_from(user, "casual", Position.start(), dice=[3, 1])
        return services.make_step(game.pk, user, game.version, *ERROR[0])

    game = await first_step_made()
    socket, state = await connect_socket(game.pk, user)
    began = time.monotonic()
    back = {"type": "undo", "id": "u1", "version": state["version"]}
    await socket.send_json_to(back)
    assert (await socket.receive_json_from(10))["type"] == "ack"
    state = await socket.receive_json_from(10)
    again = {"type": "step", "id": "s1", "version": state["version"], "from": 13, "to": 10}
    await socket.send_json_to(again)
    assert (await socket.receive_json_from(10))["type"] == "ack"
    state = await socket.receive_json_from(10)
    # The wait is a second (tutor's deadline): two commands and their states in
    # less than that did not wait.
    assert time.monotonic() - began < 1.0, "no wait before a step that cannot end the turn"
    last = {"type": "step", "id": "s2", "version": state["version"], "from": 6, "to": 5}
    await socket.send_json_to(last)
    await asyncio.sleep(0.1)
    await database_sync_to_async(tutor.prepare)(game.pk, state["version"])
    reply = await socket.receive_json_from(10)
    await socket.disconnect()
    assert reply["type"] == "ack" and reply["tutor"]["warning"]["error"] == "very_bad"
