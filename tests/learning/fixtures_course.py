"""What the course's tests share: the lessons' tasks by kind, the plays that
miss a task's goal, and the check endpoint driven through the real URL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from games.engine import legal_plays
from learning.course import answers, check
from learning.course.lessons import LESSONS
from learning.course.models import LessonProgress
from learning.course.quiz import lesson_tasks
from learning.course.shapes import QUESTIONS, Lesson, Task

PLAY_TASKS = [
    pytest.param(t, id=f"{lesson.slug}-{i + 1}")
    for lesson in LESSONS
    for i, t in enumerate(lesson.tasks)
    if t.goal not in QUESTIONS
]
QUESTION_TASKS = [
    pytest.param(t, id=f"{lesson.slug}-{i + 1}")
    for lesson in LESSONS
    for i, t in enumerate(lesson.tasks)
    if t.goal in QUESTIONS
]
WRONG_STEPS = [
    pytest.param(t, w, id=f"{lesson.slug}-{i + 1}-{w.code}")
    for lesson in LESSONS
    for i, t in enumerate(lesson.tasks)
    for w in t.wrong
]


def missing_plays(task: Task) -> list[Any]:
    """The legal plays of ``task`` that do not reach its goal."""
    position, dice = check.task_position(task), check.task_dice(task)
    missing = []
    for play in legal_plays(position, dice):
        walked = {
            "result_id": play.result.position_id(),
            "steps": [{"hit": s.hit} for s in play.steps],
        }
        if not check.reaches_goal(task, position, dice, walked):
            missing.append(play)
    return missing


def post(client: Any, lesson: Lesson, index: int, body: dict[str, Any]) -> Any:
    url = reverse("learning:lesson_check", args=[lesson.slug, index])
    return client.post(url, json.dumps(body), content_type="application/json")


def run_tasks(lesson: Lesson) -> tuple[Task, ...]:
    """The tasks of the one person's current run (its quiz from the run's seed)."""
    return lesson_tasks(lesson, LessonProgress.objects.get(lesson=lesson.slug).seed)


def right_body(task: Task) -> dict[str, Any]:
    if task.goal in QUESTIONS:
        return {"answer": answers.right_answer(task)}
    return {"steps": [list(s) for s in task.solution]}


def solve(client: Any, lesson: Lesson, index: int) -> dict[str, Any]:
    task = run_tasks(lesson)[index]
    response = post(client, lesson, index, right_body(task))
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    assert data["state"] == "done"
    return data
