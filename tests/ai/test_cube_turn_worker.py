"""The computer's cube turn through a real Celery worker and Redis: each
decision applied once, duplicates and stale deliveries changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from ai_worker import tasks
from games.models import CubeAction, Game, GameKind, Status, Turn
from tests.ai.conftest import doubled

from .conftest import WorkerProcess, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.timeout(180)]


def version_of(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def test_the_computers_cube_decision_then_its_play_each_once(
    celery_worker_process: WorkerProcess, dark_game: Any
) -> None:
    # The Expert, whose cube has no noise: at the start no double is certain
    # (a Casual's noise doubles there in about 1 game of 40; CI saw one).
    # Its decision is announced on commit; stale and duplicate deliveries follow.
    game = dark_game(tier="expert", dice=None, kind=GameKind.MONEY)
    v = game.version
    assert (game.status, game.dice) == (Status.DECIDING, None)
    tasks.enqueue_computer_turn(game.pk, v - 1)  # stale
    tasks.enqueue_computer_turn(game.pk, v)  # duplicate
    # No double at the start: it rolls (v + 1), and that version's task,
    # queued by the worker on commit, plays (v + 2: the person may double).
    wait_until(lambda: version_of(game) == v + 2, 90, "the computer's roll and play")
    after = Game.objects.get(pk=game.pk)
    assert (after.turn, after.status, after.dice) == ("light", "deciding", None)
    assert Turn.objects.filter(game=game, side="dark").count() == 1
    assert not CubeAction.objects.filter(game=game).exists()
    sentinel = dark_game(tier="beginner")  # announced on commit, last
    wait_until(lambda: version_of(sentinel) == sentinel.version + 1, 90, "the sentinel")
    assert version_of(game) == v + 2
    # The counts are the game's: the last started task (the play at v + 1)
    # counted once; the stale and duplicate deliveries counted nothing.
    counts = Game.objects.get(pk=game.pk).computer_attempts
    assert 0 < counts.pop("engine_ms") < 60_000  # the engine's time for the play it applied
    assert counts == {"version": v + 1, "starts": 1}


def test_the_persons_double_is_answered_once(
    celery_worker_process: WorkerProcess, dark_game: Any, user: Any
) -> None:
    game = doubled(user, tier="casual")  # the answer is announced on commit
    v = game.version
    tasks.enqueue_computer_turn(game.pk, v)  # a duplicate
    wait_until(lambda: version_of(game) == v + 1, 90, "the computer's answer")
    sentinel = dark_game(tier="beginner")  # announced on commit, last
    wait_until(lambda: version_of(sentinel) == sentinel.version + 1, 90, "the sentinel")
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.cube_value, after.cube_owner, after.turn) == (
        v + 1,
        2,
        "dark",
        "light",
    )
    rows = CubeAction.objects.filter(game=game)
    assert [(a.side, a.action, a.value) for a in rows] == [
        ("light", "double", 2),
        ("dark", "take", 2),
    ]
