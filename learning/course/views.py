"""学棋's pages: the map of lessons, a lesson, the check of a task, and the
guided first game. Thin: the lessons are ``lessons``, the judging ``check``
and ``answers``, the hints ``hints``, the stars ``progress``."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import ensure_player
from accounts.models import Preferences, Tutor
from accounts.preferences import board_prefs
from games.engine import BAR, OFF, Display
from games.tiers import Tier
from learning.board import steps as board_steps
from learning.board.errors import BoardInputError
from learning.course import answers, check, hints, pace, progress
from learning.course.lessons import BY_SLUG, known_terms
from learning.course.quiz import lesson_tasks
from learning.course.shapes import NUMBERS, QUESTIONS, Goal, Lesson, Rule, Task
from learning.course.strings import course_strings
from learning.glossary.marks import marked

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
        "minutes": pace.course_minutes(),
        "two_stars": progress.TWO_STAR_MISSES,
        # Offered once the course is done, beside the guided first game.
        "tutor_off": board_prefs(user).get("tutor") == "off",
    }
    return render(request, "learning/course.html", context)


@require_POST
def first_game(request: HttpRequest) -> HttpResponse:
    """The guided first game the course ends with: 教练模式 on (warning of
    bad plays and worse, unless the person chose a level already), then the
    lobby's own start of a single game at 入门, the same form data sent on
    (307 keeps the POST and its fields)."""
    user = ensure_player(request)
    prefs, _created = Preferences.objects.get_or_create(user=user)
    if prefs.tutor == Tutor.OFF:
        prefs.tutor = Tutor.BAD
        prefs.save(update_fields=["tutor"])
    return HttpResponseRedirect(reverse("games:start"), status=307)


def _lesson(slug: str) -> Lesson:
    lesson = BY_SLUG.get(slug)
    if lesson is None:
        raise Http404
    return lesson


def task_json(lesson: Lesson, index: int, task: Task) -> dict[str, Any]:
    position = check.task_position(task)
    shown = task.goal is Goal.SHOW
    return {
        "index": index,
        "prompt": marked(task.prompt),
        "question": task.goal in QUESTIONS,
        "number": task.goal in NUMBERS,
        "goal": task.goal.value,
        "dice": list(task.dice) if task.dice else [],
        "position_id": task.position,
        "board": Display.from_position(position).to_json(),
        "choices": [{"key": k, "label": label} for k, label in answers.choices(task)],
        # A play shown with its reason before any answer: the openings, the replies.
        "shown": check.play_arrows(task, task.accept[0]) if shown else [],
        "why": marked(task.why) if shown and task.why else "",
        "marks": [task.point] if task.goal is Goal.SHOTS else [],
        "cube": answers.cube_on_board(task),
        "check": reverse("learning:lesson_check", args=[lesson.slug, index]),
    }


def intro_json(lesson: Lesson) -> list[dict[str, Any]]:
    """The opening words, each rule with the brief's clauses it restates."""
    return [
        {
            "text": marked(line),
            "clauses": list(line.clauses) if isinstance(line, Rule) else [],
        }
        for line in lesson.intro
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
        "intro": intro_json(lesson),
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
    """Judge ``steps`` (board targets), ``probe`` (a tapped checker that
    cannot move) or ``answer`` for task ``index``."""
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
        verdict = _judge(task, _body(request), known_terms(lesson))
    except BoardInputError as bad:
        return JsonResponse({"error": bad.code, "message": bad.message}, status=400)
    recorded = progress.record(user, lesson, index, verdict)
    data = verdict.to_json()
    data["message"] = marked(data["message"])
    data["reasons"] = [marked(line) for line in data["reasons"]]
    shown = hints.hint(task) if verdict.state == "miss" else None
    if shown is not None and recorded.task_misses >= hints.HINT_AFTER:
        data["hint"] = {**shown, "text": marked(shown["text"])}
    return JsonResponse({**data, "run": recorded.to_json()})


def _judge(task: Task, body: dict[str, Any], known: frozenset[str]) -> check.Verdict:
    if task.goal in QUESTIONS:
        answer = body.get("answer")
        if not isinstance(answer, str | int) or len(str(answer)) > MAX_ANSWER:
            raise BoardInputError("malformed", {"text": "answer"})
        return answers.judge_answer(task, str(answer), known)
    steps = board_steps.read_steps(body.get("steps", []))
    where = body.get("probe")
    if where is not None:
        if type(where) is not int or not OFF <= where <= BAR:
            raise BoardInputError("bad_point", {"point": where})
        return check.probe(task, steps, where)
    return check.judge_steps(task, steps, known)
