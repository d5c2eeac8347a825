"""Dice statistics: how often each face and each of the 21 rolls came up.

Every stored turn holds the two dice its side rolled, except a game's first
turn, which is played with the two opening dice (one rolled by each side).
So faces count the opening dice by the side that rolled them plus both dice
of every later turn; the 21 rolls count only the later turns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games.engine import ROLLS
from games.models import Game, Turn
from learning.chisquare import ChiSquare, chi_square

ROLL_KEYS: tuple[tuple[int, int], ...] = tuple((d1, d2) for d1, d2, _w in ROLLS)
ROLL_PROBABILITIES: tuple[float, ...] = tuple(w / 36 for _d1, _d2, w in ROLLS)
FACE_PROBABILITIES: tuple[float, ...] = (1 / 6,) * 6


@dataclass(frozen=True, slots=True)
class DiceCounts:
    """The counts for one side (the person's or the computer's dice)."""

    faces: tuple[int, ...]  # index 0 = face 1
    rolls: tuple[int, ...]  # in ROLL_KEYS order

    @property
    def dice(self) -> int:
        return sum(self.faces)

    @property
    def roll_total(self) -> int:
        return sum(self.rolls)

    @property
    def doubles(self) -> int:
        return sum(n for (d1, d2), n in zip(ROLL_KEYS, self.rolls, strict=True) if d1 == d2)

    @property
    def doubles_rate(self) -> float | None:
        return self.doubles / self.roll_total if self.roll_total else None

    def face_test(self) -> ChiSquare | None:
        return chi_square(self.faces, FACE_PROBABILITIES)

    def roll_test(self) -> ChiSquare | None:
        return chi_square(self.rolls, ROLL_PROBABILITIES)


def count(turn_dice: Iterable[tuple[int, int]], opening_dice: Iterable[int]) -> DiceCounts:
    """Counts from later turns' (d1, d2) and the single opening dice."""
    faces = [0] * 6
    rolls = dict.fromkeys(ROLL_KEYS, 0)
    for die in opening_dice:
        faces[die - 1] += 1
    for d1, d2 in turn_dice:
        faces[d1 - 1] += 1
        faces[d2 - 1] += 1
        rolls[(max(d1, d2), min(d1, d2))] += 1
    return DiceCounts(tuple(faces), tuple(rolls[k] for k in ROLL_KEYS))


def side_counts(games: QuerySet[Game], side: str) -> DiceCounts:
    """The dice of ``side`` ("light" = the person, "dark" = the computer)."""
    column = 0 if side == "light" else 1
    turns = Turn.objects.filter(game__in=games, side=side, number__gt=1)
    opening = (
        roll[column]
        for rolls in games.values_list("opening_rolls", flat=True)
        for roll in (rolls or [])
    )
    return count(turns.values_list("die1", "die2"), opening)


def statistics(games: QuerySet[Game]) -> dict[str, DiceCounts]:
    return {"light": side_counts(games, "light"), "dark": side_counts(games, "dark")}


def counts_json(counts: DiceCounts) -> dict[str, Any]:
    return {
        "faces": list(counts.faces),
        "rolls": [
            {"roll": f"{d1}-{d2}", "count": n}
            for (d1, d2), n in zip(ROLL_KEYS, counts.rolls, strict=True)
        ],
        "doubles_rate": counts.doubles_rate,
    }
