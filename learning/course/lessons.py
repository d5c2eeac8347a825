"""The lessons of 学棋, as data.

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
WHAT_WIN = _("You have borne off all 15. What is the win?")

BASICS: tuple[Lesson, ...] = (
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


def opening(dice: tuple[int, int], accept: tuple[str, ...], solution: Steps, why: Promise) -> Task:
    """A task of the opening lesson: the starting position and one of the 15
    opening rolls; the standard plays are accepted (a test holds them against
    the hints' ranking)."""
    prompt = _("Your opening roll: play it the standard way.")
    return Task(START, dice, Goal.PLAY, prompt, accept=accept, solution=solution, why=why)


OPENINGS = Lesson(
    slug="openings",
    title=_("The 15 opening rolls"),
    intro=(
        _(
            "At the start each side rolls one die; the higher one moves first and plays "
            "those two dice. A tie is rolled again, so the first play is never a double."
        ),
        _(
            "That leaves 15 rolls, and each has a standard play or two. Learn them once "
            "and every game starts well."
        ),
    ),
    tasks=(
        opening(
            (3, 1),
            ("8/5 6/5",),
            ((8, 5), (6, 5)),
            _("8/5 6/5 makes the 5 point, the best point of your home board."),
        ),
        opening(
            (4, 2),
            ("8/4 6/4",),
            ((8, 4), (6, 4)),
            _("8/4 6/4 makes the 4 point, the next best."),
        ),
        opening(
            (5, 3),
            ("8/3 6/3",),
            ((8, 3), (6, 3)),
            _("8/3 6/3 makes the 3 point: another point in your home board."),
        ),
        opening(
            (6, 1),
            ("13/7 8/7",),
            ((13, 7), (8, 7)),
            _("13/7 8/7 makes the 7 point: with the 6 point it starts a block."),
        ),
        opening(
            (6, 5),
            ("24/13",),
            ((24, 18), (18, 13)),
            _("24/13 runs a back checker all the way to safety on the 13 point."),
        ),
        opening(
            (6, 4),
            ("24/18 13/9", "24/14", "8/2 6/2"),
            ((24, 18), (13, 9)),
            _("Three plays are about equal: 24/18 13/9, running 24/14, or 8/2 6/2."),
        ),
        opening(
            (6, 3),
            ("24/18 13/10", "24/15"),
            ((24, 18), (13, 10)),
            _("Split to 18 and bring a builder to 10, or run one back checker to 15."),
        ),
        opening(
            (6, 2),
            ("24/18 13/11",),
            ((24, 18), (13, 11)),
            _("24/18 13/11 splits the back checkers and brings a builder to 11."),
        ),
        opening(
            (5, 4),
            ("24/20 13/8", "24/15", "13/9 13/8"),
            ((13, 8), (24, 20)),
            _("13/8 is safe; the 4 splits 24/20 or brings a second builder (or run 24/15)."),
        ),
        opening(
            (5, 2),
            ("24/22 13/8", "13/11 13/8"),
            ((13, 8), (13, 11)),
            _("13/8 is safe; the 2 brings a builder to 11 or splits 24/22."),
        ),
        opening(
            (5, 1),
            ("24/23 13/8", "13/8 6/5"),
            ((13, 8), (24, 23)),
            _("13/8 is safe; the 1 splits 24/23 or slots the 5 point (6/5)."),
        ),
        opening(
            (4, 3),
            ("24/20 13/10", "24/21 13/9", "13/10 13/9"),
            ((13, 10), (13, 9)),
            _("Split with one die and bring a builder with the other, or bring two builders."),
        ),
        opening(
            (4, 1),
            ("24/23 13/9", "13/9 6/5"),
            ((24, 23), (13, 9)),
            _("24/23 13/9 splits and brings a builder; 13/9 6/5 slots the 5 point."),
        ),
        opening(
            (3, 2),
            ("24/21 13/11", "24/22 13/10", "13/11 13/10"),
            ((24, 21), (13, 11)),
            _("Split with one die and bring a builder with the other, or bring two builders."),
        ),
        opening(
            (2, 1),
            ("13/11 6/5", "24/23 13/11"),
            ((13, 11), (6, 5)),
            _("13/11 6/5 slots the 5 point; 24/23 13/11 splits instead. Both are standard."),
        ),
    ),
)


def pick(position: str, dice: tuple[int, int], plays: tuple[str, str], prompt: Promise) -> Task:
    """A task of the habits lesson: which of two plays is better (the engine says)."""
    return Task(position, dice, Goal.PICK, prompt, accept=plays)


HABITS = Lesson(
    slug="habits",
    title=_("Three habits for when you keep losing"),
    intro=(
        _(
            "Don't leave a blot within 6 points of the other side's checkers; with a checker "
            "on the bar, entering comes first; make your 4 and 5 points instead of rushing "
            "forward."
        ),
        _(
            "Each task shows two plays: pick the better one. The engine that gives the hints "
            "ranks them and says why."
        ),
    ),
    tasks=(
        pick(
            "4HPwATDgc/ABMA",
            (3, 1),
            ("24/20", "8/5 6/5"),
            _("You rolled 3-1. Run a back checker 24/20, or make your 5 point with 8/5 6/5?"),
        ),
        pick(
            "4HPwATDgc/ABMA",
            (4, 2),
            ("24/22 13/9", "8/4 6/4"),
            _("You rolled 4-2. Split and bring a builder (24/22 13/9), or make your 4 point?"),
        ),
        pick(
            "4DP4ADKwz8EHAA",
            (6, 1),
            ("8/2 6/5", "13/6"),
            _(
                "You rolled 6-1. The computer has checkers on your 1 and 3 points. 8/2 6/5 "
                "leaves a blot on 2; 13/6 leaves none. Which is better?"
            ),
        ),
        pick(
            "5M7gATCw5+ADQA",
            (4, 3),
            ("bar/21 6/3", "bar/22* 13/9"),
            _(
                "You are on the bar with 4-3. Enter first either way: bar/21 6/3, or hit its "
                "blot with bar/22* 13/9?"
            ),
        ),
    ),
)

CUBE = Lesson(
    slug="cube",
    title=_("The doubling cube"),
    intro=(
        _(
            "In a money game either side may double before rolling: the stakes double, and "
            "the other side takes (plays on for twice the stakes and owns the cube) or "
            "passes (loses the game at the stakes before)."
        ),
        _(
            "Take when your chance to win is above the take point, about 25%; owning the "
            "cube is worth a little, so the engine's figure is a bit lower. Double when you "
            "are clearly ahead, but not so far that the other side should pass and you could "
            "win more by playing on."
        ),
    ),
    tasks=(
        Task(
            "VQUAgKoCAAAAAA",
            None,
            Goal.DOUBLE,
            _(
                "A race before your roll: six checkers each, 21 pips each, and you are on "
                "roll. Double, or roll on?"
            ),
        ),
        Task(
            "qgIAQFUBAAAAAA",
            None,
            Goal.DOUBLE,
            _("Before your roll: you have 21 pips, the computer 20, and you are on roll. Double?"),
        ),
        # The computer is on roll here: the board from the person's side.
        Task(
            "VQUAgKoCAAAAAA",
            None,
            Goal.TAKE,
            _("The computer, on roll with 21 pips against your 21, doubles. Take or pass?"),
        ),
        Task(
            "VAEAoKoAAAAAAA",
            None,
            Goal.TAKE,
            _("The computer, on roll with 18 pips against your 21, doubles. Take or pass?"),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (*BASICS, HABITS, OPENINGS, CUBE)
BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}

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
