"""The course's last lesson: the doubling cube in a money game, who may
double, taking and passing, the take point worked out, and "too good"."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from learning.course.shapes import Goal, Lesson, Rule, Task

# Races where each side has borne off nine checkers: no gammon is possible,
# so no position here is too good to double.
EVEN = "VQUAgKoCAAAAAA"  # six checkers each, 21 pips each
BEHIND = "qgIAQFUBAAAAAA"  # 21 pips against the computer's 20
FAR_BEHIND = "VAEAoKoAAAAAAA"  # the computer 18 against your 21

CUBE = Lesson(
    slug="cube",
    title=_("The doubling cube"),
    intro=(
        Rule(
            _(
                "A [[money-game|money game]] keeps its stakes on the [[cube|doubling cube]]. "
                "It starts in the middle showing 64, since a die has no face 1, and the stakes "
                "are single: while the cube is in the middle ([[centred-cube]]) either side may "
                "[[double]] before its own roll."
            ),
            check="who_may_double",
        ),
        Rule(
            _(
                "When the other side doubles, you either [[take]]: the stakes double and the "
                "cube comes to your side, and from then on only you may double "
                "([[cube-owner]]); or you [[pass]]: the game ends and you lose the stakes "
                "before the double."
            ),
            check="who_may_double",
        ),
        Rule(
            _(
                "The [[take-point|take point]], worked out: say the stakes are 1 and there are "
                "no gammons. Passing loses 1. Taking plays on for 2: if you win a share p of "
                "such games, you get 2p − 2(1 − p) = 4p − 2 on average. Taking is no worse "
                "when 4p − 2 ≥ −1, that is when p is at least 25%. The cube on your side is "
                "worth a little more, so the computer's take point here is lower, about 21%."
            ),
            check="take_point",
        ),
        Rule(
            _(
                "Double when you are clearly ahead. So far ahead that the other side must "
                "pass, and with real chances of a [[gammon]], you are [[too-good|too good to "
                "double]]: playing on wins more. In this lesson's races no one can lose a "
                "gammon any more, so that does not happen here."
            ),
            check="too_good",
        ),
    ),
    tasks=(
        Task(
            EVEN,
            None,
            Goal.MAY_DOUBLE,
            _("A money game, the cube in the middle, before your roll. May you double?"),
            cube=(1, ""),
        ),
        Task(
            EVEN,
            None,
            Goal.MAY_DOUBLE,
            _("You took the computer's double: the cube, at 2, is on your side. May you double?"),
            cube=(2, "light"),
        ),
        Task(
            EVEN,
            None,
            Goal.MAY_DOUBLE,
            _("The computer took your double: the cube, at 2, is on its side. May you double?"),
            cube=(2, "dark"),
        ),
        Task(
            EVEN,
            None,
            Goal.DOUBLE,
            _(
                "A race before your roll: six checkers each, 21 pips each, and you are on "
                "roll. Double, or roll on?"
            ),
        ),
        Task(
            BEHIND,
            None,
            Goal.DOUBLE,
            _("Before your roll: you have 21 pips, the computer 20, and you are on roll. Double?"),
        ),
        # The computer is on roll in a take task: the board from the person's side.
        Task(
            EVEN,
            None,
            Goal.TAKE,
            _("The computer, on roll with 21 pips against your 21, doubles. Take or pass?"),
        ),
        Task(
            FAR_BEHIND,
            None,
            Goal.TAKE,
            _("The computer, on roll with 18 pips against your 21, doubles. Take or pass?"),
        ),
    ),
)
