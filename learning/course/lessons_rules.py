"""The course's lessons 6-10, on the rules that follow: entering from the
bar, using both dice, bearing off, the pip count, single, gammon and
backgammon."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import RefusalCode
from learning.course.shapes import Goal, Lesson, Rule, Task, Wrong

WHAT_WIN = _("You have borne off all 15. What is the win?")

RULES: tuple[Lesson, ...] = (
    Lesson(
        slug="entering",
        title=_("Entering from the bar"),
        intro=(
            Rule(
                _(
                    "While you have a checker on the bar you must first [[enter]] it into the "
                    "other side's home board before moving anything else: a roll of n enters on "
                    "the point n steps from the start (your point 25 − n), and a point the other "
                    "side holds cannot be entered."
                ),
                (
                    "吧台上有棋子的一方，下回合必须先把它放进对方的内盘才能走别的棋",
                    "被对方占住就进不去",
                ),
                check="enter_first",
            ),
            Rule(
                _("If neither die can enter, the whole roll is lost: it is a [[dance]]."),
                ("吧台上有棋子而两颗骰子都进不去，这回合就全部作废。",),
            ),
        ),
        tasks=(
            Task(
                "cOfgATDgc/AAWA",
                (5, 3),
                Goal.ENTER,
                _("You were hit and rolled 5-3. Enter your checker from the bar, then play on."),
                miss=_("Bring the checker on the bar in first."),
                solution=((25, 22), (13, 8)),
                wrong=(
                    Wrong(((13, 10),), RefusalCode.MUST_ENTER_FIRST),
                    Wrong(((25, 20),), RefusalCode.POINT_BLOCKED),
                ),
            ),
            Task(
                "cOfgATDg8+ADQA",
                (6, 5),
                Goal.CAN_ENTER,
                _(
                    "You have a checker on the bar and rolled 6-5. The computer holds points 19 "
                    "and 20. Can you enter?"
                ),
            ),
        ),
        teaches=(RefusalCode.MUST_ENTER_FIRST,),
    ),
    Lesson(
        slug="both-dice",
        title=_("Use both dice, or the larger one"),
        intro=(
            Rule(
                _(
                    "Whenever both dice can be played, both must be played: you may not play "
                    "only one on purpose."
                ),
                ("两颗骰子只要有办法都用上，就必须都用上，不能故意只走一颗。",),
                check="both_dice",
            ),
            Rule(
                _(
                    "If only one of them can be played, it must be the larger one; only when "
                    "the larger cannot be played at all do you play the smaller."
                ),
                ("如果只能用其中一颗，必须用点数大的那颗（大的走不了才走小的）",),
                check="larger_die",
            ),
            Rule(
                _("Doubles the same way: play as many of the four steps as you can."),
                ("双数同理，能走几步就要走几步。",),
                check="doubles_most",
            ),
        ),
        tasks=(
            Task(
                "wDAA4P8DAIAEAA",
                (6, 2),
                Goal.ANY,
                _(
                    "You rolled 6-2. The computer holds points 18 and 14; your other checkers "
                    "sit on point 1. Find the play that uses both dice."
                ),
                solution=((24, 22), (22, 16)),
                wrong=(Wrong(((22, 20),), RefusalCode.MUST_USE_BOTH),),
            ),
            Task(
                "ABgA+P8BAAABAA",
                (6, 5),
                Goal.ANY,
                _(
                    "You rolled 6-5, but point 13 is blocked, so only one die can be played. "
                    "Which one?"
                ),
                solution=((24, 18),),
                wrong=(Wrong(((24, 19),), RefusalCode.MUST_USE_LARGER),),
            ),
            Task(
                "uLs7AAD/PwAAIA",
                (6, 1),
                Goal.ANY,
                _(
                    "You rolled 6-1. The computer holds points 17 and 18, so no checker of "
                    "yours can move 6. Play what you can."
                ),
                solution=((24, 23),),
            ),
        ),
        teaches=(RefusalCode.MUST_USE_BOTH, RefusalCode.MUST_USE_LARGER),
    ),
    Lesson(
        slug="bearing-off",
        title=_("Bearing off"),
        intro=(
            Rule(
                _(
                    "Once all 15 checkers are in your home board (none on the bar), you "
                    "[[bear-off|bear them off]]."
                ),
                ("15 枚棋子全部进入自己的内盘（吧台上也不能有）之后才能开始移出。",),
                check="bear_off_home",
            ),
            Rule(
                _("A roll equal to a checker's distance from the edge bears it off."),
                ("掷出的点数正好等于棋子离出口的格数就能移出",),
                check="bear_off_exact",
            ),
            Rule(
                _(
                    "A roll larger than a checker's distance may bear it off only when no "
                    "checker of yours is further back; otherwise it must move a checker further "
                    "back."
                ),
                (
                    "点数比某枚棋子的格数大，只有当它后面（离出口更远的点位）已经没有自己的棋子时才能用来移出它，否则必须用这个点数走后面的棋子。",
                ),
                check="bear_off_highest",
            ),
        ),
        tasks=(
            Task(
                "290NAAC7uw0AAA",
                (6, 4),
                Goal.OFF,
                _("All your checkers are home. You rolled 6-4: bear off two checkers."),
                miss=_("Bear off one checker from point 6 and one from point 4."),
                off=2,
                solution=((6, 0), (4, 0)),
            ),
            Task(
                "7u4OAAB2dxcAAA",
                (6, 1),
                Goal.OFF,
                _(
                    "You rolled 6-1, but one checker is still on point 7. Bring it home and "
                    "bear off."
                ),
                miss=_(
                    "First 7 to 6 with the 1; then every checker is home and the 6 bears one off."
                ),
                off=1,
                solution=((7, 6), (6, 0)),
                wrong=(Wrong(((6, 0),), RefusalCode.BEAR_OFF_OUTSIDE),),
            ),
            Task(
                "7u4OAABEAAAAAA",
                (5, 4),
                Goal.OFF,
                _(
                    "You rolled 5-4 with checkers on 6 and 3. Neither die may bear off the "
                    "checker on 3 while one is on 6: move that one first, then bear off."
                ),
                miss=_("Play the checker on 6 first, then the other die bears off the one on 3."),
                off=1,
                solution=((6, 1), (3, 0)),
                wrong=(Wrong(((3, 0),), RefusalCode.BEAR_OFF_NOT_HIGHEST),),
            ),
            Task(
                "7u4OAAARAAAAAA",
                (6, 5),
                Goal.OFF,
                _("You rolled 6-5 with your last two checkers on 4 and 1. Bear both off."),
                miss=_("Nothing is behind them: the 6 bears off the 4 and the 5 the 1."),
                off=2,
                solution=((4, 0), (1, 0)),
            ),
        ),
        teaches=(RefusalCode.BEAR_OFF_OUTSIDE, RefusalCode.BEAR_OFF_NOT_HIGHEST),
    ),
    Lesson(
        slug="pip-count",
        title=_("The pip count"),
        intro=(
            Rule(
                _(
                    "Your [[pip-count]] is the sum of every checker's distance from bearing "
                    "off: a checker on point 6 counts 6, one on the bar counts 25."
                ),
                ("一方所有棋子离移出口的格数总和叫 pip 数", "吧台上的棋子按 25 格算"),
                check="pips",
            ),
            Rule(
                _(
                    "At the start both sides have 167. The smaller count is nearer to winning; "
                    "once the checkers no longer touch, in the [[race]], the pips and the dice "
                    "decide."
                ),
                ("开局双方都是 167", "双方不再接触以后比的就是 pip 和骰子运气"),
                check="pips",
            ),
        ),
        tasks=(
            Task(
                "+L4PAADQAAAAAA",
                None,
                Goal.COUNT,
                _("Count your pips: you have two checkers on point 6 and one on point 5."),
            ),
            Task(
                "+L4PAADgDAIAAA",
                None,
                Goal.COUNT,
                _("Count your pips: one checker on 13, two on 8 and three on 6."),
            ),
            Task(
                "+L4PAAAgAAACAA",
                None,
                Goal.COUNT,
                _("Count your pips: one checker on the bar and one on point 6."),
            ),
        ),
    ),
    Lesson(
        slug="winning",
        title=_("Winning: single, gammon and backgammon"),
        intro=(
            Rule(
                _("The first side to bear off all 15 checkers wins."),
                ("先把 15 枚棋子全部移出的一方获胜。",),
                check="kinds",
            ),
            Rule(
                _(
                    "If the other side has borne off at least one, it is a [[single-win|single "
                    "win]] (1 point); none, a [[gammon]] (2 points); none and a checker still on "
                    "the bar or in your home board, a [[backgammon]] (3 points)."
                ),
                (
                    "对方至少移出了一枚，是单胜，记 1 分；"
                    "对方一枚都没移出，是全胜（gammon），记 2 分；"
                    "对方不但一枚没移出，还有棋子留在吧台或你的内盘里，"
                    "是大胜（backgammon），记 3 分。",
                ),
                check="kinds",
            ),
        ),
        tasks=(
            Task(
                "4PPhAwACAAAAAA",
                (2, 1),
                Goal.OFF,
                _("You rolled 2-1 with your last checker on point 2. Bear it off and win."),
                miss=_("Use the 2 to bear the checker on point 2 off."),
                off=1,
                solution=((2, 0),),
            ),
            Task("uBsAAAAAAAAAAA", None, Goal.RESULT, WHAT_WIN),
            Task("4PPhAwAAAAAAAA", None, Goal.RESULT, WHAT_WIN),
            Task("4PPhAQgAAAAAAA", None, Goal.RESULT, WHAT_WIN),
        ),
    ),
)
