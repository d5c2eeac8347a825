"""The words that name a glossary term (``learning.glossary.terms``) in the
sentences the tutor's warning takes from the review (``learning.words.versus``,
``learning.words.cube``), by language: ``learning.words.coach.with_terms``
marks the first of them in a sentence, so the page links the term there.
Within a language, a word that contains another comes first; a pattern
stands for words with a number in them (the 24-point).
"""

from __future__ import annotations

import re

Surface = str | re.Pattern[str]

SURFACES: dict[str, dict[str, tuple[Surface, ...]]] = {
    "zh-hans": {
        "blot": ("落单",),
        "builder": ("建筑棋子", "做点的棋子"),
        "anchor": ("锚点",),
        "prime": ("封锁",),
        "backgammon": ("大胜",),
        "gammon": ("全胜",),
        "race": ("跑棋",),
        "pip-count": ("pip 数",),
        "bear-off": ("移出",),
        "hit": ("打击", "打中", "打到"),
        "back-checkers": ("后方棋子",),
        "home-board": ("内盘",),
        "outer-board": ("外盘",),
        "slot": ("垫点",),
        "made-point": ("占住", "守住"),
    },
    "en": {
        "blot": ("blots", "blot"),
        "builder": ("builders", "builder"),
        "anchor": ("anchor",),
        "prime": ("prime",),
        "backgammon": ("backgammons", "backgammon"),
        "gammon": ("gammons", "gammon"),
        "race": ("race",),
        "pip-count": ("pips",),
        "bear-off": ("bears off", "bear off"),
        "hit": ("hits", "hit"),
        "back-checkers": ("back checkers", "back checker"),
        "home-board": ("home board",),
        "outer-board": ("outer board",),
        "slot": ("slots",),
        "made-point": (re.compile(r"\b\d+-point\b"), re.compile(r"\b\d+ point\b")),
    },
}

# The cube's terms, marked in a cube action's warning only (a play's words
# say 放弃 of a point, which is no pass of a double).
CUBE_SURFACES: dict[str, dict[str, tuple[Surface, ...]]] = {
    "zh-hans": {
        "take-point": ("接受点",),
        "take": ("接受",),
        "pass": ("放弃",),
        "double": ("加倍",),
    },
    "en": {
        "take-point": ("take point",),
        "take": ("take",),
        "pass": ("pass",),
        "double": ("double",),
    },
}
