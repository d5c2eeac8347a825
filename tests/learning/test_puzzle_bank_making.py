"""Making and shipping a bank (issue 47): the tiers' solves stage rates
every confirmed candidate once, the build uses them, and loading a later
bank into a database that had an earlier one (migration 0012, or
``manage.py puzzles load``) adds the new puzzles, keeps what answered ones
have earned and gives unanswered ones the new starting rating."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games.engine import Position
from games.tiers import TIERS
from learning.puzzles import work
from learning.puzzles.bank import SOLVES, load, read_bank
from learning.puzzles.models import Puzzle
from learning.puzzles.rules import accepted
from learning.puzzles.screen import rank
from learning.puzzles.sources import Decision
from tests.learning.fixtures_puzzles import only

pytestmark = pytest.mark.django_db


def write_bank(path: Path, entries: list[dict[str, Any]]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump({"version": 1, "seed": 1, "tier_ratings": {}, "puzzles": entries}, f)
    return path


def test_a_later_bank_adds_puzzles_and_keeps_what_answered_ones_earned(tmp_path: Path) -> None:
    only()
    shipped = [e for e in read_bank()["puzzles"] if e["status"] == "confirmed"][:5]
    load(write_bank(tmp_path / "old.json.gz", shipped[:3]))
    answered, unanswered = shipped[0]["key"], shipped[1]["key"]
    Puzzle.objects.filter(key=answered).update(rating=1234.0, deviation=90.0, attempts=4)
    later = [{**e, "rating": e["rating"] + 100, "tags": [*e["tags"], "slot"]} for e in shipped]

    assert load(write_bank(tmp_path / "new.json.gz", later)) == 5

    rows = {p.key: p for p in Puzzle.objects.all()}
    assert len(rows) == 5
    assert (rows[answered].rating, rows[answered].deviation, rows[answered].attempts) == (
        1234.0,
        90.0,
        4,
    )
    assert rows[unanswered].rating == pytest.approx(shipped[1]["rating"] + 100)
    assert all(" slot " in p.tags for p in rows.values())  # what the bank says is updated
    assert rows[shipped[4]["key"]].rating == pytest.approx(shipped[4]["rating"] + 100)


@pytest.mark.slow
def test_the_solves_stage_rates_each_confirmed_candidate_once_and_the_build_uses_it(
    tmp_path: Path,
) -> None:
    d = Decision(Position.start().position_id(), (3, 1), 1, "test", "expert")
    record = {**rank(d, 1), "puzzle": True}
    n = accepted([p[2] for p in record["plays"]])
    work.append(tmp_path / work.RANKED, record)
    verdict = {"status": "confirmed", "margin": 0.1, "se": 0.01, "trials": 18, "batches": 3}
    rows = [[0.1, 0.0]] * 3
    rolled = {"key": d.key, "plays": [0, n], "rows": rows, "trials": 18, "seed": 1}
    work.append(tmp_path / work.ROLLED, {**rolled, "verdict": verdict})

    call_command("puzzles", "generate", "--work", str(tmp_path), "--stages", "solves")
    call_command("puzzles", "generate", "--work", str(tmp_path), "--stages", "solves")
    call_command("puzzles", "build", "--work", str(tmp_path), "--out", str(tmp_path / "b.json.gz"))

    solves = list(work.read(tmp_path / SOLVES))
    assert [s["key"] for s in solves] == [d.key]  # made once, the build made none
    rates = solves[0]["rates"]
    assert set(rates) == {t.value for t in TIERS}
    assert all(0.0 <= r <= 1.0 for r in rates.values())
    (entry,) = read_bank(tmp_path / "b.json.gz")["puzzles"]
    assert entry["tiers"] == rates
    assert entry["rating"] == pytest.approx(1500.0, abs=1.0)  # one puzzle: the mean held at 1500
