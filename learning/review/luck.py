"""The luck-adjusted result of a reviewed game, beside its PR, in words.

As GNU Backgammon reports it: the game's result minus the luck both sides
had, that is the person's points (won: +, lost: −) minus the person's luck
plus the computer's. A turn's luck (``TurnAnalysis.luck``, the mover's, in
cubeless equity: the best play with the roll made against the average roll)
counts at the cube's value during that turn. What is left is what the plays
and the cube decisions earned against the computer, the dice taken out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.models import Game, Status
from learning.models import GameAnalysis
from learning.review.cube import cube_values

# Below this (in points) the luck or the adjusted result is called even.
EVEN = 0.05


@dataclass(frozen=True, slots=True)
class LuckResult:
    points: float  # the person's result: + won, − lost
    luck: float  # the person's luck minus the computer's, in points
    adjusted: float  # points − luck

    def to_json(self) -> dict[str, float]:
        return {"points": self.points, "luck": self.luck, "adjusted": self.adjusted}


def luck_result(game: Game, row: GameAnalysis) -> LuckResult | None:
    """The person's result, the luck, the result without it (None: an unfinished game)."""
    if game.status != Status.FINISHED or game.winner not in ("light", "dark"):
        return None
    cubes = cube_values(game) if game.has_cube else {}
    luck = 0.0
    for number, side, value in row.turns.values_list("number", "side", "luck"):
        sign = 1.0 if side == "light" else -1.0
        luck += sign * float(value or 0.0) * cubes.get(number, 1)
    points = float(game.points if game.winner == "light" else -game.points)
    return LuckResult(round(points, 3), round(luck, 3), round(points - luck, 3))


def luck_words(result: LuckResult) -> str:
    """The result, the luck and the result without it, in one short paragraph."""
    n = round(abs(result.points))
    won = ngettext(
        "You won this game (%(points)s point).", "You won this game (%(points)s points).", n
    )
    lost = ngettext(
        "You lost this game (%(points)s point).", "You lost this game (%(points)s points).", n
    )
    parts: list[str] = [(won if result.points > 0 else lost) % {"points": n}]
    luck = f"{abs(result.luck):.1f}"
    if result.luck >= EVEN:
        words = _("The dice gave you %(luck)s points more than average rolls would have.")
        parts.append(words % {"luck": luck})
    elif result.luck <= -EVEN:
        words = _("The dice cost you %(luck)s points against average rolls.")
        parts.append(words % {"luck": luck})
    else:
        parts.append(_("The dice were about even."))
    adjusted = f"{abs(result.adjusted):.1f}"
    if result.adjusted >= EVEN:
        words = _("By the plays alone you were %(adjusted)s points ahead of the computer.")
        parts.append(words % {"adjusted": adjusted})
    elif result.adjusted <= -EVEN:
        words = _("By the plays alone you were %(adjusted)s points behind the computer.")
        parts.append(words % {"adjusted": adjusted})
    else:
        parts.append(_("By the plays alone you and the computer were even."))
    # Chinese sentences follow each other without a space.
    return ("" if (get_language() or "").startswith("zh") else " ").join(parts)


def luck_context(game: Game, row: GameAnalysis | None) -> dict[str, Any] | None:
    """What the review page shows beside the PR (None before the review is done)."""
    if row is None or row.state != "done":
        return None
    result = luck_result(game, row)
    if result is None:
        return None
    return {**result.to_json(), "words": luck_words(result)}
