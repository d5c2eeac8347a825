"""The shipped bank (learning/puzzles/data/bank.json.gz): loaded by the
migration, every rated answer confirmed by its rollout and a legal play."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import Dice, Position, legal_plays
from learning.puzzles.bank import read_bank
from learning.puzzles.models import Puzzle
from learning.puzzles.themes import CHECKER_THEMES, CUBE_THEMES, PHASES
from learning.puzzles.verify import FIRST_LOOK_SE_TIMES, LOOKS, SE_TIMES

pytestmark = pytest.mark.django_db


def test_the_migration_loaded_the_shipped_bank() -> None:
    entries = read_bank()["puzzles"]
    rated = [e for e in entries if e["status"] == "confirmed"]
    assert len(rated) >= 2000  # the bank
    assert Puzzle.objects.filter(owner__isnull=True, status="confirmed").count() == len(rated)
    assert not Puzzle.objects.filter(status="confirmed", tiers={}).exists()
    assert all("rating" in e for e in rated)


def test_every_checker_theme_and_phase_has_forty_rated_puzzles() -> None:
    rated = [e for e in read_bank()["puzzles"] if e["status"] == "confirmed"]
    tags = Counter(t for e in rated for t in e["tags"])
    phases = Counter(e["phase"] for e in rated)
    assert {t: tags[t] for t in CHECKER_THEMES if tags[t] < 40} == {}
    assert {p: phases[p] for p in PHASES if phases[p] < 40} == {}
    assert all(tags[t] > 0 for t in CUBE_THEMES)


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
