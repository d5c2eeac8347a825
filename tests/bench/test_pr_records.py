"""``bench/strength.py --pr`` accumulates its reviewed games in a file (bench/_pr.py).

The file logic on tiny files of constructed records: which records count
(today's review key and both sides' noises), where a run continues, the
round-robin order of the games to play, the PR and interval computed from the
file, and a run appending to a file and the next one continuing after it
(the game itself replaced by a constructed record there: a reviewed game
takes a quarter of a minute of a core). One real game, marked slow, checks a
record's shape is what the tallies read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import _pr
from games.tiers import TIERS, Tier


def record(
    a: str, b: str, pair: int, order: int, losses: tuple[list[float], list[float]], **over: Any
) -> dict[str, Any]:
    first, second = (a, b) if order == 0 else (b, a)
    sides = [
        {
            "tier": tier,
            "noise": TIERS[Tier(tier)].noise,
            "decisions": [{"loss": x, "phase": "middle", "why": []} for x in made],
        }
        for tier, made in zip((first, second), losses, strict=True)
    ]
    body = {
        "review": _pr.review_key(),
        "seed": 1,
        "pairing": [a, b],
        "pair": pair,
        "order": order,
        "points": 1.0,
        "sides": sides,
    }
    body.update(over)
    return body


def write_lines(path: Path, records: list[dict[str, Any]], tail: str = "") -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail, encoding="utf-8")


def test_only_records_of_todays_review_and_noise_count(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    stale = record("casual", "expert", 0, 1, ([0.5], [0.5]))
    stale["sides"][1]["noise"] = "ply 1, sigma 0.125"  # casual's noise before
    write_lines(
        path,
        [
            record("casual", "expert", 0, 0, ([0.02, 0.0], [0.0, 0.004])),
            stale,
            record("casual", "expert", 1, 0, ([0.3], [0.3]), review="2-ply r0 bgsage 1"),
            record("casual", "casual", 0, 0, ([0.01], [0.03, 0.01])),
        ],
        tail='{"review": "3-ply r1", "sid',  # a line cut short by a killed run
    )
    records = _pr.read_records(path)
    assert len(records) == 4
    assert [_pr.current(r) for r in records] == [True, False, False, True]
    figures = _pr.tallies(records)
    casual = figures["casual"]
    assert casual["expert"].games == [(0.02, 2)]
    assert casual["self"].games == [(0.01, 1), (0.04, 2)]
    assert casual["all"].decisions == 5
    assert casual["all"].pr() == pytest.approx(500 * 0.07 / 5)
    assert figures["expert"]["casual"].pr() == pytest.approx(500 * 0.004 / 2)
    assert figures["expert"]["all"].interval() is None  # one game: no interval


def test_a_run_continues_after_the_last_whole_pair_round_by_round(tmp_path: Path) -> None:
    records = [
        record("beginner", "expert", 0, 0, ([0.1], [0.0])),
        record("beginner", "expert", 0, 1, ([0.0], [0.1])),
        record("beginner", "expert", 1, 1, ([0.0], [0.1])),  # pair 1 lacks its first game
        record("beginner", "expert", 2, 0, ([0.1], [0.0]), seed=2),  # another seed
        record("beginner", "beginner", 0, 0, ([0.1], [0.0]), review="old"),  # another review
    ]
    assert _pr.next_pair(records, "beginner", "expert", 1) == 1
    assert _pr.next_pair(records, "beginner", "beginner", 1) == 0
    todo = list(
        _pr.missing_games(records, [("beginner", "expert"), ("beginner", "beginner")], 2, 1)
    )
    assert todo == [
        ("beginner", "expert", 1, 0),
        ("beginner", "beginner", 0, 0),
        ("beginner", "beginner", 0, 1),
        ("beginner", "expert", 2, 0),
        ("beginner", "expert", 2, 1),
        ("beginner", "beginner", 1, 0),
        ("beginner", "beginner", 1, 1),
    ]


def test_play_appends_each_game_and_the_next_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "data" / "games.jsonl"
    played: list[tuple[str, str, int, int, int]] = []

    def game(a: str, b: str, seed: int, pair: int, order: int) -> dict[str, Any]:
        played.append((a, b, seed, pair, order))
        return record(a, b, pair, order, ([0.01 * (pair + 1)], [0.0]), seed=seed)

    monkeypatch.setattr(_pr, "game_record", game)
    first = list(_pr.play(path, [("advanced", "advanced")], 1, 1, 1))
    assert len(first) == 2
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2
    again = list(_pr.play(path, [("advanced", "advanced")], 2, 1, 1))
    assert [(r["pair"], r["order"]) for r in again] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert [p[3] for p in played] == [0, 0, 1, 1, 2, 2]
    figures = _pr.tallies(_pr.read_records(path))["advanced"]["self"]
    assert len(figures.games) == 12  # six games, two sides of the tier each
    assert figures.decisions == 12
    low, high = figures.interval() or (None, None)
    assert low is not None and high is not None
    assert low <= figures.pr() <= high  # type: ignore[operator]


@pytest.mark.slow
def test_a_real_game_record_is_what_the_tallies_read() -> None:
    body = _pr.game_record("advanced", "expert", 5, 0, 0)
    assert _pr.current(json.loads(json.dumps(body)))
    assert [s["tier"] for s in body["sides"]] == ["advanced", "expert"]
    made = body["sides"][0]["decisions"]
    assert made, "a whole game has non-obvious decisions"
    assert {d["phase"] for d in made} <= {"opening", "middle", "race", "bearoff"}
    assert all(d["loss"] >= 0 for d in made)
    figures = _pr.tallies([body])
    assert figures["advanced"]["expert"].decisions == len(made)
