"""Grading decisions as GNU Backgammon does: error classes and rating bands."""

from __future__ import annotations

import enum
from collections.abc import Iterable


class ErrorClass(enum.StrEnum):
    """GNU Backgammon's marks for a decision, by the equity it gave away."""

    NONE = "none"
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very_bad"

    @property
    def mark(self) -> str:
        return _MARKS[self]


_MARKS = {
    ErrorClass.NONE: "",
    ErrorClass.DOUBTFUL: "?!",
    ErrorClass.BAD: "?",
    ErrorClass.VERY_BAD: "??",
}

# Checked from the largest: a loss of exactly a threshold gets that class.
ERROR_THRESHOLDS: tuple[tuple[float, ErrorClass], ...] = (
    (0.12, ErrorClass.VERY_BAD),
    (0.06, ErrorClass.BAD),
    (0.03, ErrorClass.DOUBTFUL),
)

# Rounding guard: equities come from float32 nets, a loss printed as 0.030
# must not fall below the 0.03 line by a hair.
_EPSILON = 1e-9


def classify(equity_lost: float) -> ErrorClass:
    """The class of a decision that lost ``equity_lost`` against the best play.

    >>> classify(0.029).value, classify(0.03).value, classify(0.06).mark, classify(0.12).mark
    ('none', 'doubtful', '?', '??')
    """
    for threshold, error in ERROR_THRESHOLDS:
        if equity_lost + _EPSILON >= threshold:
            return error
    return ErrorClass.NONE


# ---------------------------------------------------------------- rating bands

# gnubg's rating bands for the error rate per unforced decision (equity per
# move, cubeless here): below each threshold the player earns the label.
RATING_BANDS: tuple[tuple[float, str], ...] = (
    (0.002, "supernatural"),
    (0.005, "world_class"),
    (0.008, "expert"),
    (0.012, "advanced"),
    (0.018, "intermediate"),
    (0.026, "casual"),
    (0.035, "beginner"),
)
WORST_BAND = "awful"


def rating_band(error_rate: float) -> str:
    """The gnubg-like band for an error rate per decision.

    >>> rating_band(0.001), rating_band(0.01), rating_band(0.2)
    ('supernatural', 'advanced', 'awful')
    """
    for threshold, band in RATING_BANDS:
        if error_rate < threshold:
            return band
    return WORST_BAND


def error_rate(losses: Iterable[tuple[float, bool]]) -> float | None:
    """Mean equity lost per decision, forced moves excluded.

    ``losses`` holds (equity_lost, forced) pairs; ``None`` when no decision was made.
    """
    unforced = [loss for loss, forced in losses if not forced]
    if not unforced:
        return None
    return sum(unforced) / len(unforced)
