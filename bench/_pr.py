"""Each tier's PR (``bench/strength.py --pr``): games on duplicate dice, reviewed
as the site reviews them, accumulated in a file across runs.

A tier plays itself and the Expert, each dice sequence twice with the seats
swapped (the Expert's games give the Expert's PR too). Every play of both
sides goes through ``ai_worker.policy`` as on the site (seed ``bench:<game>``)
and is judged by ``ai_worker.analysis.analyse_turn`` at the review's own depth
(``review_ply()``, every decision): the same ``equity_lost`` and ``spread``
the site's review stores for the turn. The review's luck table is left out (it
does not change a loss), which is what makes this the fastest review equal to
the site's. PR: 500 × the tier's total loss over its decisions with a choice
(GNU Backgammon's: every play with a choice) / their number; the 95% interval is a bootstrap
over the games (a game's decisions are not independent of each other).
Cubeless money games: the checker play's PR.

A game with its review costs about 13 s of a core, so the ≥ 200 games a tier
take many runs: each finished game is appended as one JSON line to
``RECORDS`` (bench/data/tier_pr_games.jsonl) with the review's key
(``review_key``), the seed, the pair and each side's tier, noise
(``TierSpec.noise``) and reviewed decisions with a choice (loss, phase, turn,
position, dice, and the review's reasons why the best play was better). A
run continues each pairing after the last pair the file holds for today's
noises and review (new dice); the figures (``tallies``, ``--write``) are
computed from every record whose review key and both sides' noises are
today's, and records of another noise or review are kept but never mixed in.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from ai_worker.analysis import analyse_turn, review_ply
from ai_worker.policy import choose_play
from bench._money import dice_stream
from games.engine import Position, Side, outcome
from games.tiers import TIERS, Tier
from learning.review.phases import phase_of

ROOT = Path(__file__).resolve().parent.parent
PR_FILE = ROOT / "games" / "tier_pr.json"
RECORDS = ROOT / "bench" / "data" / "tier_pr_games.jsonl"
# Raise it when what the review calls a decision's loss, or which decisions
# count, changes (analyse_turn's equity_lost, which plays count): the
# records of before are then kept apart. The depth and bgsage's version are
# part of the key by themselves.
REVIEW_REVISION = 2  # 2: every play with a choice counts, as GNU Backgammon counts (issue 44)


def review_key() -> str:
    """What the stored losses were judged by: records of another key are not mixed."""
    try:
        engine = metadata.version("bgsage")
    except metadata.PackageNotFoundError:
        engine = "?"
    return f"{review_ply()}-ply r{REVIEW_REVISION} bgsage {engine}"


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


def play_reviewed(
    tiers: Sequence[Tier], seed: int, game: int
) -> tuple[list[list[dict[str, Any]]], float]:
    """One game, ``tiers[0]`` first: each seat's reviewed decisions with a choice
    (``decision`` dicts), and seat 0's points."""
    roll = dice_stream(seed)
    position, seat = Position.start(), 0
    ply = review_ply()
    decisions: list[list[dict[str, Any]]] = [[], []]
    for number in range(1, 2001):
        dice = roll()
        played = choose_play(position, dice, tiers[seat], f"bench:{game}")
        if played is not None:
            report = analyse_turn(position, dice, played, ply=ply)
            if not report.forced:
                chosen = report.played_candidate
                decisions[seat].append(
                    {
                        "loss": round(report.equity_lost, 5),
                        "phase": phase_of(position, number),
                        "turn": number,
                        "pos": position.position_id(),
                        "dice": [dice.d1, dice.d2],
                        "why": [r.code for r in chosen.versus] if chosen else [],
                    }
                )
            after = played.result
            result = outcome(after, Side.LIGHT)
            if result is not None:
                return decisions, float(result.points if seat == 0 else -result.points)
            position = after
        position, seat = position.swapped(), 1 - seat
    raise RuntimeError("game did not finish")


def game_record(a: str, b: str, seed: int, pair: int, order: int) -> dict[str, Any]:
    """Game ``order`` (0: ``a`` first, 1: seats swapped) of pair ``pair``, reviewed, as
    the line ``RECORDS`` keeps."""
    first, second = (a, b) if order == 0 else (b, a)
    dice_seed = seed * 1_000_003 + pair
    decisions, points = play_reviewed([Tier(first), Tier(second)], dice_seed, 2 * pair + order)
    return {
        "review": review_key(),
        "seed": seed,
        "pairing": [a, b],
        "pair": pair,
        "order": order,
        "points": points,  # the first side's
        "sides": [
            {"tier": tier, "noise": TIERS[Tier(tier)].noise, "decisions": made}
            for tier, made in zip((first, second), decisions, strict=True)
        ],
        "commit": _commit(),
        "at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every whole line of ``path`` (a run cut off mid-line leaves one that is skipped)."""
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            print(f"# {path.name}: a line cut short, skipped", file=sys.stderr)
    return records


def current(record: dict[str, Any]) -> bool:
    """Whether a record was judged by today's review and played at today's noises."""
    return record.get("review") == review_key() and all(
        side["tier"] in {t.value for t in Tier} and side["noise"] == TIERS[Tier(side["tier"])].noise
        for side in record["sides"]
    )


def next_pair(records: Iterable[dict[str, Any]], a: str, b: str, seed: int) -> int:
    """The first pair of ``a`` against ``b`` at ``seed`` the file lacks a game of."""
    done: dict[int, set[int]] = {}
    for r in records:
        if r["pairing"] == [a, b] and r["seed"] == seed and current(r):
            done.setdefault(r["pair"], set()).add(r["order"])
    k = 0
    while done.get(k) == {0, 1}:
        k += 1
    return k


def missing_games(
    records: list[dict[str, Any]], pairings: Sequence[tuple[str, str]], pairs: int, seed: int
) -> Iterator[tuple[str, str, int, int]]:
    """The games (a, b, pair, order) to play for ``pairs`` more pairs of each
    pairing, round by round (one pair of each pairing in turn), so a run cut
    short leaves every tier measured alike."""
    have = {
        (r["pairing"][0], r["pairing"][1], r["pair"], r["order"])
        for r in records
        if r["seed"] == seed and current(r)
    }
    starts = {p: next_pair(records, *p, seed) for p in pairings}
    for step in range(pairs):
        for a, b in pairings:
            k = starts[(a, b)] + step
            for order in (0, 1):
                if (a, b, k, order) not in have:
                    yield a, b, k, order


def play(
    path: Path, pairings: Sequence[tuple[str, str]], pairs: int, seed: int, jobs: int
) -> Iterator[dict[str, Any]]:
    """Play the missing games, appending each to ``path`` as it finishes."""
    todo = list(missing_games(read_records(path), pairings, pairs, seed))
    path.parent.mkdir(parents=True, exist_ok=True)
    if jobs <= 1:
        for a, b, k, order in todo:
            yield _append(path, game_record(a, b, seed, k, order))
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(game_record, a, b, seed, k, order) for a, b, k, order in todo]
        for future in futures:
            yield _append(path, future.result())


def _append(path: Path, record: dict[str, Any]) -> dict[str, Any]:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    return record


def tallies(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Tally]]:
    """{tier: {"self" / "expert" / "all": Tally}} over the current records: each
    side of a game is one game of its tier (a tier playing itself has two)."""
    out: dict[str, dict[str, Tally]] = {}
    for r in records:
        if not current(r):
            continue
        points = (r["points"], -r["points"])
        tiers = [side["tier"] for side in r["sides"]]
        for i, side in enumerate(r["sides"]):
            made = side["decisions"]
            one = Tally([(sum(d["loss"] for d in made), len(made))], [points[i]])
            against = "self" if tiers[0] == tiers[1] else tiers[1 - i]
            mine = out.setdefault(side["tier"], {})
            for key in (against, "all"):
                mine.setdefault(key, Tally()).add(one)
    return out


def side_pr(side: dict[str, Any]) -> float | None:
    """One side's PR in one game record."""
    made = side["decisions"]
    return 500 * sum(d["loss"] for d in made) / len(made) if made else None


def report_line(name: str, against: str, tally: Tally, seconds: float) -> str:
    pr, ci = tally.pr(), tally.interval()
    spread = f" (95% {ci[0]:.1f}–{ci[1]:.1f})" if ci else ""
    figure = "—" if pr is None else f"{pr:.1f}"
    timing = f", {seconds:.0f} s" if seconds else ""
    return (
        f"{name:>13} vs {against:<13} PR {figure}{spread}  {len(tally.games)} games,"
        f" {tally.decisions} decisions{timing}"
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
            "noise": TIERS[Tier(key)].noise,
        }
    body = {
        **meta,
        "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "tiers": tiers,
    }
    path.write_text(json.dumps(body, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


@cache
def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return ""
    return done.stdout.strip()
