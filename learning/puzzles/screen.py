"""The review's ranking of a candidate position, kept whole for the bank.

A cheap look first (``prescreen``: bgsage 1-ply, every play) drops the
positions that cannot be puzzles; the rest are ranked as the review ranks
(``rank``: ``ai_worker.evaluator.rank_plays`` at ``review_ply()``, its
filter's best five and the ``SHOWN`` best searched at full depth). Each
play is kept with its equity, chances and the depth it was valued at, so
a person's answer is judged later without a search. Cube candidates are
judged as the review judges a cube decision (``ai_worker.cube_advice``).

No Django here.
"""

from __future__ import annotations

from typing import Any

from ai_worker.candidates import probs_dict
from ai_worker.cube import CubeContext, evaluate_cube
from ai_worker.cube_advice import DOUBLE, TAKE, CubeAdvice, advise
from games.engine import Dice, Position
from learning.puzzles.rules import MIN_GAP, gap, is_puzzle
from learning.puzzles.sources import Decision

SHOWN = 8  # the best plays valued at full depth: what a person's answer is judged on
PRESCREEN_GAP = 0.03  # 1-ply: a looser line than MIN_GAP, the deeper look decides


def prescreen(decision: Decision) -> bool:
    """Whether the 1-ply ranking leaves the position a possible puzzle."""
    from ai_worker.evaluator import rank_plays

    ranked = rank_plays(Position.from_position_id(decision.pos), Dice(*decision.dice), 1)
    if len(ranked) < 2:
        return False
    found = gap([r.equity for r in ranked])
    return found is not None and found >= PRESCREEN_GAP


def rank(decision: Decision, ply: int) -> dict[str, Any]:
    """The record of ``decision`` ranked at ``ply``: every play, best first."""
    from ai_worker.evaluator import rank_plays

    position = Position.from_position_id(decision.pos)
    ranked = rank_plays(position, Dice(*decision.dice), ply, shown=SHOWN)
    plays = [
        [
            r.play.notation(),
            r.play.result.position_id(),
            round(float(r.equity), 5),
            [round(v, 5) for v in probs_dict(r.probs).values()],
            r.ply,
        ]
        for r in ranked
    ]
    return {
        "key": decision.key,
        "kind": "checker",
        "decision": decision.to_json(),
        "ply": ply,
        "plays": plays,
        "puzzle": is_puzzle([float(r.equity) for r in ranked]),
    }


# ------------------------------------------------------------------ the cube

# What makes a cube decision worth asking: the doubler near its window.
DOUBLE_WINDOW = 0.25  # a right no double at most this far from doubling
TAKE_WINDOW = 0.10  # a take decision: the double at most this much of a mistake
MOST_LOSS = 0.5  # a wrong answer costing more is no question


def cube_screen(position: Position, context: CubeContext) -> list[str]:
    """Which cube decisions (``DOUBLE``, ``TAKE``) bgsage 1-ply finds worth a
    deeper look here (a looser line than ``cube_questions``)."""
    e = evaluate_cube(position, context, 1)
    doubled = min(e.double_take, e.double_pass)
    found = []
    wrong = abs(doubled - e.no_double)
    if PRESCREEN_GAP <= wrong <= DOUBLE_WINDOW + 0.05 or (
        e.double_take > e.double_pass and PRESCREEN_GAP <= e.no_double - e.double_pass <= MOST_LOSS
    ):
        found.append(DOUBLE)
    if (
        doubled - e.no_double >= -TAKE_WINDOW - 0.05
        and PRESCREEN_GAP <= abs(e.double_take - e.double_pass) <= MOST_LOSS
    ):
        found.append(TAKE)
    return found


def cube_question(advice: CubeAdvice) -> bool:
    """Whether the review's advice makes ``advice.decision`` a cube puzzle:
    the wrong answer costs at least ``MIN_GAP`` (and at most ``MOST_LOSS``),
    and the doubler is near its window."""
    e = advice.equities
    doubled = min(e.double_take, e.double_pass)
    if advice.decision == DOUBLE:
        wrong = abs(doubled - e.no_double)  # too good: doubling is worth DP < ND
        if not MIN_GAP <= wrong <= MOST_LOSS:
            return False
        return doubled > e.no_double or e.double_take > e.double_pass or wrong <= DOUBLE_WINDOW
    wrong = abs(e.double_take - e.double_pass)
    return MIN_GAP <= wrong <= MOST_LOSS and doubled - e.no_double >= -TAKE_WINDOW


def judge_cube(position: Position, context: CubeContext, decision: str, ply: int) -> CubeAdvice:
    return advise(position, context, decision, ply)


__all__ = ["DOUBLE", "TAKE", "cube_question", "cube_screen", "judge_cube", "prescreen", "rank"]
