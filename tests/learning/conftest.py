"""Fixtures for the learning pages and jobs: real games, played through the site.

``play_out(user, position, seed)`` plays a game to its end from ``position``
(LIGHT on roll) through ``games.services``: LIGHT's plays step by step as the
board sends them, DARK's as the computer's task applies them, both chosen by
the 1-ply evaluator, the dice from a seeded ``random.Random`` in place of
``services.dice.roll_die``. So the Game and Turn rows are the site's own.
``finished_game`` is such a game from a short race.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.db import transaction

from ai_worker.evaluator import rank_plays
from games import services
from games.engine import Dice, Play, Position, Side, outcome
from games.models import Game

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
    stop_before_win: bool = False,
) -> Game:
    """``light_choice(ranked)`` picks LIGHT's play among the ranked ones
    (the best when not given), so a test can make the person err. With
    ``stop_before_win`` the game stops (LIGHT on roll) before a LIGHT play
    that would win it; it ends as it is when DARK wins first."""
    rng = random.Random(seed)
    choose = light_choice or (lambda ranked: ranked[0])
    # One transaction: what is sent after commit (the computer's turn due,
    # the finished game's review) goes out once, when the game is stored.
    with mock.patch.object(services.dice, "roll_die", lambda: rng.randint(1, 6)):
        with transaction.atomic():
            game = services.start_game_from(user, tier, start)
            while not game.is_over:
                if (game.last_turn or {}).get("number", 0) >= max_turns:
                    raise AssertionError("the game did not finish")
                if game.turn == Side.DARK.value:
                    game = _computer_plays(game)
                    continue
                ranked = rank_plays(services.position_of(game), Dice(*game.dice), 1)
                play = choose(ranked).play
                if stop_before_win and outcome(play.result, Side.LIGHT) is not None:
                    return game
                game = _person_plays(game, play)
    return game


def _person_plays(game: Game, play: Play) -> Game:
    """LIGHT's play, step by step as the board sends it, then the turn's end."""
    for step in play.steps:
        game = services.make_step(game.pk, game.owner, game.version, step.src, step.dst, step.die)
    if game.turn == Side.LIGHT.value and game.steps:
        game = services.end_turn(game.pk, game.owner, game.version)
    return game


def _computer_plays(game: Game) -> Game:
    """DARK's best 1-ply play (or its pass), as the computer's task applies it."""
    turn = services.begin_computer_turn(game.pk, game.version)
    assert turn is not None
    ranked = rank_plays(*turn, 1)
    services.finish_computer_turn(game.pk, game.version, ranked[0].play if ranked else None)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def finished_game(user: Any) -> Game:
    return play_out(user, RACE, seed=3)


@pytest.fixture
def game_player() -> Callable[..., Game]:
    return play_out


@pytest.fixture
def nearly_won_game(user: Any) -> Game:
    """A real game one LIGHT turn from LIGHT's win, its earlier turns stored."""
    for seed in range(1, 40):
        game = play_out(user, RACE, seed=seed, stop_before_win=True)
        if not game.is_over:
            return game
        game.delete()
    raise AssertionError("no seed gave LIGHT the win")
