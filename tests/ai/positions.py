"""Positions for the computer-player tests.

The engine's perft data (tests/data/, when present) gives (position, dice)
pairs that cover openings, contact, the bar, bear-offs and races; random
playouts with a fixed seed add more and stand in until the data lands.
"""

from __future__ import annotations

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
    """Up to ``limit`` (position, dice) pairs from the engine's perft data."""
    pairs: list[tuple[Position, Dice]] = []
    for path in sorted(DATA.glob("perft*")):
        for record in _records(path):
            pairs.append(record)
            if len(pairs) >= limit:
                return pairs
    return pairs


def _records(path: Path) -> list[tuple[Position, Dice]]:
    records: list[tuple[Position, Dice]] = []
    text = path.read_text()
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            row = json.loads(line)
            pid = row.get("position") or row.get("position_id")
            d1, d2 = row["dice"]
        else:
            fields = line.replace("\t", " ").split()
            if len(fields) < 3 or not fields[1].isdigit():
                continue
            pid, d1, d2 = fields[0], int(fields[1]), int(fields[2])
        records.append((Position.from_position_id(pid), Dice(int(d1), int(d2))))
    return records


def sample_positions(limit: int = 400) -> list[tuple[Position, Dice]]:
    """Perft positions first (if any), then playout positions."""
    pairs = perft_positions(limit)
    return pairs + playout_positions(max(0, limit - len(pairs)) or 100)
