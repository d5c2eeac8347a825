"""Why a play is good or bad, as codes and parameters (``Reason``).

Pure Python (no Django): ``learning.words.reasons`` words each code in the page's
language. Positions are from the mover's side, as ``games.engine`` uses them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ai_worker.features import Features, position_features
from games.engine import Play, Position

# The parameters of any reason (these and ``ai_worker.versus``'s) that name
# points, one or a list, in the mover's numbering, and those that give a play
# in its notation: a page shows them in the board's numbering.
POINT_PARAMS = frozenset(
    {
        "point",
        "points",
        "top",
        "bottom",
        "best_points",
        "other_points",
        "best_back_points",
        "other_back_points",
        "back_points",
    }
)
PLAY_PARAMS = frozenset({"best_play", "other_play"})


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
    # Moving one of two back checkers on in the opponent's home board splits
    # them: a player says so, not that a point is given up.
    split = [p for p in broken if p >= 19 and p in after.blots]
    broken = [p for p in broken if p not in split]
    if split and after.contact:
        reasons.append(Reason("splits", {"points": split}))
    if broken and after.contact:  # in a race or a bear-off a point means nothing
        reasons.append(Reason("breaks_points", {"points": broken}))
    reasons.extend(_blot_reasons(after))
    if after.contact and (after.home_points != before.home_points or after.home_points >= 4):
        reasons.append(
            Reason(
                "home_points",
                {"count": after.home_points, "change": after.home_points - before.home_points},
            )
        )
    if after.prime >= 3 and after.trapped and (after.prime != before.prime or after.prime >= 5):
        reasons.append(Reason("prime", prime_params(after)))
    reasons.extend(_race_reasons(before, after))
    off = after.borne_off - before.borne_off
    if off:
        reasons.append(Reason("bears_off", {"count": off}))
    return reasons


def prime_params(after: Features) -> dict[str, int]:
    return {
        "length": after.prime,
        "top": after.prime_top,
        "bottom": after.prime_top - after.prime + 1,
        "behind": after.trapped,
    }


def _blot_reasons(after: Features) -> list[Reason]:
    """The risk as a player counts it: shots at the blots that matter (a
    back checker alone in the opponent's home board only in a blitz)."""
    if not after.contact:
        return []
    if not after.blots:
        return [Reason("no_blots")]
    if not after.exposed:
        return []
    params: dict[str, Any] = {
        "count": len(after.exposed),
        "points": list(after.exposed),
        "shots": after.shots,
    }
    back = [p for p in after.blots if p not in after.exposed]
    if back:  # left out of ``shots``, but named with the rolls that hit them
        params.update(back_points=back, back_shots=after.back_shots)
    return [Reason("blots", params)]


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
