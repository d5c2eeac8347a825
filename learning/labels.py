"""Translated names for the analysis codes shown on the pages."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

RATING_LABELS: dict[str, Promise] = {
    "supernatural": _("Supernatural"),
    "world_class": _("World class"),
    "expert": _("Expert"),
    "advanced": _("Advanced"),
    "intermediate": _("Intermediate"),
    "casual": _("Casual player"),
    "beginner": _("Beginner"),
    "awful": _("Awful"),
}

ERROR_LABELS: dict[str, Promise] = {
    "none": _("Good"),
    "doubtful": _("Doubtful"),
    "bad": _("Bad"),
    "very_bad": _("Very bad"),
}

SIDE_LABELS: dict[str, Promise] = {"light": _("You"), "dark": _("Computer")}


def millipoints(rate: float | None) -> str:
    """An error rate as gnubg prints it: equity per decision × 1000."""
    return "—" if rate is None else f"{rate * 1000:.1f}"
