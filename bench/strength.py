"""Strength of each tier: cubeless money games against gnubg-nn 0-ply and pubeval.

    python bench/strength.py --pairs 2000 --jobs 2
    python bench/strength.py --tiers expert --opponents gnubg --pairs 200
    python bench/strength.py --cube 200      # the cube part only (bench/_cube.py)
    python bench/strength.py --money 300     # with the cube (bench/_money.py)
    python bench/strength.py --pr 100 --write  # each tier's PR, reviewed (bench/_pr.py)
    python bench/strength.py --pr 0 --write    # the same from the games already played

``--pr N``: each tier against itself and against the Expert, N more
duplicate pairs each (one pair of each pairing in turn), every play reviewed
at the review's depth and each game appended to bench/data/tier_pr_games.jsonl
as it ends; a later run continues after the file's last pair. Prints each
tier's PR with a 95% interval over every record of today's noise and review
and, with ``--write``, writes them to games/tier_pr.json, the figures the
lobby shows ("进阶 · 约 PR 12"). ``--pr 0 --write``: the figures from the file
alone.

``--money N``: each tier in money games with the cube (Jacoby, no beavers)
against bgsage 1-ply cubeful, N duplicate pairs, with the same dice played
cubeless beside them and bgsage against itself as the yardstick; the
tiers' cube-decision error rates are counted in those games.

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
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import _cube, _money  # noqa: E402
from bench._money import MatchResult, summarise  # noqa: E402
from games.tiers import TIERS, Tier  # noqa: E402

if TYPE_CHECKING:
    from bench._bots import Player


@dataclass
class Chunk:
    scores: list[float]
    decisions: int
    blunders: int
    lost: float


def make_player(name: str) -> Player:
    # gnubg-nn (the bench extra) is only needed here, not for --cube or --money.
    from bench import _bots

    opponents = {"gnubg": _bots.GnubgPlayer, "pubeval": _bots.PubevalPlayer}
    if name in opponents:
        return opponents[name]()
    return _bots.PolicyPlayer(Tier(name))


def run_chunk(a: str, b: str, first: int, count: int, seed: int) -> Chunk:
    from bench._bots import PolicyPlayer, pair_scores

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
    parser.add_argument(
        "--money", type=int, default=0, help="N pairs of money games with the cube (_money.py)"
    )
    parser.add_argument("--yardstick-pairs", type=int, default=50, help="bgsage against itself")
    parser.add_argument("--no-cubeless", action="store_true", help="skip the cubeless figure")
    parser.add_argument(
        "--pr",
        type=int,
        default=None,
        help="N more pairs a pairing, games reviewed and appended to --records (_pr.py);"
        " 0: none, only the figures from the file",
    )
    parser.add_argument("--versus", default="self,expert", help="--pr: the pairings")
    parser.add_argument("--records", default=None, help="--pr: the games' file (_pr.RECORDS)")
    parser.add_argument(
        "--write", action="store_true", help="--pr: write games/tier_pr.json from every record"
    )
    args = parser.parse_args(argv)
    if args.pr is not None:
        if args.records is None:
            from bench._pr import RECORDS

            args.records = str(RECORDS)
        return performance(args)
    if args.money:
        return money(args)
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


def money(args: argparse.Namespace) -> int:
    print(
        f"# strength with the cube: money games, Jacoby, no beavers, duplicate dice,"
        f" against bgsage 1-ply cubeful, seed {args.seed}",
        flush=True,
    )
    tiers = [t for t in args.tiers.split(",") if t]
    if not args.no_yardstick:
        tiers.insert(0, _money.YARDSTICK)
    for tier in tiers:
        pairs = args.yardstick_pairs if tier == _money.YARDSTICK else args.money
        if tier == Tier.EXPERT and args.expert_pairs:
            pairs = args.expert_pairs
        started = time.perf_counter()
        chunk = _money.run(tier, pairs, args.seed, args.jobs, not args.no_cubeless)
        _money.report(tier, chunk, time.perf_counter() - started)
    return 0


def performance(args: argparse.Namespace) -> int:
    from ai_worker.analysis import review_ply
    from bench import _pr

    load = os.getloadavg()
    path = Path(args.records).resolve()
    print(
        f"# PR by tier: cubeless money games, duplicate dice, reviewed at {review_ply()}-ply"
        f" as the site's review ({_pr.review_key()}), seed {args.seed}, load {load[0]:.2f};"
        f" games appended to {path}",
        flush=True,
    )
    tiers = [t for t in args.tiers.split(",") if t]
    pairings = []
    for tier in tiers:
        for versus in [v for v in args.versus.split(",") if v]:
            opponent = tier if versus == "self" else versus
            if tier != opponent or versus == "self":
                pairings.append((tier, opponent))
    started, played = time.perf_counter(), 0
    for record in _pr.play(path, pairings, args.pr, args.seed, args.jobs):
        played += 1
        sides = " and ".join(f"{s['tier']} {_pr.side_pr(s) or 0:.1f}" for s in record["sides"])
        print(
            f"  pair {record['pair']} game {record['order']} {'/'.join(record['pairing'])}:"
            f" PR {sides}; {time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    records = _pr.read_records(path)
    results = _pr.tallies(records)
    print(
        f"# {played} games played now; each tier over every record of today's noise and review"
        f" ({sum(_pr.current(r) for r in records)} of {len(records)} games in the file),"
        f" load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    for key in [t.value for t in Tier]:
        for against, tally in sorted(results.get(key, {}).items()):
            print(_pr.report_line(key, against, tally, 0), flush=True)
    if args.write:
        meta = {
            "review": _pr.review_key(),
            "review_ply": review_ply(),
            "records": str(path.relative_to(_pr.ROOT))
            if path.is_relative_to(_pr.ROOT)
            else str(path),
            "load": round(os.getloadavg()[0], 2),
        }
        overall = {key: by["all"] for key, by in results.items() if "all" in by}
        _pr.write(_pr.PR_FILE, overall, meta)
        print(f"# wrote {_pr.PR_FILE}", flush=True)
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
