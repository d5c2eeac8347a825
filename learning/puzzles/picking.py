"""Which puzzle comes next: one the person has not answered, near their
rating, of the theme and phase they chose; and the day's puzzle."""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet

from learning.puzzles import themes
from learning.puzzles.models import START_RATING, Puzzle, PuzzleAttempt, PuzzleRating

WINDOWS = (100, 200, 400, 800)  # rating points either side, widened in turn
DAILY_LOW, DAILY_HIGH = 1300.0, 1700.0


def themes_known() -> set[str]:
    """Every theme a filter may name: the answers' and the cube's, and the
    structures as ``mine:…`` / ``theirs:…``."""
    names = set(themes.CHECKER_THEMES) | set(themes.CUBE_THEMES)
    for side in ("mine", "theirs"):
        names |= {f"{side}:{s}" for s in themes.STRUCTURES}
    return names


def open_puzzles(user: Any, theme: str = "", phase: str = "") -> QuerySet[Puzzle]:
    """The rated puzzles ``user`` may answer and has not, filtered: the
    bank's and the person's own."""
    mine = Q(owner__isnull=True)
    if getattr(user, "is_authenticated", False):
        mine |= Q(owner=user)
    found = Puzzle.objects.filter(mine, status="confirmed")
    if theme:
        found = found.filter(tags__contains=f" {theme} ")
    if phase:
        found = found.filter(phase=phase)
    if getattr(user, "is_authenticated", False):
        done = PuzzleAttempt.objects.filter(user=user).values("puzzle_id")
        found = found.exclude(pk__in=done)
    return found


def rating_of(user: Any) -> float:
    if not getattr(user, "is_authenticated", False):
        return START_RATING
    row = PuzzleRating.objects.filter(user=user).values_list("rating", flat=True).first()
    return START_RATING if row is None else float(row)


def next_puzzle(user: Any, theme: str = "", phase: str = "") -> Puzzle | None:
    """An unanswered puzzle near the person's rating (the window widens
    until one is found); the order among them drawn by the database."""
    found = open_puzzles(user, theme, phase)
    rating = rating_of(user)
    for window in WINDOWS:
        near = found.filter(rating__gte=rating - window, rating__lte=rating + window)
        pick = near.order_by("?").first()
        if pick is not None:
            return pick
    return found.order_by("?").first()


def daily_puzzle(day: date) -> Puzzle | None:
    """The same puzzle for everyone all day: drawn by the date from the
    bank's rated puzzles of middling rating."""
    pool = Puzzle.objects.filter(
        status="confirmed", owner__isnull=True, rating__gte=DAILY_LOW, rating__lte=DAILY_HIGH
    ).order_by("key")
    count = pool.count()
    if not count:
        pool = Puzzle.objects.filter(status="confirmed", owner__isnull=True).order_by("key")
        count = pool.count()
    if not count:
        return None
    digest = hashlib.blake2b(day.isoformat().encode(), digest_size=8).digest()
    return pool[int.from_bytes(digest, "big") % count]
