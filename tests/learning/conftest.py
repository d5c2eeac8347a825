"""Fixtures for the learning pages and jobs: real games, stored with the ORM.

``play_out(user, position, seed)`` plays a game to its end from ``position``
(LIGHT on roll) with the real engine and the 1-ply evaluator, rolling dice
from a seeded ``random.Random``, and stores the Game and every Turn exactly as
``games.services`` does (positions from LIGHT's side, steps in the mover's
numbering). ``finished_game`` is such a game from a short race.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from ai_worker.evaluator import rank_plays
from games.engine import Dice, Position, Side, outcome
from games.models import Game, Status, Turn

# The shared real-worker fixture (tests/ai/conftest.py), for this package's tests.
from tests.ai.conftest import celery_worker_process  # noqa: F401
from tests.boards import board

# The suite's one builder (tests/boards.py), by the name these tests use.
position = board


# A late middle game: both sides still in contact (LIGHT's blot on 20 can be
# hit), so the review has real decisions, and the game ends in ~15-30 turns.
RACE = position(
    light={20: 1, 8: 2, 6: 4, 5: 3, 4: 2, 3: 2, 2: 1},
    dark={17: 2, 19: 3, 21: 3, 22: 3, 23: 2, 24: 2},
)


def play_out(
    user: Any,
    start: Position,
    seed: int = 1,
    tier: str = "casual",
    max_turns: int = 200,
    light_choice: Callable[[list[Any]], Any] | None = None,
) -> Game:
    """``light_choice(ranked)`` picks LIGHT's play among the ranked ones
    (the best when not given), so a test can make the person err."""
    rng = random.Random(seed)
    game = Game.objects.create(
        owner=user,
        tier=tier,
        status=Status.PLAYING,
        position_id=start.position_id(),
        opening_rolls=[[4, 2]],
    )
    light = start
    side = Side.LIGHT
    for number in range(1, max_turns + 1):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        mover = light if side is Side.LIGHT else light.swapped()
        ranked = rank_plays(mover, Dice(d1, d2), 1)
        choose = light_choice if side is Side.LIGHT and light_choice else (lambda r: r[0])
        play = choose(ranked).play if ranked else None
        after = play.result if play else mover
        light_after = after if side is Side.LIGHT else after.swapped()
        Turn.objects.create(
            game=game,
            number=number,
            side=side.value,
            die1=d1,
            die2=d2,
            notation=play.notation() if play else "",
            steps=[[s.src, s.dst, s.die] for s in play.steps] if play else [],
            position_before=light.position_id(),
            position_after=light_after.position_id(),
        )
        light = light_after
        result = outcome(after, side)
        if result is not None:
            game.status = Status.FINISHED
            game.winner = result.winner.value
            game.result_kind = str(result.kind.value)
            game.points = result.points
            game.finished_at = timezone.now()
            game.position_id = light.position_id()
            game.save()
            return game
        side = side.other
    raise AssertionError("the game did not finish")


@pytest.fixture
def finished_game(user: Any) -> Game:
    return play_out(user, RACE, seed=3)


@pytest.fixture
def game_player() -> Callable[..., Game]:
    return play_out


def unfinish_last_turn(game: Game) -> Turn:
    """Take back a finished game's winning turn: the game waits for that roll
    again, so a test can play the last move through the real services."""
    last = game.turns.order_by("-number").first()
    assert last is not None
    game.status = Status.PLAYING
    game.turn = last.side
    game.dice = [last.die1, last.die2]
    game.position_id = last.position_before
    game.winner, game.result_kind, game.points, game.finished_at = "", "", 0, None
    game.save()
    last.delete()
    return last


@pytest.fixture
def nearly_won_game(user: Any) -> Game:
    """A real game one LIGHT turn from LIGHT's win, its earlier turns stored."""
    for seed in range(1, 40):
        game = play_out(user, RACE, seed=seed)
        if game.winner == "light":
            unfinish_last_turn(game)
            return game
        game.delete()
    raise AssertionError("no seed gave LIGHT the win")
