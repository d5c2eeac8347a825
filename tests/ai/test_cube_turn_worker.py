"""The computer's cube turn through a real Celery worker and Redis: each
decision applied once, duplicates and stale deliveries changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from ai_worker import tasks
from games.models import CubeAction, Game, GameKind, Status, Turn

from .conftest import WorkerProcess, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.timeout(180)]


def version_of(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def cube_game(dark_game: Any, **fields: Any) -> Game:
    game: Game = dark_game(kind=GameKind.MONEY, jacoby=True, version=3, **fields)
    Game.objects.filter(pk=game.pk).update(dice=None)
    return Game.objects.get(pk=game.pk)


def test_the_computers_cube_decision_then_its_play_each_once(
    celery_worker_process: WorkerProcess, dark_game: Any
) -> None:
    # The Expert, whose cube has no noise: at the start no double is certain
    # (a Casual's noise doubles there in about 1 game of 40; CI saw one).
    game = cube_game(dark_game, status=Status.DECIDING, tier="expert")
    tasks.enqueue_computer_turn(game.pk, 2)  # stale
    tasks.enqueue_computer_turn(game.pk, 3)
    tasks.enqueue_computer_turn(game.pk, 3)  # duplicate
    # No double at the start: it rolls (version 4), and that version's task,
    # queued by the worker on commit, plays (version 5: the person may double).
    wait_until(lambda: version_of(game) == 5, 90, "the computer's roll and play")
    after = Game.objects.get(pk=game.pk)
    assert (after.turn, after.status, after.dice) == ("light", "deciding", None)
    assert Turn.objects.filter(game=game, side="dark").count() == 1
    assert not CubeAction.objects.filter(game=game).exists()
    sentinel = dark_game(tier="beginner")
    tasks.enqueue_computer_turn(sentinel.pk, sentinel.version)
    wait_until(lambda: version_of(sentinel) == sentinel.version + 1, 90, "the sentinel")
    assert version_of(game) == 5
    # The counts are the game's: the last started task (the play at version 4)
    # counted once; the stale and duplicate deliveries counted nothing.
    assert Game.objects.get(pk=game.pk).computer_attempts == {"version": 4, "starts": 1}


def test_the_persons_double_is_answered_once(
    celery_worker_process: WorkerProcess, dark_game: Any
) -> None:
    game = cube_game(dark_game, status=Status.DOUBLED, cube_offered="light")
    tasks.enqueue_computer_turn(game.pk, 3)
    tasks.enqueue_computer_turn(game.pk, 3)
    wait_until(lambda: version_of(game) == 4, 90, "the computer's answer")
    sentinel = dark_game(tier="beginner")
    tasks.enqueue_computer_turn(sentinel.pk, sentinel.version)
    wait_until(lambda: version_of(sentinel) == sentinel.version + 1, 90, "the sentinel")
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.cube_value, after.cube_owner, after.turn) == (
        4,
        2,
        "dark",
        "light",
    )
    rows = CubeAction.objects.filter(game=game)
    assert [(a.side, a.action, a.value) for a in rows] == [("dark", "take", 2)]
