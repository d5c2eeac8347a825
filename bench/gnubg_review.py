"""How the review's error classes compare with GNU Backgammon's on the same games.

    .venv/bin/python bench/gnubg_review.py [--games 4] [--turns 30] [--from-turn N]

Plays the same seeded 1-ply games as ``bench/analysis.py`` (each side picks
one of its two best plays at random, so there are real errors), reviews every
decision with ``ai_worker.analysis.review_turn`` at the review's depth, and
asks GNU Backgammon (Debian's ``/usr/games/gnubg -t``, an outside program:
``set xgid`` then ``hint``, cubeless) for the equity each played play gave
away. gnubg's losses are graded with the same thresholds. Printed: the
decisions compared, how often the classes agree (exactly, and "error or
not"), the mean loss on each side and their correlation, the confusion
table, the seconds each side took and the load average. No Django needed;
nothing here is imported by the site.

``hint`` lists each play with its depth: on this machine gnubg's default
chequer-play evaluation is 2-ply (``Cubeless 2-ply`` in its answer, plays
its move filter prunes at a shallower depth); ``gnubg_hints(plies=N)`` sets
it first (``bench/checker_rollout.py`` sets 2).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_worker import analysis, evaluator  # noqa: E402
from ai_worker.grading import ErrorClass, classify  # noqa: E402
from bench.analysis import play_game  # noqa: E402
from games.engine import Dice, Play, Position, encode_xgid, legal_plays, parse_play  # noqa: E402

GNUBG = Path("/usr/games/gnubg")
MOVE = re.compile(
    r"^\s+(\d+)\.\s+Cube\w+\s+\S+\s+(.+?)\s+Eq\.:\s+([+-]\d+\.\d+)(?:\s+\(([+-]\d+\.\d+)\))?"
)
REVIEW_PLY = 3


def decisions(games: int, turns: int, skip: int = 0) -> list[tuple[Position, Dice, Play]]:
    """(position, dice, played) for every decision with a choice, mover's side,
    in the ``turns`` turns after the first ``skip``."""
    found = []
    for seed in range(games):
        record = play_game(seed, skip + turns + 1)[skip:]
        for (position, dice), (nxt, _d) in zip(record, record[1:], strict=False):
            plays = legal_plays(position, dice)
            played = next((p for p in plays if p.result == nxt.swapped()), None)
            if played is not None and len(plays) > 1:
                found.append((position, dice, played))
    return found


def gnubg_hints(
    cases: list[tuple[Position, Dice, Play]], plies: int | None = None
) -> tuple[list[list[tuple[str, float]]], float]:
    """gnubg's ``hint`` for each decision, cubeless: (notation, equity given
    away against its best) for every play it lists, best first, and the
    seconds it took. ``plies``: its chequer-play depth, set before the first
    position (None: its default, 0-ply); a play its move filter prunes is
    listed at a shallower depth."""
    depth = "" if plies is None else f"set evaluation chequerplay evaluation plies {plies}\n"
    script = (
        depth
        + "set evaluation chequerplay evaluation cubeful off\n"
        + "".join(
            f"set xgid {encode_xgid(position, dice)}\nhint 200\n" for position, dice, _p in cases
        )
    )
    started = time.perf_counter()
    done = subprocess.run(
        [str(GNUBG), "-t", "-q"], input=script, capture_output=True, text=True, timeout=3600
    )
    seconds = time.perf_counter() - started
    blocks: list[list[tuple[str, float]]] = []
    for line in done.stdout.splitlines():
        match = MOVE.match(line)
        if match is None:
            continue
        if match[1] == "1":
            blocks.append([])
        blocks[-1].append((match[2], -float(match[4]) if match[4] else 0.0))
    if len(blocks) != len(cases):
        raise SystemExit(f"gnubg answered {len(blocks)} hints for {len(cases)} decisions")
    return blocks, seconds


def gnubg_play(position: Position, dice: Dice, notation: str) -> Play | None:
    """gnubg's notation read as a play of ``dice`` (None if it cannot be)."""
    try:
        return parse_play(position, dice, notation)
    except ValueError:
        return None


def gnubg_losses(
    cases: list[tuple[Position, Dice, Play]], plies: int | None = None
) -> tuple[list[float | None], float]:
    """The equity gnubg says each played play gave away (None if not listed)."""
    blocks, seconds = gnubg_hints(cases, plies)
    losses: list[float | None] = []
    for (position, dice, played), block in zip(cases, blocks, strict=True):
        loss = None
        for notation, lost in block:
            play = gnubg_play(position, dice, notation)
            if play is not None and play.result == played.result:
                loss = lost
                break
        losses.append(loss)
    return losses, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--from-turn", type=int, default=0, help="skip the first N turns")
    args = parser.parse_args()
    evaluator.warm_up(REVIEW_PLY)
    cases = decisions(args.games, args.turns, args.from_turn)
    started = time.perf_counter()
    ours = [
        analysis.review_turn(position, dice, played, ply=REVIEW_PLY).equity_lost
        for position, dice, played in cases
    ]
    our_seconds = time.perf_counter() - started
    theirs, gnubg_seconds = gnubg_losses(cases)
    pairs = [(a, b) for a, b in zip(ours, theirs, strict=True) if b is not None]
    same = sum(classify(a) is classify(b) for a, b in pairs)
    both = sum(
        (classify(a) is ErrorClass.NONE) == (classify(b) is ErrorClass.NONE) for a, b in pairs
    )
    confusion = Counter((classify(a).value, classify(b).value) for a, b in pairs)
    a_values, b_values = [a for a, _ in pairs], [b for _, b in pairs]
    print(
        f"{len(pairs)} decisions compared ({len(cases) - len(pairs)} not listed by gnubg) "
        f"from {args.games} games, {args.turns} turns after turn {args.from_turn}"
    )
    print(
        f"error class agrees: {same / len(pairs):.1%}; error or not agrees: {both / len(pairs):.1%}"
    )
    mean_a, mean_b = statistics.mean(a_values), statistics.mean(b_values)
    print(
        f"mean loss: review {mean_a:.4f}, gnubg {mean_b:.4f}; "
        f"correlation {statistics.correlation(a_values, b_values):.2f}"
    )
    print(
        "confusion (review, gnubg): " + ", ".join(f"{k}: {v}" for k, v in sorted(confusion.items()))
    )
    print(
        f"seconds: review {our_seconds:.1f} at {REVIEW_PLY}-ply, gnubg hint {gnubg_seconds:.1f}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
