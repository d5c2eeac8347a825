"""The lessons of 学棋 in order: the first steps (``lessons_moving``), the
rules (``lessons_rules``), reading a play and counting shots
(``lessons_reading``), habits, openings and replies (``lessons_strategy``),
then the cube (``lessons_cube``). What a lesson and a task are is
``shapes``."""

from __future__ import annotations

from learning.course.lessons_cube import CUBE
from learning.course.lessons_moving import MOVING
from learning.course.lessons_reading import READING
from learning.course.lessons_rules import RULES
from learning.course.lessons_strategy import HABITS, OPENINGS, REPLIES
from learning.course.shapes import Lesson
from learning.glossary.terms import TERMS

LESSONS: tuple[Lesson, ...] = (*MOVING, *RULES, *READING, HABITS, OPENINGS, REPLIES, CUBE)
BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}


def known_terms(lesson: Lesson) -> frozenset[str]:
    """The glossary's terms taught by ``lesson`` and the lessons before it."""
    upto = {x.slug for x in LESSONS[: LESSONS.index(lesson) + 1]}
    return frozenset(term.key for term in TERMS if term.taught_by in upto)
