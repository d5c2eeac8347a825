"""Which cube decisions the PR counts: GNU Backgammon's "close or actual
cube decisions" (issue 44), against its own rule written out here from its
source (eval.c ``FindBestCubeDecision`` and ``isCloseCubedecision``,
analysis.c ``updateStatcontext``; the same in its sources of 2013 and
2024), apart from the site's code."""

from __future__ import annotations

import random

import pytest

from ai_worker.context import CubeContext
from ai_worker.cube import CubeAction, CubeEquities
from ai_worker.cube_advice import DOUBLE, TAKE, advice_from
from ai_worker.sanity import Probs
from games.engine import Cube, Match, Position, Side
from learning.review.cube import CubeDecision, trivial

MONEY = CubeContext(Cube(), Match(), Side.LIGHT)
MATCH = CubeContext(Cube(2, Side.LIGHT), Match(7, 2, 4), Side.LIGHT)
PROBS = Probs(0.7, 0.2, 0.01, 0.05, 0.0)


def gnubg_close(nd: float, dt: float, dp: float = 1.0) -> bool:
    """GNU Backgammon's test, as its code has it: OPTIMAL is no double's
    equity unless DT >= ND and DP >= ND (then the double's, min(DT, DP));
    close when OPTIMAL - min(DT, 1.0) < 0.16 (DP is 1.0 in its normalized
    equities)."""
    optimal = min(dt, dp) if dt >= nd and dp >= nd else nd
    return optimal - min(dt, 1.0) < 0.16


def counted(
    context: CubeContext, action: str, nd: float, dt: float, decision: str = DOUBLE
) -> bool:
    advice = advice_from(CubeEquities(nd, dt, 1.0, PROBS), context, decision, 3)
    made = CubeDecision(1, Side.LIGHT, decision, action, Position.start(), context)
    return not trivial(made, advice)


@pytest.mark.parametrize("context", [MONEY, MATCH], ids=["money", "match"])
@pytest.mark.parametrize(
    ("nd", "dt", "expected"),
    [
        (0.50, 0.35, True),  # doubling costs 0.15: close
        (0.50, 0.33, False),  # 0.17: not counted
        (0.80, 0.95, True),  # a missed double (double, take)
        (0.90, 1.40, True),  # a missed double (double, pass)
        (1.10, 1.50, True),  # too good by 0.10: close
        (1.30, 1.50, False),  # too good by 0.30: the manual's "too good" is not the code's
        (-0.40, -1.20, False),  # far behind
    ],
)
def test_a_no_double_counts_when_gnu_backgammon_calls_it_close(
    context: CubeContext, nd: float, dt: float, expected: bool
) -> None:
    assert gnubg_close(nd, dt) is expected
    assert counted(context, str(CubeAction.NO_DOUBLE), nd, dt) is expected


def test_the_rule_is_gnu_backgammons_everywhere() -> None:
    rng = random.Random(44)
    for _ in range(400):
        nd, dt = rng.uniform(-1.5, 2.0), rng.uniform(-3.0, 3.0)
        context = rng.choice([MONEY, MATCH])
        assert counted(context, str(CubeAction.NO_DOUBLE), nd, dt) is gnubg_close(nd, dt), (nd, dt)


@pytest.mark.parametrize(
    ("decision", "action"),
    [(DOUBLE, str(CubeAction.DOUBLE)), (TAKE, str(CubeAction.TAKE)), (TAKE, str(CubeAction.PASS))],
)
def test_every_double_take_and_pass_counts(decision: str, action: str) -> None:
    # Far from close: doubling costs 0.8, yet the double made (and its answer) counts.
    assert counted(MONEY, action, 0.1, -0.7, decision)
