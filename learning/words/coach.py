"""The tutor's warning in words, in each of the site's languages, as a good
teacher gives it (issue 45): at most three lines first (what the decision
costs, on a beginner's scale: the chance to win it gives up, in percent of
the games from here; what the best play does better; the best play, drawn
on the board as it was before the move), the rest behind 详细.

Every line said against the play made is a difference the best play makes
(``ai_worker.versus``, the one that carries most of the gap first:
``ai_worker.attribution.weighed``); the play made's own reasons, its merits
among them, are never listed. Terms of the glossary are marked
(``learning.glossary.marks``): the page links each where it first appears.
Made after the warning is saved, on the ``hints`` queue
(``learning.tutor.word_warning``), never in the command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from ai_worker.attribution import weighed
from ai_worker.candidates import Candidate, candidate, compared
from ai_worker.context import CubeContext, mwc_of, points_of
from ai_worker.cube_advice import CubeAdvice
from ai_worker.features import position_features
from ai_worker.ranking import Ranked
from games.engine import Dice, Position
from games.words.notation import notation_words
from learning.glossary import marks
from learning.glossary.marks import marked, plain, term
from learning.words.cube import action_label, cube_hint_json, joined, proper_action, why
from learning.words.labels import ERROR_LABELS
from learning.words.reasons import CUBE_TERMS, PLAY_TERMS
from learning.words.unit import unit_kind
from learning.words.versus import render_versus

Words = dict[str, Any]
LEAD = 3  # the lines shown first; the rest behind 详细
# A change of a gammon or backgammon chance worth saying beside the win
# chance, in percentage points as shown.
SAY_CHANGE = 2
# Reasons that name no difference a player sees on the board.
NO_FEATURE = frozenset({"chances", "only_equity"})
# The gammon and backgammon chances said when they move, the best play's
# side first: (the chance, worse when it goes up).
CHANGES = (
    ("lose_gammon", True),
    ("win_gammon", False),
    ("lose_backgammon", True),
    ("win_backgammon", False),
)


@dataclass(frozen=True)
class Line:
    """One line of a warning: ``kind`` is ``cost``, ``why`` (a difference
    the best play makes: its reason, mover's numbering, in ``reason``),
    ``best`` or ``figure``."""

    kind: str
    text: str  # in the active language, terms marked
    reason: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Comparison:
    """The two plays compared once, language aside."""

    best: Candidate
    played: Candidate  # its ``versus``: what the best play does that it does not
    context: CubeContext | None = None  # the cube and score (None: a single game)

    @property
    def why(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.played.versus]


def compare(
    position: Position,
    dice: Dice,
    best: Ranked,
    played: Ranked,
    context: CubeContext | None = None,
) -> Comparison:
    """What the best play does that the play made does not, at the game's
    cube and score (``context``), the difference that carries most of the
    gap first (the review's order)."""
    before = position_features(position)
    top = candidate(position, best, before)
    made = compared(candidate(position, played, before), top, before, context)
    return Comparison(top, weighed(position, dice, made, top), context)


def in_each_language(make: Callable[[], Words]) -> dict[str, Words]:
    """``make()`` in every language of the site, by language code."""
    made = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            made[code] = make()
    return made


# ------------------------------------------------------------------ a play


def play_words(
    position: Position,
    dice: Dice,
    best: Ranked,
    played: Ranked,
    error: str,
    lost: float,
    *,
    context: CubeContext | None = None,
) -> dict[str, Words]:
    """The warning of a play, by language, ``lost`` in ``context``'s unit
    (``ai_worker.context``: cubeless in a single game)."""
    compared_once = compare(position, dice, best, played, context)
    return in_each_language(lambda: play_panel(compared_once, error, lost))


def play_panel(c: Comparison, error: str, lost: float) -> Words:
    """The panel's words in the active language: its title, at most ``LEAD``
    lines first, the rest, and what the arrows show (for a screen reader)."""
    lead, details = play_lines(c, error, lost)
    return {
        "title": title(error),
        "lead": [line.text for line in lead],
        "details": [line.text for line in details],
        "arrows": _("Arrows on the board as it was before your move show the best play: %(play)s.")
        % {"play": notation_words(c.best.notation)},
    }


def play_lines(c: Comparison, error: str, lost: float) -> tuple[list[Line], list[Line]]:
    """The lines shown first (what it costs, what the best play does better,
    the best play) and those behind 详细 (the other differences, the figure)."""
    why = c.why
    first = why[0] if why else None
    lead = [Line("cost", cost(c.best.probs, c.played.probs, lost, c.context))]
    if first is not None and first["code"] not in NO_FEATURE:
        lead.append(Line("why", reason_line(first), first))
        rest = why[1:]
    else:
        lead.append(Line("why", no_feature()))
        rest = why
    play = term("notation", notation_words(c.best.notation))
    lead.append(Line("best", _("The best play is %(play)s; the arrows draw it.") % {"play": play}))
    details = [Line("why", reason_line(r), r) for r in rest]
    details.append(Line("figure", figure(error, lost, c.context)))
    return lead, details


def reason_line(reason: Mapping[str, Any]) -> str:
    """One difference the best play makes, worded, its terms marked."""
    (text,) = render_versus([reason])
    return with_terms(text)


def no_feature() -> str:
    return marked(
        _(
            "No single thing on the board shows the difference: the [[engine]], looking "
            "a few rolls ahead, finds the best play's chances better (the figures are in "
            "the details)."
        )
    )


def cost(
    best: Mapping[str, float],
    played: Mapping[str, float],
    lost: float,
    context: CubeContext | None = None,
) -> str:
    """What the play costs on a beginner's scale. In a match: the chance to
    win the match it gives up (``lost`` in normalized money equivalents as
    match winning chances, ``ai_worker.context.mwc_of``). Else the chance to
    win the game (the two plays' chances as the engine has them, rounded)
    and a gammon or backgammon chance it moves; the points it gives up over
    100 games when no chance moves by a whole percent."""
    if context is not None and not context.match.is_money:
        drop = mwc_of(context, lost) * 100
        text = _("This play gives up about %(drop)s%% of your chances to win the [[match]].")
        return marked(text % {"drop": f"{drop:.1f}" if drop < 1 else f"{drop:.0f}"})
    won_best, won_played = _percent(best["win"]), _percent(played["win"])
    changes = [
        _change(key, _percent(best[key]), _percent(played[key]))
        for key, _worse in CHANGES
        if abs(_percent(best[key]) - _percent(played[key])) >= SAY_CHANGE
    ]
    if won_best - won_played >= 1:
        text = _(
            "This play gives up about %(drop)d%% of your chances to win the game: "
            "%(best)d%% with the best play, %(yours)d%% with yours."
        ) % {"drop": won_best - won_played, "best": won_best, "yours": won_played}
    elif changes:
        text = _("Your chances to win the game stay about the same (%(yours)d%%).") % {
            "yours": won_played
        }
    elif context is None:
        text = _(
            "Over 100 games from here, this play gives up about %(points)d points, "
            "a [[single-win]] counting 1 and a [[gammon]] 2."
        ) % {"points": max(1, round(lost * 100))}
    else:
        text = _(
            "Over 100 games from here, this play gives up about %(points)d points at the "
            "[[cube]]'s value now."
        ) % {"points": max(1, round(points_of(context, lost) * 100))}
    parts = [text, *changes[:1]]
    if context is not None:
        parts.append(_("(The game played out, the cube aside.)"))
    return marked(joined(parts))


def _change(key: str, best: int, yours: int) -> str:
    values = {"best": best, "yours": yours}
    texts = {
        "lose_gammon": _("Your chances of losing a [[gammon]] go from %(best)d%% to %(yours)d%%."),
        "win_gammon": _("Your chances of winning a [[gammon]] go from %(best)d%% to %(yours)d%%."),
        "lose_backgammon": _(
            "Your chances of losing a [[backgammon]] go from %(best)d%% to %(yours)d%%."
        ),
        "win_backgammon": _(
            "Your chances of winning a [[backgammon]] go from %(best)d%% to %(yours)d%%."
        ),
    }
    return texts[key] % values


def figure(error: str, lost: float, context: CubeContext | None = None) -> str:
    """The loss as the review counts it, with its unit (``ai_worker.context``)
    and class."""
    values = {"lost": f"{lost:.3f}", "label": term("error-classes", ERROR_LABELS[error])}
    kind = unit_kind(context)
    if kind == "match":
        text = _(
            "At this score, in normalized money equivalents (EMG: the chance to win the "
            "[[match]] as [[equity]]), your play gives away %(lost)s against the best "
            "play: %(label)s."
        )
    elif kind == "money":
        text = _(
            "In [[equity]] with the cube ([[cubeful]], per unit of the cube's value), your "
            "play gives away %(lost)s against the best play: %(label)s."
        )
    else:
        text = _(
            "In [[equity]] ([[cubeless]], in points a game), your play gives away %(lost)s "
            "against the best play: %(label)s."
        )
    return marked(text % values)


def title(error: str) -> str:
    return _("The tutor: %(label)s") % {"label": ERROR_LABELS[error]}


# ------------------------------------------------------------------ a cube action


def cube_words(advice: CubeAdvice, action: str, error: str, lost: float) -> dict[str, Words]:
    """The warning of a cube action, by language."""
    stored = advice.to_json()
    return in_each_language(lambda: cube_panel(stored, action, error, lost))


def cube_panel(stored: Mapping[str, Any], action: str, error: str, lost: float) -> Words:
    hint = cube_hint_json(stored)
    worded = {"action": action_label(action), "best": proper_action(stored)}
    points = max(1, round(lost * 100))
    lead = [
        marked(
            _(
                "%(action)s instead of %(best)s gives up about %(points)d points over 100 "
                "games from here, at the [[cube]]'s value now."
            )
            % {**worded, "points": points}
        ),
        with_terms(why(stored), cube=True),
        with_terms(hint["title"], cube=True),
    ]
    details = [with_terms(line, cube=True) for line in hint["lines"] if line != why(stored)]
    details.append(
        marked(
            _(
                "In [[equity]] (in units of the cube now), %(action)s gives away %(lost)s "
                "against %(best)s: %(label)s."
            )
            % {
                **worded,
                "lost": f"{lost:.3f}",
                "label": term("error-classes", ERROR_LABELS[error]),
            }
        )
    )
    return {"title": title(error), "lead": lead, "details": details, "arrows": ""}


# ------------------------------------------------------------------ words


def with_terms(text: str, *, cube: bool = False) -> str:
    """``text`` with the glossary's terms it names marked, each once, where
    it is first named (words already marked stay as they are); ``cube``:
    the cube's terms too."""
    return marks.with_terms(text, (*CUBE_TERMS, *PLAY_TERMS) if cube else PLAY_TERMS)


def _percent(chance: float) -> int:
    return int(round(chance * 100))


def unmarked(words: Words) -> Words:
    """``words`` with no marks (a test, a screen reader)."""
    return {
        k: [plain(v) for v in value] if isinstance(value, list) else plain(value)
        for k, value in words.items()
    }


def panel_strings() -> dict[str, Any]:
    """static/learning/tutor.js's own words, drawn with the page: the panel's
    title by error class (shown with the warning at once) and what it says
    until the warning's words come."""
    return {
        "titles": {error: title(error) for error in ERROR_LABELS if error != "none"},
        "wording": _("The tutor is writing down why…"),
    }
