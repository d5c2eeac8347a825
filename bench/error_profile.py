"""Do the tiers err like people? Each tier's error profile against the people's (issue 34).

    .venv/bin/python bench/error_profile.py                 # tiers vs the stand-in
    DATABASE_URL=postgres://... .venv/bin/python bench/error_profile.py --database
    .venv/bin/python bench/error_profile.py --shaping 400   # the complexity shaping, tried

The profile (``learning.study.error_profile``): each (phase, kind) cell's share of
the equity lost over the decisions the PR counts; two profiles are compared
by their total variation distance. The tiers' profiles come from the games
``bench/strength.py --pr`` reviewed (bench/data/tier_pr_games.jsonl, the
records of today's noise and review). The people's come from the database
Django is set up with (``--database``: the owner's side of every reviewed
game of their own record, ``--studies`` adds imported games' both sides), so
this runs on production's data as it is. Where there are no people's reviews
(a development machine), the reference is a stand-in, and is printed as one:
the games GNU Backgammon played against itself with evaluation noise
(bench/data/gnubg_selfplay.mat, four games), every decision reviewed as the
site reviews (``analyse_turn`` at the review's depth), the reviewed
decisions kept in bench/data/gnubg_selfplay_review.json for the next run.

Yardstick in the same run: each tier's split-half distance (its games dealt
alternately into two halves), the distance sampling alone gives at that
count; a distance to the reference below it says nothing.

``--shaping N``: the shaping the issue names, tried on up to N of each lower
tier's recorded decisions (their positions and dice): the tier's own 1-ply
ranking, its noise as ``ai_worker.policy`` draws it (the same hash), once
plain and once scaled by the position's complexity (the spread of the top
five plays' equities, relative to its median over the decisions), the scale
chosen by bisection so that the mean 1-ply loss, the PR, is the plain one's;
each choice's kind from the review's comparison at 1-ply. Printed: both
profiles' distance to the reference. The shaping is kept in the policy only
if it brings the profile closer at the same PR (bench/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from ai_worker.analysis import analyse_turn, review_ply  # noqa: E402
from ai_worker.evaluator import RankedPlay, rank_plays  # noqa: E402
from ai_worker.policy import noise  # noqa: E402
from bench import _pr  # noqa: E402
from games.engine import Dice, Play, Position, Side  # noqa: E402
from games.engine.matfile import ActionKind, parse_mat  # noqa: E402
from games.engine.matreplay import replay_match  # noqa: E402
from games.tiers import TIERS, Tier  # noqa: E402
from learning.review.phases import phase_of  # noqa: E402
from learning.study.error_profile import Profile, distance, site_profile, table  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
MAT = DATA / "gnubg_selfplay.mat"
MAT_REVIEW = DATA / "gnubg_selfplay_review.json"


def mat_turns(text: str) -> Iterator[tuple[int, Position, Dice, Play]]:
    """(turn number, board from the mover's side, dice, play) of every play in a .mat."""
    for game in replay_match(parse_mat(text)).games:
        number = 0
        for turn in game.turns:
            if turn.action.kind is not ActionKind.ROLL:
                continue
            number += 1
            if turn.play is None or turn.action.dice is None:
                continue
            board = turn.board if turn.action.side is Side.LIGHT else turn.board.swapped()
            yield number, board, turn.action.dice, turn.play


def reviewed(position: Position, dice: Dice, played: Play, number: int) -> dict[str, Any] | None:
    """One decision reviewed at the review's depth, as bench/_pr.py records it; None if forced."""
    report = analyse_turn(position, dice, played, ply=review_ply())
    if report.forced:
        return None
    chosen = report.played_candidate
    return {
        "loss": round(report.equity_lost, 5),
        "phase": phase_of(position, number),
        "why": [r.code for r in chosen.versus] if chosen else [],
    }


def stand_in(path: Path) -> Profile:
    """The .mat's decisions reviewed (cached beside it while the review key holds)."""
    key = _pr.review_key()
    if MAT_REVIEW.exists() and path == MAT:
        cached = json.loads(MAT_REVIEW.read_text(encoding="utf-8"))
        if cached.get("review") == key:
            return Profile().extend(cached["decisions"])
    started = time.perf_counter()
    decisions = [
        d
        for number, position, dice, played in mat_turns(path.read_text(encoding="utf-8"))
        if (d := reviewed(position, dice, played, number)) is not None
    ]
    print(
        f"# reviewed {len(decisions)} decisions of {path.name} in"
        f" {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    if path == MAT:
        body = {"review": key, "source": path.name, "decisions": decisions}
        MAT_REVIEW.write_text(json.dumps(body) + "\n", encoding="utf-8")
    return Profile().extend(decisions)


def tier_games(records: list[dict[str, Any]]) -> dict[str, list[list[dict[str, Any]]]]:
    """Each tier's games (the decisions of its side), from today's records."""
    out: dict[str, list[list[dict[str, Any]]]] = {}
    for r in records:
        if _pr.current(r):
            for side in r["sides"]:
                out.setdefault(side["tier"], []).append(side["decisions"])
    return out


def split_half(games: list[list[dict[str, Any]]]) -> float | None:
    halves = Profile(), Profile()
    for i, made in enumerate(games):
        halves[i % 2].extend(made)
    return distance(*halves)


# --- the shaping, tried -------------------------------------------------------


def complexity(ranked: list[RankedPlay]) -> float:
    """The spread of the top five plays' equities (0: one play, or all alike)."""
    top = ranked[:5]
    return float(top[0].equity) - float(top[-1].equity)


def shaped_pick(
    ranked: list[RankedPlay], sigma: float, key: str, pid: str, dice: Dice
) -> RankedPlay:
    """``policy.pick`` with ``sigma`` for this position (the same noise draws)."""
    return max(ranked, key=lambda c: c.equity + noise(key, pid, dice, c.play.result, sigma))


def _spread(ratio: float) -> float:
    """More noise where the top plays lie far apart, less where they are close."""
    return min(2.0, max(0.5, ratio))


def _inverse(ratio: float) -> float:
    """The other way round: more noise where the top plays are close."""
    return min(2.0, max(0.5, 1 / ratio if ratio > 0 else 2.0))


SHAPES: dict[str, Callable[[float], float]] = {"spread": _spread, "inverse": _inverse}


def try_shaping(tier: Tier, decisions: list[dict[str, Any]], reference: Profile) -> None:
    spec = TIERS[tier]
    cases = []
    for i, d in enumerate(decisions):
        position, dice = Position.from_position_id(d["pos"]), Dice(*d["dice"])
        ranked = rank_plays(position, dice, spec.ply)
        if len(ranked) > 1:
            cases.append((position, dice, d["turn"], ranked, f"shape:{i}", complexity(ranked)))
    middle = statistics.median(c[5] for c in cases) or 1.0

    def choices(scale: float, shape: str | None) -> list[RankedPlay]:
        out = []
        for position, dice, _n, ranked, key, spread in cases:
            factor = SHAPES[shape](spread / middle) if shape else 1.0
            sigma = spec.sigma * scale * factor
            out.append(shaped_pick(ranked, sigma, key, position.position_id(), dice))
        return out

    def mean_loss(picked: list[RankedPlay]) -> float:
        losses = [c[3][0].equity - p.equity for c, p in zip(cases, picked, strict=True)]
        return statistics.fmean(losses)

    def profile(picked: list[RankedPlay]) -> Profile:
        out = Profile()
        for (position, dice, number, ranked, _k, _s), play in zip(cases, picked, strict=True):
            loss = float(ranked[0].equity - play.equity)
            why: list[str] = []
            if loss > 0:
                report = analyse_turn(position, dice, play.play, ply=spec.ply)
                chosen = report.played_candidate
                why = [r.code for r in chosen.versus] if chosen else []
            out.add(phase_of(position, number), why, loss)
        return out

    plain = profile(choices(1.0, None))
    target = statistics.fmean(
        c[3][0].equity - p.equity for c, p in zip(cases, choices(1.0, None), strict=True)
    )
    found = {"plain": plain}
    line = f"{tier.value:>13}: {len(cases)} decisions; plain: 1-ply PR {plain.pr():.1f},"
    line += f" distance {distance(plain, reference):.3f}"
    for shape in SHAPES:
        low, high = 0.1, 4.0
        for _ in range(16):
            mid = (low + high) / 2
            low, high = (mid, high) if mean_loss(choices(mid, shape)) < target else (low, mid)
        scale = (low + high) / 2
        shaped = found[shape] = profile(choices(scale, shape))
        line += (
            f"; {shape} (sigma x {scale:.2f}): PR {shaped.pr():.1f},"
            f" distance {distance(shaped, reference):.3f}"
        )
    print(f"{line}; load {os.getloadavg()[0]:.1f}", flush=True)
    for text in table({f"{tier.value} {k}": v for k, v in found.items()})[1:]:
        print("    " + text, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, default=_pr.RECORDS)
    parser.add_argument("--mat", type=Path, default=MAT, help="the stand-in's games")
    parser.add_argument("--database", action="store_true", help="the people's reviews")
    parser.add_argument("--studies", action="store_true", help="--database: imported games too")
    parser.add_argument("--shaping", type=int, default=0, help="try the shaping on N decisions")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(f"# error profiles, review {_pr.review_key()}, load {os.getloadavg()[0]:.2f}", flush=True)

    references: dict[str, Profile] = {}
    if args.database:
        people = site_profile(args.studies)
        if people.counted(checker_only=False):
            references["people (database)"] = people
        print(f"# the database: {people.counted(checker_only=False)} decisions", flush=True)
    if not references:
        references["STAND-IN gnubg noisy"] = stand_in(args.mat)
        print("# no people's reviews: the reference is a stand-in (gnubg self-play)", flush=True)
    name, reference = next(iter(references.items()))
    games = tier_games(_pr.read_records(args.records))
    tiers = {t.value: Profile() for t in Tier if t.value in games}
    for key in tiers:
        for made in games[key]:
            tiers[key].extend(made)
    for line in table({**references, **tiers}):
        print(line, flush=True)
    if args.database and reference.counted(checker_only=False) > reference.counted():
        print("# the people's cube decisions, apart:", flush=True)
        for line in table({name: reference}, checker_only=False):
            print("  " + line, flush=True)
    print(f"# total variation distance to {name} (checker cells), split-half yardstick", flush=True)
    for key, profile in tiers.items():
        d, half = distance(profile, reference), split_half(games[key])
        figure = "—" if d is None else f"{d:.3f}"
        yard = "—" if half is None else f"{half:.3f}"
        print(f"{key:>13}: {figure}  (its own halves {yard}; {len(games[key])} games)", flush=True)
    if args.shaping:
        print(f"# the shaping, on up to {args.shaping} decisions a tier", flush=True)
        for key in tiers:
            tier = Tier(key)
            if TIERS[tier].sigma > 0:
                made = [d for g in games[key] for d in g][: args.shaping]
                try_shaping(tier, made, reference)
    print(f"# {time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
