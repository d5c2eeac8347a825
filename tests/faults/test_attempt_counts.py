"""Issue 13, "also found": the computer's attempt counters are kept with the game.

They lived only in the cache, so a database restored from a backup under a
kept Redis met the counts of turns it had never seen fail (the same game ids
and versions) and failed those games at once. Now the task starts and the
watchdog's re-queues of a turn are in the game's row: restored with it, and
untouched by a cache that is flushed or kept.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from ai_worker import tasks, turns
from games.models import Game, Status
from tests.ai.conftest import dark_game  # noqa: F401 (a fixture)
from tests.conftest import earlier

pytestmark = pytest.mark.django_db


def row(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_a_restored_database_under_a_kept_cache_plays_its_turn(
    dark_game: Any,  # noqa: F811
) -> None:
    game = dark_game()
    backup = row(game).computer_attempts  # the row as the backup holds it
    for _ in range(turns.MAX_ATTEMPTS):
        turns.count_attempt(game.pk, game.version)
    assert row(game).computer_attempts == {"version": game.version, "starts": turns.MAX_ATTEMPTS}
    # The database comes back from the backup; the cache is kept as it was.
    Game.objects.filter(pk=game.pk).update(computer_attempts=backup)
    assert tasks.play_computer_turn(game.pk, game.version) is True
    after = row(game)
    assert after.status == Status.PLAYING and after.version == game.version + 1
    counts = dict(after.computer_attempts)
    assert counts.pop("engine_ms") > 0  # the time of the play it applied (bench/live.py)
    assert counts == {"version": game.version, "starts": 1}


def test_the_counts_hold_when_the_cache_is_flushed(dark_game: Any) -> None:  # noqa: F811
    dying = dark_game()
    for _ in range(turns.MAX_ATTEMPTS):
        turns.count_attempt(dying.pk, dying.version)
    with earlier(minutes=5):
        stuck = dark_game()
    for _ in range(turns.MAX_REQUEUES):
        assert turns.sweep(lambda *a: None) == 1
    cache.clear()  # a Redis restarted empty
    assert tasks.play_computer_turn(dying.pk, dying.version) is False
    assert row(dying).status == Status.FAILED
    assert turns.sweep(lambda *a: None) == 0
    assert row(stuck).status == Status.FAILED
    assert row(stuck).computer_attempts["requeues"] == turns.MAX_REQUEUES


def test_a_stale_task_counts_nothing(dark_game: Any) -> None:  # noqa: F811
    game = dark_game()
    stale = game.version - 1
    assert turns.count_attempt(game.pk, stale) == 0
    assert row(game).computer_attempts == {}
    assert turns.count_attempt(game.pk, game.version) == 1
    assert turns.attempts(game.pk, game.version) == 1 and turns.attempts(game.pk, stale) == 0
