"""Dice statistics: how often each face and each of the 21 rolls came up.

Every stored turn holds the two dice its side rolled, except a game's first
turn, which is played with the two opening dice (one rolled by each side).
So faces count the opening dice by the side that rolled them plus both dice
of every later turn; the 21 rolls count only the later turns.

The database does the counting: the later turns are grouped by their two
dice (at most 36 rows come back, however many turns the site has stored),
and the opening rolls by their list (a few hundred distinct lists at most).
The whole site's figures are cached for ``SITE_CACHE_SECONDS``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, QuerySet

from games.engine import ROLLS
from games.models import DiceSource, Game, Turn
from learning.dice.chisquare import ChiSquare, chi_square

ROLL_KEYS: tuple[tuple[int, int], ...] = tuple((d1, d2) for d1, d2, _w in ROLLS)
ROLL_PROBABILITIES: tuple[float, ...] = tuple(w / 36 for _d1, _d2, w in ROLLS)
FACE_PROBABILITIES: tuple[float, ...] = (1 / 6,) * 6
SITE_CACHE_SECONDS = 300
SITE_CACHE_KEY = "learning:dicestats:site"


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
    return count_grouped(((d1, d2, 1) for d1, d2 in turn_dice), ((d, 1) for d in opening_dice))


def count_grouped(
    turn_dice: Iterable[tuple[int, int, int]], opening_dice: Iterable[tuple[int, int]]
) -> DiceCounts:
    """Counts from (d1, d2, times) of later turns and (die, times) of opening dice."""
    faces = [0] * 6
    rolls = dict.fromkeys(ROLL_KEYS, 0)
    for die, times in opening_dice:
        faces[die - 1] += times
    for d1, d2, times in turn_dice:
        faces[d1 - 1] += times
        faces[d2 - 1] += times
        rolls[(max(d1, d2), min(d1, d2))] += times
    return DiceCounts(tuple(faces), tuple(rolls[k] for k in ROLL_KEYS))


def side_counts(games: QuerySet[Game], side: str) -> DiceCounts:
    """The dice of ``side`` ("light" = the person, "dark" = the computer)."""
    column = 0 if side == "light" else 1
    turns = (
        Turn.objects.filter(game__in=games, side=side, number__gt=1)
        .values_list("die1", "die2")
        .annotate(times=Count("id"))
        .order_by()
    )
    opening = (
        (roll[column], times)
        for rolls, times in _opening_roll_lists(games)
        for roll in (rolls or [])
    )
    return count_grouped(turns, opening)


def _opening_roll_lists(games: QuerySet[Game]) -> list[tuple[list[list[int]], int]]:
    """Each distinct list of opening rolls with how many games had it."""
    grouped = games.order_by().values_list("opening_rolls").annotate(times=Count("id"))
    return list(grouped)


def statistics(games: QuerySet[Game]) -> dict[str, DiceCounts]:
    return {"light": side_counts(games, "light"), "dark": side_counts(games, "dark")}


def statistics_of(user: Any) -> dict[str, DiceCounts]:
    """``statistics`` of the user's own games: an imported study's dice are not theirs."""
    return statistics(Game.objects.filter(owner=user).own_record())


def site_statistics() -> dict[str, DiceCounts]:
    """``statistics`` of every game played on the site (an imported game's dice
    were rolled elsewhere), cached for ``SITE_CACHE_SECONDS``."""
    cached: dict[str, DiceCounts] | None = cache.get(SITE_CACHE_KEY)
    if cached is None:
        cached = statistics(Game.objects.exclude(dice_source=DiceSource.IMPORTED))
        cache.set(SITE_CACHE_KEY, cached, SITE_CACHE_SECONDS)
    return cached


VERIFIABLE_SHOWN = 10


def verifiable_games(user: Any) -> list[Game]:
    """``user``'s latest finished games whose dice can be checked (docs/dice.md)."""
    games = Game.objects.filter(owner=user, dice_source=DiceSource.SEEDS).exclude(finished_at=None)
    return list(games.order_by("-finished_at")[:VERIFIABLE_SHOWN])
