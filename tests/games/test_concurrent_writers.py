"""One writer per game: commands racing on one version, only one is applied.

50 threads send commands made on the same version of one game at the same
moment, on their own database connections (committed rows, as daphne's
threads and a Celery worker see them). Steps, undos and End turns are
written without the row lock (``rows.row_command``: the write is ``WHERE
version = v``, with a turn that ends its Turn row in the same transaction);
a write that finds the row moved on runs again under the lock. Either way
exactly one command wins each version and every other is refused as stale,
on SQLite as on PostgreSQL.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections

from games import services
from games.models import Game, Status
from games.services import store

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

WRITERS = 50


@pytest.fixture
def opening(make_game: Any) -> Game:
    """The start position, LIGHT on roll with 5-2, no step made yet (started
    through the services by its opening roll)."""
    game: Game = make_game(status=Status.OPENING, dice=[5, 2])
    return game


def race(calls: list[Any]) -> list[str]:
    """Run every call at once, one thread each; "ok" or the error's class name each."""
    start = threading.Barrier(len(calls))

    def run(call: Any) -> str:
        try:
            start.wait(timeout=30)
            call()
            return "ok"
        except services.ServiceError as exc:
            return type(exc).__name__
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def test_fifty_writers_on_one_version_apply_one_command(
    opening: Game, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    gid = opening.pk
    step = [lambda: services.make_step(gid, user, 1, 13, 8)] * WRITERS
    outcomes = race(step)
    assert outcomes.count("ok") == 1
    assert outcomes.count("StaleVersionError") == WRITERS - 1
    opening.refresh_from_db()
    assert (opening.version, opening.steps) == (2, [[13, 8, 5, 0]])

    # Different commands on version 2: half undo the step (without the lock),
    # half play the 2, which ends the turn (auto end turn is on: the Turn
    # row and the hand-over to DARK, in one transaction).
    mixed = [
        (lambda: services.undo_step(gid, user, 2))
        if i % 2
        else (lambda: services.make_step(gid, user, 2, 13, 11))
        for i in range(WRITERS)
    ]
    outcomes = race(mixed)
    assert outcomes.count("ok") == 1
    assert outcomes.count("StaleVersionError") == WRITERS - 1
    opening.refresh_from_db()
    assert opening.version == 3
    undone = (opening.turn, opening.steps, held_computer_turns) == ("light", [], [])
    ended = (opening.turn, held_computer_turns) == ("dark", [(gid, 3)])
    assert undone or ended


def test_a_row_that_moves_on_between_read_and_write_refuses_the_command(
    opening: Game, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = store.game
    raced = False

    def read_then_race(game_id: int, *, locked: bool = False) -> Game:
        nonlocal raced
        game = read(game_id, locked=locked)
        if not raced and not locked:  # another writer gets in after this command read the row
            raced = True
            services.make_step(game_id, user, 1, 13, 8)
        return game

    monkeypatch.setattr(store, "game", read_then_race)
    with pytest.raises(services.StaleVersionError):
        services.make_step(opening.pk, user, 1, 13, 11)  # read at 1, the row is at 2
    opening.refresh_from_db()
    assert (opening.version, opening.steps) == (2, [[13, 8, 5, 0]])
    assert store.game(opening.pk).version == 2
