"""The computer's cube decisions on clear positions, with bgsage's real network."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from ai_worker.cube import (
    CubeAction,
    CubeContext,
    CubeEquities,
    choose_cubeful_play,
    double_decision,
    evaluate_cube,
    rank_cubeful,
    take_decision,
    with_noise,
)
from ai_worker.sanity import Probs
from games.engine import Cube, CubeRefusal, Dice, Match, Position, Side, Xgid, legal_plays
from games.tiers import TIERS, Tier, tier_spec
from tests.conftest import require_service
from tests.engine.boards import board

LIGHT, DARK = Side.LIGHT, Side.DARK
MONEY = CubeContext(Cube(), Match(jacoby=True), LIGHT)
# Two rolls to bear off four low checkers against four on the opponent's
# 6-point and eleven off: it wins unless it misses and the other side rolls 66.
LAST_RACE = board({1: 2, 2: 2}, {19: 4})
# Four opposing checkers on the bar against a closed board, none borne off:
# playing on wins a gammon most of the time.
CLOSED_OUT = board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {12: 4, 13: 4, 14: 3}, their_bar=4)


@pytest.mark.parametrize("tier", list(Tier))
def test_nobody_doubles_at_the_opening(tier: Tier) -> None:
    decision = double_decision(Position.start(), MONEY, tier, "t")
    assert decision.action is CubeAction.NO_DOUBLE and decision.refusal is None
    assert decision.equities is not None
    assert decision.equities.no_double > decision.equities.double_take


@pytest.mark.parametrize("tier", list(Tier))
def test_an_opening_double_is_taken(tier: Tier) -> None:
    assert take_decision(Position.start(), MONEY, tier, "t").action is CubeAction.TAKE


def test_the_last_race_is_a_double_and_a_pass() -> None:
    doubled = double_decision(LAST_RACE, MONEY, Tier.EXPERT, "t")
    assert doubled.action is CubeAction.DOUBLE
    assert doubled.equities is not None and doubled.equities.probs.win > 0.95
    for tier in Tier:
        assert take_decision(LAST_RACE, MONEY, tier, "t").action is CubeAction.PASS


@pytest.mark.parametrize("tier", [Tier.EXPERT, Tier.ADVANCED])
def test_a_closed_out_gammonish_position_is_too_good(tier: Tier) -> None:
    no_jacoby = CubeContext(Cube(), Match(), LIGHT)
    decision = double_decision(CLOSED_OUT, no_jacoby, tier, "t")
    assert decision.action is CubeAction.TOO_GOOD
    assert decision.equities is not None and decision.equities.no_double > 1.0
    assert decision.equities.probs.win_gammon > 0.5


def test_no_double_in_the_crawford_game_even_when_it_would_be_right() -> None:
    crawford = CubeContext(Cube(), Match(length=5, light=2, dark=4, crawford=True), LIGHT)
    decision = double_decision(LAST_RACE, crawford, Tier.EXPERT, "t")
    assert decision == type(decision)(CubeAction.NO_DOUBLE, CubeRefusal.CRAWFORD_GAME)


def test_the_opponents_cube_and_a_dead_cube_are_not_turned() -> None:
    theirs = CubeContext(Cube(2, DARK), Match(), LIGHT)
    assert double_decision(LAST_RACE, theirs, Tier.EXPERT, "t").refusal is CubeRefusal.NOT_YOUR_CUBE
    leader = CubeContext(Cube(), Match(length=5, light=4, dark=2), LIGHT)
    assert double_decision(LAST_RACE, leader, Tier.EXPERT, "t").refusal is CubeRefusal.DEAD_CUBE


def test_the_match_score_changes_the_cube_equities() -> None:
    money = evaluate_cube(Position.start(), CubeContext(Cube(), Match(), LIGHT))
    two_away = evaluate_cube(Position.start(), CubeContext(Cube(), Match(length=7, light=5), LIGHT))
    assert money.double_pass == pytest.approx(1.0)
    assert (money.no_double, money.double_take) != (two_away.no_double, two_away.double_take)


def test_owning_the_cube_is_worth_something_to_the_side_on_roll() -> None:
    mine = evaluate_cube(Position.start(), CubeContext(Cube(2, LIGHT), Match(), LIGHT))
    theirs = evaluate_cube(Position.start(), CubeContext(Cube(2, DARK), Match(), LIGHT))
    assert mine.no_double > theirs.no_double


def test_a_play_with_the_cube_in_mind_is_a_legal_one_and_expert_plays_the_best() -> None:
    context = CubeContext(Cube(2, DARK), Match(length=5, light=3, dark=1), LIGHT)
    ranked = rank_cubeful(Position.start(), Dice(6, 4), context, ply=1)
    legal = {p.result for p in legal_plays(Position.start(), Dice(6, 4))}
    assert {r.play.result for r in ranked} == legal
    assert [r.equity for r in ranked] == sorted((r.equity for r in ranked), reverse=True)
    play = choose_cubeful_play(Position.start(), Dice(6, 4), context, Tier.ADVANCED, "s")
    assert play is not None and play.result in legal
    deep = rank_cubeful(Position.start(), Dice(6, 4), context, ply=2)
    expert = choose_cubeful_play(Position.start(), Dice(6, 4), context, Tier.EXPERT, "s")
    assert expert == deep[0].play and deep[0].ply == 2


def test_decisions_are_fixed_by_seed_and_position() -> None:
    first = [double_decision(LAST_RACE, MONEY, Tier.BEGINNER, f"g{i}").action for i in range(8)]
    again = [double_decision(LAST_RACE, MONEY, Tier.BEGINNER, f"g{i}").action for i in range(8)]
    assert first == again


EVEN = Probs(0.7, 0.1, 0.0, 0.05, 0.0)


def test_lower_tiers_err_more_often_on_a_close_double() -> None:
    # A close double: double/take worth 0.04 more than playing on.
    close = CubeEquities(no_double=0.60, double_take=0.64, double_pass=1.0, probs=EVEN)
    assert close.best_double_action() is CubeAction.DOUBLE
    wrong = {
        tier: sum(
            with_noise(close, TIERS[tier], f"k{i}").best_double_action() is not CubeAction.DOUBLE
            for i in range(400)
        )
        for tier in Tier
    }
    assert wrong[Tier.EXPERT] == 0
    assert 0 < wrong[Tier.ADVANCED] < wrong[Tier.INTERMEDIATE] < wrong[Tier.BEGINNER] < 400


def test_the_noise_never_moves_the_pass_equity() -> None:
    equities = CubeEquities(0.2, -0.1, 1.0, EVEN)
    noisy = with_noise(equities, tier_spec(Tier.BEGINNER), "k")
    assert noisy.double_pass == 1.0 and noisy != equities


# ---------------------------------------------------------------- GNU Backgammon

GNUBG = Path("/usr/games/gnubg")


def _gnubg_proper_action(xgid: Xgid, plies: int = 0) -> str:
    """GNU Backgammon's "Proper cube action" (or its refusal) for an XGID, lower
    case, its cube decisions searched at ``plies`` (its default 0: the bare network)."""
    require_service("GNU Backgammon (/usr/games/gnubg)", GNUBG.exists)
    depth = f"set evaluation cubedecision evaluation plies {plies}\n"
    done = subprocess.run(
        [str(GNUBG), "-t", "-q"],
        input=f"{depth}set xgid {xgid.text()}\nhint\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r"Proper cube action: ([^(\n]+)", done.stdout)
    if found is None:
        assert "You cannot double." in done.stdout + done.stderr, done.stdout
        return "cannot double"
    return found[1].strip().lower().replace("redouble", "double")


CLEAR = [
    (Xgid(Position.start(), match=Match(jacoby=True)), "no double, take"),
    (Xgid(LAST_RACE, match=Match(jacoby=True)), "double, pass"),
    (Xgid(CLOSED_OUT), "too good to double, pass"),
    (Xgid(LAST_RACE, match=Match(length=5, light=2, dark=4, crawford=True)), "cannot double"),
]
OURS = {
    (CubeAction.NO_DOUBLE, CubeAction.TAKE): "no double, take",
    (CubeAction.DOUBLE, CubeAction.PASS): "double, pass",
    (CubeAction.TOO_GOOD, CubeAction.PASS): "too good to double, pass",
}


@pytest.mark.parametrize(("xgid", "proper"), CLEAR, ids=[p for _x, p in CLEAR])
def test_expert_agrees_with_gnu_backgammon_on_clear_cube_actions(xgid: Xgid, proper: str) -> None:
    assert _gnubg_proper_action(xgid) == proper
    context = CubeContext(xgid.cube, xgid.match, xgid.turn)
    doubled = double_decision(xgid.position, context, Tier.EXPERT, "t")
    assert (doubled.refusal is not None) == (proper == "cannot double")
    if doubled.refusal is not None:
        return
    answered = take_decision(xgid.position, context, Tier.EXPERT, "t")
    assert OURS[(doubled.action, answered.action)] == proper


# Issue 31: the Expert doubled (at bgsage 2-ply, GNU Backgammon's 1-ply) where
# GNU Backgammon 2-ply and a cubeful rollout do not; its cube is searched at 3-ply now.
OVER_DOUBLED = [
    "XGID=--abaBBBC---b--c-B--bBbAbA:0:0:1:00:0:0:0:0:10",
    "XGID=-ba--BCBBA--bAb--bccC--A--:1:1:1:00:0:0:0:0:10",  # a redouble
]


@pytest.mark.parametrize("text", OVER_DOUBLED)
def test_expert_does_not_double_where_gnu_backgammon_2_ply_would_not(text: str) -> None:
    xgid = Xgid.parse(text)
    assert _gnubg_proper_action(xgid, plies=2) == "no double, take"
    context = CubeContext(xgid.cube, xgid.match, xgid.turn)
    assert tier_spec(Tier.EXPERT).cube_depth == 3
    assert double_decision(xgid.position, context, Tier.EXPERT, "t").action is CubeAction.NO_DOUBLE
    # The depth it was searched at before doubled: the reason for the change.
    assert evaluate_cube(xgid.position, context, 2).best_double_action() is CubeAction.DOUBLE


# Market losers (ai_worker.cube.lost_markets): a race with few checkers, so
# that a brute force over the sequences runs in seconds.
RACE = board({8: 2, 7: 1, 6: 1}, {17: 2, 18: 1, 19: 1})


@pytest.mark.slow
def test_market_losers_are_the_sequences_after_which_the_opponent_would_pass() -> None:
    """bgsage's per-sequence verdicts (its 3-ply cube search's details) against
    a brute force: the doubler's best play, the opponent's best reply, then
    the doubler's cube at 1-ply, on two of the doubler's rolls and every reply."""
    from ai_worker.cube import MARKET_PLY, _analyzer, lost_markets, market_losers
    from ai_worker.evaluator import rank_plays, to_board26
    from games.engine import ROLLS

    result = _analyzer(MARKET_PLY).cube_action(
        to_board26(RACE), **MONEY.bgsage_kwargs(), incl_2ply_details=True
    )
    verdicts = lost_markets(result.details, float(result.equity_dp))
    assert len(verdicts) == 21 * 21
    for mine in ((6, 5), (2, 1)):
        after = rank_plays(RACE, Dice(*mine))[0].play.result.swapped()
        for d1, d2, _w in ROLLS:
            back = rank_plays(after, Dice(d1, d2))[0].play.result.swapped()
            e = evaluate_cube(back, MONEY, 1)
            opponent_passes = e.double_take > e.double_pass
            reply = (max(d1, d2), min(d1, d2))
            assert verdicts[(mine, reply)] is opponent_passes, (mine, reply, e)
    share = market_losers(result.details, float(result.equity_dp))
    assert share is not None and 0.1 < share < 0.4  # 20.7% by the full brute force


def test_market_losers_weigh_doubles_once_and_a_finishing_roll_for_its_36() -> None:
    from ai_worker.cube import market_losers

    def reply(d1: int, d2: int, equity: float) -> dict[str, float]:
        return {"die1": d1, "die2": d2, "cubeful_equity": equity}

    details = {
        "nd": [
            {"die1": 6, "die2": 6, "opponent_rolls": []},  # wins at once: 36 sequences kept
            {"die1": 2, "die2": 1, "opponent_rolls": [reply(1, 1, 1.0), reply(2, 1, 0.4)]},
        ]
    }
    # 6-6: 1 x 36 not lost; 2-1: 2 x 1 lost (1-1), 2 x 2 not lost (2-1).
    assert market_losers(details, 1.0) == pytest.approx(2 / (36 + 2 + 4))
    assert market_losers({}, 1.0) is None
