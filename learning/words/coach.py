"""The tutor's warning in words, in each of the site's languages: what the
decision costs, why (the review's reasons contrasting it with the best play),
and the best play or the right cube action. Made after the warning is saved,
on the ``hints`` queue (``learning.tutor.word_warning``), never in the command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from ai_worker.attribution import weighed
from ai_worker.candidates import candidate, compared
from ai_worker.cube_advice import CubeAdvice
from ai_worker.features import position_features
from ai_worker.ranking import Ranked
from games.engine import Dice, Position
from learning.review.replay import candidate_json
from learning.words.cube import action_label, cube_hint_json, proper_action
from learning.words.labels import ERROR_LABELS

Words = dict[str, Any]


def panel_strings() -> dict[str, Any]:
    """static/learning/tutor.js's own words, drawn with the page: the panel's
    title by error class (shown with the warning at once) and what it says
    until the warning's words come."""
    return {
        "titles": {
            error: _("The tutor: %(label)s") % {"label": label}
            for error, label in ERROR_LABELS.items()
            if error != "none"
        },
        "wording": _("The tutor is writing down why…"),
    }


def in_each_language(make: Callable[[], Words]) -> dict[str, Words]:
    """``make()`` in every language of the site, by language code."""
    made = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            made[code] = make()
    return made


def play_words(
    position: Position, dice: Dice, best: Ranked, played: Ranked, error: str, lost: float
) -> dict[str, Words]:
    """The warning of a play, by language: the two plays compared once, worded in each."""
    before = position_features(position)
    top = candidate(position, best, before)
    # The review's order: the difference that carries most of the gap first.
    mine = weighed(position, dice, compared(candidate(position, played, before), top, before), top)
    stored_best, stored_mine = top.to_json(), mine.to_json()

    def worded() -> Words:
        shown_best = candidate_json(stored_best, "light")
        shown_mine = candidate_json(stored_mine, "light")
        return {
            "title": _("The tutor: %(label)s") % {"label": ERROR_LABELS[error]},
            "cost": _(
                "Your play %(played)s gives away %(lost)s in equity against %(best)s (%(label)s)."
            )
            % {
                "played": shown_mine["notation"],
                "lost": f"{lost:.3f}",
                "best": shown_best["notation"],
                "label": ERROR_LABELS[error],
            },
            "reasons": shown_mine["reasons"],
            "best_line": _("The best play: %(play)s.") % {"play": shown_best["notation"]},
            "arrows": _("Arrows on the board show the best play: %(play)s.")
            % {"play": shown_best["notation"]},
        }

    return in_each_language(worded)


def cube_words(advice: CubeAdvice, action: str, error: str, lost: float) -> dict[str, Words]:
    """The warning of a cube action, by language."""
    stored = advice.to_json()

    def worded() -> Words:
        hint = cube_hint_json(stored)
        return {
            "title": _("The tutor: %(label)s") % {"label": ERROR_LABELS[error]},
            "cost": _(
                "%(action)s gives away %(lost)s in equity (in units of the cube now) against "
                "the right action, %(best)s (%(label)s)."
            )
            % {
                "action": action_label(action),
                "lost": f"{lost:.3f}",
                "best": proper_action(stored),
                "label": ERROR_LABELS[error],
            },
            "reasons": hint["lines"],
            "best_line": hint["title"],
            "arrows": "",
        }

    return in_each_language(worded)
