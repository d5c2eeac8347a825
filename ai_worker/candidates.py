"""Ranked plays with their numbers and reasons, ready to store as JSON.

``hint`` is what a hint shows; ``learning.review`` stores the same
``Candidate`` for each turn's alternatives.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ai_worker.explain import Reason, explain
from ai_worker.features import Features, position_features
from ai_worker.ranking import Probs, Ranked, RankFn, default_rank
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
    return [candidates[0]] + [compared(c, best) for c in candidates[1:]]


def compared(c: Candidate, best_shots: int) -> Candidate:
    shots = shots_left(c)
    if shots <= best_shots:
        return c
    extra = Reason("more_shots_than_best", {"shots": shots, "best": best_shots})
    return replace(c, reasons=(*c.reasons, extra))
