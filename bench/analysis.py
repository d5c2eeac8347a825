"""How long the post-game review of a 30-turn game takes.

    .venv/bin/python bench/analysis.py [--turns 30] [--games 3] [--money] [--from-turn N]

Plays games between two 1-ply players (deterministic seeds), then times
the review of their first ``--turns`` turns with the code ``learning.review.game``
runs (``ai_worker.analysis.review_turn`` at the review's ply: every decision
at the Expert's depth, the non-trivial ones one ply deeper, the 21-roll luck
table with two searched plays a roll, reasons for the top five plays). The
yardstick, timed in the same run on the same turns: bgsage's own
``BgBotAnalyzer.checker_play`` at the review's ply (one N-ply move analysis
per turn, nothing else), the "raw
evaluations of the same decisions". Target: ≤ 20 s per 30-turn game on this
machine; the load average is printed with the figures. No Django needed.

``--from-turn N`` reviews the ``--turns`` turns after the first N instead
(``--from-turn 30``: the races and bear-offs of the same games), where short
races go to ``ai_worker.search.SaneSearch`` (every node cleaned) instead of
bgsage's search; the time spent there is printed.

``--audit N`` instead measures the N-ply nodes (no timing): for up to N
boards after the first play of each turn of the same games (to the end),
by kind (contact, contact with a checker off, race), how often cleaning the
nodes inside a 2-ply search moves its equity by more than 0.001 (the root
cleaned either way, as the evaluator does), and how far bgsage's own 2-ply
is from the cleaned search (its nodes are clamped; see ``ai_worker.search``).

``--money`` times a money game's review: the same turns, and before each
turn after the opening one the mover's cube decision with the cube in the
centre (the most a game can have: every turn a doubling decision), judged as
``learning.review.cube.judge`` judges it (``ai_worker.cube_advice.advise`` at
the review's ply, every decision). The review's total is both.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import astuple
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_worker import analysis, evaluator, sanity, search  # noqa: E402
from games.engine import Dice, Position, legal_plays  # noqa: E402
from games.tiers import Tier, tier_spec  # noqa: E402


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


def review(record: list[tuple[Position, Dice]], ply: int) -> tuple[float, int]:
    """Seconds to review ``record``, and how many decisions went deeper."""
    started = time.perf_counter()
    deeper = 0
    for i, (position, dice) in enumerate(record):
        plays = legal_plays(position, dice)
        played = plays[0] if plays else None
        report = analysis.review_turn(position, dice, played, ply=ply, opening=i == 0)
        deeper += report.ply == ply and not report.forced
    return time.perf_counter() - started, deeper


def cube_review(record: list[tuple[Position, Dice]], ply: int) -> tuple[float, int]:
    """Seconds to judge a cube decision before every turn but the first, and
    how many were judged (each at ``ply``, as the review judges them)."""
    from ai_worker.cube import CubeContext
    from ai_worker.cube_advice import DOUBLE, advise
    from games.engine import Cube, Match, Side

    context = CubeContext(Cube(), Match(jacoby=True), Side.LIGHT)
    started = time.perf_counter()
    judged = 0
    for position, _dice in record[1:]:
        advise(position, context, DOUBLE, ply if ply % 2 else max(1, ply - 1))
        judged += 1
    return time.perf_counter() - started, judged


class SearchClock:
    """Counts the cleaned searches (``ai_worker.search.SaneSearch.probs``)
    the review makes, and their seconds, while installed."""

    def __init__(self) -> None:
        self.calls = 0
        self.seconds = 0.0
        self._probs = search.SaneSearch.probs

    def __enter__(self) -> SearchClock:
        clock, probs = self, self._probs

        def timed(self: search.SaneSearch, *args: Any) -> Any:
            started = time.perf_counter()
            try:
                return probs(self, *args)
            finally:
                clock.calls += 1
                clock.seconds += time.perf_counter() - started

        search.SaneSearch.probs = timed  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        search.SaneSearch.probs = self._probs  # type: ignore[method-assign]


def yardstick(record: list[tuple[Position, Dice]], ply: int) -> float:
    import bgsage

    analyzer = bgsage.BgBotAnalyzer(eval_level=f"{ply}ply", cubeful=False)
    started = time.perf_counter()
    for position, dice in record:
        analyzer.checker_play(evaluator.to_board26(position), dice.d1, dice.d2)
    return time.perf_counter() - started


def audit(games: int, per_kind: int) -> None:
    """Print how much the cleaning of the nodes inside a 2-ply search matters
    (see the module docstring, ``--audit``)."""
    from ai_worker.features import has_contact

    kinds: dict[str, list[tuple[Position, Position]]] = {
        "contact": [],
        "contact, off": [],
        "race": [],
    }
    for seed in range(games):
        for position, dice in play_game(seed, 400):
            plays = legal_plays(position, dice)
            after = plays[0].result if plays else None
            if after is None or sum(after.me) == 0:
                continue
            kind = (
                "race"
                if not has_contact(after)
                else "contact"
                if 15 == sum(after.me) == sum(after.opp)
                else "contact, off"
            )
            kinds[kind].append((position, after))
    for kind, found in kinds.items():
        chosen = found[:: max(1, len(found) // per_kind)][:per_kind]
        moved = bgsage_off = 0
        most = bgsage_most = 0.0
        for position, after in chosen:
            board, pre = evaluator.to_board26(after), evaluator.to_board26(position)
            clean = evaluator.sane_search().probs(board, pre, 2)
            raw = evaluator.sane_search(clean=False).probs(board, pre, 2)
            raw_equity = sanity.Probs(*sanity.sane_board26(board, astuple(raw))).equity
            theirs = evaluator.bgsage_chances(board, pre, 2)
            bgsage_equity = sanity.Probs(*sanity.sane_board26(board, theirs)).equity
            moved += abs(clean.equity - raw_equity) > 0.001
            most = max(most, abs(clean.equity - raw_equity))
            bgsage_off += abs(clean.equity - bgsage_equity) > 0.001
            bgsage_most = max(bgsage_most, abs(clean.equity - bgsage_equity))
        print(
            f"{kind}: {len(chosen)} boards; cleaning the nodes moves the 2-ply equity "
            f"> 0.001 in {moved} (most {most:.4f}); bgsage's 2-ply differs from the "
            f"cleaned search > 0.001 in {bgsage_off} (most {bgsage_most:.4f})"
        )
    print(f"load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--money", action="store_true", help="add the cube decisions")
    parser.add_argument("--from-turn", type=int, default=0, help="skip the first N turns")
    parser.add_argument("--audit", type=int, default=0, help="measure the N-ply nodes instead")
    args = parser.parse_args()
    ply = min(tier_spec(Tier.EXPERT).ply + 1, evaluator.MAX_PLY)  # learning.review.game.review_ply
    evaluator.warm_up(ply)
    if args.audit:
        audit(args.games, args.audit)
        return
    ours, theirs = [], []
    for seed in range(args.games):
        record = play_game(seed, args.from_turn + args.turns)[args.from_turn :]
        if not record:
            print(f"game {seed}: over before turn {args.from_turn}")
            continue
        yardstick(record[:2], ply)  # load bgsage's nets outside the timing
        with SearchClock() as clock:
            seconds, deeper = review(record, ply)
        cube = ""
        if args.money:
            cube_seconds, cube_judged = cube_review(record, ply)
            seconds += cube_seconds
            cube = f" (of which {cube_judged} cube decisions {cube_seconds:.2f} s)"
        ours.append(seconds)
        theirs.append(yardstick(record, ply))
        print(
            f"game {seed}: {len(record)} turns ({deeper} searched at {ply}-ply), "
            f"review {ours[-1]:.2f} s{cube} (cleaned search: {clock.calls} boards, "
            f"{clock.seconds:.2f} s), "
            f"bgsage checker_play {theirs[-1]:.2f} s, ratio {ours[-1] / theirs[-1]:.2f}"
        )
    after = f"after turn {args.from_turn} " if args.from_turn else ""
    print(
        f"median review of {args.turns} turns {after}"
        f"of a {'money ' if args.money else ''}game at {ply}-ply: "
        f"{statistics.median(ours):.2f} s (target <= 20 s); yardstick "
        f"{statistics.median(theirs):.2f} s; "
        f"ratio {statistics.median(ours) / statistics.median(theirs):.2f}"
        f"; cpus {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
