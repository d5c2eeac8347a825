"""练习题's words: the themes' names, the page's strings, the verdict."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.words.play import board_names
from learning.glossary.marks import term
from learning.puzzles import themes
from learning.puzzles.attempts import Answered
from learning.puzzles.models import PuzzleAttempt
from learning.puzzles.verdicts import checker_words, cube_words_for, puzzle_unit, rollout_words
from learning.review.phases import PHASE_LABELS
from learning.words.cube import action_label
from learning.words.unit import unit_name

PHASE_NAMES: dict[str, Promise] = {
    themes.OPENING: PHASE_LABELS["opening"],
    themes.MIDDLE: PHASE_LABELS["middle"],
    themes.CONTACT_ENDGAME: pgettext_lazy("game phase", "Contact endgame"),
    themes.RACE: PHASE_LABELS["race"],
    themes.BEAROFF: PHASE_LABELS["bearoff"],
}

ANSWER_NAMES: dict[str, Promise] = {
    themes.HIT_OR_BUILD: gettext_lazy("Hit or build"),
    themes.SPLIT_OR_BUILD: gettext_lazy("Split or build"),
    themes.SLOT: gettext_lazy("Slot a point"),
    themes.ESCAPE: gettext_lazy("Escape a back checker"),
    themes.ANCHOR: gettext_lazy("Make an anchor"),
    themes.CLEAR: gettext_lazy("Clear a point"),
    themes.BEAR_IN: gettext_lazy("Bear in safely"),
    themes.BEAR_OFF_CONTACT: gettext_lazy("Bear off against contact"),
    themes.MATCH_SCORE: gettext_lazy("At a match score"),
}

STRUCTURE_NAMES: dict[str, Promise] = {
    themes.HOLDING: gettext_lazy("Holding game"),
    themes.BLITZ: gettext_lazy("Blitz"),
    themes.PRIMING: gettext_lazy("Priming game"),
    themes.BACK_GAME: gettext_lazy("Back game"),
    themes.RACE_GAME: pgettext_lazy("game phase", "Race"),
}


def theme_label(theme: str) -> str:
    """A theme's name in the active language (a structure with its side)."""
    if theme in ANSWER_NAMES:
        return str(ANSWER_NAMES[theme])
    if theme in themes.CUBE_THEMES:
        return action_label(theme)
    side, _colon, name = theme.partition(":")
    if side == "phase":
        return phase_label(name)
    if name in STRUCTURE_NAMES:
        words = _("You: %(plan)s") if side == "mine" else _("Opponent: %(plan)s")
        return words % {"plan": STRUCTURE_NAMES[name]}
    return theme


def phase_label(phase: str) -> str:
    return str(PHASE_NAMES.get(phase, phase))


# The glossary's entry for a theme, where it has one (learning.glossary).
TERMS = {
    themes.HIT_OR_BUILD: "hit",
    themes.SPLIT_OR_BUILD: "split",
    themes.SLOT: "slot",
    themes.ESCAPE: "back-checkers",
    themes.ANCHOR: "anchor",
    themes.BEAR_IN: "home-board",
    themes.BEAR_OFF_CONTACT: "bear-off",
    themes.DOUBLE: "double",
    themes.TAKE: "take",
    themes.PASS: "pass",
    themes.TOO_GOOD: "too-good",
    themes.MATCH_SCORE: "match",
    f"mine:{themes.PRIMING}": "prime",
    f"theirs:{themes.PRIMING}": "prime",
    f"mine:{themes.RACE_GAME}": "race",
    f"theirs:{themes.RACE_GAME}": "race",
}


def tag_labels(tags: str) -> list[dict[str, str]]:
    """The themes' names, each marked as its glossary term where it has one."""
    found = []
    racing = " phase:race " in tags or " phase:bearoff " in tags
    for t in tags.split():
        if t.startswith("phase:") or (racing and t.endswith(f":{themes.RACE_GAME}")):
            continue  # a race's sides race: the phase says it
        label = theme_label(t)
        found.append(
            {"key": t, "label": label, "marked": term(TERMS[t], label) if t in TERMS else label}
        )
    return found


def theme_choices() -> list[tuple[str, str]]:
    keys = [*themes.CHECKER_THEMES, *themes.CUBE_THEMES]
    keys += [f"{side}:{s}" for side in ("mine", "theirs") for s in themes.STRUCTURES]
    return [(k, theme_label(k)) for k in keys]


def phase_choices() -> list[tuple[str, str]]:
    return [(k, str(v)) for k, v in PHASE_NAMES.items()]


def NO_ACCOUNT() -> str:  # noqa: N802  (a message, read when needed)
    return _("Open the puzzles page first: it makes your account.")


def MALFORMED() -> str:  # noqa: N802
    return _("The answer could not be read: send a play's steps or a cube action.")


def NOT_AN_ERROR() -> str:  # noqa: N802
    return _("That turn is not one of this game's errors to try again.")


def page_strings() -> dict[str, str]:
    return {
        **board_names(),
        "task": _("Your roll: %(dice)s. Find the best play."),
        "task_double": _("You are on roll before your dice: double, or roll on?"),
        "task_take": _("The computer doubles: take, or pass?"),
        "steps_left": _("Dice still to play: %(dice)s"),
        "right": _("Right: %(play)s is an accepted answer."),
        "wrong": _("Not this time: %(play)s."),
        "wrong_lost": _("Not this time: %(play)s loses %(lost)s (%(unit)s) against the best play."),
        "wrong_lost_cube": _(
            "Not this time: %(play)s loses %(lost)s (%(unit)s) against the right answer."
        ),
        "best_play": _("The best play: %(play)s"),
        "your_play": _("Your play: %(play)s"),
        "rating_change": _("Your puzzle rating: %(before)s → %(after)s (%(diff)s)."),
        "unrated": _("This answer does not change your rating."),
        "puzzle_rating": _("This puzzle's rating: %(rating)s."),
        "next": _("Press N or Next for another puzzle."),
    }


def attempt_json(a: PuzzleAttempt) -> dict[str, Any]:
    return {
        "solved": a.solved,
        "answer": a.answer,
        "rating_before": round(a.rating_before),
        "rating_after": round(a.rating_after),
    }


def verdict_json(done: Answered) -> dict[str, Any]:
    """The verdict: right or not, the review's words, the rollout's figures,
    the rating change (only the first answer changes it)."""
    a, puzzle = done.attempt, done.puzzle
    body: dict[str, Any] = {
        "solved": a.solved,
        "answer": a.answer,
        "lost": None if a.lost is None else round(a.lost, 3),
        "rated": a.rated,
        "rating_before": round(a.rating_before),
        "rating_after": round(a.rating_after),
        "diff": round(a.rating_after) - round(a.rating_before),
        "puzzle_rating": round(puzzle.rating),
        "rollout": rollout_words(puzzle),
        "unit": unit_name(puzzle_unit(puzzle)),
    }
    if done.play is not None:
        body.update(checker_words(puzzle, done.play))
    else:
        body.update(cube_words_for(puzzle, a.answer))
    return body
