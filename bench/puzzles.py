"""The shipped puzzle bank (issue 47): what it holds, what the rollout
confirmed, and whether its ratings mean anything.

    .venv/bin/python bench/puzzles.py [--bank learning/puzzles/data/bank.json.gz]
        [--attempts 10000] [--per-tier 4] [--seed 1] [--work var/puzzles]

Printed:

1. the puzzles by theme and by phase (rated ones; the close ones apart);
2. the rollout's verdict on every rated puzzle, recomputed from the bank's
   stored figures (``learning.puzzles.verify``'s rule: the best play an
   accepted answer, its margin over the best rejected play more than two
   standard errors, four at the first look), as a share; and, when the work
   files are there, every candidate rolled out: confirmed, close, wrong;
3. a simulation: ``--per-tier`` solvers of each of the five tiers, each
   starting at 1500 ± 500, draw unanswered puzzles near their rating and
   answer each as the tier plays (``ai_worker.policy.pick`` on the tier's
   own ranking, ``ai_worker.cube.with_noise`` on its own cube equities,
   a seed per solver and puzzle), every first attempt a Glicko-2 game
   (``learning.puzzles.glicko.play``) from the bank's starting ratings.
   Then the solvers' ratings beside their tiers' measured PR (the order
   should be the PR's), and over deciles of the puzzle's rating before
   each attempt, the solve rate the ratings predicted against the one
   seen, and the mean of the gaps (the target: at most 0.05).

The yardstick of the simulation's solve rates is the tiers' PR
(``games/tier_pr.json``), measured elsewhere; the seconds and the load
average are printed beside.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games.engine import Dice, Position  # noqa: E402
from games.tiers import TIERS, tier_pr, tier_spec  # noqa: E402
from learning.puzzles import glicko, themes  # noqa: E402
from learning.puzzles.bank import BANK_FILE, read_bank  # noqa: E402
from learning.puzzles.seeding import START_DEVIATION  # noqa: E402
from learning.puzzles.verify import FIRST_LOOK_SE_TIMES, LOOKS, SE_TIMES  # noqa: E402


def counts(puzzles: list[dict[str, Any]]) -> None:
    rated = [p for p in puzzles if p["status"] == "confirmed"]
    close = [p for p in puzzles if p["status"] == "close"]
    print(f"puzzles: {len(rated)} rated, {len(close)} close (never rated)")
    by_phase = Counter(p["phase"] for p in rated)
    print("by phase:  " + ", ".join(f"{ph} {by_phase.get(ph, 0)}" for ph in themes.PHASES))
    tags = Counter(t for p in rated for t in p["tags"])
    checker = {t: tags.get(t, 0) for t in themes.CHECKER_THEMES}
    print("checker themes (at least 40 each):")
    for t, n in checker.items():
        print(f"  {t:<18} {n:>5}{'' if n >= 40 else '   < 40'}")
    print("cube themes:")
    for t in themes.CUBE_THEMES:
        print(f"  {t:<18} {tags.get(t, 0):>5}")
    print("structures (the mover's / the other side's):")
    for s in themes.STRUCTURES:
        print(f"  {s:<18} {tags.get(f'mine:{s}', 0):>5} / {tags.get(f'theirs:{s}', 0)}")


def confirmed(p: dict[str, Any]) -> bool:
    r = p["rollout"]
    times = FIRST_LOOK_SE_TIMES if r["batches"] <= LOOKS[0] else SE_TIMES
    return bool(r["margin"] > times * r["se"])


def confirmations(puzzles: list[dict[str, Any]], workdir: Path) -> None:
    rated = [p for p in puzzles if p["status"] == "confirmed"]
    ok = sum(confirmed(p) for p in rated)
    share = 100 * ok / len(rated) if rated else 0.0
    print(f"rated puzzles the rollout confirms: {ok}/{len(rated)} = {share:.1f}%")
    rolled = workdir / "rolled.jsonl"
    if rolled.exists():
        from learning.puzzles.work import by_key

        fates = Counter(r["verdict"]["status"] for r in by_key(rolled).values())
        total = sum(fates.values())
        print(
            f"every candidate rolled out: {total}: "
            + ", ".join(f"{k} {v} ({100 * v / total:.1f}%)" for k, v in sorted(fates.items()))
        )


class Solver:
    def __init__(self, tier: str, n: int) -> None:
        self.tier, self.name = tier, f"{tier}#{n}"
        self.rating = glicko.Rating(1500.0, 500.0, 0.09)
        self.done: set[str] = set()


def answer_of(p: dict[str, Any], tier: str, key: str, cache: dict[Any, Any]) -> bool:
    """Whether ``tier`` answers ``p`` rightly, as it would play (seed ``key``)."""
    spec = tier_spec(tier)
    if p["kind"] == "cube":
        from ai_worker.cube import evaluate_cube, with_noise
        from learning.board.input import read_context

        ck = (p["key"], spec.cube_depth)
        if ck not in cache:
            context = read_context(p["context"], "light")
            cache[ck] = evaluate_cube(Position.from_position_id(p["pos"]), context, spec.cube_depth)
        noisy = with_noise(cache[ck], spec, key)
        action = noisy.best_double_action() if p["question"] == "double" else noisy.best_answer()
        return ("no_double" if str(action) == "too_good" else str(action)) in p["answers"]
    from ai_worker.evaluator import rank_plays
    from ai_worker.policy import pick

    dice = Dice(*p["dice"])
    ck = (p["key"], spec.ply)
    if ck not in cache:
        cache[ck] = rank_plays(Position.from_position_id(p["pos"]), dice, spec.ply)
    chosen = pick(cache[ck], spec, key, p["pos"], dice)
    return chosen.play.result.position_id() in set(p["answers"])


def simulate(puzzles: list[dict[str, Any]], attempts: int, per_tier: int, seed: int) -> None:
    rng = random.Random(seed)
    rated = [p for p in puzzles if p["status"] == "confirmed"]
    ratings = {
        p["key"]: glicko.Rating(float(p.get("rating", 1500.0)), START_DEVIATION, 0.09)
        for p in rated
    }
    solvers = [Solver(t.value, n) for t in TIERS for n in range(per_tier)]
    cache: dict[Any, Any] = {}
    seen: list[tuple[float, float, bool]] = []  # (puzzle rating before, predicted, solved)
    started = time.perf_counter()
    while len(seen) < attempts:
        progressed = False
        for s in solvers:
            p = _draw(s, rated, ratings, rng)
            if p is None:
                continue
            progressed = True
            before = ratings[p["key"]]
            predicted = glicko.expected(s.rating, before)
            solved = answer_of(p, s.tier, f"sim:{seed}:{s.name}:{p['key']}", cache)
            s.rating, ratings[p["key"]] = glicko.play(s.rating, before, solved)
            s.done.add(p["key"])
            seen.append((before.rating, predicted, solved))
            if len(seen) >= attempts:
                break
        if not progressed:
            break
    seconds = time.perf_counter() - started
    print(f"simulation: {len(seen)} first attempts by {len(solvers)} solvers ({seconds:.0f} s)")
    _solvers_against_pr(solvers)
    _calibration(seen)


def _draw(
    s: Solver, rated: list[dict[str, Any]], ratings: dict[str, Any], rng: random.Random
) -> Any:
    """An unanswered puzzle near the solver's rating (the site's windows)."""
    from learning.puzzles.picking import WINDOWS

    left = [p for p in rated if p["key"] not in s.done]
    if not left:
        return None
    for window in WINDOWS:
        near = [p for p in left if abs(ratings[p["key"]].rating - s.rating.rating) <= window]
        if near:
            return rng.choice(near)
    return rng.choice(left)


def _solvers_against_pr(solvers: list[Solver]) -> None:
    pr = tier_pr()
    print(f"  {'solver':<16}{'rating':>8}{'±':>6}{'tier PR':>9}")
    for s in sorted(solvers, key=lambda s: -s.rating.rating):
        measured = pr.get(s.tier, {}).get("pr")
        print(
            f"  {s.name:<16}{s.rating.rating:>8.0f}{s.rating.deviation:>6.0f}"
            f"{'' if measured is None else f'{measured:>9.1f}'}"
        )
    by_tier: dict[str, list[float]] = {}
    for s in solvers:
        by_tier.setdefault(s.tier, []).append(s.rating.rating)
    means = {t: sum(v) / len(v) for t, v in by_tier.items()}
    by_rating = sorted(means, key=lambda t: -means[t])
    by_pr = sorted((t for t in means if t in pr), key=lambda t: float(pr[t]["pr"]))
    print(f"  tiers by mean rating: {', '.join(by_rating)}")
    same = "same order" if by_rating == by_pr else "ORDER DIFFERS"
    print(f"  tiers by PR:          {', '.join(by_pr)}  ({same})")


def _calibration(seen: list[tuple[float, float, bool]]) -> None:
    ordered = sorted(seen, key=lambda x: x[0])
    n = len(ordered)
    gaps = []
    print(f"  {'puzzle rating decile':<24}{'attempts':>9}{'predicted':>11}{'seen':>8}{'gap':>8}")
    for d in range(10):
        part = ordered[d * n // 10 : (d + 1) * n // 10]
        if not part:
            continue
        predicted = sum(x[1] for x in part) / len(part)
        solved = sum(x[2] for x in part) / len(part)
        gaps.append(abs(predicted - solved))
        span = f"{part[0][0]:.0f}-{part[-1][0]:.0f}"
        print(
            f"  {span:<24}{len(part):>9}{predicted:>11.3f}{solved:>8.3f}{predicted - solved:>+8.3f}"
        )
    mean = sum(gaps) / len(gaps) if gaps else float("nan")
    print(f"  mean gap over the deciles: {mean:.3f} (target at most 0.05)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bank", type=Path, default=BANK_FILE)
    # Four solvers a tier, 500 first attempts each: the Intermediate and the
    # Casual tier solve the bank's puzzles about 55 points apart (the bank's
    # fit), and one solver's rating stays ± 76 however many it answers; with
    # two a tier (5,000 attempts) seeds 1, 2 and 3 all put them the wrong way
    # round, by 4 to 24 points (bench/README.md, "The shipped bank").
    parser.add_argument("--attempts", type=int, default=10000)
    parser.add_argument("--per-tier", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path("var/puzzles"))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    puzzles = read_bank(args.bank)["puzzles"]
    counts(puzzles)
    confirmations(puzzles, args.work)
    if args.attempts:
        simulate(puzzles, args.attempts, args.per_tier, args.seed)
    print(f"{time.perf_counter() - started:.0f} s, load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
