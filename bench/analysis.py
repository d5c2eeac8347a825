"""How long the post-game review of a 30-turn game takes.

    .venv/bin/python bench/analysis.py [--turns 30] [--games 3]

Plays games between two Expert-less 1-ply players (deterministic seeds),
then times the review of their first ``--turns`` turns exactly as
``learning.review`` does it (Expert-ply ranking of every turn, the 21-roll
1-ply luck table, reasons for the top five plays). The yardstick, timed in
the same run on the same turns: bgsage's own ``BgBotAnalyzer.checker_play``
at the same ply (one N-ply move analysis per turn, nothing else). Target:
≤ 15 s per 30-turn game on this machine. No Django needed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_worker import analysis, evaluator, luck  # noqa: E402
from ai_worker.tiers import Tier, tier_spec  # noqa: E402
from games.engine import Dice, Position, legal_plays  # noqa: E402


def play_game(seed: int, turns: int) -> list[tuple[Position, Dice]]:
    """(position before, dice) from the mover's side for each turn, 1-ply play."""
    rng = random.Random(seed)
    position = Position.start()
    record: list[tuple[Position, Dice]] = []
    while len(record) < turns:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if not record and d1 == d2:
            continue
        dice = Dice(d1, d2)
        record.append((position, dice))
        ranked = evaluator.rank_plays(position, dice, 1)
        after = rng.choice(ranked[:2]).play.result if ranked else position
        if sum(after.me) == 0:
            break
        position = after.swapped()
    return record


def review(record: list[tuple[Position, Dice]], ply: int) -> float:
    started = time.perf_counter()
    for i, (position, dice) in enumerate(record):
        plays = legal_plays(position, dice)
        played = plays[0] if plays else None
        table = luck.best_equities(position, ply=1)
        analysis.analyse_turn(position, dice, played, ply=ply, luck_equities=table, opening=i == 0)
    return time.perf_counter() - started


def yardstick(record: list[tuple[Position, Dice]], ply: int) -> float:
    import bgsage

    analyzer = bgsage.BgBotAnalyzer(eval_level=f"{ply}ply", cubeful=False)
    started = time.perf_counter()
    for position, dice in record:
        analyzer.checker_play(evaluator.to_board26(position), dice.d1, dice.d2)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    ply = tier_spec(Tier.EXPERT).ply
    evaluator.warm_up(ply)
    ours, theirs = [], []
    for seed in range(args.games):
        record = play_game(seed, args.turns)
        yardstick(record[:2], ply)  # load bgsage's nets outside the timing
        ours.append(review(record, ply))
        theirs.append(yardstick(record, ply))
        print(
            f"game {seed}: {len(record)} turns, review {ours[-1]:.2f} s, "
            f"bgsage checker_play {theirs[-1]:.2f} s, ratio {ours[-1] / theirs[-1]:.2f}"
        )
    print(
        f"median review of a {args.turns}-turn game at {ply}-ply: "
        f"{statistics.median(ours):.2f} s (target <= 15 s); yardstick "
        f"{statistics.median(theirs):.2f} s; "
        f"ratio {statistics.median(ours) / statistics.median(theirs):.2f}"
        f"; cpus {os.cpu_count()}"
    )


if __name__ == "__main__":
    main()
