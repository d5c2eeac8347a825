"""The shipped bank: built from the work files, loaded into the database.

``build`` turns every candidate the rollout confirmed (or found close)
into one entry of ``BANK_FILE`` (gzipped JSON in the repository, so a
fresh clone and CI have the bank without computing it): the position and
question, the accepted answers, the review's ranking, the rollout's
verdict, the themes, each tier's solve rate and the starting rating fitted
from them (``learning.puzzles.seeding``). ``load`` puts the entries in the
``Puzzle`` table (migrations 0010 and 0012, and ``manage.py puzzles load``), keeping
the ratings a puzzle has earned since.
"""

from __future__ import annotations

import gzip
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from learning.puzzles import work
from learning.puzzles.records import first_rejected, tags_of
from learning.puzzles.selection import TAGS, in_shard
from learning.puzzles.themes import flat
from learning.puzzles.verify import CLOSE, CONFIRMED

BANK_FILE = Path(__file__).resolve().parent / "data" / "bank.json.gz"
SOLVES = "solves.jsonl"  # each candidate's tier solve rates, kept across builds
VERSION = 1


def entry(
    record: dict[str, Any], rolled: dict[str, Any], tags: dict[str, object]
) -> dict[str, Any]:
    """One bank entry from a candidate, its rollout and its tags."""
    d = record["decision"]
    verdict = rolled["verdict"]
    base = {
        "key": record["key"],
        "kind": record["kind"],
        "pos": d["pos"],
        "turn": d["turn"],
        "source": d["source"],
        "tags": flat(tags),
        "phase": tags["phase"],
        "status": verdict["status"],
    }
    if record["kind"] == "cube":
        from learning.board.input import context_json
        from learning.puzzles.generate import CONTEXTS

        best = record["advice"]["best"]
        return {
            **base,
            "dice": [0, 0],
            "question": record["question"],
            "context": context_json(CONTEXTS[record["context"]]),
            "answers": ["no_double" if best == "too_good" else best],
            "ranking": record["advice"],
            "rollout": {**_short(verdict), "columns": ["right", "wrong"]},
        }
    plays = record["plays"]
    n = first_rejected(record)
    rolled_plays = [plays[i][0] for i in rolled["plays"]]
    means = [
        round(sum(row[i] for row in rolled["rows"]) / len(rolled["rows"]), 4)
        for i in range(len(rolled_plays))
    ]
    return {
        **base,
        "dice": d["dice"],
        "question": "",
        "context": {},
        "answers": [p[1] for p in plays[:n]],
        "ranking": plays,
        "rollout": {**_short(verdict), "plays": rolled_plays, "means": means},
    }


def _short(verdict: dict[str, Any]) -> dict[str, Any]:
    return {k: verdict[k] for k in ("status", "margin", "se", "trials", "batches")}


def _entries(workdir: Path) -> Iterator[dict[str, Any]]:
    """Every candidate the rollout confirmed or found close, as a bank entry
    without its tier rates, in the keys' order."""
    rolled = work.by_key(workdir / work.ROLLED)
    records = {
        r["key"]: r
        for name in (work.RANKED, work.CUBES)
        for r in work.read(workdir / name)
        if r.get("puzzle") and r["key"] in rolled
    }
    tag_cache = work.by_key(workdir / TAGS)
    for key, record in sorted(records.items()):
        if rolled[key]["verdict"]["status"] not in (CONFIRMED, CLOSE):
            continue
        tags = tag_cache.get(key) or {"key": key, **tags_of(record)}
        yield entry(record, rolled[key], tags)


def solve(workdir: Path, shard: tuple[int, int], log: Callable[[str], None]) -> int:
    """The tiers' solve rates of every confirmed candidate of ``shard`` that
    has none yet (``generate --stages solves``, runs side by side); ``build``
    makes those still missing. Returns how many were made."""
    solves = work.by_key(workdir / SOLVES)
    made, started = 0, time.perf_counter()
    for one in _entries(workdir):
        key = one["key"]
        if one["status"] != CONFIRMED or key in solves or not in_shard(key, shard):
            continue
        work.append(workdir / SOLVES, {"key": key, "rates": _rates(one)})
        made += 1
        if made % 50 == 0:
            log(f"solved by the tiers: {made} ({time.perf_counter() - started:.0f} s)")
    return made


def build(workdir: Path, out: Path, seed: int, log: Callable[[str], None]) -> dict[str, int]:
    """Write the bank from the work files; returns the counts by status."""
    from learning.puzzles import seeding

    solves = work.by_key(workdir / SOLVES)
    entries = []
    for one in _entries(workdir):
        key = one["key"]
        if one["status"] == CONFIRMED:
            if key not in solves:
                solves[key] = {"key": key, "rates": _rates(one)}
                work.append(workdir / SOLVES, solves[key])
            one["tiers"] = solves[key]["rates"]
        entries.append(one)
        if len(entries) % 200 == 0:
            log(f"{len(entries)} entries")
    rated = [e for e in entries if e["status"] == CONFIRMED]
    tiers, ratings = seeding.fit([e["tiers"] for e in rated])
    for e, rating in zip(rated, ratings, strict=True):
        e["rating"] = round(rating, 1)
    body = {
        "version": VERSION,
        "seed": seed,
        "tier_ratings": {t: round(r, 1) for t, r in tiers.items()},
        "puzzles": entries,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(body, f, separators=(",", ":"))
    return dict(Counter(e["status"] for e in entries))


def _rates(e: dict[str, Any]) -> dict[str, float]:
    from learning.board.input import read_context
    from learning.puzzles import seeding

    if e["kind"] == "cube":
        context = read_context(e["context"], "light")
        return seeding.cube_rates(e["pos"], context, e["question"], set(e["answers"]))
    return seeding.checker_rates(e["pos"], tuple(e["dice"]), set(e["answers"]))


def read_bank(path: Path = BANK_FILE) -> dict[str, Any]:
    if not path.exists():
        return {"version": VERSION, "puzzles": []}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        body: dict[str, Any] = json.load(f)
    return body


def row_fields(e: dict[str, Any]) -> dict[str, Any]:
    """The ``Puzzle`` columns of a bank entry (the rating's only when new)."""
    return {
        "kind": e["kind"],
        "position_id": e["pos"],
        "die1": e["dice"][0],
        "die2": e["dice"][1],
        "question": e["question"],
        "context": e["context"],
        "turn": e["turn"],
        "phase": e["phase"],
        "tags": " " + " ".join(e["tags"]) + " ",
        "answers": e["answers"],
        "ranking": e["ranking"],
        "rollout": e["rollout"],
        "status": e["status"],
        "source": e["source"],
        "tiers": e.get("tiers", {}),
    }


def load(path: Path = BANK_FILE, model: Any = None) -> int:
    """Put the bank's entries in the ``Puzzle`` table (``model``: a
    migration's historical model). A puzzle already there is updated only
    where the bank changed it; it keeps the rating and counts it has earned,
    and one nobody has answered yet takes the bank's new starting rating
    (a later bank's fit). Returns how many entries the bank has."""
    from learning.puzzles.seeding import START_DEVIATION

    if model is None:
        from learning.puzzles.models import Puzzle as model  # noqa: N813
    entries = read_bank(path)["puzzles"]
    names = ["key", "attempts", "rating", "deviation", *row_fields(entries[0])] if entries else []
    have = {row["key"]: row for row in model.objects.filter(owner__isnull=True).values(*names)}
    new, changed = [], []
    for e in entries:
        fields = row_fields(e)
        fields["rating"] = e.get("rating", 1500.0)
        fields["deviation"] = START_DEVIATION
        old = have.get(e["key"])
        if old is None:
            new.append(model(key=e["key"], **fields))
            continue
        if old["attempts"]:  # earned since: kept
            del fields["rating"], fields["deviation"]
        update = {k: v for k, v in fields.items() if old[k] != v}
        if update:
            changed.append((e["key"], update))
    model.objects.bulk_create(new, batch_size=500)
    for key, update in changed:
        model.objects.filter(key=key, owner__isnull=True).update(**update)
    return len(entries)
