"""Disputed checker plays: the site's error class and GNU Backgammon 2-ply's against a rollout.

    .venv/bin/python bench/checker_rollout.py [--mat bench/data/gnubg_selfplay.mat]
        [--limit N] [--jobs 1] [--trials 72]

The decisions are those of GNU Backgammon's self-play games
(``bench/teaching.decisions``: every play with a choice, both sides its
network with evaluation noise, cubeless). Each is judged twice: by the
site's review (``ai_worker.analysis.analyse_turn`` at ``review_ply()``,
its five best and the play made valued alike) and by GNU Backgammon 2-ply
(Debian's ``/usr/games/gnubg -t``, an outside program: ``hint``, cubeless,
``bench/gnubg_review.gnubg_hints``), each loss graded with the same
thresholds (``ai_worker.grading.classify``). Where the two classes differ,
the play made, the site's best and GNU Backgammon's best are rolled out by
bgsage as the site's 精确分析 does (``ai_worker.rollout.rollout_plays``:
truncated1, 72 trials, cubeless), and the rollout's class is the loss of the
play made against the best of them.

The rollout decides a dispute when its loss is more than twice its standard
error from every class threshold between the two classes (the loss's
standard error taken as
sqrt(se_best² + se_played²), which overstates it: the plays are rolled out
on the same dice); the others are counted apart as undecided. Printed: the
decisions, how many are disputed, and on the disputed ones how often each
side's class is the rollout's (all, and decided only), with the share's
standard error; the site's count as a ratio of GNU Backgammon's (the
yardstick, measured in the same run); the seconds and the load average.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_worker.analysis import analyse_turn, review_ply  # noqa: E402
from ai_worker.evaluator import warm_up  # noqa: E402
from ai_worker.grading import ERROR_THRESHOLDS, ErrorClass, classify  # noqa: E402
from ai_worker.rollout import ROLLOUT_TRIALS, rollout_plays  # noqa: E402
from bench.gnubg_review import gnubg_hints, gnubg_play  # noqa: E402
from bench.teaching import STORED, decisions  # noqa: E402
from games.engine import Dice, Play, Position, legal_plays  # noqa: E402

GNUBG_PLIES = 2
Case = tuple[Position, Dice, Play]


@dataclass(frozen=True)
class Disputed:
    """One decision the site and GNU Backgammon class differently."""

    case: Case
    site: ErrorClass
    gnubg: ErrorClass
    best: list[Play]  # the site's best, GNU Backgammon's best


@dataclass(frozen=True)
class Verdict:
    """The rollout's loss for the play made, its standard error and class."""

    lost: float
    se: float
    error: ErrorClass

    def decides(self, a: ErrorClass, b: ErrorClass) -> bool:
        """Whether the rollout tells classes ``a`` and ``b`` apart: no threshold
        between them within two standard errors of its loss."""
        low, high = sorted((ORDER.index(a), ORDER.index(b)))
        between = [t for t, c in ERROR_THRESHOLDS if low < ORDER.index(c) <= high]
        return all(abs(self.lost - t) > 2 * self.se for t in between)


ORDER = list(ErrorClass)  # none, doubtful, bad, very bad


def roll_out(disputed: list[Disputed], trials: int) -> list[tuple[Verdict, float]]:
    """Each disputed decision's rollout verdict and the seconds it took."""
    verdicts = []
    for d in disputed:
        position, dice, played = d.case
        plays = {p.result.position_id(): p for p in [played, *d.best]}
        started = time.perf_counter()
        rolled = rollout_plays(position, dice, list(plays.values()), trials=trials)
        seconds = time.perf_counter() - started
        made = next(r for r in rolled if r.play.result == played.result)
        lost = max(0.0, rolled[0].equity - made.equity)
        se = 0.0 if rolled[0] is made else math.hypot(rolled[0].se, made.se)
        verdicts.append((Verdict(lost, se, classify(lost)), seconds))
    return verdicts


def share(hits: int, n: int) -> str:
    if not n:
        return "n/a"
    p = hits / n
    return f"{hits}/{n} = {100 * p:.1f}% ± {100 * math.sqrt(p * (1 - p) / n):.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mat", type=Path, default=STORED)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--trials", type=int, default=ROLLOUT_TRIALS)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    cases = decisions(args.mat.read_text())
    if args.limit:
        cases = cases[: args.limit]
    ply = review_ply()
    warm_up(ply)

    site_started = time.perf_counter()
    reports = [analyse_turn(p, d, played, ply=ply) for p, d, played in cases]
    site_seconds = time.perf_counter() - site_started
    blocks, gnubg_seconds = gnubg_hints(cases, GNUBG_PLIES)

    disputed: list[Disputed] = []
    unlisted = 0
    for case, report, block in zip(cases, reports, blocks, strict=True):
        position, dice, played = case
        listed = [(gnubg_play(position, dice, n), lost) for n, lost in block]
        theirs = next((lost for p, lost in listed if p and p.result == played.result), None)
        gnubg_best = listed[0][0] if listed else None
        if theirs is None or gnubg_best is None:
            unlisted += 1
            continue
        site, gnubg = report.error, classify(theirs)
        if site is gnubg:
            continue
        best = report.alternatives[0].result_id
        site_best = next(p for p in legal_plays(position, dice) if p.result.position_id() == best)
        disputed.append(Disputed(case, site, gnubg, [site_best, gnubg_best]))

    rollout_started = time.perf_counter()
    size = max(1, -(-len(disputed) // args.jobs))
    chunks = [disputed[i : i + size] for i in range(0, len(disputed), size)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        parts = pool.map(roll_out, chunks, [args.trials] * len(chunks))
        verdicts = [v for part in parts for v in part]
    rollout_wall = time.perf_counter() - rollout_started

    compared = len(cases) - unlisted
    print(
        f"# {len(cases)} decisions of GNU Backgammon self-play ({args.mat.name}); "
        f"{compared} classed by both (the site's review at {ply}-ply, GNU Backgammon "
        f"{GNUBG_PLIES}-ply), {unlisted} not listed by GNU Backgammon"
    )
    print(
        f"disputed (the two classes differ): {share(len(disputed), compared)}; each rolled out "
        f"({args.trials} trials, truncated1, cubeless: the play made, the site's best and GNU "
        f"Backgammon's best)"
    )
    decided = [
        (d, v) for d, (v, _s) in zip(disputed, verdicts, strict=True) if v.decides(d.site, d.gnubg)
    ]
    site_all = sum(d.site is v.error for d, (v, _s) in zip(disputed, verdicts, strict=True))
    gnubg_all = sum(d.gnubg is v.error for d, (v, _s) in zip(disputed, verdicts, strict=True))
    site_dec = sum(d.site is v.error for d, v in decided)
    gnubg_dec = sum(d.gnubg is v.error for d, v in decided)
    n = len(disputed)
    print(
        f"the rollout's class is the site's: {share(site_all, n)}; GNU Backgammon's: "
        f"{share(gnubg_all, n)}; neither: {n - site_all - gnubg_all}"
    )
    print(
        f"decided by the rollout (its loss more than 2 SE from the thresholds between the two "
        f"classes): {len(decided)} of {n}, {n - len(decided)} undecided; on the decided: the "
        f"site's {share(site_dec, len(decided))}, GNU Backgammon's {share(gnubg_dec, len(decided))}"
    )
    ratio = f"{site_all / gnubg_all:.2f}" if gnubg_all else "n/a"
    print(f"the site's matches as a ratio of GNU Backgammon's (the yardstick): {ratio}")
    ses = [v.se for v, _s in verdicts]
    mean_se = sum(ses) / len(ses) if ses else 0.0
    for d, (v, _s) in zip(disputed, verdicts, strict=True):
        position, dice, played = d.case
        print(
            f"  {position.position_id()} {dice.d1}-{dice.d2} {played.notation()}: site "
            f"{d.site.value}, GNU Backgammon {d.gnubg.value}; rollout loss {v.lost:.3f} ± "
            f"{v.se:.3f} {v.error.value}{'' if v.decides(d.site, d.gnubg) else ' (undecided)'}"
        )
    rollout_seconds = sum(s for _v, s in verdicts) / len(verdicts) if verdicts else 0.0
    print(
        f"seconds: the site's review {site_seconds:.1f} ({site_seconds / len(cases):.2f} a "
        f"decision), GNU Backgammon {gnubg_seconds:.1f}, rollouts {rollout_wall:.1f} "
        f"({rollout_seconds:.1f} a decision, mean loss SE {mean_se:.3f}, --jobs {args.jobs}); "
        f"{time.perf_counter() - started:.0f} s in all; load average {os.getloadavg()[0]:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
