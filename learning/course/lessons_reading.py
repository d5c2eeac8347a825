"""The course's lessons 11 and 12, on reading a play and a position: how a
play is written down, and how to count the rolls that hit a blot."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from learning.course.shapes import START, Goal, Lesson, Task

# Blots 6 and 8 points in front of the computer's two back checkers, every
# point between them open: 17 and 6 rolls of 36 hit them.
DIRECT = "3N0DADBA790BAA"
INDIRECT = "3N0DADAAvXcHAA"
# The start with one of your checkers moved 13/11 (a blot, 10 points from
# the computer's back checkers); your roll 5-3 can leave no blot at all.
SAFEST = "4HPwATDgc+QBMA"

READING: tuple[Lesson, ...] = (
    Lesson(
        slug="notation",
        title=_("How a play is written"),
        intro=(
            _(
                "From now on the hints, the review and these lessons write a play in "
                "[[notation]]: 24/13 means a checker moves from point 24 to point 13."
            ),
            _(
                "A * marks a hit: 13/10* lands on point 10 and hits the blot there. bar/22 "
                "enters from the bar on point 22, 6/off bears off from point 6, and 8/5(2) "
                "moves two checkers from point 8 to point 5."
            ),
        ),
        tasks=(
            Task(
                START,
                (6, 5),
                Goal.PLAY,
                _("Play it as written: 24/13."),
                miss=_("24/13: one checker from point 24 to point 13."),
                accept=("24/13",),
                solution=((24, 13),),
            ),
            Task(
                "4HPwBDDgc/ABMA",
                (3, 1),
                Goal.PLAY,
                _("Play it as written: 13/10* 6/5."),
                miss=_("13/10*: from 13 to 10, hitting there; 6/5: from 6 to 5."),
                accept=("13/10* 6/5",),
                solution=((13, 10), (6, 5)),
            ),
            Task(
                "cOfgATDgc/AAWA",
                (5, 3),
                Goal.PLAY,
                _("Play it as written: bar/22 13/8."),
                miss=_("bar/22: from the bar onto point 22; 13/8: from 13 to 8."),
                accept=("bar/22 13/8",),
                solution=((25, 22), (13, 8)),
            ),
            Task(
                START,
                (3, 3),
                Goal.PLAY,
                _("Play it as written: 8/5(2) 6/3(2)."),
                miss=_("(2) means two checkers: two from 8 to 5, two from 6 to 3."),
                accept=("8/5(2) 6/3(2)",),
                solution=((8, 5), (8, 5), (6, 3), (6, 3)),
            ),
            Task(
                "290NAAC7uw0AAA",
                (6, 4),
                Goal.PLAY,
                _("Play it as written: 6/off 4/off."),
                miss=_("6/off and 4/off: bear off one checker from 6 and one from 4."),
                accept=("6/off 4/off",),
                solution=((6, 0), (4, 0)),
            ),
        ),
    ),
    Lesson(
        slug="shots",
        title=_("Counting the rolls that hit"),
        intro=(
            _(
                "Two dice can fall 36 ways: 6-5 and 5-6 are two rolls, a double such as 3-3 "
                "one. The rolls with which the other side can hit a blot of yours are its "
                "[[shots]]."
            ),
            _(
                "A blot 1 to 6 points in front of an opposing checker is a [[direct-shot|direct "
                "shot]]: every roll showing that number hits, 11 rolls, and rolls whose two dice "
                "add up to it can hit too."
            ),
            _(
                "A blot 7 to 12 points away is an [[indirect-shot|indirect shot]]: only both "
                "dice together reach it, 6 rolls of 36 at most. Points the other side cannot "
                "stop on along the way cut these rolls further."
            ),
        ),
        tasks=(
            Task(
                DIRECT,
                None,
                Goal.SHOTS,
                _(
                    "Your blot on point 7 is 6 points from the computer's checkers on point 1, "
                    "and every point between is open. How many of the 36 rolls hit it?"
                ),
                point=7,
            ),
            Task(
                INDIRECT,
                None,
                Goal.SHOTS,
                _("Now your blot on point 9 is 8 points away. How many of the 36 rolls hit it?"),
                point=9,
            ),
            Task(
                SAFEST,
                (5, 3),
                Goal.SAFEST,
                _(
                    "You rolled 5-3 and your checker on point 11 is alone. Play so that the "
                    "fewest rolls can hit you."
                ),
                solution=((13, 8), (11, 8)),
            ),
        ),
    ),
)
