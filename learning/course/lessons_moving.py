"""The course's first lessons (1-5), on moving: the board and the direction
of play, two dice, doubles, blocked points, hitting."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import RefusalCode
from learning.course.shapes import START, Goal, Lesson, Task, Wrong

MOVING: tuple[Lesson, ...] = (
    Lesson(
        slug="board",
        title=_("The board and the direction of play"),
        intro=(
            _(
                "The board has four quarters, 24 triangular points in all; the upright strip "
                "in the middle is the bar."
            ),
            _(
                "You play the light checkers, from point 24 towards point 1; points 1 to 6 are "
                "your home board. The computer plays the dark checkers the other way round."
            ),
            _("Click one of your checkers, then the point it goes to."),
        ),
        tasks=(
            Task(
                START,
                (6, 5),
                Goal.PLAY,
                _("You rolled 6-5. Run one back checker from point 24 all the way to point 13."),
                miss=_("This task wants a checker from point 24 moved 11 points, to point 13."),
                accept=("24/13",),
                solution=((24, 18), (18, 13)),
                wrong=(Wrong(((13, 19),), RefusalCode.WRONG_DIRECTION),),
            ),
            Task(
                "4HPwATDc3ScAAA",
                (2, 1),
                Goal.PLAY,
                _("You rolled 2-1. Bring the checker on point 8 into your home board, to point 5."),
                miss=_("Move the checker on point 8 with both dice: 8 to 6 to 5, or 8 to 7 to 5."),
                accept=("8/5",),
                solution=((8, 6), (6, 5)),
                wrong=(Wrong(((9, 7),), RefusalCode.NO_CHECKER),),
            ),
        ),
        teaches=(RefusalCode.WRONG_DIRECTION, RefusalCode.NO_CHECKER),
    ),
    Lesson(
        slug="two-dice",
        title=_("Moving with two dice"),
        intro=(
            _(
                "The two dice can be played by two different checkers, or one checker can move "
                "twice, but the point where it stops on the way must be open too."
            ),
            _(
                "Made a step you regret? Undo (or U, Backspace) takes it back, step by step, to "
                "the roll."
            ),
        ),
        tasks=(
            Task(
                START,
                (3, 1),
                Goal.PLAY,
                _("You rolled 3-1. Use two checkers, one from 8 and one from 6, to make point 5."),
                miss=_("Move one checker 8 to 5 with the 3 and one 6 to 5 with the 1."),
                accept=("8/5 6/5",),
                solution=((8, 5), (6, 5)),
                wrong=(Wrong(((8, 4),), RefusalCode.NO_SUCH_DIE),),
            ),
            Task(
                START,
                (6, 4),
                Goal.PLAY,
                _("You rolled 6-4. This time move one checker with both dice: 24 to 14."),
                miss=_("Move one checker from point 24 ten points, to point 14."),
                accept=("24/14",),
                solution=((24, 18), (18, 14)),
                wrong=(Wrong(((24, 18), (18, 14), (13, 7)), RefusalCode.TURN_COMPLETE),),
            ),
        ),
        teaches=(RefusalCode.NO_SUCH_DIE, RefusalCode.TURN_COMPLETE, RefusalCode.NOTHING_TO_UNDO),
    ),
    Lesson(
        slug="doubles",
        title=_("Doubles"),
        intro=(
            _("Rolling doubles (3-3, say) gives you four steps instead of two."),
            _("The four steps can go to one checker, two, three or four."),
        ),
        tasks=(
            Task(
                START,
                (3, 3),
                Goal.PLAY,
                _("You rolled 3-3: four steps of 3. Make point 5 and point 3, two checkers each."),
                miss=_("Move two checkers 8 to 5 and two 6 to 3."),
                accept=("8/5(2) 6/3(2)",),
                solution=((8, 5), (8, 5), (6, 3), (6, 3)),
            ),
            Task(
                START,
                (6, 6),
                Goal.PLAY,
                _("You rolled 6-6. Move both back checkers 24 to 18, and two from 13 to 7."),
                miss=_("Four steps of 6: 24 to 18 twice and 13 to 7 twice."),
                accept=("24/18(2) 13/7(2)",),
                solution=((24, 18), (24, 18), (13, 7), (13, 7)),
            ),
        ),
    ),
    Lesson(
        slug="blocked",
        title=_("Blocked points and where you can land"),
        intro=(
            _(
                "You may land only on an empty point, a point of your own, or a point where the "
                "other side has a single checker."
            ),
            _(
                "A point with two or more of the other side's checkers is blocked: you can "
                "neither land there nor stop there on the way."
            ),
        ),
        tasks=(
            Task(
                "4DvwATDgc/ABMA",
                (6, 2),
                Goal.PLAY,
                _(
                    "You rolled 6-2. The computer holds point 18. Move a checker from 24 to 16: "
                    "which way round can it go?"
                ),
                miss=_("Move a checker from point 24 to 16: first 2 (to 22), then 6."),
                accept=("24/16",),
                solution=((24, 22), (22, 16)),
                wrong=(Wrong(((24, 18),), RefusalCode.POINT_BLOCKED),),
            ),
            Task(
                "+A7wATDgc/ABMA",
                (4, 3),
                Goal.ANY,
                _(
                    "You rolled 4-3. The computer holds points 20 and 21, so your checkers on 24 "
                    "cannot move. Play the roll with other checkers."
                ),
                solution=((13, 9), (13, 10)),
                wrong=(Wrong(((24, 20),), RefusalCode.POINT_BLOCKED),),
            ),
        ),
        teaches=(RefusalCode.POINT_BLOCKED,),
    ),
    Lesson(
        slug="hitting",
        title=_("Hitting"),
        intro=(
            _("A point with only one checker on it is a blot."),
            _(
                "Land on the other side's blot and its checker goes to the bar: its pip count "
                "jumps at once."
            ),
        ),
        tasks=(
            Task(
                "4HPwBDDgc/ABMA",
                (3, 1),
                Goal.HIT,
                _("You rolled 3-1. The computer left a blot on point 10: hit it."),
                miss=_("That play hits nothing: land a checker on point 10."),
                solution=((13, 10), (6, 5)),
            ),
            Task(
                "4HPwIDDgZ/ABMA",
                (4, 2),
                Goal.HIT,
                _("You rolled 4-2. Hit the blot on point 7 with one checker and both dice."),
                miss=_("That play hits nothing: move one checker from 13 to 7."),
                solution=((13, 9), (9, 7)),
            ),
        ),
    ),
)
