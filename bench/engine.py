"""Speed of games.engine against bgsage's C++ move generator, in the same run.

    .venv/bin/python bench/engine.py [--limit N]

Over every (position, dice) of tests/data/perft.jsonl.gz, with the engine's
caches cleared before each case, it times:
  - enumeration: ``legal_plays`` (every distinct play with its steps);
  - one step: a fresh ``Turn`` validating its first allowed step (what the
    board asks on a click), plus a refused step;
  - the yardstick: ``bgsage.possible_moves`` on the same board.
Targets: enumeration median <= 1 ms and slowest <= 20 ms per case; one step
no dearer than one enumeration. Figures are printed with their ratio to bgsage.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import bgsage

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "data"))

from make_perft import to_board  # noqa: E402

from games.engine import Dice, Position, Turn, legal_plays  # noqa: E402
from games.engine import plays as plays_module  # noqa: E402
from games.engine import turn as turn_module  # noqa: E402


def clear_caches() -> None:
    plays_module._legal_plays.cache_clear()
    turn_module._rules.cache_clear()
    turn_module._allowed.cache_clear()
    turn_module._results.cache_clear()


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Best of ``repeat`` runs, in milliseconds, caches cleared before each."""
    best = float("inf")
    for _ in range(repeat):
        clear_caches()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def validate_one_step(position: Position, dice: Dice) -> None:
    turn = Turn(position, dice)
    allowed = turn.allowed_steps()
    if allowed:
        turn.step(allowed[-1].src, allowed[-1].dst)
    turn.refusal(25 if position.me[24] == 0 else 24, 3)


def summary(name: str, ms: list[float], yard: list[float]) -> str:
    med, worst = statistics.median(ms), max(ms)
    return (
        f"{name:<12} median {med:7.3f} ms  p99 {sorted(ms)[int(len(ms) * 0.99)]:7.3f} ms  "
        f"slowest {worst:7.3f} ms  | x bgsage: median {med / statistics.median(yard):6.1f}  "
        f"total {sum(ms) / sum(yard):6.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with gzip.open(ROOT / "tests" / "data" / "perft.jsonl.gz", "rt") as lines:
        rows = [json.loads(line) for line in lines]
    if args.limit:
        rows = rows[: args.limit]
    enum_ms, step_ms, yard_ms, worst = [], [], [], (0.0, "")
    for row in rows:
        position, dice = Position.from_position_id(row["position"]), Dice(*row["dice"])
        board = to_board(position)
        yard_ms.append(timed(partial(bgsage.possible_moves, board, dice.d1, dice.d2), args.repeat))
        enum_ms.append(timed(partial(legal_plays, position, dice), args.repeat))
        step_ms.append(timed(partial(validate_one_step, position, dice), args.repeat))
        if enum_ms[-1] > worst[0]:
            worst = (enum_ms[-1], f"{row['position']} {dice.d1}{dice.d2}")
    ratio = [s / e for s, e in zip(step_ms, enum_ms, strict=True)]
    print(f"{len(rows)} (position, dice) cases, best of {args.repeat}, caches cleared each run")
    print(summary("bgsage", yard_ms, yard_ms))
    print(summary("enumerate", enum_ms, yard_ms))
    print(summary("one step", step_ms, yard_ms))
    print(
        f"one step / enumeration, same case: median {statistics.median(ratio):.2f}  "
        f"max {max(ratio):.2f}  total {sum(step_ms) / sum(enum_ms):.2f}"
    )
    print(f"slowest enumeration: {worst[0]:.3f} ms at {worst[1]}")
    med, slow = statistics.median(enum_ms), max(enum_ms)
    print(
        f"targets: median <= 1 ms {'met' if med <= 1 else 'MISSED'}; "
        f"slowest <= 20 ms {'met' if slow <= 20 else 'MISSED'}; "
        f"step <= enumeration {'met' if sum(step_ms) <= sum(enum_ms) else 'MISSED'} (in total)"
    )


if __name__ == "__main__":
    main()
