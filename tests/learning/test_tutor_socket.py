"""教练模式 through the game socket: an End turn whose ranking is not there
yet waits for it off the database thread (``games.live.consumers``) and is
checked once it lands; one that never lands goes through after the second,
unchecked, saying so.

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
    reply, took = await end_turn(user, land_after=0.1)
    assert reply["type"] == "ack" and reply["tutor"]["warning"]["error"] == "very_bad"
    assert "unchecked" not in reply["tutor"]
    assert took < 1.0


async def test_a_ranking_that_never_lands_lets_the_turn_through_after_a_second(user: Any) -> None:
    reply, took = await end_turn(user, land_after=None)
    assert reply["type"] == "ack" and reply["tutor"]["unchecked"]
    assert reply["tutor"]["message"]
    assert 1.0 <= took < 3.0
