"""Each lesson's closing quiz: fresh positions made from the lesson's theme.

A run through a lesson draws its quiz from the run's seed
(``LessonProgress.seed``), so the server makes the same tasks again when it
checks an answer, and the next run gets new ones. Every task is made with
the engine: the dice are drawn until the theme's goal can be reached (a play
that hits, enters, bears off, moves as the prompt says), the intended steps
are a play the engine lists, a wrong step is one the engine refuses with the
lesson's refusal code, and the answers to questions are the engine's
(``answers``). The makers of tasks answered with steps are ``quiz_plays``,
those of the lessons on playing well and of questions ``quiz_questions``,
those of reading a play and counting shots ``quiz_reading``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from learning.course.quiz_plays import (
    bearing_off,
    blocked,
    board,
    both_dice,
    doubles,
    entering,
    hitting,
    two_dice,
)
from learning.course.quiz_questions import cube, habits, openings, pip_count, replies, winning
from learning.course.quiz_reading import notation, shots_or_safest
from learning.course.shapes import Lesson, Task

QUIZ_SIZE = 2
# The lessons whose quiz is longer: the opening drill plays five of the 15 rolls.
QUIZ_SIZES = {"openings": 5}
# Draws before a quiz keeps a task that repeats one already drawn.
REDRAWS = 20

Maker = Callable[[random.Random], Task]

MAKERS: dict[str, Maker] = {
    "board": board,
    "two-dice": two_dice,
    "doubles": doubles,
    "blocked": blocked,
    "hitting": hitting,
    "entering": entering,
    "both-dice": both_dice,
    "bearing-off": bearing_off,
    "pip-count": pip_count,
    "winning": winning,
    "notation": notation,
    "shots": shots_or_safest,
    "habits": habits,
    "openings": openings,
    "replies": replies,
    "cube": cube,
}


def quiz_size(slug: str) -> int:
    return QUIZ_SIZES.get(slug, QUIZ_SIZE)


@functools.lru_cache(maxsize=256)
def quiz(slug: str, seed: int) -> tuple[Task, ...]:
    """The quiz of lesson ``slug`` for a run's ``seed`` (none for a lesson
    without a theme to draw from): fresh tasks, none the same as another."""
    make = MAKERS.get(slug)
    if make is None:
        return ()
    rng = random.Random(f"{slug}:{seed}")
    tasks: list[Task] = []
    while len(tasks) < quiz_size(slug):
        for _draw in range(REDRAWS):
            task = make(rng)
            if all((task.position, task.dice) != (t.position, t.dice) for t in tasks):
                break
        tasks.append(task)
    return tuple(tasks)


def lesson_tasks(lesson: Lesson, seed: int) -> tuple[Task, ...]:
    """The lesson's own tasks, then its quiz."""
    return lesson.tasks + quiz(lesson.slug, seed)
