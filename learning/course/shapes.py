"""What a lesson of 学棋 is, as data: its tasks, their goals, and the answers
a question task offers.

A task is a position (a Position ID from the person's side, light, on roll),
the dice, the goal, and its words. The person's steps are board targets
(display points 1..24, 25 the bar, 0 the tray). ``solution`` is the
intended play, step by step; ``wrong`` lists steps that the engine refuses,
each with the refusal code it must give (``tests/learning/test_course.py``
plays both through the engine). Answers to questions are never stored: the
engine computes them (``learning.course.check``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine import RefusalCode

Steps = tuple[tuple[int, int], ...]


class Goal(enum.StrEnum):
    """What finishes a task."""

    PLAY = "play"  # the play ends on the board of one of ``accept``
    HIT = "hit"  # any play that hits
    ENTER = "enter"  # any play that brings the bar's checkers in
    OFF = "off"  # any play that bears off at least ``off`` checkers
    ANY = "any"  # any legal play
    COUNT = "count"  # the person's pip count, a number
    CAN_ENTER = "can_enter"  # can the checker on the bar come in with these dice?
    RESULT = "result"  # single, gammon or backgammon: the finished game's kind
    PICK = "pick"  # the better of the two plays of ``accept``, as the hints rank them
    DOUBLE = "double"  # before your roll: double or not (money game, cube in the middle)
    TAKE = "take"  # the computer, on roll, doubles: take or pass


# The goals the person answers with words or a number rather than steps.
QUESTIONS = frozenset({Goal.COUNT, Goal.CAN_ENTER, Goal.RESULT, Goal.PICK, Goal.DOUBLE, Goal.TAKE})


@dataclass(frozen=True)
class Wrong:
    """Steps whose last one the engine refuses with ``code``."""

    steps: Steps
    code: RefusalCode


@dataclass(frozen=True)
class Task:
    position: str
    dice: tuple[int, int] | None
    goal: Goal
    prompt: Promise
    # Why a legal play does not reach the goal (the engine's reasons follow).
    miss: Promise | None = None
    accept: tuple[str, ...] = ()
    off: int = 0
    solution: Steps = ()
    wrong: tuple[Wrong, ...] = ()
    # Why the accepted play is good, said once the task is done.
    why: Promise | None = None


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: Promise
    intro: tuple[Promise, ...]
    tasks: tuple[Task, ...]
    # The refusal codes whose words this lesson teaches (every code the
    # play page can give is taught by one lesson: a test checks it).
    teaches: tuple[RefusalCode, ...] = ()


START = "4HPwATDgc/ABMA"

# The answers to a question task, as the buttons show them.
CHOICES: dict[Goal, tuple[tuple[str, Promise], ...]] = {
    Goal.DOUBLE: (
        ("double", pgettext_lazy("cube action", "Double")),
        ("no_double", pgettext_lazy("cube action", "No double")),
    ),
    Goal.TAKE: (
        ("take", pgettext_lazy("cube action", "Take")),
        ("pass", pgettext_lazy("cube action", "Pass")),
    ),
    Goal.CAN_ENTER: (
        ("yes", _("Yes, it can enter")),
        ("no", _("No: the roll is lost (a dance)")),
    ),
    Goal.RESULT: (
        ("single", pgettext_lazy("result", "Single win, 1 point")),
        ("gammon", pgettext_lazy("result", "Gammon, 2 points")),
        ("backgammon", pgettext_lazy("result", "Backgammon, 3 points")),
    ),
}
