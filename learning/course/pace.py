"""How long the course takes a beginner: the figure the lobby and the map
promise, from the lessons' own words and moves at one stated pace.

The pace is a beginner's, not a test's: reading Chinese instructions at
``CHARS_PER_MINUTE``, ``SECONDS_PER_STEP`` for each checker moved (finding
it, tapping it and its point), ``SECONDS_PER_ANSWER`` for each question,
``VERDICT_CHARS`` read after each, and one miss in every ``MISS_EVERY``
tasks, read and tried again. The browser
test walks the whole course as a new guest with this same pace applied to
what it read and did on the screen, its beginner's mistakes included, and
holds the promised figure to it (tests/browser/test_course_browser.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from django.utils import translation

from learning.course.lessons import LESSONS
from learning.course.quiz import quiz_size
from learning.course.shapes import QUESTIONS, Goal, Lesson, Task
from learning.glossary.marks import plain

CHARS_PER_MINUTE = 250
SECONDS_PER_STEP = 5
SECONDS_PER_ANSWER = 10
MISS_EVERY = 3
SECONDS_PER_MISS = 20
# The words that answer a move or an answer ("答对了：……" and its reasons).
VERDICT_CHARS = 30


def reading_seconds(texts: Iterable[str]) -> float:
    """Seconds to read ``texts`` (Chinese characters and numbers, no spaces)."""
    chars = sum(len(re.sub(r"\s", "", plain(text))) for text in texts)
    return 60 * chars / CHARS_PER_MINUTE


def acting_seconds(steps: int, answers: int, misses: int) -> float:
    return steps * SECONDS_PER_STEP + answers * SECONDS_PER_ANSWER + misses * SECONDS_PER_MISS


def task_seconds(task: Task) -> float:
    """Reading the task's words and doing it, at the pace above."""
    read = reading_seconds([str(task.prompt), *([str(task.why)] if task.why else [])])
    if task.goal is Goal.SHOW:  # a play to look at, and one tap on
        return read + acting_seconds(1, 0, 0)
    verdict = 60 * VERDICT_CHARS / CHARS_PER_MINUTE
    if task.goal in QUESTIONS:
        return read + verdict + acting_seconds(0, 1, 0)
    return read + verdict + acting_seconds(len(task.solution), 0, 0)


def lesson_seconds(lesson: Lesson) -> float:
    """The lesson's words and tasks; each quiz task as long as the lesson's
    own tasks on average (a quiz is drawn afresh for every run)."""
    with translation.override("zh-hans"):
        read = reading_seconds([str(lesson.title), *(str(line) for line in lesson.intro)])
        own = [task_seconds(task) for task in lesson.tasks]
    count = len(lesson.tasks) + quiz_size(lesson.slug)
    misses = count // MISS_EVERY
    return (
        read + sum(own) + quiz_size(lesson.slug) * sum(own) / len(own) + misses * SECONDS_PER_MISS
    )


@functools.cache
def course_minutes() -> int:
    """The whole course, to the nearest five minutes (worked out once a process)."""
    minutes = sum(lesson_seconds(lesson) for lesson in LESSONS) / 60
    return 5 * max(1, round(minutes / 5))
