"""``python -m games.engine``: plays, --batch and show, as DESIGN.md specifies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.engine import Dice, Position, legal_plays
from tests.engine.boards import board

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_plays_prints_notation_tab_result_for_each_distinct_play() -> None:
    out = run("plays", "4HPwATDgc/ABMA", "6", "5")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    expected = {
        f"{p.notation()}\t{p.result.position_id()}"
        for p in legal_plays(Position.start(), Dice(6, 5))
    }
    assert set(lines) == expected and len(lines) == 7
    assert "24/13\t4HPwATDgc/ADIA" in lines


def test_plays_prints_nothing_when_no_play_exists() -> None:
    closed = board({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    out = run("plays", closed.position_id(), "6", "5")
    assert (out.returncode, out.stdout) == (0, "")


def test_batch_answers_one_json_object_per_line() -> None:
    closed = board({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    out = run("plays", "--batch", stdin=f"4HPwATDgc/ABMA 3 1\n\n{closed.position_id()} 2 2\n")
    first, second = (json.loads(line) for line in out.stdout.splitlines())
    assert first["position"] == "4HPwATDgc/ABMA" and first["dice"] == [3, 1]
    assert len(first["plays"]) == 16
    assert {p["notation"] for p in first["plays"]} >= {"8/5 6/5", "24/23 13/10"}
    assert second == {"position": closed.position_id(), "dice": [2, 2], "plays": []}


def test_batch_reports_a_bad_line_and_carries_on() -> None:
    out = run("plays", "--batch", stdin="nonsense 3 1\n4HPwATDgc/ABMA 6 6\n")
    bad, good = (json.loads(line) for line in out.stdout.splitlines())
    assert "error" in bad and bad["input"] == "nonsense 3 1"
    assert len(good["plays"]) == 11


def test_show_prints_a_text_board() -> None:
    out = run("show", "4HPwATDgc/ABMA")
    assert out.returncode == 0
    assert "Position ID: 4HPwATDgc/ABMA" in out.stdout
    assert "pips: X 167 O 167" in out.stdout


def test_a_bad_position_id_or_die_exits_with_an_error() -> None:
    assert run("plays", "not-an-id", "6", "5").returncode == 2
    assert run("plays", "4HPwATDgc/ABMA", "7", "5").returncode == 2
    assert run("show", "x").returncode == 2
