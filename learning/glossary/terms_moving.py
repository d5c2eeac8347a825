"""The glossary's first part: the board, moving, and the rules the course
teaches in its first lessons (the board to the kinds of win, and the way
plays are written)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from learning.glossary.shapes import Term, diagram, start

HOME = (1, 2, 3, 4, 5, 6)
RACE_LIGHT = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}
RACE_DARK = {19: 3, 20: 3, 21: 3, 22: 2, 23: 2, 24: 2}

MOVING: tuple[Term, ...] = (
    Term(
        "point",
        pgettext_lazy("glossary", "point"),
        _(
            "One of the 24 triangles; checkers move from point to point, numbered from 24 "
            "down to 1 in the direction you play."
        ),
        start(marks=(24, 1)),
        taught_by="board",
        zh=("点位",),
        en=(r"(?i)\bpoints?\b",),
    ),
    Term(
        "home-board",
        pgettext_lazy("glossary", "home board"),
        _(
            "The six points nearest the edge where checkers leave the board: yours are points "
            "1 to 6, the computer's 19 to 24."
        ),
        start(marks=HOME),
        taught_by="board",
        zh=("内盘",),
        en=(r"(?i)\bhome boards?\b",),
    ),
    Term(
        "outer-board",
        pgettext_lazy("glossary", "outer board"),
        _(
            "The six points beyond each home board: yours are points 7 to 12, the "
            "computer's 13 to 18."
        ),
        start(marks=(7, 8, 9, 10, 11, 12)),
        taught_by="board",
        zh=("外盘",),
        en=(r"(?i)\bouter boards?\b",),
    ),
    Term(
        "bar",
        pgettext_lazy("glossary", "bar"),
        _(
            "The upright strip in the middle of the board: a checker that is hit waits there "
            "and must come back in through the other side's home board before any other "
            "checker of its side moves."
        ),
        diagram({24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}, bar=(1, 0), marks=(25,)),
        taught_by="board",
        zh=("吧台",),
        en=(r"(?i)\bbar\b",),
    ),
    Term(
        "doubles",
        pgettext_lazy("glossary", "doubles"),
        _("Both dice showing the same number, such as 3-3: you move that number four times."),
        start(dice=(3, 3), arrows=((8, 5), (8, 5), (6, 3), (6, 3))),
        taught_by="doubles",
        zh=("双数",),
        en=(r"(?i)\bdoubles\b",),
    ),
    Term(
        "made-point",
        pgettext_lazy("glossary", "made point"),
        _(
            "A point with two or more of your checkers: the other side can neither land "
            "there nor stop there on the way."
        ),
        diagram({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {1: 2, 12: 5, 17: 3, 19: 5}, marks=(5, 6, 8)),
        taught_by="blocked",
        zh=("占点", "占住", "守住"),
        en=(
            r"(?i)\bmade points?\b",
            r"(?i)\bmak(?:e|es|ing) (?:the|a|an|your|its) (?:\d+[- ])?points?\b",
            r"\b\d+-point\b",
            r"\b\d+ point\b",
        ),
    ),
    Term(
        "blot",
        pgettext_lazy("glossary", "blot"),
        _(
            "A point with only one checker on it: if the other side lands there, that checker "
            "goes to the [[bar]]."
        ),
        diagram({24: 2, 13: 4, 8: 3, 7: 1, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}, marks=(7,)),
        taught_by="hitting",
        zh=("落单",),
        en=(r"(?i)\bblots?\b",),
    ),
    Term(
        "hit",
        pgettext_lazy("glossary", "hit"),
        _(
            "Landing on the other side's [[blot]]: its checker goes to the [[bar]] and has to "
            "start its way again, and its [[pip-count]] grows by as much."
        ),
        diagram({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 10: 1, 12: 4, 17: 3, 19: 5}, arrows=((13, 10),)),
        taught_by="hitting",
        zh=(r"打(?:[中到击]|(?!开|算))",),
        en=(r"(?i)\bhit(?:s|ting)?\b",),
    ),
    Term(
        "enter",
        pgettext_lazy("glossary", "enter"),
        _(
            "Bringing a checker from the [[bar]] into the other side's [[home-board]]: a roll of n "
            "enters on the point n steps from the start (your point 25 − n), and never on a "
            "point the other side holds."
        ),
        diagram(
            {24: 1, 13: 5, 8: 3, 6: 5},
            {1: 2, 12: 4, 17: 3, 19: 2, 20: 2, 21: 2},
            bar=(1, 0),
            dice=(3, 5),
            arrows=((25, 22),),
        ),
        taught_by="entering",
        zh=("进场",),
        en=(r"(?i)\bent(?:er|ers|ered|ering|ry)\b",),
    ),
    Term(
        "dance",
        pgettext_lazy("glossary", "dance"),
        _(
            "With a checker on the bar, when neither die can enter, the whole roll is lost: "
            "nothing moves this turn."
        ),
        diagram(
            {24: 1, 13: 5, 8: 3, 6: 5},
            {1: 2, 12: 4, 17: 3, 19: 2, 20: 2, 21: 2},
            bar=(1, 0),
            dice=(6, 5),
            marks=(19, 20),
        ),
        taught_by="entering",
        zh=("作废",),
        en=(r"(?i)\bdanc(?:e|es|ed|ing)\b",),
    ),
    Term(
        "bear-off",
        pgettext_lazy("glossary", "bear off"),
        _(
            "Taking checkers off the board by the dice, once all 15 of yours are in your home "
            "board; the first side to bear off all 15 wins."
        ),
        diagram(
            {6: 3, 5: 2, 4: 2, 3: 2, 2: 1, 1: 1},
            {19: 3, 20: 2, 21: 3, 22: 2, 23: 2, 24: 1},
            off=(4, 2),
            arrows=((6, 0),),
        ),
        taught_by="bearing-off",
        zh=("移出",),
        en=(r"(?i)\bbear(?:s|ing)?(?: \w+)? off\b", r"(?i)\bborne off\b", r"(?<=/)off\b"),
    ),
    Term(
        "pip-count",
        pgettext_lazy("glossary", "pip count"),
        _(
            "The sum of every checker's distance from bearing off, a checker on the bar "
            "counting 25: 167 for each side at the start; the smaller count is nearer to "
            "winning."
        ),
        start(),
        taught_by="pip-count",
        zh=(r"(?i)pip(?: ?数)?",),
        en=(r"(?i)\bpips?\b",),
    ),
    Term(
        "race",
        pgettext_lazy("glossary", "race"),
        _(
            "The stage once the two sides' checkers have passed each other and can no longer "
            "hit: the pip count and the dice decide."
        ),
        diagram(RACE_LIGHT, RACE_DARK),
        taught_by="pip-count",
        zh=("跑棋", "脱离接触"),
        en=(r"(?i)\brace\b", r"(?i)\bbreaks? contact\b"),
    ),
    Term(
        "single-win",
        pgettext_lazy("glossary", "single win"),
        _("A win where the loser has borne off at least one checker: 1 point."),
        diagram({}, {19: 3, 21: 4, 23: 2}, off=(15, 6)),
        taught_by="winning",
        zh=("单胜",),
        en=(r"(?i)\bsingle wins?\b",),
    ),
    Term(
        "gammon",
        pgettext_lazy("glossary", "gammon"),
        _("A win where the loser has borne off no checker: 2 points."),
        diagram({}, {13: 3, 17: 4, 19: 4, 22: 4}, off=(15, 0)),
        taught_by="winning",
        zh=("全胜",),
        en=(r"(?i)\bgammons?\b",),
    ),
    Term(
        "backgammon",
        pgettext_lazy("glossary", "backgammon"),
        _(
            "A win where the loser has borne off no checker and still has one on the bar or "
            "in the winner's home board: 3 points."
        ),
        diagram({}, {3: 1, 13: 3, 17: 4, 19: 3, 22: 4}, off=(15, 0), marks=(3,)),
        taught_by="winning",
        zh=("大胜",),
        en=(r"(?i)\bbackgammons?\b",),
    ),
    Term(
        "notation",
        pgettext_lazy("glossary", "notation"),
        _(
            "How a play is written: 24/13 moves a checker from point 24 to point 13, * marks "
            "a hit, bar/22 enters on point 22, 6/off bears off from point 6, and (2) means "
            "two checkers move so."
        ),
        start(arrows=((24, 13),)),
        taught_by="notation",
        # A play written out: "24/13", "吧台/22", "6/移出", "8/5(2)", "13/10*".
        zh=("记法", r"\d/\d", r"吧台/", r"/移出", r"\(\d\)", r"\d\*"),
        en=(r"(?i)\bnotation\b", r"\d/\d", r"(?i)\bbar/", r"/off\b", r"\(\d\)", r"\d\*"),
    ),
)
