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
    MAY_DOUBLE = "may_double"  # may you double now, the cube where ``cube`` says?
    SHOTS = "shots"  # how many of the 36 rolls hit your blot on ``point`` (a number)
    SAFEST = "safest"  # a play after which the fewest rolls hit one of your blots
    SHOW = "show"  # a play shown on the board with its reason: read it, go on
    REACH = "reach"  # a play after which ``point`` holds ``off`` more of your checkers
    HOME = "home"  # a play after which more of your checkers are in your home board


# The goals the person answers with words or a number rather than steps.
QUESTIONS = frozenset(
    {
        Goal.COUNT,
        Goal.CAN_ENTER,
        Goal.RESULT,
        Goal.PICK,
        Goal.DOUBLE,
        Goal.TAKE,
        Goal.MAY_DOUBLE,
        Goal.SHOTS,
        Goal.SHOW,
    }
)
# The questions answered with a number, typed.
NUMBERS = frozenset({Goal.COUNT, Goal.SHOTS})


@dataclass(frozen=True)
class Rule:
    """A rule a lesson states: its words, the clauses of the brief it
    restates (quoted exactly from ../shared/seed/site-brief.zh.txt), and the
    name of the engine check that holds it (``check`` in
    tests/learning/test_course_rules.py), when the engine can check it."""

    text: Promise
    clauses: tuple[str, ...] = ()
    check: str | None = None

    def __str__(self) -> str:
        return str(self.text)


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
    # Why the accepted play is good, said once the task is done (a SHOW
    # task's reason, shown with its play).
    why: Promise | None = None
    # SHOTS: the blot's point; MAY_DOUBLE: the cube as (value, owner "" |
    # "light" | "dark").
    point: int = 0
    cube: tuple[int, str] | None = None


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: Promise
    # The opening words, paragraph by paragraph: a Rule when it states a rule.
    intro: tuple[Promise | Rule, ...]
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
        ("no", _("No: the whole roll is lost")),
    ),
    Goal.MAY_DOUBLE: (
        ("yes", _("Yes, I may double")),
        ("no", _("No, I may not")),
    ),
    Goal.SHOW: (("seen", _("Got it: next")),),
    Goal.RESULT: (
        ("single", pgettext_lazy("result", "Single win, 1 point")),
        ("gammon", pgettext_lazy("result", "Gammon, 2 points")),
        ("backgammon", pgettext_lazy("result", "Backgammon, 3 points")),
    ),
}
