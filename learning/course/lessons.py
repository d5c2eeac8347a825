"""The lessons of 学棋 in order: the first steps (``lessons_moving``), the
rules (``lessons_rules``), then habits, openings and the cube
(``lessons_strategy``). What a lesson and a task are is ``shapes``."""

from __future__ import annotations

from learning.course.lessons_moving import MOVING
from learning.course.lessons_rules import RULES
from learning.course.lessons_strategy import CUBE, HABITS, OPENINGS
from learning.course.shapes import Lesson

LESSONS: tuple[Lesson, ...] = (*MOVING, *RULES, HABITS, OPENINGS, CUBE)
BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}
