"""The shipped bank (learning/puzzles/data/bank.json.gz): loaded by the
migration, every rated answer confirmed by its rollout and a legal play."""

from __future__ import annotations

import pytest

from games.engine import Dice, Position, legal_plays
from learning.puzzles.bank import read_bank
from learning.puzzles.models import Puzzle
from learning.puzzles.verify import FIRST_LOOK_SE_TIMES, LOOKS, SE_TIMES

pytestmark = pytest.mark.django_db


def test_the_migration_loaded_the_shipped_bank() -> None:
    entries = read_bank()["puzzles"]
    rated = [e for e in entries if e["status"] == "confirmed"]
    assert len(rated) >= 1000
    assert Puzzle.objects.filter(owner__isnull=True, status="confirmed").count() == len(rated)
    assert not Puzzle.objects.filter(status="confirmed", tiers={}).exists()


@pytest.mark.slow
def test_every_rated_answer_is_a_legal_play_the_rollout_confirmed() -> None:
    rated = [e for e in read_bank()["puzzles"] if e["status"] == "confirmed"]
    for e in rated:
        r = e["rollout"]
        times = FIRST_LOOK_SE_TIMES if r["batches"] <= LOOKS[0] else SE_TIMES
        assert r["margin"] > times * r["se"], e["key"]
    cubes = [e for e in rated if e["kind"] == "cube"]
    assert all(e["answers"][0] in ("double", "no_double", "take", "pass") for e in cubes)
    for e in (e for e in rated if e["kind"] == "checker"):
        position, dice = Position.from_position_id(e["pos"]), Dice(*e["dice"])
        results = {p.result.position_id() for p in legal_plays(position, dice)}
        assert set(e["answers"]) <= results, e["key"]
        assert e["answers"][0] == e["ranking"][0][1]
