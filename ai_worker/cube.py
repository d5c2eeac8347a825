"""The computer's cube: double / no double / too good, take / pass, and plays
chosen with the cube and the score in mind.

Every tier decides from bgsage's cubeful evaluation (``cube_action``, with
the match score in a match; Janowski's formula in money games) at the
tier's ``cube_depth`` (the Expert's 3-ply: see games/tiers.py). The
cube's three equities, from the doubler's side and per unit of the
current cube, are no double (ND), double/take (DT) and double/pass
(DP, exactly 1 in a money game). The doubler doubles when
``min(DT, DP) > ND`` (its opponent answers the better way for itself); it is
too good when the opponent should pass (``DT > DP``) and playing on is worth
more than cashing (``ND > DP``). The taker takes when ``DT <= DP``.

The lower tiers err as on checker play: each equity gets Gaussian noise of
the tier's ``cube_sigma``, a pure function of (seed, position, cube, score,
role) through ``policy.gaussian``, so a retried task decides the same.

bgsage's rollouts, which the site's 精确分析 asks for, are ``ai_worker.rollout``.

No Django here: the bot runs without it.
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import Any

from ai_worker.context import CubeContext as CubeContext  # its home since issue 44
from ai_worker.evaluator import RankedPlay, to_board26
from ai_worker.policy import gaussian, pick
from ai_worker.sanity import Probs, sane_probs
from games.engine import (
    CubeRefusal,
    Dice,
    Play,
    Position,
    Side,
    double_refusal,
    legal_plays,
)
from games.tiers import Tier, TierSpec, tier_spec

FILTER_PLAYS = 5  # plays searched deeper than 1-ply, as the evaluator's filter


class CubeAction(enum.StrEnum):
    NO_DOUBLE = "no_double"
    DOUBLE = "double"
    TOO_GOOD = "too_good"
    TAKE = "take"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """The doubler's cubeful equities per unit of the current cube."""

    no_double: float
    double_take: float
    double_pass: float
    probs: Probs  # cubeless chances of the side on roll, before its roll

    def best_double_action(self) -> CubeAction:
        """The doubler's right action on these (possibly noisy) equities."""
        if min(self.double_take, self.double_pass) > self.no_double:
            return CubeAction.DOUBLE
        if self.double_take > self.double_pass and self.no_double > self.double_pass:
            return CubeAction.TOO_GOOD
        return CubeAction.NO_DOUBLE

    def best_answer(self) -> CubeAction:
        """The taker's right answer on these equities."""
        return CubeAction.TAKE if self.double_take <= self.double_pass else CubeAction.PASS


@dataclass(frozen=True, slots=True)
class CubeDecision:
    action: CubeAction
    refusal: CubeRefusal | None = None  # why a double was not possible at all
    equities: CubeEquities | None = None  # as evaluated, before the tier's noise


_lock = threading.Lock()
_analyzers: dict[int, Any] = {}


def _analyzer(ply: int) -> Any:
    """One bgsage analyzer per eval level and process (it is thread-safe)."""
    if ply not in _analyzers:
        with _lock:
            if ply not in _analyzers:
                from bgsage import BgBotAnalyzer

                _analyzers[ply] = BgBotAnalyzer(eval_level=f"{ply}ply")
    return _analyzers[ply]


def warm_up(ply: int = 1, cube_ply: int = 0) -> None:
    """Load the analyzers a tier at ``ply`` uses now rather than on its first decision."""
    _analyzer(1)
    for depth in {ply, cube_ply or ply}:
        if depth > 1:
            _analyzer(depth)


def evaluate_cube(position: Position, context: CubeContext, ply: int = 1) -> CubeEquities:
    """bgsage's cube equities for the side on roll in ``position`` (before its roll)."""
    result = _analyzer(ply).cube_action(to_board26(position), **context.bgsage_kwargs())
    return _equities(result)


MARKET_PLY = 3  # bgsage gives each roll and reply's board from 3-ply up


def evaluate_cube_market(
    position: Position, context: CubeContext, ply: int
) -> tuple[CubeEquities, float | None]:
    """``evaluate_cube``, with the share of market losers when ``ply`` >= 3.

    A market loser is a sequence of the doubler's roll (its best play) and
    the opponent's reply (its best play) after which the doubler, on roll
    again with the cube where it is now, would have a double the opponent
    should pass (or be too good): its cubeful equity there, with the cube
    not turned, is at least the double/pass equity. The share is weighted
    over the 1296 sequences; bgsage's 3-ply cube search values each one
    (``incl_2ply_details``: the boards two half-moves on, each at 1-ply).
    """
    if ply < MARKET_PLY:
        return evaluate_cube(position, context, ply), None
    result = _analyzer(ply).cube_action(
        to_board26(position), **context.bgsage_kwargs(), incl_2ply_details=True
    )
    return _equities(result), market_losers(result.details, float(result.equity_dp))


def market_losers(details: Any, double_pass: float) -> float | None:
    """The weighted share of (roll, reply) sequences that lose the market
    (``lost_markets``); None without per-roll details."""
    lost = total = 0
    for (roll, reply), market_lost in lost_markets(details, double_pass).items():
        weight = (1 if roll[0] == roll[1] else 2) * _reply_weight(reply)
        total += weight
        lost += weight * market_lost
    return lost / total if total else None


Roll = tuple[int, int]


def _roll(entry: dict[str, Any]) -> Roll:
    """A roll of the details, the higher die first."""
    d1, d2 = int(entry["die1"]), int(entry["die2"])
    return (max(d1, d2), min(d1, d2))


def _reply_weight(reply: Roll) -> int:
    return 36 if reply == (0, 0) else 1 if reply[0] == reply[1] else 2


def lost_markets(details: Any, double_pass: float) -> dict[tuple[Roll, Roll], bool]:
    """Each (roll, reply) sequence of bgsage's per-roll details: whether the
    doubler's cubeful equity after it, the cube not turned, reaches
    ``double_pass``. A roll that ends the game has no reply: it stands for
    its 36 sequences (reply ``(0, 0)``) and never
    loses the market."""
    found: dict[tuple[Roll, Roll], bool] = {}
    for roll in (details or {}).get("nd") or []:
        mine = _roll(roll)
        replies = roll.get("opponent_rolls") or []
        if not replies:
            found[(mine, (0, 0))] = False
        for reply in replies:
            theirs = _roll(reply)
            found[(mine, theirs)] = float(reply["cubeful_equity"]) >= double_pass - 1e-6
    return found


def _equities(result: Any) -> CubeEquities:
    return CubeEquities(
        float(result.equity_nd),
        float(result.equity_dt),
        float(result.equity_dp),
        bgsage_probs(result.probs),
    )


def double_decision(
    position: Position, context: CubeContext, tier: Tier | str, seed_key: str
) -> CubeDecision:
    """Whether the side on roll (``context.mover``, ``position`` from its side) doubles."""
    refusal = double_refusal(context.cube, context.match, context.mover)
    if refusal is not None:
        return CubeDecision(CubeAction.NO_DOUBLE, refusal)
    spec = tier_spec(tier)
    equities = evaluate_cube(position, context, spec.cube_depth)
    noisy = with_noise(equities, spec, _key(seed_key, position, context, "double"))
    return CubeDecision(noisy.best_double_action(), None, equities)


def take_decision(
    position: Position, context: CubeContext, tier: Tier | str, seed_key: str
) -> CubeDecision:
    """Whether the side doubled takes; ``position`` and ``context`` are the doubler's."""
    spec = tier_spec(tier)
    equities = evaluate_cube(position, context, spec.cube_depth)
    noisy = with_noise(equities, spec, _key(seed_key, position, context, "take"))
    return CubeDecision(noisy.best_answer(), None, equities)


def resign_accepted(position: Position, context: CubeContext, offered: int) -> bool:
    """Whether the side not resigning (DARK, the computer) accepts ``offered`` points.

    ``position`` and ``context`` are the side on turn's. The computer takes
    the offer when it is at least the points it expects from playing on: its
    cubeless chances (1-ply) times the cube, gammons single under Jacoby with
    the cube centred, never more than it needs to win a match.
    """
    probs = sane_before_roll(position, evaluate_cube(position, context, 1).probs)
    match = context.match
    jacoby_single = match.is_money and match.jacoby and context.cube.centred
    per_cube = 2.0 * probs.win - 1.0 if jacoby_single else probs.equity
    expected = per_cube * context.cube.value
    if context.mover is not Side.DARK:
        expected = -expected
    if match.length:
        expected = min(expected, float(match.away(Side.DARK)))
    return offered >= expected - 1e-9


def sane_before_roll(position: Position, probs: Probs) -> Probs:
    """The side on roll's chances cleaned by ``sanity.sane_probs`` (which reads a
    board after a play: the opponent's view, chances turned round and back)."""
    theirs = sane_probs(position.swapped(), _turned(probs))
    return _turned(theirs)


def _turned(p: Probs) -> Probs:
    return Probs(1.0 - p.win, p.lose_gammon, p.lose_backgammon, p.win_gammon, p.win_backgammon)


def rank_cubeful(
    position: Position, dice: Dice, context: CubeContext, ply: int = 1
) -> list[RankedPlay]:
    """Every legal play, best first, by the mover's cubeful equity after it.

    All plays are scored at 1-ply; at ``ply`` >= 2 the best few are searched
    again at that depth and only those can stay first.
    """
    plays = legal_plays(position, dice)
    ranked = _sorted([_score(play, context, 1) for play in plays])
    if ply > 1 and len(ranked) > 1:
        deep = [_score(r.play, context, ply) for r in ranked[:FILTER_PLAYS]]
        ranked = _sorted(deep) + ranked[FILTER_PLAYS:]
    return ranked


def choose_cubeful_play(
    position: Position, dice: Dice, context: CubeContext, tier: Tier | str, seed_key: str
) -> Play | None:
    """The play ``tier`` makes with this cube and score, or None when nothing can move."""
    spec = tier_spec(tier)
    ranked = rank_cubeful(position, dice, context, spec.ply)
    if not ranked:
        return None
    return pick(ranked, spec, f"{seed_key}|{context.key()}", position.position_id(), dice).play


def _score(play: Play, context: CubeContext, ply: int) -> RankedPlay:
    # After the play the opponent is on roll: the cube's owner keeps its
    # name ("player" is still the side that moved), and so do the aways.
    kwargs = context.bgsage_kwargs()
    kwargs.pop("beaver")
    result = _analyzer(ply).post_move_analytics(to_board26(play.result), **kwargs)
    return RankedPlay(play, float(result.cubeful_equity), bgsage_probs(result.probs), ply)


def _sorted(ranked: list[RankedPlay]) -> list[RankedPlay]:
    return sorted(ranked, key=lambda r: -r.equity)


def bgsage_probs(probs: Any) -> Probs:
    """bgsage's chances (``probs`` of a result) as the site's ``Probs``."""
    return Probs(
        float(probs.win),
        float(probs.gammon_win),
        float(probs.backgammon_win),
        float(probs.gammon_loss),
        float(probs.backgammon_loss),
    )


def _key(seed_key: str, position: Position, context: CubeContext, role: str) -> str:
    return f"{seed_key}|{position.position_id()}|{context.key()}|{role}"


def with_noise(equities: CubeEquities, spec: TierSpec, key: str) -> CubeEquities:
    """The equities as ``spec``'s tier sees them: ND and DT moved by its fixed noise."""
    if spec.cube_sigma <= 0:
        return equities
    sigma = spec.cube_sigma
    return CubeEquities(
        equities.no_double + sigma * gaussian(f"{key}|nd".encode()),
        equities.double_take + sigma * gaussian(f"{key}|dt".encode()),
        equities.double_pass,  # known exactly: 1 in money, the match table in a match
        equities.probs,
    )
