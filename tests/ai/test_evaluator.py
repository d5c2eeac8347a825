"""ai_worker.evaluator: the board conversion and the ranking of engine plays."""

from __future__ import annotations

import bgbot_cpp
import pytest
from bgsage.board import STARTING_BOARD

from ai_worker.evaluator import from_board26, rank_plays, to_board26
from games.engine import Dice, Position, legal_plays

from .positions import playout_positions


def test_the_start_converts_to_bgsages_starting_board() -> None:
    assert to_board26(Position.start()) == STARTING_BOARD


@pytest.mark.parametrize(("position", "dice"), playout_positions(150, seed=7))
def test_engine_results_convert_to_the_boards_bgsage_generates(
    position: Position, dice: Dice
) -> None:
    # Both generators must describe the same boards for the same plays: this
    # pins the conversion (bars, hits, borne-off checkers) against bgsage.
    ours = {tuple(to_board26(play.result)) for play in legal_plays(position, dice)}
    theirs = {tuple(b) for b in bgbot_cpp.possible_moves(to_board26(position), dice.d1, dice.d2)}
    # With no legal play bgsage returns the board unchanged (or nothing).
    assert ours == theirs or (not ours and theirs <= {tuple(to_board26(position))})


def test_a_hit_checker_is_counted_on_the_opponents_bar() -> None:
    me = [0] * 25
    opp = [0] * 25
    me[7] = 1  # our checker on the 8-point
    me[5] = 14
    opp[24 - 5] = 1  # their blot on our 5-point
    opp[0] = 14
    position = Position(tuple(me), tuple(opp))
    plays = legal_plays(position, Dice(3, 1))
    hit = next(p for p in plays if any(s.hit and s.dst == 5 for s in p.steps))
    assert to_board26(hit.result)[0] == 1


def test_plays_come_best_first_and_cover_every_legal_play() -> None:
    position, dice = Position.start(), Dice(3, 1)
    ranked = rank_plays(position, dice)
    equities = [r.equity for r in ranked]
    assert equities == sorted(equities, reverse=True)
    assert {r.play.result for r in ranked} == {p.result for p in legal_plays(position, dice)}
    assert ranked[0].play.notation() == "8/5 6/5"
    assert 0.0 < ranked[0].probs.win < 1.0


def test_no_legal_play_ranks_nothing() -> None:
    me = [0] * 25
    opp = [0] * 25
    me[24] = 2  # two on the bar
    me[5] = 13
    for point in range(1, 7):  # their closed home board is our 19..24 entry points
        opp[point - 1] = 2
    opp[10] = 3
    position = Position(tuple(me), tuple(opp))
    assert rank_plays(position, Dice(6, 5)) == []


@pytest.mark.parametrize("ply", [2, 3])
def test_deeper_search_keeps_every_play_and_puts_searched_values_on_top(ply: int) -> None:
    position, dice = Position.start(), Dice(6, 4)
    ranked = rank_plays(position, dice, ply)
    assert len(ranked) == len(legal_plays(position, dice))
    assert [r.ply for r in ranked[:2]] == [ply, ply]
    assert ranked[0].equity >= ranked[1].equity


def test_a_ply_outside_the_supported_range_is_refused() -> None:
    with pytest.raises(ValueError):
        rank_plays(Position.start(), Dice(3, 1), ply=4)


def test_bgsage_boards_convert_back_to_the_same_position() -> None:
    position = Position.start()
    for play in legal_plays(position, Dice(6, 4)):
        assert from_board26(to_board26(play.result)) == play.result
    assert from_board26(STARTING_BOARD) == position
