"""The judgement unit (``ai_worker.context``, issue 44) on constructed positions.

Each loss is checked against a value computed apart from the site's ranking:
bgsage's own cubeful call (``BgBotAnalyzer.checker_play`` and ``cube_action``
with the cube and the score, its public API), the match equity table itself
(``bgbot_cpp.get_met``, ``cubeless_mwc``, ``mwc2eq``), or GNU Backgammon run
as a separate program. The positions were found by playing out 1-ply games
and keeping those where the cube or the score changes the best play.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ai_worker import evaluator
from ai_worker.candidates import hint
from ai_worker.context import CubeContext, free_drop, gammon_go, gammons_count, mwc_of
from ai_worker.cube import CubeAction
from ai_worker.cube_advice import DOUBLE, TAKE, advise
from ai_worker.networks import to_board26
from ai_worker.sanity import Probs
from games.engine import Cube, Dice, Match, Position, Side, Xgid
from tests.conftest import require_service

GNUBG = Path("/usr/games/gnubg")

# Light on roll, 5-4, far ahead: 16/12* 13/8 hits for gammons, 24/15 runs
# the last back checker. Best cubeless; worse where its gammons count for nothing.
HIT_OR_RUN = Position.from_position_id("4LtBwArguY0RIA")
RUN, HIT = "24/15", "16/12* 13/8"
# Light on roll, 5-5, a blitz: 13/3*(2) is the best cubeless play; under the
# Jacoby rule (cube in the middle) the safe 20/10(2) keeps a pass-worthy
# double, and the blitz's gammons count single.
BLITZ = Position.from_position_id("wtfggAnN3IEBAw")
SAFE, ATTACK = "20/10(2)", "13/3*(2)"
# A 3-point match at 0-0, light owning the cube at 2: a gammon either way ends it.
CUBE_AT_TWO = Position.from_position_id("7gAAANt2SAAYAA")

CRAWFORD = CubeContext(Cube(), Match(5, 4, 2, crawford=True), Side.LIGHT)  # light leads, 1 away
DMP = CubeContext(Cube(), Match(5, 4, 4), Side.LIGHT)
JACOBY = CubeContext(Cube(), Match(jacoby=True), Side.LIGHT)
THREE_POINTS = CubeContext(Cube(2, Side.LIGHT), Match(3, 0, 0), Side.LIGHT)

_analyzers: dict[int, Any] = {}


def bgsage_losses(
    position: Position, dice: Dice, ply: int, context: CubeContext
) -> dict[str, float]:
    """bgsage's own cubeful loss of every play, by our notation (its public API)."""
    from bgsage import BgBotAnalyzer

    if ply not in _analyzers:
        _analyzers[ply] = BgBotAnalyzer(eval_level=f"{ply}ply")
    found = _analyzers[ply].checker_play(
        to_board26(position), dice.d1, dice.d2, **context.bgsage_kwargs()
    )
    by_board = {tuple(m.board): -m.equity_diff for m in found.moves}
    plays = evaluator.rank_plays(position, dice, 1)
    return {r.play.notation(): by_board[tuple(to_board26(r.play.result))] for r in plays}


def our_losses(
    position: Position, dice: Dice, ply: int, context: CubeContext | None
) -> dict[str, float]:
    ranked = evaluator.rank_plays(position, dice, ply, shown=5, context=context)
    return {r.play.notation(): ranked[0].equity - r.equity for r in ranked if r.ply == ply}


def test_at_the_crawford_game_the_leaders_gammons_count_for_nothing() -> None:
    dice = Dice(5, 4)
    cubeless = evaluator.rank_plays(HIT_OR_RUN, dice, 2)
    assert cubeless[0].play.notation() == HIT  # its gammons make it best for money
    ours = our_losses(HIT_OR_RUN, dice, 2, CRAWFORD)
    theirs = bgsage_losses(HIT_OR_RUN, dice, 2, CRAWFORD)
    assert ours[RUN] == 0.0 and ours[HIT] > 0.01
    assert ours[HIT] == pytest.approx(theirs[HIT], abs=1e-4)
    # No cube in the Crawford game: each play's value is its cubeless match
    # winning chance, as the match equity table gives it, in EMG.
    import bgbot_cpp

    for r in evaluator.rank_plays(HIT_OR_RUN, dice, 1, context=CRAWFORD):
        p = r.probs
        chances = [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon]
        mwc = bgbot_cpp.cubeless_mwc(chances, 1, 3, 1, True)
        assert r.equity == pytest.approx(bgbot_cpp.mwc2eq(mwc, 1, 3, 1, True), abs=1e-4)
    assert not gammons_count(CRAWFORD, Side.LIGHT) and gammons_count(CRAWFORD, Side.DARK)


def test_the_reasons_say_the_leaders_gammons_count_for_nothing() -> None:
    shown = {c.notation: c for c in hint(HIT_OR_RUN, Dice(5, 4), 1, 5, context=CRAWFORD)}
    codes = [r.code for r in shown[HIT].versus]
    assert "wins_gammon" not in codes
    assert {"code": "gammons_free", "params": {"whose": "mine", "why": "match"}} in [
        r.to_json() for r in shown[HIT].versus
    ]
    money = {c.notation: c for c in hint(HIT_OR_RUN, Dice(5, 4), 1, 5)}
    best = next(iter(money.values()))
    assert best.notation == HIT  # for money the hit is best: no comparison to make


def test_at_double_match_point_a_plays_value_is_its_chance_to_win() -> None:
    dice = Dice(5, 4)
    ranked = evaluator.rank_plays(HIT_OR_RUN, dice, 2, shown=5, context=DMP)
    searched = [r for r in ranked if r.ply == 2]
    assert len(searched) >= 2
    for r in searched:  # at 1-away each, 1 EMG is the match: 2 × P(win) − 1
        assert r.equity == pytest.approx(2 * r.probs.win - 1, abs=2e-3)
    ours = our_losses(HIT_OR_RUN, dice, 2, DMP)
    theirs = bgsage_losses(HIT_OR_RUN, dice, 2, DMP)
    assert ours[HIT] == pytest.approx(theirs[HIT], abs=1e-4) and ours[HIT] > 0.01
    assert not gammons_count(DMP, Side.LIGHT) and not gammons_count(DMP, Side.DARK)


def test_with_the_cube_at_2_in_a_3_point_match_the_loss_is_bgsages() -> None:
    dice = Dice(2, 4)
    ours = our_losses(CUBE_AT_TWO, dice, 2, THREE_POINTS)
    theirs = bgsage_losses(CUBE_AT_TWO, dice, 2, THREE_POINTS)
    for play, loss in ours.items():
        assert loss == pytest.approx(theirs[play], abs=1e-4), play
    # In match winning chances: the EMG line's slope, half the gap between a
    # single won and a single lost at the cube's value (2 points: 1 away
    # against 3, the Crawford game next; bgbot's get_met takes False there,
    # its flag being "after the Crawford game").
    import bgbot_cpp

    won, lost = bgbot_cpp.get_met(1, 3, False), 1 - bgbot_cpp.get_met(1, 3, False)
    worst = max(ours.values())
    assert mwc_of(THREE_POINTS, worst) == pytest.approx(worst * (won - lost) / 2, abs=1e-5)


def test_in_a_money_game_the_cube_changes_the_best_play() -> None:
    dice = Dice(5, 5)
    cubeless = evaluator.rank_plays(BLITZ, dice, 2)
    assert cubeless[0].play.notation() == ATTACK
    ours = our_losses(BLITZ, dice, 2, JACOBY)
    theirs = bgsage_losses(BLITZ, dice, 2, JACOBY)
    assert ours[SAFE] == 0.0
    assert ours[ATTACK] == pytest.approx(theirs[ATTACK], abs=1e-4)
    assert ours[ATTACK] > 0.06  # a mistake, a "bad" one, the cube's doing
    without = CubeContext(Cube(), Match(jacoby=False), Side.LIGHT)
    assert evaluator.rank_plays(BLITZ, dice, 2, context=without)[0].play.notation() == ATTACK


def _gnubg_best(xgid: Xgid) -> str:
    """GNU Backgammon 2-ply's best play (its cubeful hint), as it writes it."""
    require_service("GNU Backgammon (/usr/games/gnubg)", GNUBG.exists)
    jacoby = "on" if xgid.match.jacoby else "off"
    script = (
        "set evaluation chequerplay evaluation plies 2\n"
        f"set jacoby {jacoby}\nset xgid {xgid.text()}\nhint 1\n"
    )
    done = subprocess.run(
        [str(GNUBG), "-t", "-q"], input=script, capture_output=True, text=True, timeout=300
    )
    found = re.search(r"1\. Cubeful \d-ply\s+(.+?)\s+Eq\.", done.stdout)
    assert found is not None, done.stdout
    return found[1].strip()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("position", "dice", "context", "best"),
    [
        (HIT_OR_RUN, Dice(5, 4), CRAWFORD, RUN),
        (HIT_OR_RUN, Dice(5, 4), DMP, RUN),
        (BLITZ, Dice(5, 5), JACOBY, SAFE),
        (BLITZ, Dice(5, 5), CubeContext(Cube(), Match(jacoby=False), Side.LIGHT), ATTACK),
    ],
    ids=["crawford", "dmp", "jacoby", "no-jacoby"],
)
def test_gnu_backgammon_finds_the_same_best_play_at_the_score(
    position: Position, dice: Dice, context: CubeContext, best: str
) -> None:
    ours = evaluator.rank_plays(position, dice, 2, context=context)[0].play.notation()
    assert ours == best
    xgid = Xgid(position, Side.LIGHT, dice, context.cube, context.match)
    assert _gnubg_best(xgid) == best


# ---------------------------------------------------------------- the cube at the score


def test_after_the_crawford_game_the_leader_may_drop_freely() -> None:
    # Light leads 4-3 in a 5-point match after the Crawford game: dark, 2
    # away, doubles at the start of a game; light (1 away) answers.
    match = Match(5, 4, 3)
    context = CubeContext(Cube(), match, Side.DARK)
    assert match.post_crawford and free_drop(context)
    start = Position.start()
    advice = advise(start, context, TAKE, 1)
    from bgsage import BgBotAnalyzer

    theirs = BgBotAnalyzer(eval_level="1ply").cube_action(
        to_board26(start), **{k: v for k, v in context.bgsage_kwargs().items()}
    )
    e = advice.equities
    assert e.double_take == pytest.approx(theirs.equity_dt, abs=1e-5)
    assert e.double_pass == pytest.approx(theirs.equity_dp, abs=1e-5)
    assert advice.loss(CubeAction.TAKE) + advice.loss(CubeAction.PASS) == pytest.approx(
        abs(theirs.equity_dt - theirs.equity_dp), abs=1e-5
    )
    # Apart from bgsage's cube call, from the match table: a pass makes it
    # 4-4, double match point (0.5 each: W = 0.5, L = 0); a take puts the
    # match on this game at a dead cube, dark's MWC its cubeless chance to
    # win p, so DT = (2p - 0.5) / 0.5 = 4p - 1 EMG, above the pass's 1 for
    # dark on roll at the start: the leader drops, and loses DT - 1 by taking.
    import bgbot_cpp

    assert bgbot_cpp.get_met(1, 1, True) == pytest.approx(0.5)
    p = e.probs.win
    assert e.double_take == pytest.approx(4 * p - 1, abs=1e-4) and p > 0.5
    assert advice.best is CubeAction.PASS
    assert advice.loss(CubeAction.TAKE) == pytest.approx(4 * p - 2, abs=1e-4)
    params = advice.why.params
    assert params["free_drop"] is True
    assert params["taker_gammons_free"] is True  # once light owns the cube at 2, 1 away


def test_gammon_go_is_named_where_a_gammon_at_the_cube_wins_the_match() -> None:
    assert gammon_go(CubeContext(Cube(), Match(7, 5, 5), Side.LIGHT))  # 2 away, cube 1
    assert not gammon_go(CubeContext(Cube(), Match(7, 6, 5), Side.LIGHT))  # 1 away
    assert not gammon_go(CubeContext(Cube(), Match(7, 2, 5), Side.LIGHT))  # 5 away
    assert not gammon_go(CubeContext(Cube(), Match(), Side.LIGHT))  # money
    advice = advise(Position.start(), CubeContext(Cube(), Match(7, 5, 5), Side.LIGHT), DOUBLE, 1)
    assert advice.why.params["gammon_go"] is True


def test_a_match_loss_in_mwc_is_gnu_backgammons_eq2mwc() -> None:
    import bgbot_cpp

    for context in (
        CRAWFORD,
        DMP,
        THREE_POINTS,
        CubeContext(Cube(4, Side.DARK), Match(9, 2, 5), Side.LIGHT),
    ):
        m = context.match
        away = (m.away(Side.LIGHT), m.away(Side.DARK))
        won = bgbot_cpp.eq2mwc(1.0, *away, context.cube.value, m.crawford)
        lost = bgbot_cpp.eq2mwc(-1.0, *away, context.cube.value, m.crawford)
        assert mwc_of(context, 0.1) == pytest.approx(0.1 * (won - lost) / 2, abs=1e-6)
    with pytest.raises(ValueError):
        mwc_of(JACOBY, 0.1)


def test_a_settled_race_is_worth_the_same_cubeful() -> None:
    # Light bears off its last checker: a sure single win, 1 in every unit.
    position = Position(tuple([1] + [0] * 24), tuple([0] * 5 + [2] + [0] * 19))
    for context in (JACOBY, CRAWFORD, THREE_POINTS):
        ranked = evaluator.rank_plays(position, Dice(6, 5), 2, context=context)
        assert ranked[0].equity == pytest.approx(1.0, abs=1e-6)
        assert ranked[0].probs == Probs(1.0, 0.0, 0.0, 0.0, 0.0)
