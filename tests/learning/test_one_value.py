"""One value per play (issue 31, item 1): every play a review lists is
valued by the same search, at the review's depth, whether or not it was the
play made, so a play's figure never depends on which play was made.

The real evaluator at the review's depth (3-ply), on the issue's two
decisions and on decisions met in seeded random games.
"""

from __future__ import annotations

import pytest

from ai_worker import analysis
from ai_worker.evaluator import rank_plays
from games.engine import Dice, Position, parse_play
from learning.review.game import review_ply
from tests.learning.conftest import random_decisions

ISSUE = [
    # 13/9 7/5 was listed at -0.4107 (1-ply) and valued -0.3614 when played.
    ("fwEAAB3rAgk4AA", Dice(4, 2), ("22/18 7/5", "13/9 7/5", "15/11 7/5")),
    # 20/18 13/7 was listed at a loss of 0.2108 (1-ply), 0.1389 when played.
    ("FwAAYOhQLmIAAA", Dice(6, 2), ("20/18 13/7", "20/18 20/14")),
]


def values_by_play(position: Position, dice: Dice, played: list[str]) -> dict[str, set[float]]:
    """Every figure the reports give each play, over reviews of each play made."""
    seen: dict[str, set[float]] = {}
    for text in played:
        report = analysis.analyse_turn(
            position, dice, parse_play(position, dice, text), ply=review_ply()
        )
        assert report.ply == review_ply()
        assert report.played_candidate is not None
        listed = [*report.alternatives, report.played_candidate]
        for c in listed:
            seen.setdefault(c.notation, set()).add(c.equity)
    return seen


def the_plays_to_make(position: Position, dice: Dice) -> list[str]:
    """The best, the second, and plays far down the 1-ply list (they are
    listed only when made): each made in turn."""
    ranked = [r.play.notation() for r in rank_plays(position, dice, 1)]
    picks = [ranked[0], ranked[1], ranked[len(ranked) // 2], ranked[-1]]
    return list(dict.fromkeys(picks))


@pytest.mark.parametrize(("position_id", "dice", "played"), ISSUE)
@pytest.mark.slow
def test_the_issues_plays_have_one_value_whichever_was_made(
    position_id: str, dice: Dice, played: tuple[str, ...]
) -> None:
    position = Position.from_position_id(position_id)
    seen = values_by_play(position, dice, [*played, *the_plays_to_make(position, dice)])
    assert {play: len(values) for play, values in seen.items()} == {play: 1 for play in seen}
    made = set(played)
    assert made <= set(seen) and len(made) >= 2  # each made play is also listed when not made


@pytest.mark.slow
def test_a_plays_value_does_not_depend_on_which_play_was_made() -> None:
    checked = 0
    for position, dice in random_decisions(seed=31, count=4, skip=9):
        seen = values_by_play(position, dice, the_plays_to_make(position, dice))
        assert {play: len(values) for play, values in seen.items()} == {play: 1 for play in seen}
        checked += sum(1 for values in seen.values() if values)
    assert checked >= 4 * 5
