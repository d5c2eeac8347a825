"""The dashboard of a person's themes: how their puzzles go, and what each
theme costs them in their own reviewed games.

For each answer theme and each phase: the puzzles answered and solved with the
performance rating they show (the puzzles' mean rating, plus 400 × (solved
- failed) / answered, as chess sites give a performance), and the equity
lost per decision in the person's own reviewed games whose decision is of
that theme (``learning.puzzles.themes``, the best play against the play
made, or the next best when the best was made), with its 95 % interval;
"unclear" below ``MIN_DECISIONS``. The three weakest themes (the most lost
per decision, the clear ones first; else the lowest puzzle score) link to
training.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from games.engine import Dice, Position, legal_plays
from games.models import own_record
from learning.puzzles import themes
from learning.puzzles.models import PuzzleAttempt

MIN_DECISIONS = 20
MIN_WEAK = 3  # decisions or answers before a theme can be named weak
RECENT = 400  # the person's latest reviewed decisions looked at
CACHE_SECONDS = 30 * 24 * 3600


@dataclass
class Row:
    theme: str
    label: str
    answered: int = 0
    solved: int = 0
    performance: float | None = None
    decisions: int = 0
    lost: float | None = None  # per decision, cubeless equity
    low: float | None = None
    high: float | None = None

    @property
    def clear(self) -> bool:
        return self.decisions >= MIN_DECISIONS

    def url(self) -> str:
        kind, _colon, name = self.theme.partition(":")
        if kind == "phase":
            return reverse("puzzles:next") + f"?phase={name}"
        return reverse("puzzles:next") + f"?theme={self.theme}"

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "clear": self.clear, "url": self.url()}


def theme_rows(user: Any) -> list[dict[str, Any]]:
    return [r.as_dict() for r in _rows(user)]


def weakest(user: Any, count: int = 3) -> list[dict[str, Any]]:
    """The themes that cost the person most: by the equity lost per decision
    in their own games (clear ones first, then those with ``MIN_WEAK``
    decisions or more), then by the share of puzzles failed."""
    rows = _rows(user)
    by_games = [r for r in rows if r.decisions >= MIN_WEAK and r.lost]
    by_games.sort(key=lambda r: (not r.clear, -(r.lost or 0.0)))
    chosen = by_games[:count]
    by_puzzles = [r for r in rows if r.answered >= MIN_WEAK and r not in chosen]
    by_puzzles.sort(key=lambda r: r.solved / r.answered)
    chosen += by_puzzles[: count - len(chosen)]
    return [r.as_dict() for r in chosen]


def _rows(user: Any) -> list[Row]:
    from learning.puzzles.labels import theme_label

    keys = [*themes.CHECKER_THEMES, *(f"phase:{p}" for p in themes.PHASES)]
    rows = {t: Row(t, theme_label(t)) for t in keys}
    for t, puzzle_ratings, solved in _answers(user):
        row = rows[t]
        row.answered, row.solved = len(puzzle_ratings), solved
        mean = sum(puzzle_ratings) / len(puzzle_ratings)
        row.performance = round(
            mean + 400 * (2 * solved - len(puzzle_ratings)) / len(puzzle_ratings)
        )
    for t, losses in _game_losses(user).items():
        row = rows[t]
        row.decisions = len(losses)
        mean = sum(losses) / len(losses)
        sd = math.sqrt(sum((x - mean) ** 2 for x in losses) / max(1, len(losses) - 1))
        half = 1.96 * sd / math.sqrt(len(losses))
        row.lost, row.low, row.high = (
            round(mean, 4),
            round(max(0.0, mean - half), 4),
            round(mean + half, 4),
        )
    return list(rows.values())


def _answers(user: Any) -> list[tuple[str, list[float], int]]:
    found: dict[str, tuple[list[float], int]] = {}
    tried = PuzzleAttempt.objects.filter(user=user).values_list(
        "puzzle__tags", "puzzle_before", "solved"
    )
    for tags, rating, solved in tried:
        for t in tags.split():
            if t in themes.CHECKER_THEMES or t.startswith("phase:"):
                ratings, won = found.get(t, ([], 0))
                ratings.append(rating)
                found[t] = (ratings, won + int(solved))
    return [(t, r, s) for t, (r, s) in found.items()]


def _game_losses(user: Any) -> dict[str, list[float]]:
    """Each theme's losses over the person's own reviewed decisions."""
    from learning.models import AnalysisState, TurnAnalysis

    rows = (
        TurnAnalysis.objects.filter(
            own_record("analysis__game__"),
            analysis__game__owner=user,
            analysis__state=AnalysisState.DONE,
            side="light",
            forced=False,
        )
        .select_related("turn")
        .order_by("-pk")[:RECENT]
    )
    found: dict[str, list[float]] = {}
    for row in rows:
        for t in decision_themes(row):
            found.setdefault(t, []).append(float(row.equity_lost))
    return found


def decision_themes(row: Any) -> list[str]:
    """The answer themes of one reviewed decision (kept in the cache)."""
    key = f"puzzles:themes:2:{row.pk}"
    known = cache.get(key)
    if known is not None:
        return list(known)
    found = _themes_of(row)
    cache.set(key, found, CACHE_SECONDS)
    return found


def _themes_of(row: Any) -> list[str]:
    report = row.report or {}
    alternatives = report.get("alternatives") or []
    played = report.get("played_candidate")
    if not alternatives:
        return []
    best = alternatives[0]
    other = played if played and played.get("result") != best.get("result") else None
    if other is None and len(alternatives) > 1:
        other = alternatives[1]
    if other is None:
        return []
    turn = row.turn
    position = Position.from_position_id(turn.position_before)
    plays = {p.result.position_id(): p for p in legal_plays(position, Dice(turn.die1, turn.die2))}
    if best["result"] not in plays or other["result"] not in plays:
        return []
    tags = themes.checker_themes(
        position,
        turn.number,
        plays[best["result"]],
        plays[other["result"]],
        best["probs"],
        other["probs"],
    )
    answer = tags["answer"]
    assert isinstance(answer, list)
    return [str(a) for a in answer] + [f"phase:{tags['phase']}"]
