"""The course's lessons 6-10, on the rules that follow: entering from the
bar, using both dice, bearing off, the pip count, single, gammon and
backgammon."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import RefusalCode
from learning.course.shapes import Goal, Lesson, Task, Wrong

WHAT_WIN = _("You have borne off all 15. What is the win?")

RULES: tuple[Lesson, ...] = (
    Lesson(
        slug="entering",
        title=_("Entering from the bar"),
        intro=(
            _(
                "While you have a checker on the bar you must first bring it into the other "
                "side's home board before moving anything else."
            ),
            _(
                "A roll of n enters it on the point n away from the start (a 3 on point 22); "
                "a point the other side holds cannot be entered."
            ),
            _("If neither die can enter, the whole roll is lost: you dance."),
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
            _(
                "Whenever both dice can be played, both must be played: you may not play only "
                "one on purpose."
            ),
            _("If only one of them can be played, it must be the larger one."),
        ),
        tasks=(
            Task(
                "wDAA4P8DAIAEAA",
                (6, 2),
                Goal.ANY,
                _(
                    "You rolled 6-2. The computer holds points 18 and 14; your other checkers sit "
                    "on point 1. Find the play that uses both dice."
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
        ),
        teaches=(RefusalCode.MUST_USE_BOTH, RefusalCode.MUST_USE_LARGER),
    ),
    Lesson(
        slug="bearing-off",
        title=_("Bearing off"),
        intro=(
            _(
                "Once all 15 checkers are in your home board (none on the bar), you bear them "
                "off: a die equal to a checker's distance from the edge takes it off."
            ),
            _(
                "A die larger than a checker's distance may bear it off only when no checker of "
                "yours is further back; otherwise play the larger die with a checker further "
                "back."
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
            _(
                "The pip count is the sum of every checker's distance from bearing off: a "
                "checker on point 6 counts 6, one on the bar counts 25."
            ),
            _(
                "At the start both sides have 167. The smaller count is nearer to winning; once "
                "the checkers no longer touch, the pips and the dice decide."
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
            _("The first side to bear off all 15 checkers wins."),
            _(
                "If the other side has borne off at least one, it is a single win (1 point); "
                "none, a gammon (2 points); none and a checker still on the bar or in your home "
                "board, a backgammon (3 points)."
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
            Task(
                "uBsAAAAAAAAAAA",
                None,
                Goal.RESULT,
                WHAT_WIN,
            ),
            Task(
                "4PPhAwAAAAAAAA",
                None,
                Goal.RESULT,
                WHAT_WIN,
            ),
            Task(
                "4PPhAQgAAAAAAA",
                None,
                Goal.RESULT,
                WHAT_WIN,
            ),
        ),
    ),
)
