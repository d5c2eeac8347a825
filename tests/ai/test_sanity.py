"""Sane chances through the public evaluator: what the board rules out is never said."""

from __future__ import annotations

import doctest
import random
from types import ModuleType

import pytest

from ai_worker import evaluator, grading, luck, sanity, search
from ai_worker.evaluator import rank_plays, value_unmoved
from games.engine import Dice, Position
from tests.ai.positions import side

from .positions import playout_positions

# The example: four checkers left on the ace point against an
# opponent with three off and two checkers still outside its home board.
ACES = Position.from_position_id("ux0gAeABAAAAAA")


@pytest.mark.parametrize("ply", [1, 2])
@pytest.mark.parametrize("dice", [Dice(4, 4), Dice(2, 1), Dice(6, 5)])
def test_a_certain_single_win_is_worth_exactly_one_point(dice: Dice, ply: int) -> None:
    assert sum(ACES.opp) < 15 and ACES.me[0] == 4 == sum(ACES.me)
    for r in rank_plays(ACES, dice, ply):
        assert r.equity == 1.0
        assert (r.probs.win, r.probs.win_gammon, r.probs.win_backgammon) == (1.0, 0.0, 0.0)


def test_a_roll_that_wins_like_every_other_roll_is_not_lucky() -> None:
    table = luck.best_equities(ACES, ply=1)
    assert set(table.values()) == {1.0}
    assert luck.roll_luck(table, Dice(4, 4)) == 0.0


@pytest.mark.parametrize("ply", [1, 2])
def test_no_gammon_is_won_against_a_side_that_has_borne_off(ply: int) -> None:
    # Contact: the mover holds a five-point board and the opponent, one
    # checker on the bar, has already borne one off (the net says ~0.8%).
    me = side({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 13: 2})
    opp = side({1: 2, 6: 5, 5: 4, 4: 2}, bar=1)
    assert sum(opp) == 14
    for r in rank_plays(Position(me, opp), Dice(6, 2), ply):
        assert r.probs.win_gammon == r.probs.win_backgammon == 0.0
    # Seen from the other side, the same rule forbids losing a gammon.
    for r in rank_plays(Position(opp, me), Dice(3, 1), ply):
        assert r.probs.lose_gammon == r.probs.lose_backgammon == 0.0


def test_no_backgammon_in_a_race_with_no_checker_left_in_the_winners_home() -> None:
    # No contact; the opponent's checkers all stand just outside the mover's
    # home board: a sure gammon, never a backgammon (the net says ~0.5%).
    me = side({3: 5, 2: 5, 1: 5})
    opp = side({18: 8, 17: 7})
    for r in rank_plays(Position(me, opp), Dice(1, 1)):
        assert r.probs.win_backgammon == 0.0
        assert r.probs.win == 1.0


@pytest.mark.parametrize(("position", "dice"), playout_positions(120, seed=11))
def test_chances_are_ordered_and_inside_zero_one(position: Position, dice: Dice) -> None:
    for r in rank_plays(position, dice)[:6]:
        p = r.probs
        assert 0.0 <= p.win_backgammon <= p.win_gammon <= p.win <= 1.0
        assert 0.0 <= p.lose_backgammon <= p.lose_gammon <= 1.0 - p.win
        expected = 2 * p.win - 1 + p.win_gammon + p.win_backgammon
        assert r.equity == pytest.approx(expected - p.lose_gammon - p.lose_backgammon)


def test_two_bear_off_plays_that_need_the_same_rolls_are_equal() -> None:
    # Checkers on 6, 4, 3, 2 against three opponent checkers, one outside
    # its home board: 6/off 4/2 leaves 3-2-2 and 6/off 3/1 leaves 4-2-1,
    # both one roll with 2-2 or higher doubles and two rolls otherwise.
    # The network alone rates them 0.05 apart (a "doubtful" error).
    position = Position(side({6: 1, 4: 1, 3: 1, 2: 1}), side({7: 1, 5: 1, 4: 1}))
    ranked = {r.play.notation(): r for r in rank_plays(position, Dice(6, 2), 1)}
    assert ranked["6/off 4/2"].equity == ranked["6/off 3/1"].equity
    assert ranked["6/off 2/off"].equity > ranked["6/off 4/2"].equity


def test_a_dance_is_valued_sanely_too() -> None:
    # The mover dances against a closed board, but it has borne off two
    # checkers: it cannot lose a gammon (the net says ~10%).
    me = side({6: 4, 5: 4, 8: 3, 13: 2}, bar=1)
    opp = side({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2})
    equity, probs = value_unmoved(Position(me, opp))
    assert probs.lose_gammon == 0.0 and probs.lose_backgammon == 0.0
    assert equity == pytest.approx(2 * probs.win - 1 + probs.win_gammon + probs.win_backgammon)


def test_a_dance_in_the_luck_table_is_valued_at_the_tables_depth() -> None:
    # The opponent has closed its 1..5 points: 25 rolls of 36 (those without
    # a 6) leave the mover on the bar. Every roll's entry is the board after
    # the turn searched at the table's ply, a dance's unchanged board too.
    me = side({13: 5, 8: 3, 6: 5}, bar=2)
    opp = side({7: 3, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 2})
    position = Position(me, opp)
    assert rank_plays(position, Dice(5, 4)) == [] and rank_plays(position, Dice(6, 1))
    shallow, deep = value_unmoved(position, 1)[0], value_unmoved(position, 2)[0]
    assert abs(deep - shallow) > 0.005  # the depth shows in the figure
    table = luck.best_equities(position, ply=2)
    assert table[(5, 4)] == table[(1, 1)] == deep
    assert table[(6, 1)] == rank_plays(position, Dice(6, 1), 2)[0].equity
    assert luck.best_equities(position, ply=1)[(5, 4)] == shallow


def test_the_26_point_board_is_cleaned_by_the_same_rules() -> None:
    # The search cleans its leaves on bgsage's boards (``sane_board26``);
    # the rules must be those of ``sane_probs`` on every kind of position,
    # with chances that break each rule.
    rng = random.Random(5)
    positions = [p for p, _dice in playout_positions(600, seed=23)]
    positions += [p.swapped() for p in positions] + [ACES, ACES.swapped()]
    for position in positions:
        chances = [rng.uniform(-0.1, 1.1) for _ in range(5)]
        board = evaluator.to_board26(position)
        expected = sanity.sane_probs(position, sanity.Probs(*chances))
        assert sanity.Probs(*sanity.sane_board26(board, chances)) == expected, position


@pytest.mark.parametrize("module", [sanity, grading, evaluator, search])
def test_the_modules_examples_hold(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0
