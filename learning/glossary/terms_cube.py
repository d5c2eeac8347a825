"""The glossary's third part: the doubling cube and the kinds of game, then
the figures the hints, the tutor and the review give (equity, the error
classes, luck, PR)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ai_worker.grading import ERROR_THRESHOLDS, PR_SCALE, ErrorClass
from learning.glossary.shapes import Term, diagram, filled, start

LIMITS = {error: limit for limit, error in ERROR_THRESHOLDS}
# A race late in the game: 8 checkers of yours and 10 of the computer's left.
RACE_LIGHT = {6: 2, 5: 2, 4: 2, 3: 1, 2: 1}
RACE_DARK = {19: 2, 20: 2, 21: 2, 22: 2, 23: 1, 24: 1}
RACE_OFF = (7, 5)

CUBE: tuple[Term, ...] = (
    Term(
        "cube",
        pgettext_lazy("glossary", "doubling cube"),
        _(
            "A die marked 2, 4, 8, 16, 32 and 64 that keeps count of how many times the "
            "stakes of a game have doubled; the single game is played without it."
        ),
        start(cube=(1, "", "")),
        taught_by="cube",
        zh=("倍数骰",),
        en=(r"(?i)\bcubes?\b",),
    ),
    Term(
        "double",
        pgettext_lazy("glossary", "double"),
        _(
            "Offering, before your roll, to play on for twice the stakes; the other side "
            "takes or passes."
        ),
        diagram(RACE_LIGHT, RACE_DARK, off=RACE_OFF, cube=(1, "", "light")),
        taught_by="cube",
        zh=("加倍",),
        en=(r"(?i)(?<!\ba )\bdoubl(?:e|ed|ing)\b",),
    ),
    Term(
        "take",
        pgettext_lazy("glossary", "take"),
        _("Accepting a double: the game goes on at twice the stakes, and the cube is yours."),
        diagram(RACE_LIGHT, RACE_DARK, off=RACE_OFF, cube=(2, "light", "")),
        taught_by="cube",
        zh=("接受(?!点)",),
        en=(r"(?i)\btak(?:e|es|en)\b(?! point| (?:a|an|it|the|them|each|one|two|off|back)\b)",),
    ),
    Term(
        "pass",
        pgettext_lazy("glossary", "pass"),
        _("Refusing a double: you lose the game at once, at the stakes before the double."),
        diagram(RACE_LIGHT, RACE_DARK, off=RACE_OFF, cube=(1, "", "dark")),
        taught_by="cube",
        zh=("放弃(?! ?%|\\s*\\d)",),
        en=(r"(?i)\bpass(?:es|ed)?\b",),
    ),
    Term(
        "cube-owner",
        pgettext_lazy("glossary", "owning the cube"),
        _(
            "The side that took the last double keeps the cube on its side of the board: "
            "only it may double next."
        ),
        diagram(RACE_LIGHT, RACE_DARK, off=RACE_OFF, cube=(2, "light", "")),
        taught_by="cube",
        zh=("拥有倍数骰", "倍数骰在你这边", "倍数骰在电脑那边"),
        en=(r"(?i)\bown(?:s|ing)? the cube\b", r"(?i)\bcube'?s? owner\b"),
    ),
    Term(
        "centred-cube",
        pgettext_lazy("glossary", "centred cube"),
        _(
            "Before anyone has doubled, the cube sits in the middle showing 64 (a die has no "
            "face 1) and the stakes are single; then either side may double before its roll."
        ),
        start(cube=(1, "", "")),
        taught_by="cube",
        zh=("倍数骰在中间", "中间的倍数骰"),
        en=(r"(?i)\bcent(?:red|ered) cube\b",),
    ),
    Term(
        "take-point",
        pgettext_lazy("glossary", "take point"),
        _(
            "The least chance of winning at which taking a double loses less than passing: "
            "25% with no gammons, a little less because the cube you own is worth something."
        ),
        diagram(RACE_LIGHT, RACE_DARK, off=RACE_OFF, cube=(1, "", "dark")),
        taught_by="cube",
        zh=("接受点",),
        en=(r"(?i)\btake points?\b",),
    ),
    Term(
        "too-good",
        pgettext_lazy("glossary", "too good to double"),
        _(
            "So far ahead, with real chances of a [[gammon]], that the other side would [[pass]] a "
            "double: playing on without doubling wins more on average."
        ),
        diagram(
            {6: 3, 5: 3, 4: 3, 3: 2, 2: 2},
            {1: 2, 12: 4, 17: 3, 19: 4},
            bar=(0, 2),
            off=(2, 0),
            cube=(1, "", ""),
        ),
        taught_by="cube",
        zh=("好到不必加倍", "太好"),
        en=(r"(?i)\btoo good\b",),
    ),
    Term(
        "money-game",
        pgettext_lazy("glossary", "money game"),
        _(
            "A game played with the doubling cube for its own stakes: the cube and a gammon "
            "or backgammon multiply what it is worth."
        ),
        start(cube=(1, "", "")),
        taught_by="cube",
        zh=("现金局",),
        en=(r"(?i)\bmoney games?\b",),
    ),
    Term(
        "jacoby",
        pgettext_lazy("glossary", "Jacoby rule"),
        _(
            "In a money game, a gammon or backgammon counts only as a single win while the "
            "cube is still in the middle."
        ),
        start(cube=(1, "", "")),
        zh=("雅各比",),
        en=(r"(?i)\bjacoby\b",),
    ),
    Term(
        "match",
        pgettext_lazy("glossary", "match"),
        _(
            "Games played one after another until one side reaches the agreed number of "
            "points; the score decides how each cube decision is judged."
        ),
        start(cube=(1, "", "")),
        zh=("比赛", "比分"),
        en=(r"(?i)\bmatch(?:es)?\b",),
    ),
    Term(
        "crawford",
        pgettext_lazy("glossary", "Crawford game"),
        _(
            "In a match, the one game right after a side first comes within one point of "
            "winning: nobody may double in it."
        ),
        start(),
        zh=("克劳福德",),
        en=(r"(?i)\bcrawford\b",),
    ),
    Term(
        "equity",
        pgettext_lazy("glossary", "equity"),
        _(
            "What a position is worth on average, in points of the stakes, gammons and "
            "backgammons counted: +1 is as good as a sure single win, −1 a sure single loss."
        ),
        start(),
        zh=("期望值",),
        en=(r"(?i)\bequity\b",),
    ),
    Term(
        "cubeless",
        pgettext_lazy("glossary", "cubeless"),
        _(
            "Equity that leaves the doubling cube out, as a single game has none; the single "
            "game's hints and reviews are cubeless."
        ),
        start(),
        zh=("不计倍数骰",),
        en=(r"(?i)\bcubeless\b",),
    ),
    Term(
        "cubeful",
        pgettext_lazy("glossary", "cubeful"),
        _(
            "Equity that counts what the doubling cube can still do (who may double, at what "
            "stakes), as in money games and matches."
        ),
        start(cube=(1, "", "")),
        zh=("计入倍数骰",),
        en=(r"(?i)\bcubeful\b",),
    ),
    Term(
        "error-classes",
        pgettext_lazy("glossary", "doubtful, bad, very bad"),
        filled(
            _(
                "How much [[equity]] a play gives away against the best one: %(doubtful)s or more "
                "is doubtful (?!), %(bad)s or more bad (?), %(very_bad)s or more very bad (??)."
            ),
            doubtful=LIMITS[ErrorClass.DOUBTFUL],
            bad=LIMITS[ErrorClass.BAD],
            very_bad=LIMITS[ErrorClass.VERY_BAD],
        ),
        start(),
        zh=("可疑", "失误", "大错"),
        en=(r"(?i)\bdoubtful\b", r"(?i)\bvery bad\b"),
    ),
    Term(
        "luck",
        pgettext_lazy("glossary", "luck"),
        _(
            "How much more (or less) [[equity]] a roll brought than the average roll in the same "
            "position; over many games each side's luck comes near zero."
        ),
        start(dice=(6, 6)),
        zh=("运气",),
        en=(r"(?i)\bluck(?:y)?\b",),
    ),
    Term(
        "pr",
        pgettext_lazy("glossary", "PR"),
        filled(
            _(
                "Performance rating: the [[equity]] given away per decision, times %(scale)s, "
                "leaving out the forced ones and those where every play is about as good; the "
                "lower, the better."
            ),
            scale=PR_SCALE,
        ),
        start(),
        zh=(r"\bPR\b",),
        en=(r"\bPR\b",),
    ),
)
