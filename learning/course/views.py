"""学棋's pages: the map of lessons, a lesson, and the check of a task. Thin:
the lessons are ``lessons``, the judging ``check``, the stars ``progress``."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import ensure_player
from accounts.preferences import board_prefs
from games.engine import Display, parse_play
from games.tiers import Tier
from learning.board import steps as board_steps
from learning.board.errors import BoardInputError
from learning.course import check, progress
from learning.course.lessons import BY_SLUG
from learning.course.quiz import lesson_tasks
from learning.course.shapes import QUESTIONS, Goal, Lesson, Task
from learning.course.strings import course_strings

# An answer longer than this is no answer to any task.
MAX_ANSWER = 20


@require_GET
def course_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    upcoming = progress.next_lesson(user)
    context = {
        "lessons": progress.course_map(user),
        "next_lesson": upcoming,
        "next_url": reverse("learning:lesson", args=[upcoming.slug]) if upcoming else "",
        "beginner": Tier.BEGINNER.value,
        # Offered once the course is done (the tutor is off for a new player).
        "tutor_off": board_prefs(user).get("tutor") == "off",
    }
    return render(request, "learning/course.html", context)


def _lesson(slug: str) -> Lesson:
    lesson = BY_SLUG.get(slug)
    if lesson is None:
        raise Http404
    return lesson


def task_json(lesson: Lesson, index: int, task: Task) -> dict[str, Any]:
    position = check.task_position(task)
    return {
        "index": index,
        "prompt": str(task.prompt),
        "question": task.goal in QUESTIONS,
        "goal": task.goal.value,
        "dice": list(task.dice) if task.dice else [],
        "position_id": task.position,
        "board": Display.from_position(position).to_json(),
        "choices": [{"key": k, "label": label} for k, label in check.choices(task)],
        "plays": _plays(task) if task.goal is Goal.PICK else [],
        "cube": check.cube_on_board(task),
        "check": reverse("learning:lesson_check", args=[lesson.slug, index]),
    }


def _plays(task: Task) -> list[dict[str, Any]]:
    """The two plays of a pick, with their steps for the board's arrows."""
    position, dice = check.task_position(task), check.task_dice(task)
    plays = [parse_play(position, dice, text) for text in task.accept]
    return [
        {"key": text, "steps": [{"from": s.src, "to": s.dst} for s in play.steps]}
        for text, play in zip(task.accept, plays, strict=True)
    ]


@require_GET
def lesson_page(request: HttpRequest, slug: str) -> HttpResponse:
    lesson = _lesson(slug)
    # The account the stars are kept on: a guest's, made here, so the page's
    # CSRF token is the signed-in one the checks are posted with.
    user = ensure_player(request)
    after = progress.lesson_after(lesson)
    run = progress.run_of(user, lesson)
    tasks = lesson_tasks(lesson, run.pop("seed"))
    data = {
        "slug": lesson.slug,
        "tasks": [task_json(lesson, i, t) for i, t in enumerate(tasks)],
        "quiz_from": len(lesson.tasks),
        "run": run,
        "next_url": reverse("learning:lesson", args=[after.slug]) if after else "",
        "course_url": reverse("learning:course"),
    }
    context = {
        "lesson": lesson,
        "number": list(BY_SLUG).index(lesson.slug) + 1,
        "after": after,
        "data": data,
        "strings": course_strings(),
    }
    return render(request, "learning/course_lesson.html", context)


def _body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError as error:
        raise BoardInputError("malformed", {"text": "JSON"}) from error
    if not isinstance(data, dict):
        raise BoardInputError("malformed", {"text": "JSON"})
    return data


@require_POST
def lesson_check(request: HttpRequest, slug: str, index: int) -> JsonResponse:
    """Judge ``steps`` (board targets) or ``answer`` for task ``index``."""
    lesson = _lesson(slug)
    user = ensure_player(request)
    run = progress.run_of(user, lesson)
    tasks = lesson_tasks(lesson, run.pop("seed"))
    if index >= len(tasks):
        raise Http404
    if index > run["task"]:
        message = _("Do the tasks in order: task %(n)s comes first.") % {"n": run["task"] + 1}
        return JsonResponse({"error": "order", "message": message, "run": run}, status=409)
    task = tasks[index]
    try:
        body = _body(request)
        verdict = _judge(task, body)
    except BoardInputError as bad:
        return JsonResponse({"error": bad.code, "message": bad.message}, status=400)
    recorded = progress.record(user, lesson, index, verdict)
    return JsonResponse({**verdict.to_json(), "run": recorded.to_json()})


def _judge(task: Task, body: dict[str, Any]) -> check.Verdict:
    if task.goal in QUESTIONS:
        answer = body.get("answer")
        if not isinstance(answer, str | int) or len(str(answer)) > MAX_ANSWER:
            raise BoardInputError("malformed", {"text": "answer"})
        return check.judge_answer(task, str(answer))
    return check.judge_steps(task, board_steps.read_steps(body.get("steps", [])))
