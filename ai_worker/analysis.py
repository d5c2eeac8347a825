"""Hints and reviews: ranked plays, equity lost, error class, luck, reasons.

Pure Python (no Django): the site stores what these functions return and
renders each ``Reason`` (a code plus parameters) in the page's language.
Positions are from the mover's side, as ``games.engine`` and
``ai_worker.evaluator`` use them. The evaluator is passed in as ``rank`` so
tests and benchmarks can choose the ply.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ai_worker.features import ROLLS, Features, position_features
from games.engine import Dice, Play, Position

# ---------------------------------------------------------------- error classes


class ErrorClass(enum.StrEnum):
    """GNU Backgammon's marks for a decision, by the equity it gave away."""

    NONE = "none"
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very_bad"

    @property
    def mark(self) -> str:
        return _MARKS[self]


_MARKS = {
    ErrorClass.NONE: "",
    ErrorClass.DOUBTFUL: "?!",
    ErrorClass.BAD: "?",
    ErrorClass.VERY_BAD: "??",
}

# Checked from the largest: a loss of exactly a threshold gets that class.
ERROR_THRESHOLDS: tuple[tuple[float, ErrorClass], ...] = (
    (0.12, ErrorClass.VERY_BAD),
    (0.06, ErrorClass.BAD),
    (0.03, ErrorClass.DOUBTFUL),
)

# Rounding guard: equities come from float32 nets, a loss printed as 0.030
# must not fall below the 0.03 line by a hair.
_EPSILON = 1e-9


def classify(equity_lost: float) -> ErrorClass:
    """The class of a decision that lost ``equity_lost`` against the best play.

    >>> classify(0.029).value, classify(0.03).value, classify(0.06).mark, classify(0.12).mark
    ('none', 'doubtful', '?', '??')
    """
    for threshold, error in ERROR_THRESHOLDS:
        if equity_lost + _EPSILON >= threshold:
            return error
    return ErrorClass.NONE


# ---------------------------------------------------------------- rating bands

# gnubg's rating bands for the error rate per unforced decision (equity per
# move, cubeless here): below each threshold the player earns the label.
RATING_BANDS: tuple[tuple[float, str], ...] = (
    (0.002, "supernatural"),
    (0.005, "world_class"),
    (0.008, "expert"),
    (0.012, "advanced"),
    (0.018, "intermediate"),
    (0.026, "casual"),
    (0.035, "beginner"),
)
WORST_BAND = "awful"


def rating_band(error_rate: float) -> str:
    """The gnubg-like band for an error rate per decision.

    >>> rating_band(0.001), rating_band(0.01), rating_band(0.2)
    ('supernatural', 'advanced', 'awful')
    """
    for threshold, band in RATING_BANDS:
        if error_rate < threshold:
            return band
    return WORST_BAND


def error_rate(losses: Iterable[tuple[float, bool]]) -> float | None:
    """Mean equity lost per decision, forced moves excluded.

    ``losses`` holds (equity_lost, forced) pairs; ``None`` when no decision was made.
    """
    unforced = [loss for loss, forced in losses if not forced]
    if not unforced:
        return None
    return sum(unforced) / len(unforced)


# ---------------------------------------------------------------- evaluator seam


class Probs(Protocol):
    @property
    def win(self) -> float: ...

    @property
    def win_gammon(self) -> float: ...

    @property
    def win_backgammon(self) -> float: ...

    @property
    def lose_gammon(self) -> float: ...

    @property
    def lose_backgammon(self) -> float: ...


class Ranked(Protocol):
    """What ``ai_worker.evaluator.RankedPlay`` gives: the play and its value."""

    @property
    def play(self) -> Play: ...

    @property
    def equity(self) -> float: ...

    @property
    def probs(self) -> Probs: ...


RankFn = Callable[[Position, Dice, int], Sequence[Ranked]]


def default_rank(position: Position, dice: Dice, ply: int) -> Sequence[Ranked]:
    from ai_worker.evaluator import rank_plays

    return rank_plays(position, dice, ply)


# ---------------------------------------------------------------- reasons


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a play is good or bad, as a code and parameters; the site words it."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def explain_play(position: Position, play: Play) -> list[Reason]:
    """Reasons for ``play`` from ``position`` (both from the mover's side)."""
    return explain(position_features(position), position_features(play.result), play)


def explain(before: Features, after: Features, play: Play) -> list[Reason]:
    """Compare the facts before and after a play and say what changed."""
    reasons: list[Reason] = []
    hits = sum(1 for step in play.steps if step.hit)
    if hits:
        reasons.append(Reason("hits", {"count": hits}))
    entered = before.on_bar - after.on_bar
    if entered > 0:
        reasons.append(Reason("enters", {"count": entered}))
    made = sorted(set(after.made_points) - set(before.made_points), reverse=True)
    if made:
        reasons.append(Reason("makes_points", {"points": made}))
    # A point in the opponent's home board (the mover's 19..24) is an anchor.
    anchors = [p for p in made if p >= 19]
    if anchors and not any(p >= 19 for p in before.made_points):
        reasons.append(Reason("anchor", {"point": anchors[0]}))
    broken = sorted(set(before.made_points) - set(after.made_points), reverse=True)
    if broken:
        reasons.append(Reason("breaks_points", {"points": broken}))
    reasons.extend(_blot_reasons(after))
    if after.home_points != before.home_points or after.home_points >= 4:
        reasons.append(
            Reason(
                "home_points",
                {"count": after.home_points, "change": after.home_points - before.home_points},
            )
        )
    if after.prime >= 3 and (after.prime != before.prime or after.prime >= 5):
        reasons.append(
            Reason(
                "prime",
                {
                    "length": after.prime,
                    "top": after.prime_top,
                    "bottom": after.prime_top - after.prime + 1,
                },
            )
        )
    reasons.extend(_race_reasons(before, after))
    off = after.borne_off - before.borne_off
    if off:
        reasons.append(Reason("bears_off", {"count": off}))
    return reasons


def _blot_reasons(after: Features) -> list[Reason]:
    if not after.blots:
        return [Reason("no_blots")]
    if not after.contact:
        return []
    return [
        Reason(
            "blots", {"count": len(after.blots), "points": list(after.blots), "shots": after.shots}
        )
    ]


def _race_reasons(before: Features, after: Features) -> list[Reason]:
    pips = {
        "moved": before.pips - after.pips,
        "pips": after.pips,
        "opp_pips": after.opp_pips,
        "lead": after.opp_pips - after.pips,
    }
    reasons = [Reason("pips", pips)]
    if before.contact and not after.contact:
        reasons.append(Reason("breaks_contact", {"lead": pips["lead"]}))
    elif not after.contact:
        reasons.append(Reason("race", {"lead": pips["lead"]}))
    return reasons


# ---------------------------------------------------------------- ranked plays


@dataclass(frozen=True, slots=True)
class Candidate:
    """One ranked play with its numbers and reasons, ready to store as JSON."""

    notation: str
    equity: float
    probs: dict[str, float]
    reasons: tuple[Reason, ...]
    steps: tuple[tuple[int, int, bool], ...]  # (src, dst, hit), mover's numbering
    result_id: str

    def to_json(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "equity": round(self.equity, 4),
            "probs": {k: round(v, 4) for k, v in self.probs.items()},
            "reasons": [r.to_json() for r in self.reasons],
            "steps": [list(s) for s in self.steps],
            "result": self.result_id,
        }


def probs_dict(probs: Probs) -> dict[str, float]:
    return {
        "win": float(probs.win),
        "win_gammon": float(probs.win_gammon),
        "win_backgammon": float(probs.win_backgammon),
        "lose_gammon": float(probs.lose_gammon),
        "lose_backgammon": float(probs.lose_backgammon),
    }


def candidate(position: Position, ranked: Ranked, before: Features | None = None) -> Candidate:
    play = ranked.play
    before = before or position_features(position)
    return Candidate(
        notation=play.notation(),
        equity=float(ranked.equity),
        probs=probs_dict(ranked.probs),
        reasons=tuple(explain(before, position_features(play.result), play)),
        steps=tuple((s.src, s.dst, s.hit) for s in play.steps),
        result_id=play.result.position_id(),
    )


def hint(
    position: Position, dice: Dice, ply: int, top: int = 5, rank: RankFn = default_rank
) -> list[Candidate]:
    """The ``top`` best plays for ``dice``, best first, each with its reasons."""
    ranked = rank(position, dice, ply)
    before = position_features(position)
    return with_comparisons([candidate(position, r, before) for r in ranked[:top]])


def shots_left(c: Candidate) -> int:
    """Rolls of 36 that hit a blot this play leaves (0 when none can)."""
    return next((int(r.params["shots"]) for r in c.reasons if r.code == "blots"), 0)


def with_comparisons(candidates: list[Candidate]) -> list[Candidate]:
    """Add to each play after the first what it risks more than the best play:
    a learner sees at once why the best play is best."""
    if not candidates:
        return candidates
    best = shots_left(candidates[0])
    return [candidates[0]] + [_compared(c, best) for c in candidates[1:]]


def _compared(c: Candidate, best_shots: int) -> Candidate:
    shots = shots_left(c)
    if shots <= best_shots:
        return c
    extra = Reason("more_shots_than_best", {"shots": shots, "best": best_shots})
    return replace(c, reasons=(*c.reasons, extra))


# ---------------------------------------------------------------- luck


def best_equities(
    position: Position, rank: RankFn = default_rank, ply: int = 1
) -> dict[tuple[int, int], float]:
    """The best play's equity for each of the 21 rolls; a roll that cannot
    move is valued as the unchanged board with the opponent on roll."""
    values: dict[tuple[int, int], float] = {}
    dance: float | None = None
    for d1, d2, _weight in ROLLS:
        ranked = rank(position, Dice(d1, d2), ply)
        if ranked:
            values[(d1, d2)] = float(ranked[0].equity)
            continue
        if dance is None:
            dance = static_value(position)[0]
        values[(d1, d2)] = dance
    return values


def static_value(position: Position) -> tuple[float, float]:
    """(equity, win chance) for the mover when it leaves ``position`` as it is
    (a dance): the board valued at 1-ply with the opponent on roll."""
    from ai_worker import evaluator

    equity, probs = evaluator.value_unmoved(position)
    return equity, probs.win


def roll_luck(equities: dict[tuple[int, int], float], dice: Dice, opening: bool = False) -> float:
    """Equity of the best play with the roll made minus the average over rolls.

    The opening roll cannot be a double, so its average runs over the 15 others.
    """
    total = weight_sum = 0.0
    for d1, d2, weight in ROLLS:
        if opening and d1 == d2:
            continue
        total += weight * equities[(d1, d2)]
        weight_sum += weight
    key = (max(dice.d1, dice.d2), min(dice.d1, dice.d2))
    return equities[key] - total / weight_sum


# ---------------------------------------------------------------- one turn


@dataclass(frozen=True, slots=True)
class TurnReport:
    """The review of one turn: what was played against what was best."""

    dice: tuple[int, int]
    played: str
    forced: bool  # fewer than two distinct plays: no decision to judge
    alternatives: tuple[Candidate, ...]  # the best few, best first
    played_rank: int | None  # index among all ranked plays (0 = best)
    played_candidate: Candidate | None
    equity_lost: float
    error: ErrorClass
    luck: float | None
    win: float  # the mover's chance to win after the play made

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": list(self.dice),
            "played": self.played,
            "forced": self.forced,
            "alternatives": [c.to_json() for c in self.alternatives],
            "played_rank": self.played_rank,
            "played_candidate": self.played_candidate.to_json() if self.played_candidate else None,
            "equity_lost": round(self.equity_lost, 4),
            "error": self.error.value,
            "luck": None if self.luck is None else round(self.luck, 4),
            "win": round(self.win, 4),
        }


def analyse_turn(
    position: Position,
    dice: Dice,
    played: Play | None,
    *,
    ply: int,
    top: int = 5,
    rank: RankFn = default_rank,
    luck_equities: dict[tuple[int, int], float] | None = None,
    opening: bool = False,
) -> TurnReport:
    """Review the play made with ``dice`` from ``position`` (mover's side).

    ``played`` is ``None`` when nothing could move. ``luck_equities`` are the
    best equities for the 21 rolls at 1-ply (see ``best_equities``); without
    them the luck is not computed.
    """
    ranked = list(rank(position, dice, ply)) if played is not None else []
    luck = roll_luck(luck_equities, dice, opening) if luck_equities else None
    if not ranked or played is None:
        return TurnReport(
            (dice.d1, dice.d2),
            "",
            True,
            (),
            None,
            None,
            0.0,
            ErrorClass.NONE,
            luck,
            _static_win(position),
        )
    before = position_features(position)
    alternatives = tuple(with_comparisons([candidate(position, r, before) for r in ranked[:top]]))
    index = _index_of(ranked, played)
    chosen = ranked[index] if index is not None else None
    played_candidate = (
        alternatives[index]
        if index is not None and index < top
        else _compared(candidate(position, chosen, before), shots_left(alternatives[0]))
        if chosen is not None
        else None
    )
    lost = max(0.0, float(ranked[0].equity) - float(chosen.equity)) if chosen else 0.0
    forced = len(ranked) < 2
    return TurnReport(
        dice=(dice.d1, dice.d2),
        played=played.notation(),
        forced=forced,
        alternatives=alternatives,
        played_rank=index,
        played_candidate=played_candidate,
        equity_lost=0.0 if forced else lost,
        error=ErrorClass.NONE if forced else classify(lost),
        luck=luck,
        win=float(chosen.probs.win) if chosen else float(ranked[0].probs.win),
    )


def _index_of(ranked: Sequence[Ranked], played: Play) -> int | None:
    target = played.result
    for i, r in enumerate(ranked):
        if r.play.result == target:
            return i
    return None


def _static_win(position: Position) -> float:
    """The mover's chance after a dance: the opponent is then on roll."""
    return static_value(position)[1]
