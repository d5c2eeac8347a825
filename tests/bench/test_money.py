"""The cube game loop of ``bench/strength.py --money`` on seeded games.

The rules come from the engine (``games.engine.cube``); these tests check
that the bench's loop applies them: a game is worth its kind times the cube,
a pass gives the doubler the cube's value before the double, the Jacoby rule
counts a single while the cube is centred, and a duplicate pair of equal
players comes out at exactly 0. Scripted players choose the engine's first
legal play (fast); one game is played by a real tier against bgsage.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ai_worker.cube import CubeAction, CubeContext
from bench._money import (
    MONEY,
    CubePlayer,
    GameResult,
    SagePlayer,
    TierPlayer,
    dice_stream,
    play_game,
    play_pairs,
)
from games.engine import Cube, Dice, Match, Play, Position, ResultKind, Side, legal_plays
from games.tiers import Tier
from tests.engine.boards import board

LIGHT, DARK = Side.LIGHT, Side.DARK
# Seat 0 bears off its last checker on any roll; the other side has none off.
GAMMON = board({1: 1}, {12: 15})
BACKGAMMON = board({1: 1}, {12: 14, 3: 1})  # one of theirs still in the winner's home
# A close race, the side on roll a little ahead: doubles, takes and passes.
RACE = board({6: 3, 5: 3, 4: 2, 3: 2, 2: 2}, {19: 3, 20: 3, 21: 3, 22: 3})


@dataclass
class Scripted(CubePlayer):
    """Always (or never) doubles, always takes (or passes), plays the first legal play."""

    doubles: bool = False
    takes: bool = True
    asked: int = 0

    def double(self, position: Position, context: CubeContext, game: int) -> CubeAction:
        self.asked += 1
        return CubeAction.DOUBLE if self.doubles else CubeAction.NO_DOUBLE

    def take(self, position: Position, context: CubeContext, game: int) -> CubeAction:
        return CubeAction.TAKE if self.takes else CubeAction.PASS

    def play(
        self, position: Position, dice: Dice, context: CubeContext | None, game: int
    ) -> Play | None:
        plays = legal_plays(position, dice)
        return plays[0] if plays else None


def test_a_pass_gives_the_doubler_the_cube_before_the_double() -> None:
    players = [Scripted(takes=False), Scripted(doubles=True)]
    result = play_game(players, dice_stream(1), 0)
    # Seat 0 opens (no double before the opening roll); seat 1 doubles at once.
    assert (result.points, result.kind, result.cube, result.doubles) == (-1, None, Cube(), 1)
    owned = play_game(players, dice_stream(1), 0, cube=Cube(4, DARK))
    assert (owned.points, owned.kind, owned.doubles) == (-4, None, 1)


def test_points_are_the_kind_times_the_cube_after_every_redouble() -> None:
    players = [Scripted(doubles=True), Scripted(doubles=True)]
    result = play_game(players, dice_stream(7), 0)
    assert result.kind is not None and result.cube is not None
    assert result.cube.value == 64 and result.doubles == 6  # 64 is the last double
    assert abs(result.points) == result.kind.points * 64
    winner = LIGHT if result.points > 0 else DARK
    assert result.cube.owner in (LIGHT, DARK) and winner in (LIGHT, DARK)


@pytest.mark.parametrize(
    ("start", "match", "cube", "points"),
    [
        (GAMMON, MONEY, None, 1),  # Jacoby: the cube never turned, a single
        (GAMMON, Match(), None, 2),  # no Jacoby: the gammon counts
        (GAMMON, MONEY, Cube(2, DARK), 4),  # the cube turned: gammon × 2
        (GAMMON, None, None, 2),  # cubeless single game: the kind
        (BACKGAMMON, MONEY, None, 1),
        (BACKGAMMON, MONEY, Cube(4, LIGHT), 12),
        (BACKGAMMON, None, None, 3),
    ],
)
def test_jacoby_and_the_cube_set_the_points_of_a_finished_game(
    start: Position, match: Match | None, cube: Cube | None, points: int
) -> None:
    result = play_game([Scripted(), Scripted()], dice_stream(3), 0, match, start, cube)
    assert result.points == points
    assert result.kind is (ResultKind.GAMMON if start is GAMMON else ResultKind.BACKGAMMON)


def test_nobody_is_asked_to_double_in_a_cubeless_game() -> None:
    players = [Scripted(doubles=True), Scripted(doubles=True)]
    result = play_game(players, dice_stream(5), 0, None)
    assert result.cube is None and result.doubles == 0
    assert players[0].asked == players[1].asked == 0
    assert abs(result.points) in (1, 2, 3)


def test_a_duplicate_pair_of_equal_players_scores_exactly_zero() -> None:
    one, two = Scripted(doubles=True, takes=True), Scripted(doubles=True, takes=True)
    totals = play_pairs(one, two, range(3), 11, cubeless=True)
    assert totals.cube == [0.0, 0.0, 0.0] and totals.cubeless == [0.0, 0.0, 0.0]
    # The two games of a pair are the same game with the seats swapped.
    assert totals.games[0] == totals.games[1] and totals.games[0].points != 0


def expected_points(result: GameResult) -> int:
    """The rules written out: a pass is the cube before the double; else kind × cube, Jacoby."""
    assert result.cube is not None
    if result.kind is None:
        return result.cube.value
    multiple = 1 if result.cube.owner is None else result.kind.points
    return multiple * result.cube.value


def test_a_tier_plays_a_race_with_the_cube_against_bgsage_and_its_decisions_are_counted() -> None:
    tier = TierPlayer(Tier.BEGINNER)
    first = play_game([tier, SagePlayer()], dice_stream(0), 0, start=RACE)
    second = play_game([SagePlayer(), tier], dice_stream(0), 1, start=RACE)
    for result in (first, second):
        assert abs(result.points) == expected_points(result)
    # Seeded so that the pair has one passed double and one game to the end on a turned cube.
    assert first.kind is None and second.kind is not None
    assert second.cube is not None and second.cube.value > 1
    assert tier.tallies["double"].decisions >= 1 and tier.tallies["take"].decisions >= 1
