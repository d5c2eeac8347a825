"""Practice from your own mistakes: positions, answers judged, spaced repetition.

Every reviewed decision of the person (LIGHT) marked ? or ?? becomes a
``PracticeItem`` of the game's owner (``add_from_reviews``, run when the
practice page or the lobby counts them, so a review finished by any worker
is picked up). An answer is judged against the review's ranked plays: the
best play or one within ``WITHIN`` of it is right. Right answers come back
after 1, 3, 7, then 21 days; a wrong one tomorrow.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games.engine import Dice, Play, Position, Turn
from learning.board_input import board_facts
from learning.models import AnalysisState, ErrorClass, TurnAnalysis
from learning.phases import PHASES, phase_of
from learning.replay import candidate_json
from learning.study_models import PracticeItem

WITHIN = 0.02
INTERVALS = (1, 3, 7, 21)  # days, after 1, 2, 3 and 4+ right answers in a row
WRONG_AGAIN = 1  # days: a wrong answer comes back tomorrow
MARKED = (ErrorClass.BAD, ErrorClass.VERY_BAD)
PRACTICE_PHASES = tuple(p for p in PHASES if p != "race")


def add_from_reviews(user: Any) -> int:
    """Make a practice item of every marked decision of ``user``'s not made yet."""
    if not getattr(user, "is_authenticated", False):
        return 0
    rows = (
        TurnAnalysis.objects.filter(
            analysis__game__owner=user,
            analysis__state=AnalysisState.DONE,
            side="light",
            forced=False,
            error_class__in=MARKED,
            practice__isnull=True,
        )
        .select_related("turn")
        .order_by("pk")
    )
    now = timezone.now()
    items = [_item_for(user, row, now) for row in rows]
    PracticeItem.objects.bulk_create(items, ignore_conflicts=True)
    return len(items)


def _item_for(user: Any, row: TurnAnalysis, now: Any) -> PracticeItem:
    turn = row.turn
    position = Position.from_position_id(turn.position_before)  # LIGHT's side, on roll
    return PracticeItem(
        owner=user,
        turn=row,
        position_id=turn.position_before,
        die1=turn.die1,
        die2=turn.die2,
        error_class=row.error_class,
        phase=phase_of(position, turn.number),
        due=now,
    )


def items_of(user: Any, *, blunders: bool = False, phase: str = "") -> QuerySet[PracticeItem]:
    items = PracticeItem.objects.filter(owner=user)
    if blunders:
        items = items.filter(error_class=ErrorClass.VERY_BAD)
    if phase in PRACTICE_PHASES:
        items = items.filter(phase=phase)
    return items


def due_items(user: Any, **filters: Any) -> QuerySet[PracticeItem]:
    return items_of(user, **filters).filter(due__lte=timezone.now()).order_by("due", "pk")


def due_count(user: Any) -> int:
    """How many practice positions are due now (new marked decisions included)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    add_from_reviews(user)
    return due_items(user).count()


@dataclass(frozen=True)
class Verdict:
    """How an answer compares with the review's ranked plays."""

    right: bool
    best: bool
    notation: str
    lost: float | None  # equity behind the best play; None when not among the ranked
    days: int  # when the position comes back


def judge(item: PracticeItem, play: Play) -> Verdict:
    """Right when ``play`` is the best or within ``WITHIN`` of it."""
    report = item.turn.report
    ranked = list(report.get("alternatives", []))
    if report.get("played_candidate"):
        ranked.append(report["played_candidate"])
    best = ranked[0]["equity"] if ranked else 0.0
    result = play.result.position_id()
    equity = next((c["equity"] for c in ranked if c.get("result") == result), None)
    lost = None if equity is None else max(0.0, best - equity)
    right = lost is not None and lost <= WITHIN + 1e-9
    return Verdict(right, lost is not None and lost < 1e-9, play.notation(), lost, 0)


def record(item: PracticeItem, verdict: Verdict) -> Verdict:
    """Store the answer and schedule the position's return."""
    if verdict.right:
        streak = item.streak + 1
        days = INTERVALS[min(streak, len(INTERVALS)) - 1]
    else:
        streak, days = 0, WRONG_AGAIN
    PracticeItem.objects.filter(pk=item.pk).update(
        streak=streak,
        due=timezone.now() + timedelta(days=days),
        answers=item.answers + 1,
        right=item.right + (1 if verdict.right else 0),
    )
    return Verdict(verdict.right, verdict.best, verdict.notation, verdict.lost, days)


def play_from_steps(item: PracticeItem, steps: list[tuple[int, int]]) -> Play | None:
    """The finished play the person made, or None while dice are left (or a
    step is refused): ``games.engine.Turn`` decides, as in a game."""
    turn = Turn(Position.from_position_id(item.position_id), Dice(item.die1, item.die2))
    try:
        for src, dst in steps:
            turn = turn.step(src, dst)
    except ValueError:
        return None
    return turn.play() if turn.complete else None


def answer_json(item: PracticeItem, verdict: Verdict) -> dict[str, Any]:
    """What the page shows after an answer: the verdict, the best play and
    its reasons, the play made in the game, when it comes back."""
    report = item.turn.report
    alternatives = report.get("alternatives", [])
    game_play = report.get("played_candidate")
    return {
        "right": verdict.right,
        "best": verdict.best,
        "notation": verdict.notation,
        "lost": None if verdict.lost is None else round(verdict.lost, 4),
        "days": verdict.days,
        "best_play": candidate_json(alternatives[0], "light") if alternatives else None,
        "game_play": candidate_json(game_play, "light") if game_play else None,
        "game_lost": round(item.turn.equity_lost, 4),
    }


def item_json(item: PracticeItem) -> dict[str, Any]:
    position = Position.from_position_id(item.position_id)
    return {
        "id": item.pk,
        "dice": [item.die1, item.die2],
        "phase": item.phase,
        "error": item.error_class,
        "game": item.turn.analysis.game_id,
        "turn": item.turn.number,
        **board_facts(position, "light", Dice(item.die1, item.die2)),
    }
