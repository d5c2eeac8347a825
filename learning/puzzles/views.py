"""练习题's pages: a puzzle, the answer, the day's puzzle, the dashboard.

Thin: the writer is ``learning.puzzles.attempts``, the picking
``learning.puzzles.picking``, the words ``learning.puzzles.verdicts`` and
``learning.puzzles.labels``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import ensure_player
from games.access import owned_game
from games.engine import Dice, Position
from games.json_input import JsonInputError, read_object
from learning import tasks
from learning.board.input import board_facts, cube_on_board, describe_context, read_context
from learning.puzzles import attempts, dashboard, labels, personal, picking, retry
from learning.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating

MAX_BODY_BYTES = 2048
MAX_BODY_DEPTH = 4


def _filters(request: HttpRequest) -> dict[str, str]:
    theme = request.GET.get("theme", "")
    phase = request.GET.get("phase", "")
    return {
        "theme": theme if theme in picking.themes_known() else "",
        "phase": phase if phase in labels.PHASE_NAMES else "",
    }


@require_GET
def puzzles_page(request: HttpRequest) -> HttpResponse:
    """The next puzzle for the person (a guest account made on the first
    visit), of the theme and phase chosen."""
    user = ensure_player(request)
    filters = _filters(request)
    personal.queue_own(user, tasks.enqueue_own_puzzles)
    puzzle = picking.next_puzzle(user, **filters)
    return _page(request, user, puzzle, filters, daily=False)


@require_GET
def puzzle_page(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    user = ensure_player(request)
    try:
        puzzle = attempts.visible(user, puzzle_id)
    except attempts.AnswerError as error:
        raise Http404(error.words) from error
    return _page(request, user, puzzle, _filters(request), daily=False)


@require_GET
def daily_page(request: HttpRequest) -> HttpResponse:
    user = ensure_player(request)
    puzzle = picking.daily_puzzle(timezone.localdate())
    return _page(request, user, puzzle, {"theme": "", "phase": ""}, daily=True)


def _page(
    request: HttpRequest, user: Any, puzzle: Puzzle | None, filters: dict[str, str], daily: bool
) -> HttpResponse:
    rating = PuzzleRating.objects.filter(user=user).first()
    done = None
    if puzzle is not None:
        done = PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()
    query = "&".join(f"{k}={v}" for k, v in filters.items() if v)
    context = {
        "puzzle": puzzle_json(puzzle) if puzzle else None,
        "answered": labels.attempt_json(done) if done else None,
        "rating": rating,
        "filters": filters,
        "theme_choices": labels.theme_choices(),
        "phase_choices": labels.phase_choices(),
        "daily": daily,
        "urls": {
            "step": reverse("study:analysis_step"),
            "answer": reverse("puzzles:answer", args=[puzzle.pk]) if puzzle else "",
            "next": reverse("puzzles:next") + (f"?{query}" if query else ""),
        },
        "strings": labels.page_strings(),
    }
    return render(request, "learning/puzzles.html", context)


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """What the page needs to pose the puzzle (never its answers)."""
    position = Position.from_position_id(puzzle.position_id)
    base = {
        "id": puzzle.pk,
        "kind": puzzle.kind,
        "rated": puzzle.rated,
        "own": puzzle.owner_id is not None,
        "rating": round(puzzle.rating),
        "phase": puzzle.phase,
        "phase_label": labels.phase_label(puzzle.phase),
        "tags": labels.tag_labels(puzzle.tags),
    }
    if puzzle.kind == "cube":
        side = "light" if puzzle.question == "double" else "dark"
        context = read_context(puzzle.context, side)
        return {
            **base,
            "question": puzzle.question,
            "answers": list(attempts.CUBE_ACTIONS[puzzle.question]),
            "cube": cube_on_board(context, "dark" if puzzle.question == "take" else ""),
            "setting_words": describe_context(context),
            **board_facts(position, side, None, context),
        }
    dice = Dice(puzzle.die1, puzzle.die2)
    return {**base, "dice": [puzzle.die1, puzzle.die2], **board_facts(position, "light", dice)}


@require_POST
def answer(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    """Judge and record the first answer: a play's steps or a cube action."""
    if not request.user.is_authenticated:
        return _refused("no_account", labels.NO_ACCOUNT(), 403)
    try:
        body = read_object(request.body, MAX_BODY_BYTES, MAX_BODY_DEPTH)
    except JsonInputError:
        return _refused("malformed", labels.MALFORMED(), 400)
    theme = body.get("theme") if isinstance(body.get("theme"), str) else ""
    theme = theme if theme in picking.themes_known() else ""
    try:
        done = attempts.answer(
            request.user, puzzle_id, steps=body.get("steps"), action=body.get("action"), theme=theme
        )
    except attempts.AnswerError as error:
        return _refused(error.code, error.words, error.status)
    return JsonResponse(labels.verdict_json(done))


def _refused(code: str, words: str, status: int) -> JsonResponse:
    return JsonResponse({"error": code, "message": words}, status=status)


@require_GET
def dashboard_page(request: HttpRequest) -> HttpResponse:
    user = ensure_player(request)
    return render(
        request,
        "learning/puzzles_dashboard.html",
        {"rows": dashboard.theme_rows(user), "weakest": dashboard.weakest(user)},
    )


# ---------------------------------------------------------------- 再试一次


@require_GET
def retry_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's biggest errors, one by one (``?n=`` the error's index)."""
    game = owned_game(request, game_id)
    rows = retry.errors(game)
    index = _index(request.GET.get("n", "0"), len(rows))
    row = rows[index] if rows else None
    after = index + 1 < len(rows)
    context = {
        "game": game,
        "puzzle": retry.retry_json(row, index, len(rows)) if row else None,
        "answered": retry.tried(request.user, row) if row else None,
        "index": index + 1,
        "count": len(rows),
        "urls": {
            "step": reverse("study:analysis_step"),
            "answer": reverse("puzzles:retry_answer", args=[game.pk, row.pk]) if row else "",
            "next": (
                reverse("puzzles:retry", args=[game.pk]) + f"?n={index + 1}"
                if after
                else reverse("learning:review", args=[game.pk])
            ),
        },
        "strings": labels.page_strings(),
        "filters": {"theme": "", "phase": ""},
    }
    return render(request, "learning/puzzles_retry.html", context)


def _index(text: str, count: int) -> int:
    return min(int(text), max(0, count - 1)) if text.isdigit() else 0


@require_POST
def retry_answer(request: HttpRequest, game_id: int, row_id: int) -> JsonResponse:
    game = owned_game(request, game_id)
    row = next((r for r in retry.errors(game) if r.pk == row_id), None)
    if row is None:
        return _refused("missing", labels.NOT_AN_ERROR(), 404)
    try:
        body = read_object(request.body, MAX_BODY_BYTES, MAX_BODY_DEPTH)
        turn = row.turn
        play = attempts.steps_play(turn.position_before, (turn.die1, turn.die2), body.get("steps"))
        return JsonResponse(retry.judge(request.user, row, play))
    except JsonInputError:
        return _refused("malformed", labels.MALFORMED(), 400)
    except attempts.AnswerError as error:
        return _refused(error.code, error.words, error.status)
