"""The words that name a glossary term (``learning.glossary.terms``) in the
sentences the tutor's warning takes from the review (``learning.words.versus``,
``learning.words.cube``), by language: ``learning.words.coach.with_terms``
marks the first of them in a sentence, so the page links the term there.
Within a language, a word that contains another comes first.
"""

from __future__ import annotations

SURFACES: dict[str, dict[str, tuple[str, ...]]] = {
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
    },
}

# The cube's terms, marked in a cube action's warning only (a play's words
# say 放弃 of a point, which is no pass of a double).
CUBE_SURFACES: dict[str, dict[str, tuple[str, ...]]] = {
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
