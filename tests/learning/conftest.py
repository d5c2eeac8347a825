"""Fixtures for the learning pages and jobs: real games, played through the site.

``play_out(user, position, seed)`` plays a game to its end from ``position``
(LIGHT on roll; None: from the opening roll) through ``games.services``:
LIGHT's plays step by step as the board sends them, DARK's as the computer's
task applies them, both chosen by the 1-ply evaluator, the dice from a seeded
``random.Random`` (or the test's own) in place of ``services.dice.roll_die``.
So the Game and Turn rows are the site's own.
``finished_game`` is such a game from a short race. ``erring_game`` is one
from a middle game where LIGHT makes two plain blunders (``Blunders``), one
LIGHT turn before LIGHT's win: a review is sure to mark errors in it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple
from unittest import mock

import pytest
from django.db import transaction

from ai_worker.evaluator import rank_plays
from games import reading, services
from games.engine import Dice, Play, Position, Side, legal_plays, outcome
from games.models import Game, GameKind, Status
from learning.review import game as review

# The shared real-worker fixture (tests/ai/conftest.py), for this package's tests.
from tests.ai.conftest import celery_worker_process  # noqa: F401
from tests.boards import board
from tests.conftest import dark_turn

# The suite's one builder (tests/boards.py), by the name these tests use.
position = board


# A late middle game: both sides still in contact (LIGHT's blot on 20 can be
# hit), so the review has real decisions, and the game ends in ~15-30 turns.
RACE = position(
    light={20: 1, 8: 2, 6: 4, 5: 3, 4: 2, 3: 2, 2: 1},
    dark={17: 2, 19: 3, 21: 3, 22: 3, 23: 2, 24: 2},
)

# A middle game, each side one checker back: there LIGHT's worst play can
# leave blots to direct shots and lose most of a game, which any depth marks.
MIDDLE = position(
    light={24: 1, 13: 2, 8: 3, 6: 4, 5: 3, 4: 2},
    dark={1: 1, 12: 2, 17: 3, 19: 4, 20: 3, 21: 2},
)


def play_out(
    user: Any,
    start: Position | None,
    seed: int = 1,
    tier: str = "casual",
    max_turns: int = 200,
    light_choice: Callable[[list[Any]], Any] | None = None,
    stop_before_win: bool = False,
    dice: Iterable[int] | None = None,
    turns: int | None = None,
    committed: bool = False,
) -> Game:
    """With ``committed`` the dice are the game's own, from its seeds (docs/dice.md).
    ``start`` None: the game opens as the lobby's does, by the opening roll
    from the starting position. ``light_choice(ranked)`` picks LIGHT's play
    among the ranked ones (the best when not given), so a test can make the
    person err. With ``stop_before_win`` the game stops (LIGHT on roll) before
    a LIGHT play that would win it; it ends as it is when DARK wins first.
    ``dice`` gives every die rolled, in order, instead of the seeded ones
    (running out fails the test); ``turns`` stops the game once that many
    turns are stored."""
    roll = services.dice.roll_die if committed else _dice_source(seed, dice)
    choose = light_choice or (lambda ranked: ranked[0])
    # One transaction: what is sent after commit (the computer's turn due,
    # the finished game's review) goes out once, when the game is stored.
    with mock.patch.object(services.dice, "roll_die", roll):
        with transaction.atomic():
            game = _started(user, tier, start)
            while not game.is_over:
                number = (game.last_turn or {}).get("number", 0)
                if number == turns:
                    return game
                if number >= max_turns:
                    raise AssertionError("the game did not finish")
                if game.turn == Side.DARK.value:
                    game = computer_plays(game)
                    continue
                ranked = rank_plays(reading.position_of(game), Dice(*game.dice), 1)
                play = choose(ranked).play
                if stop_before_win and outcome(play.result, Side.LIGHT) is not None:
                    return game
                game = person_plays(game, play)
    return game


def _dice_source(seed: int, dice: Iterable[int] | None) -> Callable[[], int]:
    if dice is None:
        rng = random.Random(seed)
        return lambda: rng.randint(1, 6)
    given = iter(dice)

    def roll() -> int:
        die = next(given, None)
        if die is None:
            raise AssertionError("the game rolled more dice than the test gave")
        return die

    return roll


def _started(user: Any, tier: str, start: Position | None) -> Game:
    if start is None:
        return services.start_game(user, tier)
    return services.start_game_from(user, tier, start)


def person_plays(game: Game, play: Play) -> Game:
    """LIGHT's play, step by step as the board sends it, then the turn's end."""
    for step in play.steps:
        game = services.make_step(game.pk, game.owner, game.version, step.src, step.dst, step.die)
    if game.turn == Side.LIGHT.value and game.steps:
        game = services.end_turn(game.pk, game.owner, game.version)
    return game


def computer_plays(game: Game) -> Game:
    """DARK's best 1-ply play (or its pass), as the computer's task applies it."""
    turn = dark_turn(game.pk, game.version)
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


class Blunders:
    """A ``light_choice``: LIGHT's worst play (1-ply) on its first ``limit``
    turns where the worst gives away at least ``gap`` against the best, the
    best play otherwise. ``after`` keeps the positions those blunders left."""

    def __init__(self, limit: int = 2, gap: float = 0.4) -> None:
        self.limit, self.gap = limit, gap
        self.after: list[str] = []

    def __call__(self, ranked: list[Any]) -> Any:
        best, worst = ranked[0], ranked[-1]
        if len(self.after) < self.limit and best.equity - worst.equity >= self.gap:
            self.after.append(worst.play.result.position_id())
            return worst
        return best


class ErringGame(NamedTuple):
    game: Game
    blunders: list[int]  # the numbers of LIGHT's turns that were blunders


@pytest.fixture
def erring_game(user: Any) -> ErringGame:
    """A real game from ``MIDDLE`` one LIGHT turn from LIGHT's win, with
    LIGHT's two blunders (``Blunders``) among its stored turns."""
    for seed in range(1, 60):
        blunders = Blunders()
        game = play_out(user, MIDDLE, seed=seed, light_choice=blunders, stop_before_win=True)
        if not game.is_over and len(blunders.after) == blunders.limit:
            light = game.turns.filter(side=Side.LIGHT.value, position_after__in=blunders.after)
            return ErringGame(game, sorted(light.values_list("number", flat=True)))
        game.delete()
    raise AssertionError("no seed gave LIGHT the win after two blunders")


def one_ply(
    position: Position, dice: Any, ply: int, keep: Any = None, shown: int = 2, context: Any = None
) -> Any:
    """The real evaluator at 1-ply: a review fast enough for a unit test."""
    return rank_plays(position, dice, 1, context=context)


def worst(ranked: list[Any]) -> Any:
    return ranked[-1]


def cube_game_reviewed(user: Any) -> Game:
    """A money game (Jacoby) through the services with two wrong cube
    decisions of the person's, reviewed: DARK's 2-1 dances; LIGHT doubles at
    ``FAR_BEHIND`` (no double is right) and DARK takes; LIGHT plays 5-4;
    DARK redoubles to 4 in ``DOUBLE_PASS`` and LIGHT takes (a pass is
    right); DARK plays 6-6, then LIGHT resigns a single game: the computer
    wins 4 points."""
    from unittest import mock

    from django.db import transaction

    from games import services
    from games.engine import play_leading_to

    behind = Position.from_position_id(FAR_BEHIND)
    rolls = iter([5, 4, 6, 6])
    # One transaction, as play_out's: the computer's tasks announced on
    # commit find the game over (a real pool would race the test's moves).
    with mock.patch.object(services.dice, "roll_die", lambda: next(rolls)), transaction.atomic():
        # DARK's 2-1 from the bar cannot enter: LIGHT decides at the same board.
        money = GameKind.MONEY
        game = services.start_game_from(user, "casual", behind, Side.DARK, [2, 1], kind=money)
        game = computer_plays(game)
        assert (game.status, game.turn, game.position_id) == ("deciding", "light", FAR_BEHIND)
        game = services.double(game.pk, user, game.version)
        assert services.finish_computer_cube(game.pk, game.version, "take")
        game = Game.objects.get(pk=game.pk)  # the doubler rolls at once
        assert game.dice == [5, 4]
        strong = Position.from_position_id(DOUBLE_PASS)  # DARK's side
        play = play_leading_to(behind, Dice(5, 4), strong.swapped())
        assert play is not None
        game = person_plays(game, play)
        assert services.finish_computer_cube(game.pk, game.version, "double")
        game = services.take(game.pk, user, Game.objects.get(pk=game.pk).version)
        game = computer_plays(game)
        game = services.resign(game.pk, user, game.version, "single")
        assert services.answer_resignation(game.pk, game.version, accept=True)
    game = Game.objects.get(pk=game.pk)
    assert (game.winner, game.result_kind, game.points) == ("dark", "single", 4)
    assert (game.cube_value, game.cube_owner) == (4, "light")
    review.run_analysis(game.pk, rank=one_ply)
    return game


@pytest.fixture
def cube_game_played(user: Any) -> Game:
    """A money game through the services: LIGHT's 2-1 cannot enter; DARK
    rolls without doubling and plays 5-4; LIGHT doubles and DARK takes (a
    wrong take); LIGHT plays 5-2; DARK redoubles to 4 at once and LIGHT passes.

    In one transaction, as play_out's games: where the test commits (the
    browser tests), each step's announce would otherwise start the
    computer's turn on the in-process pool beside these direct calls, and
    the faster of the two would take the computer's decision."""
    from unittest import mock

    from django.db import transaction

    from ai_worker.evaluator import rank_plays
    from games import services
    from games.engine import Dice

    rolls = iter([5, 4, 5, 2])
    with mock.patch.object(services.dice, "roll_die", lambda: next(rolls)), transaction.atomic():
        before = Position.from_position_id(BEFORE_DOUBLE_PASS)
        game = services.start_game_from(user, "casual", before, dice=[2, 1], kind=GameKind.MONEY)
        assert (game.status, game.turn, game.last_turn["notation"]) == (Status.DECIDING, "dark", "")
        assert services.finish_computer_cube(game.pk, game.version, "no_double")
        game = computer_plays(Game.objects.get(pk=game.pk))
        assert game.last_turn["dice"] == [5, 4]
        assert (game.status, game.turn) == (Status.DECIDING, "light")
        game = services.double(game.pk, user, game.version)
        assert services.finish_computer_cube(game.pk, game.version, "take")
        game.refresh_from_db()  # the doubler rolls at once
        ranked = rank_plays(reading.position_of(game), Dice(*game.dice), 1)
        game = person_plays(game, ranked[0].play)
        assert (game.status, game.turn) == (Status.DECIDING, "dark")
        assert services.finish_computer_cube(game.pk, game.version, "double")
        game.refresh_from_db()
        game = services.pass_double(game.pk, user, game.version)
    assert (game.winner, game.passed, game.points, game.cube_value) == ("dark", True, 2, 2)
    return game


# A money game position (the doubler's side, on roll) where the double is
# right and the taker should pass, at 1- and 2-ply alike (72.9% wins, 33% gammons).
DOUBLE_PASS = "d1bABBi8eYQJQA"


# The board before it, LIGHT's side, DARK on the bar: LIGHT, far behind (no
# double, nothing close), plays 5-4, 24/15, and leaves DARK ``DOUBLE_PASS``.
FAR_BEHIND = "vHmECUB3VsAALA"


# LIGHT on the bar against DARK's 1 and 2 points; DARK far behind (no double,
# nothing close), its 5-4, 6/1 5/1 at 1-ply, leaves LIGHT a double that DARK
# should pass (at 1, 2 and 3-ply).
BEFORE_DOUBLE_PASS = "d1bAACy8eYQJQA"


def random_decisions(seed: int, count: int, skip: int = 4) -> list[tuple[Position, Dice]]:
    """``count`` decisions (two or more legal plays) met in games of random
    plays from the start, seeded: every ``skip``-th one, so they spread over
    the opening, the middle game, races and bear-offs."""
    rng = random.Random(seed)
    found: list[tuple[Position, Dice]] = []
    seen = 0
    while len(found) < count:
        pos = Position.start()
        while outcome(pos, Side.LIGHT) is None:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(pos, dice)
            if len(plays) >= 2:
                seen += 1
                if seen % skip == 0:
                    found.append((pos, dice))
                    if len(found) == count:
                        break
            if plays:
                pos = rng.choice(plays).result
            pos = pos.swapped()
    return found


@pytest.fixture
def rankings_held() -> Iterator[None]:
    """``person_to_decide`` queues no ranking during the test."""
    from games.signals import person_to_decide
    from learning.receivers import queue_tutor

    uid = "learning.prepare_tutor"
    person_to_decide.disconnect(dispatch_uid=uid)
    try:
        yield
    finally:
        person_to_decide.connect(queue_tutor, dispatch_uid=uid)
