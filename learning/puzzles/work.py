"""The bank's work files: one JSON object a line, appended as each piece
is done, so a run stopped at any point goes on where it stopped
(``learning.puzzles.generate``). Nothing here is shipped: the bank built
from them is (``learning.puzzles.bank``).

No Django here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

GAMES = "games.jsonl"  # the games the tiers played for the bank
RANKED = "ranked.jsonl"  # checker candidates ranked at the review's depth
CUBES = "cubes.jsonl"  # cube candidates judged at the review's depth
ROLLED = "rolled.jsonl"  # rollouts of both, by key


def read(path: Path) -> Iterator[dict[str, Any]]:
    if not path.exists():
        return
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except ValueError:  # a line cut by a kill: done again
                continue


def by_key(path: Path) -> dict[str, dict[str, Any]]:
    """The last record of each key (a later line replaces an earlier one)."""
    return {record["key"]: record for record in read(path)}


def append(path: Path, record: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
        out.flush()
