"""Positions for the computer-player tests.

The engine's perft data (tests/data/, when present) gives (position, dice)
pairs that cover openings, contact, the bar, bear-offs and races; random
playouts with a fixed seed add more and stand in until the data lands.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from games.engine import Dice, Position, legal_plays

DATA = Path(__file__).resolve().parent.parent / "data"


def playout_positions(count: int, seed: int = 2026) -> list[tuple[Position, Dice]]:
    """(position, dice) pairs met in random games, from the side on roll."""
    rng = random.Random(seed)
    found: list[tuple[Position, Dice]] = []
    while len(found) < count:
        position = Position.start()
        for _ in range(200):
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            found.append((position, dice))
            plays = legal_plays(position, dice)
            if plays:
                position = rng.choice(plays).result
            if 15 in position.borne_off():
                break
            position = position.swapped()
    return found[:count]


def perft_positions(limit: int) -> list[tuple[Position, Dice]]:
    """Up to ``limit`` (position, dice) pairs spread evenly over the engine's
    perft data (tests/data/perft.jsonl.gz), so every kind of case is met."""
    path = DATA / "perft.jsonl.gz"
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    step = max(1, len(rows) // limit)
    return [
        (Position.from_position_id(row["position"]), Dice(*row["dice"])) for row in rows[::step]
    ][:limit]


def sample_positions(limit: int = 400) -> list[tuple[Position, Dice]]:
    """Perft positions first (if any), then playout positions."""
    pairs = perft_positions(limit)
    return pairs + playout_positions(max(0, limit - len(pairs)) or 100)


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """One side's 25 counts from its own points (1..24) and bar."""
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    counts[24] = bar
    return tuple(counts)
