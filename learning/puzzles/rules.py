"""What makes a position a puzzle, in one place (issue 47).

A checker puzzle is a position and a roll whose accepted answers, every
play within ``ACCEPT`` of the best, are ahead of every other play by at
least ``MIN_GAP``: the first rejected play (the best play more than
``ACCEPT`` behind) loses at least ``MIN_GAP``. A cube puzzle is a double
/ no double or take / pass whose wrong answer costs at least ``MIN_GAP``.
The equities are the review's (``ai_worker.analysis.review_ply``), in the
review's unit; the rollout then confirms them (``learning.puzzles.verify``).

No Django here.
"""

from __future__ import annotations

from collections.abc import Sequence

ACCEPT = 0.01  # a play this close to the best is as right as the best
MIN_GAP = 0.04  # the first rejected play is at least this far behind
RETRY_MIN = 0.04  # 再试一次: a game's errors losing more than this
RETRY_MOST = 5  # the biggest ones, at most this many
_EPSILON = 1e-9


def accepted(equities: Sequence[float]) -> int:
    """How many of ``equities`` (best first) are accepted answers.

    >>> accepted([0.30, 0.295, 0.25]), accepted([0.1])
    (2, 1)
    """
    best = equities[0]
    return sum(1 for e in equities if best - e <= ACCEPT + _EPSILON)


def gap(equities: Sequence[float]) -> float | None:
    """The first rejected play's loss (``None`` when every play is accepted).

    >>> round(gap([0.30, 0.295, 0.25]), 3), gap([0.3, 0.3])
    (0.05, None)
    """
    n = accepted(equities)
    return None if n >= len(equities) else equities[0] - equities[n]


def is_puzzle(equities: Sequence[float]) -> bool:
    """Whether a ranking (best first) makes a checker puzzle.

    >>> is_puzzle([0.30, 0.295, 0.25]), is_puzzle([0.30, 0.27, 0.1])
    (True, False)
    """
    found = gap(equities)
    return found is not None and found + _EPSILON >= MIN_GAP
