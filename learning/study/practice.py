"""Practice from your own mistakes: positions, answers judged, spaced repetition.

Every reviewed decision of the person (LIGHT) in their own games (not an
imported study's: ``games.models.own_record``) marked ? or ?? becomes a
``PracticeItem`` of the game's owner (``add_from_reviews``, run when the
practice page or the lobby counts them, so a review finished by any worker
is picked up): a checker play, or a cube decision (double / no double, take /
pass, the phase ``cube``). An answer is judged against the review: the best
play or one within ``WITHIN`` of it is right; for the cube the action the
review found best, or one within ``WITHIN`` of it. Right answers come back
after 1, 3, 7, then 21 days; a wrong one tomorrow.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.db.models import QuerySet
from django.utils import timezone

from ai_worker.cube_advice import DOUBLE, TAKE
from games.engine import Dice, Play, Position, Turn
from games.models import own_record
from learning.board.input import (
    board_facts,
    context_json,
    context_query,
    cube_on_board,
    describe_context,
    read_context,
)
from learning.models import AnalysisState, CubeAnalysis, ErrorClass, PracticeItem, TurnAnalysis
from learning.review import cube as cube_review
from learning.review.phases import CUBE, PHASES, phase_of
from learning.review.replay import candidate_json
from learning.words import cube as cube_words
from learning.words.unit import unit_line, unit_of_game

WITHIN = 0.02
INTERVALS = (1, 3, 7, 21)  # days, after 1, 2, 3 and 4+ right answers in a row
WRONG_AGAIN = 1  # days: a wrong answer comes back tomorrow
MARKED = (ErrorClass.BAD, ErrorClass.VERY_BAD)
PRACTICE_PHASES = tuple(p for p in PHASES if p != "race")  # opening, middle, bear-off, cube


# The answers a cube decision takes: the doubler's, the taker's.
CUBE_ANSWERS = {DOUBLE: ("double", "no_double"), TAKE: ("take", "pass")}


def add_from_reviews(user: Any) -> int:
    """Make a practice item of every marked decision of ``user``'s not made yet."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return _add_plays(user) + _add_cube_decisions(user)


def _add_plays(user: Any) -> int:
    rows = (
        TurnAnalysis.objects.filter(
            own_record("analysis__game__"),
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


def item_for_turn(user: Any, row: TurnAnalysis) -> PracticeItem:
    """The practice item of one of ``user``'s reviewed plays, made when it is
    not there yet (a retried error still wrong joins the one queue)."""
    item = PracticeItem.objects.filter(turn=row).first()
    if item is not None:
        return item
    PracticeItem.objects.bulk_create([_item_for(user, row, timezone.now())], ignore_conflicts=True)
    return PracticeItem.objects.get(turn=row)


def _add_cube_decisions(user: Any) -> int:
    rows = (
        CubeAnalysis.objects.filter(
            own_record("analysis__game__"),
            analysis__game__owner=user,
            analysis__state=AnalysisState.DONE,
            side="light",
            error_class__in=MARKED,
            practice__isnull=True,
        )
        .select_related("analysis__game")
        .order_by("pk")
    )
    now = timezone.now()
    made: dict[int, dict[tuple[int, str], cube_review.CubeDecision]] = {}
    items = []
    for row in rows:
        game = row.analysis.game
        if game.pk not in made:  # the decisions as they were: replayed once a game
            made[game.pk] = {
                (d.before_turn, d.decision): d for d in cube_review.cube_decisions(game)
            }
        decision = made[game.pk].get((row.before_turn, row.decision))
        if decision is not None:
            items.append(_cube_item(user, row, decision, now))
    PracticeItem.objects.bulk_create(items, ignore_conflicts=True)
    return len(items)


def _cube_item(
    user: Any, row: CubeAnalysis, decision: cube_review.CubeDecision, now: Any
) -> PracticeItem:
    return PracticeItem(
        owner=user,
        cube=row,
        decision=row.decision,
        context=context_json(decision.context),
        position_id=decision.position.position_id(),  # the doubler's, on roll
        error_class=row.error_class,
        phase=CUBE,
        due=now,
    )


def items_of(user: Any, *, blunders: bool = False, phase: str = "") -> QuerySet[PracticeItem]:
    # Not an imported study's (an item made from one before studies were kept apart).
    items = PracticeItem.objects.filter(
        own_record("turn__analysis__game__"), own_record("cube__analysis__game__"), owner=user
    )
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
    assert item.turn is not None
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


def judge_cube(item: PracticeItem, action: str) -> Verdict:
    """Right when ``action`` is the review's best cube action or within ``WITHIN`` of it."""
    assert item.cube is not None
    report = item.cube.report
    values = report["values"]
    best = values[report["best"]]
    # "No double" when the review says "too good": both keep the cube, worth ND.
    lost = max(0.0, best - values[action])
    right = lost <= WITHIN + 1e-9
    return Verdict(right, lost < 1e-9, cube_words.action_label(action), lost, 0)


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
    assert item.turn is not None
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
        "unit": _unit(item.turn.analysis),
    }


def cube_answer_json(item: PracticeItem, verdict: Verdict) -> dict[str, Any]:
    """After a cube answer: the verdict, the right action with its figures and
    why (from the person's side), the action taken in the game."""
    row = item.cube
    assert row is not None
    hint = cube_words.cube_hint_json(row.report)
    return {
        "right": verdict.right,
        "best": verdict.best,
        "notation": verdict.notation,
        "lost": round(verdict.lost or 0.0, 4),
        "days": verdict.days,
        "best_action": hint["title"],
        "reasons": hint["lines"],
        "game_action": cube_words.action_label(row.action),
        "game_lost": round(row.equity_lost, 4),
        "unit": _unit(row.analysis),
    }


def _unit(analysis: Any) -> str:
    """What the review the item came from measured in, and at which depth."""
    return unit_line(unit_of_game(analysis.game), analysis.ply)


def item_json(item: PracticeItem) -> dict[str, Any]:
    if item.cube_id is not None:
        return _cube_item_json(item)
    assert item.turn is not None
    position = Position.from_position_id(item.position_id)
    return {
        "id": item.pk,
        "dice": [item.die1, item.die2],
        "phase": item.phase,
        "error": item.error_class,
        "game": item.turn.analysis.game_id,
        "turn": item.turn.number,
        "analysis_query": urlencode({"id": item.position_id, "dice": f"{item.die1}{item.die2}"}),
        **board_facts(position, "light", Dice(item.die1, item.die2)),
    }


def _cube_item_json(item: PracticeItem) -> dict[str, Any]:
    """A cube decision: the doubler's board (the person's, or the computer's
    when the person answers), the cube as it was, the answers it takes."""
    side = "light" if item.decision == DOUBLE else "dark"
    context = read_context(item.context, side)
    row = item.cube
    assert row is not None
    return {
        "id": item.pk,
        "kind": "cube",
        "decision": item.decision,
        "answers": list(CUBE_ANSWERS[item.decision]),
        "cube": cube_on_board(context, "dark" if item.decision == TAKE else ""),
        "setting": context_json(context),
        "setting_words": describe_context(context),
        "analysis_query": urlencode(
            {"id": item.position_id, "side": side, **context_query(context), "show": "cube"}
        ),
        "phase": item.phase,
        "error": item.error_class,
        "game": row.analysis.game_id,
        "turn": row.before_turn,
        **board_facts(Position.from_position_id(item.position_id), side, None, context),
    }
