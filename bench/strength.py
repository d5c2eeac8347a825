"""Strength of each tier: cubeless money games against gnubg-nn 0-ply and pubeval.

    python bench/strength.py --pairs 2000 --jobs 2
    python bench/strength.py --tiers expert --opponents gnubg --pairs 200
    python bench/strength.py --cube 200      # the cube part only (bench/_cube.py)

Every game is played on our engine, each side choosing among
``games.engine.legal_plays``; our side goes through ``ai_worker.policy``
exactly as the site does. Duplicate dice: each dice sequence is played twice
with the seats swapped, and a pair's two results are averaged, which removes
most of the luck. Prints points per game for the tier with a 95% interval,
and how often the tier chose a play losing more than 0.3 equity against its
own best (at the tier's ply), over decisions with more than one play.
The yardstick (gnubg-nn 0-ply against pubeval) is measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import _cube  # noqa: E402
from bench._bots import (  # noqa: E402
    GnubgPlayer,
    MatchResult,
    Player,
    PolicyPlayer,
    PubevalPlayer,
    pair_scores,
    summarise,
)
from games.tiers import TIERS, Tier  # noqa: E402

OPPONENTS = {"gnubg": GnubgPlayer, "pubeval": PubevalPlayer}


@dataclass
class Chunk:
    scores: list[float]
    decisions: int
    blunders: int
    lost: float


def make_player(name: str) -> Player:
    if name in OPPONENTS:
        return OPPONENTS[name]()
    return PolicyPlayer(Tier(name))


def run_chunk(a: str, b: str, first: int, count: int, seed: int) -> Chunk:
    player, opponent = make_player(a), make_player(b)
    scores = pair_scores(player, opponent, range(first, first + count), seed)
    if isinstance(player, PolicyPlayer):
        return Chunk(scores, player.decisions, player.blunders, player.lost)
    return Chunk(scores, 0, 0, 0.0)


def run_match(a: str, b: str, pairs: int, seed: int, jobs: int) -> tuple[MatchResult, Chunk]:
    size = -(-pairs // jobs)
    starts = list(range(0, pairs, size))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_chunk, a, b, s, min(size, pairs - s), seed) for s in starts]
        chunks = [f.result() for f in futures]
    total = Chunk([], 0, 0, 0.0)
    for chunk in chunks:
        total.scores += chunk.scores
        total.decisions += chunk.decisions
        total.blunders += chunk.blunders
        total.lost += chunk.lost
    return summarise(total.scores), total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tiers", default=",".join(t.value for t in Tier))
    parser.add_argument("--opponents", default="gnubg,pubeval")
    parser.add_argument("--pairs", type=int, default=2000, help="dice sequences (2 games each)")
    parser.add_argument("--expert-pairs", type=int, default=None, help="fewer pairs for Expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-yardstick", action="store_true")
    parser.add_argument("--cube", type=int, default=0, help="cube decisions on N positions")
    parser.add_argument("--cube-ref-ply", type=int, default=3)
    args = parser.parse_args(argv)
    if args.cube:
        tiers = [t for t in args.tiers.split(",") if t]
        cube_result = _cube.run(args.cube, args.seed, args.cube_ref_ply, args.jobs, tiers)
        _cube.report(cube_result, args.cube_ref_ply, tiers)
        return 0

    print(f"# strength: cubeless money games, duplicate dice, seed {args.seed}", flush=True)
    if not args.no_yardstick:
        report("gnubg-nn 0-ply", "pubeval", *run_timed("gnubg", "pubeval", args.pairs, args))
    for tier in [Tier(t) for t in args.tiers.split(",") if t]:
        pairs = args.pairs
        if tier is Tier.EXPERT and args.expert_pairs:
            pairs = args.expert_pairs
        for opponent in [o for o in args.opponents.split(",") if o]:
            result, chunk, seconds = run_timed(tier.value, opponent, pairs, args)
            report(tier.value, opponent, result, chunk, seconds)
    return 0


def run_timed(
    a: str, b: str, pairs: int, args: argparse.Namespace
) -> tuple[MatchResult, Chunk, float]:
    started = time.perf_counter()
    result, chunk = run_match(a, b, pairs, args.seed, args.jobs)
    return result, chunk, time.perf_counter() - started


def report(a: str, b: str, result: MatchResult, chunk: Chunk, seconds: float) -> None:
    line = (
        f"{a:>14} vs {OPPONENT_LABELS.get(b, b):<15} {result.ppg:+.3f} ±{result.half_width:.3f} ppg"
        f"  ({result.games} games, {seconds:.0f} s)"
    )
    if chunk.decisions:
        spec = TIERS[Tier(a)]
        line += (
            f"  sigma {spec.sigma:.3f} ply {spec.ply}; "
            f"loss>0.3: {100 * chunk.blunders / chunk.decisions:.2f}% of {chunk.decisions}"
            f" decisions, mean loss {chunk.lost / chunk.decisions:.4f}"
        )
    print(line, flush=True)


OPPONENT_LABELS = {"gnubg": "gnubg-nn 0-ply", "pubeval": "pubeval"}


if __name__ == "__main__":
    raise SystemExit(main())
