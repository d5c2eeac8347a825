"""Every answer checked by a bgsage rollout (issue 47).

The plays rolled out are the accepted answers and the first rejected play
of the review's ranking (and the second, when it is within ``CONTENDER`` of
the first: the rollout may put it first among the rejected). They are
rolled out cubeless in seeded batches (``ai_worker.rollout.
rollout_play_batches``: truncated1's settings, ``TRIALS`` games a
batch, every play of a batch on the same dice), looked at after
``LOOKS`` batches. A puzzle is confirmed when the rollout's best play is an
accepted answer and its margin over the best rejected play exceeds
``SE_TIMES`` standard errors of that margin (from the spread of the
batches' margins; at the first look ``FIRST_LOOK_SE_TIMES``); it is wrong
when the rollout's best is a rejected play with the same margin the other
way; else, after the last look, close.
Only confirmed puzzles are rated; the others are dropped or kept as close.

A cube puzzle is checked the same way on bgsage's cubeful rollout of the
cube decision (``rollout_cube_batches``): the margin of the right answer
over the wrong one, batch by batch.

No Django here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from ai_worker.rollout import Batches
from learning.puzzles.rules import accepted

# Games a batch: every play of a batch meets the same dice, so the margin
# between two plays is measured to a few thousandths from a few dozen games
# (seen: a margin's standard error 0.002-0.007 from 216 games, one play's
# own 0.01-0.04). Small batches, looked at often: the 2-core machine's
# hours went to more positions (the first candidates had 12).
TRIALS = 6
LOOKS = (3, 6, 12)  # batches: 18, 36 and 72 games a play at 6 a batch
SE_TIMES = 2.0
# At the first look the standard error rests on three batches' spread: a
# verdict there needs twice the margin (a later look, the usual two).
FIRST_LOOK_SE_TIMES = 4.0
CONTENDER = 0.02

CONFIRMED = "confirmed"
WRONG = "wrong"
CLOSE = "close"


def seed_of(base: int, key: str) -> int:
    """The rollout's seed for one candidate: the run's seed and its key."""
    digest = hashlib.blake2b(f"{base}|{key}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % 1_000_000_007


def rolled_plays(plays: Sequence[Sequence[Any]]) -> list[int]:
    """Indices (in the ranking, best first) of the plays to roll out."""
    equities = [float(p[2]) for p in plays]
    n = accepted(equities)
    chosen = list(range(n))
    if n < len(plays):
        chosen.append(n)
        if n + 1 < len(plays) and equities[n] - equities[n + 1] <= CONTENDER:
            chosen.append(n + 1)
    return chosen


def play_verdict(batches: Batches, is_accepted: Sequence[bool]) -> dict[str, Any]:
    """The verdict on rolled-out plays (columns of ``batches``), ``is_accepted``
    telling which are accepted answers."""
    means = [batches.mean(i) for i in range(len(is_accepted))]
    best = max(range(len(means)), key=lambda i: means[i])
    if is_accepted[best]:
        other = max((i for i, a in enumerate(is_accepted) if not a), key=lambda i: means[i])
    else:
        other = max((i for i, a in enumerate(is_accepted) if a), key=lambda i: means[i])
    margin, se = batches.margin(best, other)
    return _verdict(is_accepted[best], margin, se, means, batches, best, other)


def cube_verdict(batches: Batches, decision: str, right: str) -> dict[str, Any]:
    """The verdict on a cube decision (``decision`` "double" or "take"),
    ``right`` the review's answer; ``batches``' columns are ND, DT, DP (the
    doubler's). Two columns are compared: double (worth ``min(DT, DP)``)
    against no double (ND, which a too good position also keeps), or take
    (the taker's ``-DT``) against pass (``-DP``)."""
    rows = []
    for nd, dt, dp in batches.rows:
        rows.append((-dt, -dp) if decision == "take" else (min(dt, dp), nd))
    two = Batches(tuple(rows), batches.trials, batches.seed)
    right_column = 0 if right in ("double", "take") else 1
    means = [two.mean(0), two.mean(1)]
    best = 0 if means[0] >= means[1] else 1
    margin, se = two.margin(best, 1 - best)
    return _verdict(best == right_column, margin, se, means, two, best, 1 - best)


def _verdict(
    right: bool, margin: float, se: float, means: list[float], b: Batches, best: int, other: int
) -> dict[str, Any]:
    times = FIRST_LOOK_SE_TIMES if len(b.rows) <= LOOKS[0] else SE_TIMES
    decided = margin > times * se
    status = (CONFIRMED if right else WRONG) if decided else CLOSE
    return {
        "status": status,
        "best": best,
        "other": other,
        "margin": round(margin, 5),
        "se": round(se, 5),
        "means": [round(m, 5) for m in means],
        "batches": len(b.rows),
        "trials": b.trials * len(b.rows),
    }


def settled(verdict: dict[str, Any]) -> bool:
    """Whether more batches would not change the verdict's use."""
    return verdict["status"] in (CONFIRMED, WRONG)
