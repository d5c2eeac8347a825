"""Grading decisions: GNU Backgammon's error classes and rating bands, and
eXtreme Gammon's performance rating (PR) with its bands."""

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


# ---------------------------------------------------------------- PR (eXtreme Gammon)

# PR on eXtreme Gammon's scale: the mean equity lost per decision counted,
# times 500, the decisions counted as GNU Backgammon counts them (issue 44):
# every checker play with a choice (two or more distinct plays), right or
# wrong, a forced one not; every double, take and pass, and a no-double
# where doubling would have cost less than 0.16 (the review's ``trivial``,
# learning.review.cube). The losses are the review's, in the unit XG and GNU
# Backgammon print (ai_worker.context): cubeless in a single game, cubeful
# money equity per unit of the cube in a money game, normalized money
# equivalents (EMG) at a match score; so PR = 500 × the error total /
# (unforced plays + counted cube decisions), GNU Backgammon's "Error rate
# mEMG" ÷ 2. (XG also leaves out plays whose moves are all about equal; with
# the cube, a roll whose plays all lose to the same pass next turn would then
# not count where GNU Backgammon counts it: bench/match_truth.py found the
# site counting 1,346 plays to its 1,378, and a money PR 1.55 from its on
# average instead of 1.23.)
PR_SCALE = 500

# XG's PR bands, from the best: at or below each bound the player earns the name.
PR_BANDS: tuple[tuple[float, str], ...] = (
    (2.5, "world_champion"),
    (5.0, "world_class"),
    (7.5, "expert"),
    (12.5, "advanced"),
    (17.5, "intermediate"),
    (22.5, "casual"),
    (30.0, "beginner"),
)
PR_WORST_BAND = "novice"


def performance_rating(losses: Iterable[tuple[float, bool]]) -> float | None:
    """PR over (equity_lost, counted) pairs: 500 × the mean loss of the counted
    ones; None when none counts.

    >>> performance_rating([(0.02, True), (0.0, True), (0.5, False)])
    5.0
    """
    counted = [loss for loss, counts in losses if counts]
    if not counted:
        return None
    return PR_SCALE * sum(counted) / len(counted)


def pr_band(pr: float) -> str:
    """XG's name for a PR.

    >>> pr_band(2.5), pr_band(12.0), pr_band(40.0)
    ('world_champion', 'advanced', 'novice')
    """
    for bound, band in PR_BANDS:
        if pr <= bound + _EPSILON:
            return band
    return PR_WORST_BAND
