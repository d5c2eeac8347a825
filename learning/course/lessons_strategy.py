"""The course's last lessons, on playing well: three habits, the 15 opening
rolls, the doubling cube."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from learning.course.shapes import START, Goal, Lesson, Steps, Task


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
