"""Each tier's PR (``bench/strength.py --pr``): games on duplicate dice, reviewed
as the site reviews them.

A tier plays itself and the Expert, each dice sequence twice with the seats
swapped (the Expert's games give the Expert's PR too). Every play of both
sides goes through ``ai_worker.policy`` as on the site (seed ``bench:<game>``)
and is judged by ``ai_worker.analysis.analyse_turn`` at the review's own depth
(``review_ply()``, every decision): the same ``equity_lost`` and ``spread``
the site's review stores for the turn. The review's luck table is left out (it
does not change a loss), which is what makes this the fastest review equal to
the site's. PR: 500 × the tier's total loss over its non-obvious decisions
(``grading.obvious_play``) / their number; the 95% interval is a bootstrap
over the games (a game's decisions are not independent of each other).
Cubeless money games: the checker play's PR.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ai_worker.analysis import analyse_turn, review_ply
from ai_worker.grading import obvious_play
from ai_worker.policy import choose_play
from bench._money import dice_stream
from games.engine import Position, Side, outcome
from games.tiers import TIERS, Tier

PR_FILE = Path(__file__).resolve().parent.parent / "games" / "tier_pr.json"


@dataclass
class Tally:
    """One tier's reviewed decisions, game by game: (loss summed, decisions counted)."""

    games: list[tuple[float, int]] = field(default_factory=list)
    points: list[float] = field(default_factory=list)  # per game, against the opponent

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.points += other.points

    @property
    def decisions(self) -> int:
        return sum(n for _lost, n in self.games)

    def pr(self) -> float | None:
        n = self.decisions
        return 500 * sum(lost for lost, _n in self.games) / n if n else None

    def interval(self, resamples: int = 2000, seed: int = 7) -> tuple[float, float] | None:
        """A 95% bootstrap interval over the games."""
        if len(self.games) < 2:
            return None
        rng = random.Random(seed)
        values = []
        for _ in range(resamples):
            pick = [self.games[rng.randrange(len(self.games))] for _ in self.games]
            n = sum(c for _l, c in pick)
            if n:
                values.append(500 * sum(lost for lost, _c in pick) / n)
        values.sort()
        return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def play_reviewed(tiers: Sequence[Tier], seed: int, game: int) -> tuple[list[Tally], float]:
    """One game, ``tiers[0]`` first; each seat's reviewed decisions, and seat 0's points."""
    roll = dice_stream(seed)
    position, seat = Position.start(), 0
    ply = review_ply()
    lost, counted = [0.0, 0.0], [0, 0]
    for _ in range(2000):
        dice = roll()
        played = choose_play(position, dice, tiers[seat], f"bench:{game}")
        if played is not None:
            report = analyse_turn(position, dice, played, ply=ply)
            if not obvious_play(report.forced, report.spread):
                lost[seat] += report.equity_lost
                counted[seat] += 1
            after = played.result
            result = outcome(after, Side.LIGHT)
            if result is not None:
                points = float(result.points if seat == 0 else -result.points)
                tallies = [
                    Tally([(lost[i], counted[i])], [p]) for i, p in enumerate((points, -points))
                ]
                return tallies, points
            position = after
        position, seat = position.swapped(), 1 - seat
    raise RuntimeError("game did not finish")


def run_chunk(a: str, b: str, first: int, count: int, seed: int) -> dict[str, Tally]:
    """Pairs ``first``.. of ``a`` against ``b``: each side's tally (one when a is b)."""
    out: dict[str, Tally] = {a: Tally(), b: Tally()}
    for k in range(first, first + count):
        dice_seed = seed * 1_000_003 + k
        for order, number in (((a, b), 2 * k), ((b, a), 2 * k + 1)):
            tallies, _points = play_reviewed([Tier(order[0]), Tier(order[1])], dice_seed, number)
            out[order[0]].add(tallies[0])
            out[order[1]].add(tallies[1])  # the same tally when a tier plays itself
    return out


def run(a: str, b: str, pairs: int, seed: int, jobs: int) -> dict[str, Tally]:
    size = -(-pairs // jobs) if pairs else 0
    starts = list(range(0, pairs, size)) if size else []
    total: dict[str, Tally] = {a: Tally(), b: Tally()}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_chunk, a, b, s, min(size, pairs - s), seed) for s in starts]
        for future in futures:
            for key, tally in future.result().items():
                total[key].add(tally)
    return total


def report_line(name: str, against: str, tally: Tally, seconds: float) -> str:
    pr, ci = tally.pr(), tally.interval()
    spread = f" (95% {ci[0]:.1f}–{ci[1]:.1f})" if ci else ""
    figure = "—" if pr is None else f"{pr:.1f}"
    return (
        f"{name:>13} vs {against:<13} PR {figure}{spread}  {len(tally.games)} games,"
        f" {tally.decisions} decisions, {seconds:.0f} s"
    )


def write(path: Path, results: dict[str, Tally], meta: dict[str, object]) -> None:
    """The figures the lobby reads (``games.tiers.tier_pr``)."""
    tiers = {}
    for key, tally in results.items():
        pr, ci = tally.pr(), tally.interval()
        if pr is None:
            continue
        tiers[key] = {
            "pr": round(pr, 1),
            "low": round(ci[0], 1) if ci else None,
            "high": round(ci[1], 1) if ci else None,
            "games": len(tally.games),
            "decisions": tally.decisions,
            "sigma": TIERS[Tier(key)].sigma,
        }
    body = {
        **meta,
        "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "tiers": tiers,
    }
    path.write_text(json.dumps(body, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
