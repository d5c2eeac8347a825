"""The doubler's action at each depth against a cubeful rollout, on positions not clear-cut.

    .venv/bin/python bench/cube_rollout.py [--count 40] [--seed 7] [--jobs 2] [--trials 72]

Positions come from ``bench/_cube.sample_positions`` (the Advanced tier's
games, each with a money cube, an owned 2-cube or a 7-point match score).
Only those that are not clear-cut are kept: at bgsage 1-ply the double is
within ``CLOSE`` (0.08) of no double, or the take within it of the pass.
Each is rolled out cubefully by bgsage (``truncated1``: 72 trials, truncated
after 5 half-moves, 1-ply decisions and cube inside the trials; ``--trials``
for more), and the doubler's action (no double / double / too good) and the
taker's answer at bgsage 1-, 2- and 3-ply are compared with the rollout's.

bgsage's "1-ply" is the bare network (GNU Backgammon's 0-ply), so bgsage
3-ply is GNU Backgammon's 2-ply. Printed per depth: the share of positions
whose doubler's action matches the rollout's with its standard error
(sqrt(p(1 - p) / n)), the same for "doubles or not" and for the answer, the
share on the positions the rollout resolves (the gap between its no-double
and double equities more than twice their standard error), the seconds per
decision, and the load average. The yardstick is 1-ply, measured in the
same run: each deeper line prints its ratio to it.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_worker.cube import CubeAction, CubeEquities, evaluate_cube  # noqa: E402
from ai_worker.cube_advice import DOUBLE, advise  # noqa: E402
from ai_worker.rollout import rollout_cube  # noqa: E402
from bench import _cube  # noqa: E402
from games.engine import Xgid  # noqa: E402

PLIES = (1, 2, 3)
GNUBG = Path("/usr/games/gnubg")
PROPER = re.compile(r"Proper cube action: ([^(\n]+)")
REVIEW_PLY = 3  # learning.review.game.review_ply(): the site's review judges at 3-ply


@dataclass
class Row:
    """One position: the rollout's actions and each depth's."""

    rollout: tuple[CubeAction, CubeAction]
    resolved: bool
    by_ply: dict[int, tuple[CubeAction, CubeAction]] = field(default_factory=dict)
    site: CubeAction = CubeAction.NO_DOUBLE  # the review's verdict (learning.review.cube.judge)
    seconds: dict[int | str, float] = field(default_factory=dict)


def _actions(e: CubeEquities) -> tuple[CubeAction, CubeAction]:
    return e.best_double_action(), e.best_answer()


def judge(samples: list[_cube.Sample], trials: int) -> list[Row]:
    rows = []
    for sample in samples:
        started = time.perf_counter()
        rolled = rollout_cube(sample.position, sample.context, trials=trials, threads=1)
        seconds: dict[int | str, float] = {"rollout": time.perf_counter() - started}
        e = rolled.equities
        gap = abs(min(e.double_take, e.double_pass) - e.no_double)
        se = max(rolled.no_double_se, rolled.double_take_se)
        row = Row(_actions(e), gap > 2 * se, seconds=seconds)
        for ply in PLIES:
            started = time.perf_counter()
            row.by_ply[ply] = _actions(evaluate_cube(sample.position, sample.context, ply))
            row.seconds[ply] = time.perf_counter() - started
        # As learning.review.cube.judge: every decision at the review's ply.
        row.site = advise(sample.position, sample.context, DOUBLE, REVIEW_PLY).best
        rows.append(row)
    return rows


def gnubg_actions(samples: list[_cube.Sample]) -> tuple[list[CubeAction], float]:
    """GNU Backgammon 2-ply's doubler's action on each sample (an outside
    program: ``set xgid`` then ``hint``, its cube decisions at 2 plies)."""
    xgids = [
        Xgid(s.position, s.context.mover, None, s.context.cube, s.context.match) for s in samples
    ]
    script = "set evaluation cubedecision evaluation plies 2\n" + "".join(
        f"set xgid {xgid}\nhint\n" for xgid in xgids
    )
    started = time.perf_counter()
    done = subprocess.run(
        [str(GNUBG), "-t", "-q"], input=script, capture_output=True, text=True, timeout=3600
    )
    found = PROPER.findall(done.stdout)
    if len(found) != len(samples):
        raise SystemExit(f"gnubg answered {len(found)} cube hints for {len(samples)} positions")
    actions = []
    for text in found:
        first = text.strip().lower().replace("redouble", "double").split(",")[0]
        if first.startswith("too good"):
            actions.append(CubeAction.TOO_GOOD)
        elif first.startswith("no double"):
            actions.append(CubeAction.NO_DOUBLE)
        else:
            actions.append(CubeAction.DOUBLE)
    return actions, time.perf_counter() - started


def close(e: CubeEquities) -> bool:
    """Not clear-cut: the double within ``CLOSE`` of no double, or the take of the pass."""
    doubled = min(e.double_take, e.double_pass)
    return abs(doubled - e.no_double) < CLOSE or abs(e.double_take - e.double_pass) < CLOSE


CLOSE = 0.08


def not_clear_cut(count: int, seed: int) -> list[_cube.Sample]:
    found: list[_cube.Sample] = []
    batch = count * 2
    while len(found) < count:
        samples = _cube.sample_positions(batch, seed)
        found = [s for s in samples if close(evaluate_cube(s.position, s.context, 1))]
        batch *= 2
    return found[:count]


def share(hits: int, n: int) -> str:
    if not n:
        return "n/a"
    p = hits / n
    return f"{100 * p:5.1f}% ± {100 * math.sqrt(p * (1 - p) / n):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--trials", type=int, default=72)
    args = parser.parse_args()
    started = time.perf_counter()
    samples = not_clear_cut(args.count, args.seed)
    size = -(-len(samples) // args.jobs)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        chunks = [samples[i : i + size] for i in range(0, len(samples), size)]
        parts = pool.map(judge, chunks, [args.trials] * len(chunks))
        rows = [row for part in parts for row in part]
    n, resolved = len(rows), [r for r in rows if r.resolved]
    print(
        f"# doubler's action against a cubeful rollout ({args.trials} trials, truncated1), "
        f"{n} positions not clear-cut, {len(resolved)} resolved by the rollout; seed {args.seed}"
    )
    yardstick = 0.0
    for ply in PLIES:
        exact = sum(r.by_ply[ply][0] == r.rollout[0] for r in rows)
        doubles = sum(
            (r.by_ply[ply][0] is CubeAction.DOUBLE) == (r.rollout[0] is CubeAction.DOUBLE)
            for r in rows
        )
        answer = sum(r.by_ply[ply][1] == r.rollout[1] for r in rows)
        on_resolved = sum(r.by_ply[ply][0] == r.rollout[0] for r in resolved)
        ratio = exact / yardstick if yardstick else 1.0
        yardstick = yardstick or float(exact)
        seconds = sum(r.seconds[ply] for r in rows) / n
        print(
            f"bgsage {ply}-ply (GNU Backgammon {ply - 1}-ply): action {share(exact, n)}; "
            f"doubles or not {share(doubles, n)}; answer {share(answer, n)}; "
            f"resolved {share(on_resolved, len(resolved))}; {ratio:.2f}× the 1-ply yardstick; "
            f"{seconds:.2f} s a decision"
        )
    gnubg, gnubg_seconds = gnubg_actions(samples)
    site_hits = sum(r.site == r.rollout[0] for r in rows)
    gnubg_hits = sum(g == r.rollout[0] for g, r in zip(gnubg, rows, strict=True))
    print(
        f"the site's review ({REVIEW_PLY}-ply: learning.review.cube): "
        f"action {share(site_hits, n)}; "
        f"GNU Backgammon 2-ply: {share(gnubg_hits, n)} ({gnubg_seconds:.1f} s in all)"
    )
    disputed = [(g, r) for g, r in zip(gnubg, rows, strict=True) if g != r.site]
    print(
        f"disputed (the site and GNU Backgammon 2-ply differ): {len(disputed)}; the rollout "
        f"sides with the site {sum(r.site == r.rollout[0] for _g, r in disputed)}, with GNU "
        f"Backgammon {sum(g == r.rollout[0] for g, r in disputed)}"
    )
    rollout_seconds = sum(r.seconds["rollout"] for r in rows) / n
    print(
        f"rollout {rollout_seconds:.1f} s a position; {time.perf_counter() - started:.0f} s "
        f"in all; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
