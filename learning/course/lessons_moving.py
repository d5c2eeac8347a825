"""The course's first lessons (1-5), on moving: the board and the direction
of play, two dice, doubles, blocked points, hitting."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import RefusalCode
from learning.course.shapes import START, Goal, Lesson, Rule, Task, Wrong

MOVING: tuple[Lesson, ...] = (
    Lesson(
        slug="board",
        title=_("The board and the direction of play"),
        intro=(
            Rule(
                _(
                    "The board has four quarters, 24 triangular [[point|points]] in all; the "
                    "upright strip in the middle is the [[bar]]."
                ),
                ("棋盘分成四个区，共 24 个三角形点位，中间的竖条是吧台。",),
            ),
            Rule(
                _(
                    "You play the light checkers, from point 24 towards point 1: points 1 to 6 "
                    "are your [[home-board]], 7 to 12 your [[outer-board]]. The computer plays "
                    "the dark checkers the other way round."
                ),
                (
                    "你执浅色棋子，从 24 点往 1 点方向走，1 到 6 点是你的内盘；"
                    "电脑执深色棋子反方向走",
                ),
            ),
            _("Tap one of your checkers, then the point it goes to."),
        ),
        tasks=(
            Task(
                START,
                (6, 5),
                Goal.PLAY,
                _(
                    "You rolled 6-5. Move one of the checkers on point 24 all the way to point "
                    "13: 6 and 5 make 11 points."
                ),
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
            Rule(
                _(
                    "The two dice can be played by two different checkers, or one checker can "
                    "move twice, but the point where it stops on the way must be open too."
                ),
                (
                    "两颗骰子的点数可以分给两枚不同的棋子，也可以让同一枚棋子连走两段，但中途落脚的点位也必须能落。",
                ),
            ),
            _(
                "To move one checker with both dice, tap it and then the point both dice "
                "together reach: the two steps are made for you."
            ),
            Rule(
                _("Made a step you regret? Undo takes it back, step by step, to the roll."),
                ("你的回合里走错了可以点「撤销」（或按 U、退格）一步步退回到掷骰之后的状态。",),
            ),
        ),
        tasks=(
            Task(
                START,
                (3, 1),
                Goal.PLAY,
                _(
                    "You rolled 3-1. Move two checkers, one from point 8 and one from point 6, "
                    "both to point 5."
                ),
                miss=_(
                    "Use the 3 to move a checker from 8 to 5 and the 1 to move one from 6 to 5."
                ),
                accept=("8/5 6/5",),
                solution=((8, 5), (6, 5)),
                wrong=(Wrong(((8, 6),), RefusalCode.NO_SUCH_DIE),),
            ),
            Task(
                START,
                (6, 4),
                Goal.PLAY,
                _(
                    "You rolled 6-4. This time one checker uses both dice: tap a checker on "
                    "point 24, then point 14."
                ),
                miss=_("Move one checker from point 24 ten points, to point 14."),
                accept=("24/14",),
                solution=((24, 14),),
                wrong=(Wrong(((24, 18), (18, 14), (13, 7)), RefusalCode.TURN_COMPLETE),),
            ),
        ),
        teaches=(RefusalCode.NO_SUCH_DIE, RefusalCode.TURN_COMPLETE, RefusalCode.NOTHING_TO_UNDO),
    ),
    Lesson(
        slug="doubles",
        title=_("Doubles"),
        intro=(
            Rule(
                _("Rolling [[doubles]] (3-3, say) gives you four steps instead of two."),
                ("掷出双数（比如 3-3）要走四步。",),
            ),
            _("The four steps can go to one checker, two, three or four."),
        ),
        tasks=(
            Task(
                START,
                (3, 3),
                Goal.PLAY,
                _(
                    "You rolled 3-3: four steps of 3. Move two checkers from point 8 to point 5 "
                    "and two from point 6 to point 3."
                ),
                miss=_("Two checkers 8 to 5 and two 6 to 3: each one step of 3."),
                accept=("8/5(2) 6/3(2)",),
                solution=((8, 5), (8, 5), (6, 3), (6, 3)),
            ),
            Task(
                START,
                (6, 6),
                Goal.PLAY,
                _(
                    "You rolled 6-6. Move both checkers on point 24 to point 18, and two from "
                    "point 13 to point 7."
                ),
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
            Rule(
                _(
                    "You may land only on an empty point, a point of your own, or a point where "
                    "the other side has a single checker; a point with two or more of the other "
                    "side's checkers is closed to you."
                ),
                (
                    "只能落在空点、自己的点位，或者对方只有一枚棋子的点位；对方有两枚以上棋子的点位不能落。",
                ),
            ),
            Rule(
                _(
                    "Two or more checkers of one side on a point make it a [[made-point|made "
                    "point]]: the other side can neither land there nor stop there on the way."
                ),
                ("一个点位上有自己两枚以上棋子，对方不能落在这里，也不能在这里中途落脚。",),
            ),
        ),
        tasks=(
            Task(
                "4DvwATDgc/ABMA",
                (6, 2),
                Goal.PLAY,
                _(
                    "You rolled 6-2. The computer holds point 18. Move a checker from 24 to 16: "
                    "which die goes first?"
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
                    "You rolled 4-3. The computer holds points 20 and 21, so your checkers on "
                    "24 cannot move. Play the roll with other checkers."
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
            Rule(
                _(
                    "A point where the other side has only one checker is a [[blot]]: land on "
                    "it and you [[hit]] that checker, sending it to the bar."
                ),
                ("对方某个点位上只有一枚棋子（叫落单），你的棋子落上去就把它打到吧台。",),
            ),
            _(
                "A checker that is hit starts its way again from the other side of the board: "
                "everything it had walked is lost."
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
