"""Cube decisions judged for a learner: the right action, what each action is
worth, the take point at this score, and why, as a ``Reason``.

The equities are ``ai_worker.cube.evaluate_cube``'s (bgsage's cubeful
``cube_action`` with the match score), per unit of the cube now, from the
doubler's side: no double (ND), double/take (DT), double/pass (DP). A
decision is judged as GNU Backgammon judges it: a double is worth what the
opponent's best answer leaves, ``min(DT, DP)``; the taker's take is worth
``-DT`` and its pass ``-DP``. The equity a wrong action gives away gets the
same classes as a checker error (``ai_worker.grading``).

The take point is the chance to win the taker needs at this cube and score
(bgsage's ``cube_action_points``, Janowski's cube life 0.68 in money games,
the match equity table in a match), for the position's own gammon rates.

Pure Python, no Django: ``learning`` words the reasons and stores the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ai_worker.candidates import probs_dict
from ai_worker.context import CubeContext, free_drop, gammon_go, gammons_count
from ai_worker.cube import CubeAction, CubeEquities, evaluate_cube_market
from ai_worker.explain import Reason
from ai_worker.grading import ErrorClass, classify
from ai_worker.sanity import Probs
from games.engine import Position

DOUBLE = "double"  # the doubler's decision: no double / double (/ too good)
TAKE = "take"  # the taker's: take / pass

CUBE_LIFE = 0.68  # Janowski's x for a contact position (bgsage's default)


@dataclass(frozen=True, slots=True)
class CubeAdvice:
    """One cube decision: the right action and what each action is worth."""

    decision: str  # DOUBLE or TAKE
    best: CubeAction
    equities: CubeEquities  # the doubler's, per unit of the cube now
    take_point: float | None  # the taker's chance to win needed to take
    why: Reason
    ply: int = 1
    values: dict[str, float] = field(default_factory=dict)  # action -> the decider's equity
    redouble: bool = False  # the doubler owns the cube: its double is a redouble
    market_losers: float | None = None  # share of (roll, reply) sequences (cube.market_losers)

    def value_of(self, action: CubeAction | str) -> float:
        return self.values[str(action)]

    def loss(self, action: CubeAction | str) -> float:
        """What ``action`` gives away against the best one (never negative)."""
        return max(0.0, self.values[str(self.best)] - self.values[str(action)])

    def error(self, action: CubeAction | str) -> ErrorClass:
        return classify(self.loss(action))

    def to_json(self) -> dict[str, Any]:
        e = self.equities
        return {
            "decision": self.decision,
            "best": str(self.best),
            "values": {k: round(v, 4) for k, v in self.values.items()},
            "equities": {
                "no_double": round(e.no_double, 4),
                "double_take": round(e.double_take, 4),
                "double_pass": round(e.double_pass, 4),
            },
            "probs": {k: round(v, 4) for k, v in probs_dict(e.probs).items()},
            "take_point": None if self.take_point is None else round(self.take_point, 4),
            "why": self.why.to_json(),
            "ply": self.ply,
            "redouble": self.redouble,
            "market_losers": (None if self.market_losers is None else round(self.market_losers, 4)),
        }


def advise(position: Position, context: CubeContext, decision: str, ply: int) -> CubeAdvice:
    """The advice for ``decision`` on the doubler's ``position`` (before its
    roll, from its side) with ``context`` its cube and score."""
    equities, market = evaluate_cube_market(position, context, ply)
    return advice_from(equities, context, decision, ply, market)


def advice_from(
    equities: CubeEquities,
    context: CubeContext,
    decision: str,
    ply: int = 1,
    market: float | None = None,
) -> CubeAdvice:
    e = equities
    take_point = _take_point(e.probs, context)
    redouble = context.cube.owner is context.mover
    if decision == DOUBLE:
        best = e.best_double_action()
        doubled = min(e.double_take, e.double_pass)
        values = {
            str(CubeAction.NO_DOUBLE): e.no_double,
            str(CubeAction.DOUBLE): doubled,
            # Too good: not doubling is the action; it is worth ND.
            str(CubeAction.TOO_GOOD): e.no_double,
        }
        why = _double_reason(best, e, _setting(context, market))
    elif decision == TAKE:
        best = e.best_answer()
        values = {str(CubeAction.TAKE): -e.double_take, str(CubeAction.PASS): -e.double_pass}
        why = _take_reason(best, e, take_point, context)
    else:
        raise ValueError(f"a cube decision is {DOUBLE!r} or {TAKE!r}, not {decision!r}")
    return CubeAdvice(decision, best, e, take_point, why, ply, values, redouble, market)


def _setting(context: CubeContext, market: float | None) -> dict[str, Any]:
    """What a teacher names beside the chances: the market losers, whether
    the double is a redouble, and the score (points each side still needs)."""
    m = context.match
    setting: dict[str, Any] = {"redouble": context.cube.owner is context.mover}
    if market is not None:
        setting["market"] = _pct(market)
    if m.length:
        setting["away"] = m.away(context.mover)
        setting["opp_away"] = m.away(context.mover.other)
        # Named when it decides: a gammon at the cube now wins the match.
        setting["gammon_go"] = gammon_go(context)
    return setting


def _take_point(probs: Probs, context: CubeContext) -> float | None:
    """The taker's take point: the chance to win it needs to take a double
    of this cube at this score (it would then own the cube at twice the
    value), for the position's own gammon and backgammon rates."""
    from bgsage.cube_points import cube_action_points

    m = context.match
    taker = context.mover.other
    # The taker's chances: its wins are the doubler's losses.
    taker_probs = [
        1.0 - probs.win,
        probs.lose_gammon,
        probs.lose_backgammon,
        probs.win_gammon,
        probs.win_backgammon,
    ]
    points = cube_action_points(
        taker_probs,
        "opponent" if context.cube.owner is context.mover else "centered",
        cube_value=context.cube.value,
        away1=m.away(taker),
        away2=m.away(context.mover),
        is_crawford=m.crawford,
        cube_life_index=CUBE_LIFE,
        jacoby=m.is_money and m.jacoby,
        beaver=False,
    )
    value = points.take.janowski
    return None if value != value else float(value)  # NaN: no take possible


def _pct(value: float) -> float:
    return round(value, 3)


def _chances(e: CubeEquities) -> dict[str, float]:
    p = e.probs
    return {
        "win": _pct(p.win),
        "gammon": _pct(p.win_gammon),
        "lose_gammon": _pct(p.lose_gammon),
    }


def _double_reason(best: CubeAction, e: CubeEquities, setting: dict[str, Any]) -> Reason:
    params: dict[str, Any] = {**_chances(e), "opp_win": _pct(1.0 - e.probs.win), **setting}
    if best is CubeAction.TOO_GOOD:
        params["gain"] = round(e.no_double - e.double_pass, 3)
        return Reason("too_good", params)
    if best is CubeAction.DOUBLE:
        params["gain"] = round(min(e.double_take, e.double_pass) - e.no_double, 3)
        code = "double_pass" if e.double_take > e.double_pass else "double_take"
        return Reason(code, params)
    params["loss"] = round(e.no_double - min(e.double_take, e.double_pass), 3)
    return Reason("no_double", params)


def _taken(context: CubeContext) -> CubeContext:
    """The cube and score after the taker takes (it owns the cube at twice the value)."""
    taker = context.mover.other
    return CubeContext(context.cube.taken(taker), context.match, taker)


def _take_reason(
    best: CubeAction, e: CubeEquities, take_point: float | None, context: CubeContext
) -> Reason:
    """Take or pass; ``against_take_point`` says whether the chance to win
    stands on the same side of the take point as the verdict (the take
    point is a formula's, the verdict the full cubeful evaluation's: the
    words compare the two only when they agree)."""
    win = 1.0 - e.probs.win
    take = best is CubeAction.TAKE
    agrees = take_point is not None and (win >= take_point) == take
    params: dict[str, Any] = {
        "win": _pct(win),
        "gammon": _pct(e.probs.lose_gammon),
        "lose_gammon": _pct(e.probs.win_gammon),
        "take_point": None if take_point is None else _pct(take_point),
        "against_take_point": agrees,
        "margin": round(abs(e.double_pass - e.double_take), 3),
        # The score's own words: the leader's free drop after the Crawford
        # game, and gammons the taker cannot use once it owns the cube.
        "free_drop": free_drop(context),
        "taker_gammons_free": not gammons_count(_taken(context), context.mover.other),
    }
    return Reason("take" if take else "pass", params)
