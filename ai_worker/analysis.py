"""The review of one turn: ranked plays, equity lost, error class, luck.

Pure Python (no Django): the site stores what ``analyse_turn`` returns.
Positions are from the mover's side, as ``games.engine`` and
``ai_worker.evaluator`` use them. The evaluator is passed in as ``rank`` so
tests and benchmarks can choose the ply. The pieces live by concept:
``grading`` (error classes, rating bands), ``explain`` (reasons),
``candidates`` (ranked plays as JSON, hints), ``luck``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai_worker.attribution import weighed
from ai_worker.candidates import Candidate, candidate, compared, probs_dict, with_comparisons
from ai_worker.context import CubeContext
from ai_worker.features import position_features
from ai_worker.grading import ErrorClass, classify
from ai_worker.luck import best_equities, roll_luck
from ai_worker.ranking import Probs, Ranked, RankFn, default_rank, luck_rank
from games.engine import Dice, Play, Position
from games.tiers import Tier, tier_spec


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
    ply: int = 1  # the depth the plays were ranked at
    after: dict[str, float] | None = None  # the mover's chances after the turn (probs_dict)
    # The best legal play's cubeless equity minus the worst's (None: no
    # choice): how much the roll's plays differ, the cube aside.
    spread: float | None = None

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
            "ply": self.ply,
            "after": {k: round(v, 4) for k, v in self.after.items()} if self.after else None,
            "spread": None if self.spread is None else round(self.spread, 5),
        }


def review_ply() -> int:
    """The review judges one ply deeper than the Expert tier plays."""
    from ai_worker.evaluator import MAX_PLY

    return min(tier_spec(Tier.EXPERT).ply + 1, MAX_PLY)


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
    context: CubeContext | None = None,
) -> TurnReport:
    """Review the play made with ``dice`` from ``position`` (mover's side),
    every value in ``context``'s unit (``ai_worker.context``: cubeless
    without the cube).

    Every play the report lists (the ``top`` best and the play made) is
    valued at ``ply`` by the same search, so a play's value never depends on
    whether it was the one made, and every decision of a review is judged at
    one depth. ``played`` is ``None`` when nothing could move.
    ``luck_equities`` are the best equities for the 21 rolls (see
    ``ai_worker.luck.best_equities``); without them the luck is not computed.
    """
    ranked = (
        list(rank(position, dice, ply, keep=played, shown=top, context=context))
        if played is not None
        else []
    )
    depth = ply
    luck = roll_luck(luck_equities, dice, opening) if luck_equities else None
    if not ranked or played is None:
        still = _unmoved(position, depth, context)
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
            still.win,
            depth,
            probs_dict(still),
        )
    before = position_features(position)
    best = [candidate(position, r, before) for r in ranked[:top]]
    alternatives = tuple(with_comparisons(position, best, context))
    index = _index_of(ranked, played)
    chosen = ranked[index] if index is not None else None
    played_candidate = (
        alternatives[index]
        if index is not None and index < top
        else compared(candidate(position, chosen, before), alternatives[0], before, context)
        if chosen is not None
        else None
    )
    lost = max(0.0, float(ranked[0].equity) - float(chosen.equity)) if chosen else 0.0
    forced = len(ranked) < 2
    if played_candidate is not None and not forced and classify(lost) is not ErrorClass.NONE:
        # A played error's reasons lead with the difference that carries most
        # of the gap (``ai_worker.attribution``), in the list of plays too.
        played_candidate = weighed(position, dice, played_candidate, alternatives[0], rank)
        if index is not None and index < top:
            alternatives = tuple(
                played_candidate if i == index else c for i, c in enumerate(alternatives)
            )
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
        ply=depth,
        after=probs_dict(chosen.probs if chosen else ranked[0].probs),
        spread=None if forced else _cubeless_spread(ranked, context),
    )


def review_turn(
    position: Position,
    dice: Dice,
    played: Play | None,
    *,
    ply: int,
    rank: RankFn = default_rank,
    opening: bool = False,
    shared: Callable[[RankFn], RankFn] | None = None,
    context: CubeContext | None = None,
) -> TurnReport:
    """The review of one turn at ``ply``: every decision ranked at ``ply``;
    luck from the 21 rolls' best plays one ply less (the Expert's depth when
    ``ply`` is the review's), that is against the position's value at ``ply``;
    every value in ``context``'s unit. ``shared`` wraps the ranking (the
    site's cache, which the tutor and the hint fill)."""
    base = max(1, ply - 1)
    once = _once(shared(rank) if shared is not None else rank)
    # The other rolls only need their best play: searched narrower when the
    # real evaluator ranks (``luck_rank``), the roll made at full width.
    table_rank = _shared(once, _once(luck_rank), dice, base) if rank is default_rank else once
    equities = best_equities(position, table_rank, ply=base, context=context)
    return analyse_turn(
        position,
        dice,
        played,
        ply=ply,
        rank=once,
        luck_equities=equities,
        opening=opening,
        context=context,
    )


def _once(rank: RankFn) -> RankFn:
    """``rank`` for one position, each (roll, ply) searched once: the luck
    table and the turn's own ranking share the roll that was made."""
    seen: dict[tuple[int, int, int], Sequence[Ranked]] = {}

    def ranked(
        position: Position,
        dice: Dice,
        ply: int,
        keep: Play | None = None,
        shown: int = 2,
        context: CubeContext | None = None,
    ) -> Sequence[Ranked]:
        key = (max(dice.d1, dice.d2), min(dice.d1, dice.d2), ply)
        if key not in seen:
            seen[key] = rank(position, dice, ply, keep, shown, context)
        return seen[key]

    return ranked


def _shared(made: RankFn, others: RankFn, roll: Dice, depth: int) -> RankFn:
    """``made`` for the roll ``roll`` at ``depth``, ``others`` for the rest."""
    key = (max(roll.d1, roll.d2), min(roll.d1, roll.d2), depth)

    def ranked(
        position: Position,
        dice: Dice,
        ply: int,
        keep: Play | None = None,
        shown: int = 2,
        context: CubeContext | None = None,
    ) -> Sequence[Ranked]:
        own = (max(dice.d1, dice.d2), min(dice.d1, dice.d2), ply) == key
        return (made if own else others)(position, dice, ply, keep, shown, context)

    return ranked


def _cubeless_spread(ranked: Sequence[Ranked], context: CubeContext | None) -> float:
    """The best cubeless equity of the plays minus the worst (see ``spread``):
    the ranking's own without the cube, its chances' with it."""
    if context is None:
        return float(ranked[0].equity) - float(ranked[-1].equity)

    def cubeless(p: Probs) -> float:
        wins = p.win_gammon + p.win_backgammon - p.lose_gammon - p.lose_backgammon
        return 2.0 * p.win - 1.0 + wins

    values = [cubeless(r.probs) for r in ranked]
    return max(values) - min(values)


def _index_of(ranked: Sequence[Ranked], played: Play) -> int | None:
    target = played.result
    for i, r in enumerate(ranked):
        if r.play.result == target:
            return i
    return None


def _unmoved(position: Position, ply: int, context: CubeContext | None = None) -> Probs:
    """The mover's chances after a dance (the opponent is then on roll), at
    the depth the luck table values the dance."""
    from ai_worker.evaluator import value_unmoved

    return value_unmoved(position, ply, context)[1]
