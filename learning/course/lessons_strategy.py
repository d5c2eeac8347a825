"""The course's lessons 13-15, on playing well: three habits, the 15 opening
rolls shown and then played, and the replies to the computer's opening."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from learning.course.shapes import START, Goal, Lesson, Rule, Steps, Task
from learning.glossary.shapes import filled


def opening(dice: tuple[int, int], accept: tuple[str, ...], solution: Steps, why: Promise) -> Task:
    """A play of the openings lesson, shown on the board with its reason: the
    start and one of the 15 opening rolls; ``accept`` are its standard plays
    (a test holds them against the hints' ranking), the first one drawn."""
    prompt = filled(_("Opening roll %(d1)s-%(d2)s: the standard play."), d1=dice[0], d2=dice[1])
    return Task(START, dice, Goal.SHOW, prompt, accept=accept, solution=solution, why=why)


def pick(position: str, dice: tuple[int, int], plays: tuple[str, str], prompt: Promise) -> Task:
    """A task of the habits lesson: which of two plays is better (the engine says)."""
    return Task(position, dice, Goal.PICK, prompt, accept=plays)


HABITS = Lesson(
    slug="habits",
    title=_("Three habits for when you keep losing"),
    intro=(
        Rule(
            _(
                "Don't leave a blot within 6 points of the other side's checkers; with a "
                "checker on the bar, entering comes first; make your 4 and 5 points instead of "
                "rushing forward."
            ),
            (
                "别把棋子落单留在对方 6 格以内，吧台上有自己的棋子必须先进场，"
                "占住内盘的 4、5 点而不是一味往前冲",
            ),
        ),
        _(
            "When every play leaves a blot, the habit is to leave the one the fewest rolls hit: "
            "count the shots as in the last lesson."
        ),
        _(
            "Each task shows two plays: pick the better one. The computer ranks them with the "
            "evaluation its hints use, and then draws the better one on the board."
        ),
    ),
    tasks=(
        pick(
            START,
            (3, 1),
            ("24/20", "8/5 6/5"),
            _("You rolled 3-1. Run a checker 24/20, or make your 5 point with 8/5 6/5?"),
        ),
        pick(
            START,
            (4, 2),
            ("24/22 13/9", "8/4 6/4"),
            _("You rolled 4-2. 24/22 13/9, or make your 4 point with 8/4 6/4?"),
        ),
        pick(
            "4DP4ADKwz8EHAA",
            (6, 1),
            ("8/2 6/5", "13/6"),
            _(
                "You rolled 6-1. The computer has checkers on your points 1 and 3. 8/2 6/5 "
                "leaves a blot on point 2; 13/6 leaves none. Which is better?"
            ),
        ),
        pick(
            "5M7gATCw5+ADQA",
            (4, 3),
            ("bar/21 6/3", "bar/22* 13/9"),
            _(
                "You are on the bar with 4-3: enter first. Both plays leave blots: bar/21 6/3, "
                "or bar/22* 13/9, which hits?"
            ),
        ),
    ),
)

OPENINGS = Lesson(
    slug="openings",
    title=_("The 15 opening rolls"),
    intro=(
        Rule(
            _(
                "At the start each side rolls one die; the higher one moves first and plays "
                "those two dice. A tie is rolled again, so the first play is never a double: "
                "15 rolls are left."
            ),
            (
                "开局双方各掷一颗骰子，点数大的先走，并且就用这两颗骰子的点数走第一回合；"
                "两边点数相同就重掷。",
            ),
        ),
        _(
            "Your checkers still in the other side's home board are your "
            "[[back-checkers|back checkers]]; a checker a few points above a point you want "
            "to make is a [[builder]]. Moving one back checker off the other is a "
            "[[split]]; a lone checker put on a point you want to make next turn is a "
            "[[slot]]. Several made points in a row are a [[prime]]."
        ),
        _(
            "First see each roll's standard play on the board with its reason; then play a "
            "few opening rolls yourself."
        ),
    ),
    tasks=(
        opening(
            (3, 1),
            ("8/5 6/5",),
            ((8, 5), (6, 5)),
            _("Makes the 5 point, the best point of your home board."),
        ),
        opening((4, 2), ("8/4 6/4",), ((8, 4), (6, 4)), _("Makes the 4 point, the next best.")),
        opening(
            (5, 3),
            ("8/3 6/3",),
            ((8, 3), (6, 3)),
            _("Makes the 3 point: another point in your home board."),
        ),
        opening(
            (6, 1),
            ("13/7 8/7",),
            ((13, 7), (8, 7)),
            _(
                "Makes the 7 point: with the 6 point, two made points in a row, the start of a "
                "prime."
            ),
        ),
        opening(
            (6, 5),
            ("24/13",),
            ((24, 18), (18, 13)),
            _("Runs a back checker all the way to safety on the 13 point."),
        ),
        opening(
            (6, 4),
            ("24/18 13/9", "24/14", "8/2 6/2"),
            ((24, 18), (13, 9)),
            _("Three plays are about as good: 24/18 13/9, running 24/14, or 8/2 6/2."),
        ),
        opening(
            (6, 3),
            ("24/18 13/10", "24/15"),
            ((24, 18), (13, 10)),
            _("Splits to 18 and brings a builder to 10; running 24/15 is as good."),
        ),
        opening(
            (6, 2),
            ("24/18 13/11",),
            ((24, 18), (13, 11)),
            _("Splits the back checkers and brings a builder to 11."),
        ),
        opening(
            (5, 4),
            ("24/20 13/8", "13/9 13/8", "24/15"),
            ((24, 20), (13, 8)),
            _("13/8 is safe; the 4 splits 24/20 or brings a second builder, 13/9."),
        ),
        opening(
            (5, 2),
            ("13/11 13/8", "24/22 13/8"),
            ((13, 11), (13, 8)),
            _("13/8 is safe; the 2 brings a builder to 11, or splits 24/22."),
        ),
        opening(
            (5, 1),
            ("24/23 13/8", "13/8 6/5"),
            ((24, 23), (13, 8)),
            _("13/8 is safe; the 1 splits 24/23, or slots the 5 point with 6/5."),
        ),
        opening(
            (4, 3),
            ("24/20 13/10", "24/21 13/9", "13/10 13/9"),
            ((13, 10), (13, 9)),
            _("Two builders, 13/10 13/9; or a split with one die and a builder with the other."),
        ),
        opening(
            (4, 1),
            ("24/23 13/9", "13/9 6/5"),
            ((24, 23), (13, 9)),
            _("Splits 24/23 and brings a builder to 9; 13/9 6/5 slots the 5 point instead."),
        ),
        opening(
            (3, 2),
            ("24/21 13/11", "24/22 13/10", "13/11 13/10"),
            ((24, 21), (13, 11)),
            _("A split with one die and a builder with the other, or two builders: 13/11 13/10."),
        ),
        opening(
            (2, 1),
            ("13/11 6/5", "24/23 13/11"),
            ((13, 11), (6, 5)),
            _("Slots the 5 point with 6/5 and brings a builder to 11; 24/23 13/11 splits instead."),
        ),
    ),
)


def reply(position: str, dice: tuple[int, int], play: str, solution: Steps, why: Promise) -> Task:
    """A reply to the computer's opening, shown with its reason (the hints
    rank it first: a test holds it)."""
    prompt = filled(_("Your reply with %(d1)s-%(d2)s."), d1=dice[0], d2=dice[1])
    return Task(position, dice, Goal.SHOW, prompt, accept=(play,), solution=solution, why=why)


REPLIES = Lesson(
    slug="replies",
    title=_("Replying to the computer's opening"),
    intro=(
        _(
            "When the computer moves first, your first roll answers its play. A blot it left "
            "within your reach is often worth hitting; and some doubles have a standard reply."
        ),
        _(
            "A point you make in the computer's home board is an [[anchor]]: your back "
            "checkers are safe there for the rest of the game."
        ),
        _("See six replies with their reasons; then choose between two replies yourself."),
    ),
    tasks=(
        reply(
            "4HPFATDgc/ABMA",
            (6, 3),
            "24/15*",
            ((24, 15),),
            _(
                "The computer opened 4-3 with 12/16 12/15, leaving two blots. You rolled "
                "6-3: 24/15* hits one and runs a back checker."
            ),
        ),
        reply(
            "4HPwBSDgc/ABMA",
            (2, 2),
            "13/11*(2) 6/4(2)",
            ((13, 11), (13, 11), (6, 4), (6, 4)),
            _(
                "The computer ran 1/11 with 6-4. You rolled 2-2: 13/11*(2) hits it and makes "
                "the 11 point, 6/4(2) makes the 4 point."
            ),
        ),
        reply(
            "sGfwATDgc/ABMA",
            (6, 6),
            "24/18(2) 13/7(2)",
            ((24, 18), (24, 18), (13, 7), (13, 7)),
            _(
                "The computer made its 5 point (17/20 19/20). You rolled 6-6: 24/18(2) "
                "13/7(2) makes the points 18 and 7, both of them key points."
            ),
        ),
        reply(
            "4PPIATDgc/ABMA",
            (4, 4),
            "24/20(2) 13/9(2)",
            ((24, 20), (24, 20), (13, 9), (13, 9)),
            _(
                "The computer opened 5-2 with 12/14 12/17. You rolled 4-4: 24/20(2) makes an "
                "anchor on point 20, 13/9(2) makes the 9 point."
            ),
        ),
        reply(
            "sGfwATDgc/ABMA",
            (5, 5),
            "13/3(2)",
            ((13, 8), (13, 8), (8, 3), (8, 3)),
            _(
                "The computer made its 5 point. You rolled 5-5: the standard 13/3(2) makes the 3 "
                "point."
            ),
        ),
        reply(
            "4HPFATDgc/ABMA",
            (1, 1),
            "8/7(2) 6/5(2)",
            ((8, 7), (8, 7), (6, 5), (6, 5)),
            _(
                "The computer opened 4-3 with 12/16 12/15. You rolled 1-1: 8/7(2) 6/5(2) makes "
                "the 7 and 5 points."
            ),
        ),
    ),
)
