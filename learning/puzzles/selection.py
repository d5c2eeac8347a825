"""Which candidates the rollout checks first: those of the themes and
phases the bank has fewest of, so that a run stopped early still covers
every theme and every phase.

No Django here.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from learning.puzzles import work
from learning.puzzles.records import tags_of
from learning.puzzles.verify import CONFIRMED

TAGS = "tags.jsonl"  # each candidate's themes, kept so a resumed run need not tag again
EACH_THEME = 80  # candidates a theme should have before the rest come in the seed's order


def tagged(workdir: Path) -> list[tuple[dict[str, Any], dict[str, object]]]:
    """Every candidate puzzle (checker and cube) with its tags."""
    cache = work.by_key(workdir / TAGS)
    found = []
    for name in (work.RANKED, work.CUBES):
        for record in work.read(workdir / name):
            if not record.get("puzzle"):
                continue
            tags = cache.get(record["key"])
            if tags is None:
                tags = {"key": record["key"], **tags_of(record)}
                work.append(workdir / TAGS, tags)
            found.append((record, tags))
    return found


def roll_order(workdir: Path, seed: int) -> list[dict[str, Any]]:
    """The candidates in the order to roll them out: by turns, one of the
    theme with the fewest chosen so far, until each has ``EACH_THEME``;
    then the rest in the seed's order, checker and cube candidates mixed."""
    candidates = tagged(workdir)
    random.Random(seed).shuffle(candidates)
    chosen: list[dict[str, Any]] = []
    taken: set[str] = set()
    counts: Counter[str] = Counter()
    pools: dict[str, list[dict[str, Any]]] = {}
    for record, tags in candidates:
        for theme in _answer(tags):
            pools.setdefault(theme, []).append(record)
    while True:
        short = [t for t, pool in pools.items() if counts[t] < EACH_THEME and pool]
        if not short:
            break
        theme = min(short, key=lambda t: counts[t])
        record = pools[theme].pop(0)
        if record["key"] in taken:
            continue
        taken.add(record["key"])
        chosen.append(record)
        for t in _answer(next(tags for r, tags in candidates if r is record)):
            counts[t] += 1
    chosen.extend(r for r, _tags in candidates if r["key"] not in taken)
    return chosen


def _answer(tags: dict[str, object]) -> list[str]:
    """The tags a bank should cover: the answer's themes and the phase."""
    answer = tags.get("answer") or []
    assert isinstance(answer, list)
    return [str(a) for a in answer] + [f"phase:{tags['phase']}"]


def targets_met(checker: int, cube: int) -> Callable[[dict[str, dict[str, Any]]], bool]:
    def enough(rolled: dict[str, dict[str, Any]]) -> bool:
        confirmed = [k for k, r in rolled.items() if r["verdict"]["status"] == CONFIRMED]
        cubes = sum(1 for k in confirmed if k.startswith("cube:"))
        return len(confirmed) - cubes >= checker and cubes >= cube

    return enough


def in_shard(key: str, shard: tuple[int, int]) -> bool:
    """Whether ``key`` falls to run ``shard[0]`` of ``shard[1]`` (runs side by side)."""
    index, count = shard
    digest = hashlib.blake2b(key.encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % count == index
