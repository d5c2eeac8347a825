"""The glossary's second part: playing well, the words of the course's
lessons on shots, habits, openings and replies, and of the hints."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from learning.glossary.shapes import START_DARK, Term, diagram, start

PLAY: tuple[Term, ...] = (
    Term(
        "shots",
        pgettext_lazy("glossary", "shots"),
        _(
            "The rolls, of the 36 the dice can show, with which the other side can hit a "
            "blot of yours; 6-5 and 5-6 count as two rolls, a double as one."
        ),
        diagram({24: 2, 13: 4, 8: 3, 7: 1, 6: 5}, START_DARK, marks=(7,)),
        taught_by="shots",
        zh=("打中的掷法", r"\d+ ?种(?:掷法)?(?:能|可以)打[到中]"),
        en=(r"(?i)\bshots?\b", r"(?i)\b\d+ (?:of 36 )?rolls? (?:of 36 )?(?:can )?hit"),
    ),
    Term(
        "direct-shot",
        pgettext_lazy("glossary", "direct shot"),
        _(
            "A blot 1 to 6 points in front of an opposing checker: one die can hit it, so "
            "every roll showing that number does, 11 of the 36 at least."
        ),
        diagram({24: 2, 13: 4, 8: 3, 6: 5, 5: 1}, START_DARK, marks=(5,), dark_arrows=((1, 5),)),
        taught_by="shots",
        zh=("直接打",),
        en=(r"(?i)\bdirect shots?\b",),
    ),
    Term(
        "indirect-shot",
        pgettext_lazy("glossary", "indirect shot"),
        _(
            "A blot 7 to 12 points in front of an opposing checker: only both dice together "
            "reach it, 6 of the 36 rolls at most."
        ),
        diagram({24: 2, 13: 4, 10: 1, 8: 3, 6: 5}, START_DARK, marks=(10,), dark_arrows=((1, 10),)),
        taught_by="shots",
        zh=("间接打",),
        en=(r"(?i)\bindirect shots?\b",),
    ),
    Term(
        "back-checkers",
        pgettext_lazy("glossary", "back checkers"),
        _("Your checkers still in the other side's home board: at the start, the two on point 24."),
        start(marks=(24,)),
        taught_by="openings",
        zh=("后方棋子", "后方的棋子"),
        en=(r"(?i)\bback checkers?\b",),
    ),
    Term(
        "builder",
        pgettext_lazy("glossary", "builder"),
        _(
            "A checker a few points above a point you want to make, ready to make it next "
            "turn; those on your points 6 to 11 do most of this work."
        ),
        diagram({24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}, START_DARK, marks=(11, 8)),
        taught_by="openings",
        zh=("建筑棋子", "做点的棋子"),
        en=(r"(?i)\bbuilders?\b",),
    ),
    Term(
        "split",
        pgettext_lazy("glossary", "split"),
        _(
            "Moving one of the two back checkers to another point, so that they can make an "
            "anchor or hit more easily later."
        ),
        diagram({24: 1, 23: 1, 13: 5, 8: 3, 6: 5}, START_DARK, arrows=((24, 23),)),
        taught_by="openings",
        zh=("分开", "拆开"),
        en=(r"(?i)\bsplit(?:s|ting)?\b",),
    ),
    Term(
        "slot",
        pgettext_lazy("glossary", "slot"),
        _(
            "Putting one checker alone on a point you want, to cover it with a second one "
            "next turn; if it is hit first, it goes to the bar."
        ),
        diagram({24: 2, 13: 5, 8: 3, 6: 4, 5: 1}, START_DARK, arrows=((6, 5),)),
        taught_by="openings",
        zh=("先放一枚", "垫点"),
        en=(r"(?i)\bslot(?:s|ted|ting)?\b",),
    ),
    Term(
        "prime",
        pgettext_lazy("glossary", "prime"),
        _(
            "Several made points in a row: the other side's checkers behind them struggle to "
            "pass, and six in a row cannot be passed at all."
        ),
        diagram(
            {9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2, 13: 3},
            {2: 1, 19: 4, 20: 3, 21: 3, 22: 2, 23: 2},
            marks=(9, 8, 7, 6, 5, 4),
        ),
        taught_by="openings",
        zh=("封锁",),
        en=(r"(?i)\bprimes?\b",),
    ),
    Term(
        "anchor",
        pgettext_lazy("glossary", "anchor"),
        _(
            "A point you hold in the other side's [[home-board]]: your [[back-checkers]] are safe "
            "there, and a checker entering from the bar has somewhere to land."
        ),
        diagram(
            {20: 2, 13: 4, 8: 3, 6: 4, 5: 2},
            {12: 4, 17: 3, 19: 2, 21: 2, 22: 2, 23: 2},
            marks=(20,),
        ),
        taught_by="replies",
        zh=("锚点",),
        en=(r"(?i)\banchors?\b",),
    ),
    Term(
        "engine",
        pgettext_lazy("glossary", "engine"),
        _(
            "The program that judges positions here: it plays the computer's moves, gives the "
            "hints, the tutor's warnings and the review, all from one evaluation."
        ),
        start(),
        zh=("引擎",),
        en=(r"(?i)\bengines?\b",),
    ),
)
