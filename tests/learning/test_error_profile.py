"""The error profile (``learning.study.error_profile``): a decision's kind and phase,
the shares, the distance, and the people's profile read from the database."""

from __future__ import annotations

from typing import Any

import pytest

from ai_worker.analysis import analyse_turn
from games.engine import Dice, Position, legal_plays
from learning.models import TurnAnalysis
from learning.review import game as review
from learning.review.phases import phase_of
from learning.review.pr import counts
from learning.study.error_profile import (
    BEAROFF_KIND,
    BLOTS,
    CUBE_KIND,
    HITS,
    OTHER,
    POINTS,
    Profile,
    distance,
    error_kind,
    site_profile,
)
from tests.engine.boards import board
from tests.learning.conftest import MIDDLE, Blunders, one_ply, play_out

# A middle game: DARK's blot on LIGHT's 4-point, LIGHT's 8- and 6-points can hit it.
HIT_BOARD = board({24: 2, 13: 5, 8: 3, 6: 5}, {4: 1, 1: 2, 12: 5, 17: 3, 19: 4})
# LIGHT's 3-1 makes the 5-point (13/10 6/5 is best); 6/5 6/3 leaves two blots in range.
POINT_BOARD = board({24: 2, 13: 4, 8: 3, 6: 4, 5: 1, 9: 1}, {1: 2, 12: 5, 17: 3, 19: 5})
BEAR_OFF = board({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 5, 20: 5, 21: 5})


def _kind(position: Position, roll: tuple[int, int], notation: str, turn: int = 10) -> str:
    dice = Dice(*roll)
    play = next(p for p in legal_plays(position, dice) if p.notation() == notation)
    report = analyse_turn(position, dice, play, ply=1)
    assert report.played_candidate is not None
    assert report.equity_lost > 0.01
    why = [r.code for r in report.played_candidate.versus]
    return error_kind(phase_of(position, turn), why)


def test_the_kind_comes_from_the_reviews_own_comparison() -> None:
    assert _kind(HIT_BOARD, (4, 2), "8/2") == HITS  # 8/4* 6/4 hits; 8/2 does not
    assert _kind(HIT_BOARD, (4, 2), "13/9 6/4*") == POINTS  # hits, but no point made
    assert _kind(POINT_BOARD, (3, 1), "6/5 6/3") == BLOTS
    assert _kind(POINT_BOARD, (3, 1), "24/21 6/5") == POINTS  # keeps the 13 point
    assert _kind(BEAR_OFF, (6, 5), "6/1 6/off") == BEAROFF_KIND
    assert _kind(POINT_BOARD, (3, 1), "9/5") == OTHER


def test_rules_on_constructed_codes() -> None:
    assert error_kind("opening", ["wins_gammon", "escapes", "hits_more", "safer"]) == HITS
    assert error_kind("middle", ["blitz"]) == HITS
    assert error_kind("middle", ["prime", "safer"]) == POINTS
    assert error_kind("race", ["safer"]) == BLOTS
    assert error_kind("bearoff", ["hits_more"]) == BEAROFF_KIND
    assert error_kind("cube", []) == CUBE_KIND
    assert error_kind("middle", ["chances"]) == OTHER
    with pytest.raises(ValueError, match="unknown phase"):
        Profile().add("bear-in", [], 0.1)


def test_shares_pr_and_distance_on_constructed_decisions() -> None:
    one = Profile().extend(
        [
            {"phase": "middle", "why": ["safer"], "loss": 0.06},
            {"phase": "middle", "why": ["hits_more"], "loss": 0.02},
            {"phase": "bearoff", "why": [], "loss": 0.02},
            {"phase": "opening", "why": [], "loss": 0.0},
            {"phase": "cube", "why": [], "loss": 0.1},
        ]
    )
    assert one.counted() == 4 and one.counted(checker_only=False) == 5
    assert one.pr() == pytest.approx(500 * 0.10 / 4)
    assert one.shares()[("middle", BLOTS)] == pytest.approx(0.6)
    assert one.kind_shares() == pytest.approx(
        {BLOTS: 0.6, HITS: 0.2, POINTS: 0, BEAROFF_KIND: 0.2, OTHER: 0}
    )
    assert one.phase_shares(checker_only=False)["cube"] == pytest.approx(0.5)
    two = Profile().extend([{"phase": "middle", "why": ["safer"], "loss": 0.3}])
    # Half the sum of |0.6-1|, 0.2 and 0.2.
    assert distance(one, two) == pytest.approx(0.4)
    assert distance(one, one) == 0.0
    assert distance(one, Profile()) is None


@pytest.mark.django_db
@pytest.mark.slow
def test_the_peoples_profile_is_the_owners_side_of_reviewed_games(user: Any) -> None:
    blunders = Blunders(limit=1)
    game = play_out(user, MIDDLE, seed=3, light_choice=blunders)
    assert game.is_over and len(blunders.after) == blunders.limit
    assert review.run_analysis(game.pk, rank=one_ply)
    turns = TurnAnalysis.objects.filter(analysis__game=game).select_related("turn")
    light = [t for t in turns if t.side == "light" and not t.forced and counts(t)]
    dark = [t for t in turns if t.side == "dark" and not t.forced and counts(t)]
    assert light and dark
    people = site_profile()
    assert people.counted() == len(light)  # the computer's side is left out
    assert sum(people.lost.values()) == pytest.approx(sum(t.equity_lost for t in light))
    erred = [t for t in light if t.turn.position_after in blunders.after]
    assert len(erred) == blunders.limit
    for blunder in erred:
        position = Position.from_position_id(blunder.turn.position_before)
        why = [r["code"] for r in blunder.report["played_candidate"]["versus"]]
        phase = phase_of(position, blunder.number)
        assert people.lost[(phase, error_kind(phase, why))] >= blunder.equity_lost > 0.1
