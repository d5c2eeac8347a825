"""Ranked plays with their numbers and reasons, ready to store as JSON.

``hint`` is what a hint shows; ``learning.review.game`` stores the same
``Candidate`` for each turn's alternatives.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ai_worker.context import CubeContext, gammons_count
from ai_worker.explain import Reason, explain
from ai_worker.features import Features, position_features
from ai_worker.ranking import Probs, Ranked, RankFn, default_rank
from ai_worker.versus import Side, side, versus
from games.engine import Dice, Position


@dataclass(frozen=True, slots=True)
class Candidate:
    """One ranked play with its numbers and reasons, ready to store as JSON."""

    notation: str
    equity: float
    probs: dict[str, float]
    reasons: tuple[Reason, ...]
    steps: tuple[tuple[int, int, bool], ...]  # (src, dst, hit), mover's numbering
    result_id: str
    # What the best play does that this one does not (``ai_worker.versus``);
    # empty for the best play itself.
    versus: tuple[Reason, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "equity": round(self.equity, 4),
            "probs": {k: round(v, 4) for k, v in self.probs.items()},
            "reasons": [r.to_json() for r in self.reasons],
            "steps": [list(s) for s in self.steps],
            "result": self.result_id,
            "versus": [r.to_json() for r in self.versus],
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
    position: Position,
    dice: Dice,
    ply: int,
    top: int = 5,
    rank: RankFn = default_rank,
    context: CubeContext | None = None,
) -> list[Candidate]:
    """The ``top`` best plays for ``dice``, best first, each with its reasons
    and, after the first, what the best play does that it does not; equities
    in ``context``'s unit (``ai_worker.context``)."""
    ranked = rank(position, dice, ply, shown=top, context=context)
    before = position_features(position)
    found = [candidate(position, r, before) for r in ranked[:top]]
    return with_comparisons(position, found, context)


def with_comparisons(
    position: Position, candidates: list[Candidate], context: CubeContext | None = None
) -> list[Candidate]:
    """Each play after the first, with what the best play does that it does not."""
    if not candidates:
        return candidates
    before = position_features(position)
    best = candidates[0]
    return [best] + [compared(c, best, before, context) for c in candidates[1:]]


def compared(
    c: Candidate, best: Candidate, before: Features, context: CubeContext | None = None
) -> Candidate:
    """``c`` with its ``versus`` reasons against ``best`` (none when it is best),
    at ``context``'s score: a gammon that counts for nothing there is no reason."""
    if c.result_id == best.result_id:
        return c
    count = (True, True)
    if context is not None:
        count = (gammons_count(context, context.mover), gammons_count(context, context.mover.other))
    reasons = versus(before, _side(best), _side(c), count)
    if [r.code for r in reasons] == ["only_equity"]:  # the same things on both boards
        reasons = [Reason("only_equity", {"loss": round(best.equity - c.equity, 3)})]
    if context is not None:
        why = "jacoby" if context.match.is_money else "match"
        reasons = [
            replace(r, params={**r.params, "why": why}) if r.code == "gammons_free" else r
            for r in reasons
        ]
    return replace(c, versus=tuple(reasons))


def _side(c: Candidate) -> Side:
    from ai_worker.evaluator import bearoff_rolls

    hits = sum(1 for step in c.steps if step[2])
    return side(Position.from_position_id(c.result_id), hits, c.probs, bearoff_rolls, c.notation)
