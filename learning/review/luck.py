"""The luck-adjusted result of a reviewed game, beside its PR, in words.

As GNU Backgammon reports it: the game's result minus the luck both sides
had, that is LIGHT's result minus LIGHT's luck plus DARK's. A turn's luck
(``TurnAnalysis.luck``, the mover's: the best play with the roll made
against the average roll) is in the turn's judgement unit
(``ai_worker.context``, per unit of the cube then). In a single or money
game it counts in points, times the cube's value during that turn; in a
match it counts in match winning chances (the turn's ``luck_mwc``) and the
result is what the game did to LIGHT's chance to win the match, so the
three figures are in one unit and never contradict the PR beside them. What
is left is what the plays and the cube decisions earned, the dice taken out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language

from games.engine import Side
from games.models import Game, Status
from games.reading import match_of
from learning.models import GameAnalysis
from learning.review.cube import turn_contexts
from learning.words.luck import luck_words, players

# Below this (in points) the luck or the adjusted result is called even; in
# match winning chances, below ``EVEN_MWC``.
EVEN = 0.05
EVEN_MWC = 0.005


@dataclass(frozen=True, slots=True)
class LuckResult:
    points: float  # LIGHT's result: + won, − lost (points, or in a match MWC)
    luck: float  # LIGHT's luck minus DARK's, in the same unit
    adjusted: float  # points − luck
    unit: str = "points"  # "points", or "mwc" in a match (chances, 0.12 = 12%)
    scored: int = 0  # the points LIGHT won (+) or lost (−), in a match too

    def to_json(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "luck": self.luck,
            "adjusted": self.adjusted,
            "unit": self.unit,
            "scored": self.scored,
        }

    @property
    def even(self) -> float:
        return EVEN_MWC if self.unit == "mwc" else EVEN


def luck_result(game: Game, row: GameAnalysis) -> LuckResult | None:
    """LIGHT's result, its luck, the result without it (None: an unfinished game)."""
    if game.status != Status.FINISHED or game.winner not in ("light", "dark"):
        return None
    scored = game.points if game.winner == "light" else -game.points
    if game.match_id is not None:
        return _in_match(game, row, scored)
    contexts = turn_contexts(game)
    luck = 0.0
    for number, side, value in row.turns.values_list("number", "side", "luck"):
        context = contexts.get(number)
        cube = context.cube.value if context is not None else 1
        luck += (1.0 if side == "light" else -1.0) * float(value or 0.0) * cube
    points = float(scored)
    return LuckResult(round(points, 3), round(luck, 3), round(points - luck, 3), "points", scored)


def _in_match(game: Game, row: GameAnalysis, scored: int) -> LuckResult:
    """The match game's figures in match winning chances, LIGHT's."""
    luck = 0.0
    for side, report in row.turns.values_list("side", "report"):
        luck += (1.0 if side == "light" else -1.0) * float((report or {}).get("luck_mwc") or 0.0)
    result = _result_mwc(game, scored)
    return LuckResult(round(result, 4), round(luck, 4), round(result - luck, 4), "mwc", scored)


def _result_mwc(game: Game, scored: int) -> float:
    """What the game did to LIGHT's chance to win the match: the chance at
    the score after it minus the chance at the score before it (GNU
    Backgammon's "actual result")."""
    import bgbot_cpp

    match = match_of(game)
    away = (match.away(Side.LIGHT), match.away(Side.DARK))
    # bgbot's get_met reads its flag as "after the Crawford game" (the
    # post-Crawford table); the Crawford game itself is the plain table.
    before = float(bgbot_cpp.get_met(*away, match.post_crawford))
    sign = 1.0 if scored > 0 else -1.0
    # Winning (losing) ``scored`` points: the linear map's end at that cube.
    after = float(bgbot_cpp.eq2mwc(sign, *away, abs(scored), match.crawford))
    return after - before


def luck_context(game: Game, row: GameAnalysis | None) -> dict[str, Any] | None:
    """What the review page shows beside the PR (None before the review is done)."""
    if row is None or row.state != "done":
        return None
    result = luck_result(game, row)
    if result is None:
        return None
    words = luck_words(result, players(game))
    # Chinese sentences follow each other without a space.
    joined = ("" if (get_language() or "").startswith("zh") else " ").join(words)
    return {**result.to_json(), "words": joined}
