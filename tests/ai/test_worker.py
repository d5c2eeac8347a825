"""The computer's turn through a real Celery worker and Redis (at-least-once delivery).

Needs REDIS_URL (skipped without it, failing under CI=true). The worker runs
on the test database, so these tests use committed transactions. A game
started with the computer on turn announces that turn on commit, as the site
does: the worker is sent it through ``ai_worker``'s receiver.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from ai_worker import tasks, turns
from games.models import Game, Turn

from .conftest import WorkerProcess, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.timeout(180)]


def version_of(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def dark_turns(game: Game) -> int:
    return Turn.objects.filter(game=game, side="dark").count()


def test_a_queued_turn_is_applied_exactly_once(
    celery_worker_process: WorkerProcess, dark_game: Any
) -> None:
    game = dark_game(tier="casual")  # announced on commit: the worker is sent the turn
    tasks.enqueue_computer_turn(game.pk, game.version)  # and a duplicate
    wait_until(lambda: version_of(game) == game.version + 1, 60, "the computer's move")
    after = Game.objects.get(pk=game.pk)
    assert after.turn == "light" and after.dice is not None  # the person's roll
    assert dark_turns(game) == 1


def test_duplicate_and_stale_tasks_are_no_ops(
    celery_worker_process: WorkerProcess, dark_game: Any
) -> None:
    game = dark_game(tier="advanced")  # its turn announced on commit
    v = game.version
    tasks.enqueue_computer_turn(game.pk, v - 1)  # stale: made on an older version
    tasks.enqueue_computer_turn(game.pk, v)  # duplicates
    tasks.enqueue_computer_turn(game.pk, v)
    # A sentinel game queued last: once it moved, every task before it ran
    # (one worker child, prefetch 1, one queue).
    sentinel = dark_game(tier="beginner")  # announced on commit, last
    wait_until(lambda: version_of(sentinel) == sentinel.version + 1, 90, "the sentinel")
    assert version_of(game) == v + 1
    assert dark_turns(game) == 1
    # The counts are the game's: a stale or duplicate task counts nothing.
    assert turns.attempts(game.pk, v) == 1 and turns.attempts(game.pk, v - 1) == 0
    counts = Game.objects.get(pk=game.pk).computer_attempts
    assert 0 < counts.pop("engine_ms") < 60_000  # the engine's time for the play it applied
    assert counts == {"version": v, "starts": 1}


def test_a_worker_killed_mid_turn_applies_the_play_once_after_redelivery(
    celery_worker_process: WorkerProcess, dark_game: Any, held_computer_turns: list[Any]
) -> None:
    # The dice are already stored, as if an earlier attempt had rolled them.
    # The announcement is held: the task must start only once the row is held.
    game = dark_game(tier="expert", dice=[6, 4])
    assert held_computer_turns == [(game.pk, game.version)]
    with transaction.atomic():
        # Hold the game's row: the task starts, then waits on this lock as
        # it counts its start in that row.
        Game.objects.select_for_update().filter(pk=game.pk).update(steps=[])
        tasks.enqueue_computer_turn(game.pk, game.version)
        started = f"computer turn of game {game.pk} v{game.version}: started"
        wait_until(lambda: started in celery_worker_process.log(), 60, "the task to start")
        killed = celery_worker_process.kill_child()
        celery_worker_process.wait_for_new_child(killed)
    wait_until(lambda: version_of(game) == game.version + 1, 90, "the redelivered turn")
    assert dark_turns(game) == 1
    turn = Turn.objects.get(game=game, side="dark")
    assert (turn.die1, turn.die2) == (6, 4)  # the retry reused the stored dice
    # Killed before its count was written: the redelivered start is the one counted.
    assert turns.attempts(game.pk, game.version) == 1
    assert "WorkerLostError" in celery_worker_process.log()
