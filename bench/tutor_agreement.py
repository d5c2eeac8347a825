"""Does the tutor's class of a play equal the review's?

    .venv/bin/python bench/tutor_agreement.py [--decisions 500] [--deeper 60] [--seed 1]

Plays games between two 1-ply players with the Beginner tier's noise (so
their plays hold errors of every class), and for each decision with a
choice (two plays or more) compares:

- the tutor's class: the plays ranked at the Expert's depth before the play
  is known (``learning.tutor``: ``rank_plays(position, dice, 2)``, no
  ``keep``), the play made searched at that depth too if the ranking's
  filter left it at 1-ply (``evaluator.at_depth``), its loss against the
  best, ``classify``;
- the review's class: ``ai_worker.analysis.analyse_turn`` as the review
  runs it (the Expert's depth with the play made searched at that depth,
  the non-trivial decisions again one ply deeper), without the luck table,
  which does not change the class.

The review's deeper search costs seconds a decision on this machine, so it
runs on the first ``--deeper`` decisions only. Prints the share of decisions
where the two agree, the same against the review's class at the Expert's
depth alone (all ``--decisions``) (what the tutor can promise: the
review's deeper search is the one reason it may differ, and the review says
so), the confusion table, and the load. The yardstick is the review's own
time per decision, measured in the same run. No Django needed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_worker import analysis, evaluator  # noqa: E402
from ai_worker.grading import classify  # noqa: E402
from games.engine import Dice, Play, Position, legal_plays  # noqa: E402
from games.tiers import Tier, tier_spec  # noqa: E402

EXPERT = tier_spec(Tier.EXPERT).ply
REVIEW = EXPERT + 1
SIGMA = tier_spec(Tier.BEGINNER).sigma


def decisions(count: int, seed: int) -> list[tuple[Position, Dice, Play]]:
    """(position, dice, play made) from the mover's side, plays with a choice only."""
    rng = random.Random(seed)
    found: list[tuple[Position, Dice, Play]] = []
    while len(found) < count:
        position = Position.start()
        for _turn in range(200):
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            if not plays:
                position = position.swapped()
                continue
            ranked = evaluator.rank_plays(position, dice, 1)
            play = max(ranked, key=lambda r: r.equity + rng.gauss(0.0, SIGMA)).play
            if len(plays) > 1 and len(found) < count:
                found.append((position, dice, play))
            after = play.result
            if sum(after.me) == 0:
                break
            position = after.swapped()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=500)
    parser.add_argument("--deeper", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sample = decisions(args.decisions, args.seed)
    pairs: Counter[tuple[str, str]] = Counter()
    same_depth = 0
    tutor_s = review_s = 0.0
    for i, (position, dice, played) in enumerate(sample):
        began = time.perf_counter()
        ranked = evaluator.rank_plays(position, dice, EXPERT)
        mine = evaluator.at_depth(
            position, next(r for r in ranked if r.play.result == played.result), EXPERT
        )
        tutor = classify(max(0.0, ranked[0].equity - mine.equity)).value
        tutor_s += time.perf_counter() - began
        began = time.perf_counter()
        shallow = analysis.analyse_turn(position, dice, played, ply=EXPERT)
        review_s += time.perf_counter() - began
        same_depth += tutor == shallow.error.value
        if i < args.deeper:
            report = analysis.analyse_turn(position, dice, played, ply=REVIEW)
            pairs[(tutor, report.error.value)] += 1
    n = len(sample)
    agree = sum(v for (t, r), v in pairs.items() if t == r)
    deep = sum(pairs.values())
    print(f"decisions with a choice: {n} (seed {args.seed}), load {os.getloadavg()}")
    print(
        f"tutor = review's class at the Expert's depth ({EXPERT}-ply, the play kept): "
        f"{same_depth}/{n} = {same_depth / n:.1%}"
    )
    print(
        f"tutor (Expert {EXPERT}-ply, ranked before the play) = review's final class "
        f"(its {REVIEW}-ply search of every decision), first {deep}: "
        f"{agree}/{deep} = {agree / max(1, deep):.1%}"
    )
    print("tutor class -> review class: count")
    for (t, r), v in sorted(pairs.items()):
        print(f"  {t:>9} -> {r:<9} {v}")
    print(
        f"time per decision: tutor {tutor_s / n * 1000:.0f} ms, review at the Expert's "
        f"depth (yardstick) {review_s / n * 1000:.0f} ms, ratio {tutor_s / review_s:.2f}"
    )


if __name__ == "__main__":
    main()
