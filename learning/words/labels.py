"""Translated names for the analysis codes shown on the pages."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

RATING_LABELS: dict[str, Promise] = {
    "supernatural": pgettext_lazy("rating", "Supernatural"),
    "world_class": pgettext_lazy("rating", "World class"),
    "expert": pgettext_lazy("rating", "Expert"),
    "advanced": pgettext_lazy("rating", "Advanced"),
    "intermediate": pgettext_lazy("rating", "Intermediate"),
    "casual": pgettext_lazy("rating", "Casual player"),
    "beginner": pgettext_lazy("rating", "Beginner"),
    "awful": pgettext_lazy("rating", "Awful"),
}

ERROR_LABELS: dict[str, Promise] = {
    "none": _("Good"),
    "doubtful": _("Doubtful"),
    "bad": _("Bad"),
    "very_bad": _("Very bad"),
}

SIDE_LABELS: dict[str, Promise] = {"light": _("You"), "dark": _("Computer")}


def side_names(game: Any) -> dict[str, str]:
    """Each side of ``game`` (a ``games.Game``) as its pages name it: an
    imported game's players by the file's names, "you" only beside the side
    the person named as theirs; a game played here "You" and "Computer"."""
    names = game.file_players
    if names is None:
        return {side: str(label) for side, label in SIDE_LABELS.items()}
    if game.is_study:
        return {"light": names[0], "dark": names[1]}
    # Translators: an imported player the person said was them.
    yours = str(_("%(name)s (you)")) % {"name": names[0]}
    return {"light": yours, "dark": names[1]}


def millipoints(rate: float | None) -> str:
    """An error rate as gnubg prints it: equity per decision × 1000."""
    return "—" if rate is None else f"{rate * 1000:.1f}"


# eXtreme Gammon's PR bands (ai_worker.grading.PR_BANDS).
PR_LABELS: dict[str, Promise] = {
    "world_champion": pgettext_lazy("PR band", "World champion"),
    "world_class": pgettext_lazy("PR band", "World class"),
    "expert": pgettext_lazy("PR band", "Expert"),
    "advanced": pgettext_lazy("PR band", "Advanced"),
    "intermediate": pgettext_lazy("PR band", "Intermediate"),
    "casual": pgettext_lazy("PR band", "Casual player"),
    "beginner": pgettext_lazy("PR band", "Beginner"),
    "novice": pgettext_lazy("PR band", "Novice"),
}


def pr_text(pr: float | None) -> str:
    """A PR as players write it, one decimal."""
    return "—" if pr is None else f"{pr:.1f}"
