"""The bot protocol, driven as outside tools drive it: a subprocess over pipes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Dice, Position, legal_plays

from .positions import playout_positions

ROOT = Path(__file__).resolve().parents[2]
# Two checkers on the bar against a closed board: nothing can move.
DANCING = Position(
    tuple([0, 0, 0, 0, 0, 13] + [0] * 18 + [2]),
    tuple([2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 3] + [0] * 14),
)


def run_bot(tier: str, lines: list[str], *extra: str) -> list[dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-m", "ai_worker.bot", "--tier", tier, *extra],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_it_answers_each_line_with_a_legal_play_and_its_result() -> None:
    pairs = playout_positions(40, seed=11)
    answers = run_bot("intermediate", [f"{p.position_id()} {d.d1} {d.d2}" for p, d in pairs])
    assert len(answers) == len(pairs)
    for (position, dice), answer in zip(pairs, answers, strict=True):
        plays = legal_plays(position, dice)
        results = {play.result.position_id(): play.notation() for play in plays}
        if not results:
            assert answer["play"] is None and answer["result"] == position.position_id()
        else:
            assert answer["result"] in results
            assert answer["play"] == results[str(answer["result"])]
        assert isinstance(answer["ms"], float | int) and answer["ms"] >= 0


def test_no_legal_play_answers_null_and_the_same_position() -> None:
    assert not legal_plays(DANCING, Dice(6, 5))
    [answer] = run_bot("beginner", [f"{DANCING.position_id()} 6 5"])
    assert answer["play"] is None
    assert answer["result"] == DANCING.position_id()


def test_bad_lines_get_an_error_and_the_bot_keeps_going() -> None:
    start = Position.start().position_id()
    answers = run_bot("casual", ["nonsense", f"{start} 7 1", "!!!!!!!!!!!!!! 3 1", f"{start} 3 1"])
    assert [("error" in a) for a in answers] == [True, True, True, False]
    assert answers[0]["line"] == "nonsense"
    legal = {p.notation() for p in legal_plays(Position.start(), Dice(3, 1))}
    assert answers[3]["play"] in legal


def test_the_expert_bot_anticipates_with_its_search_and_matches_the_policy() -> None:
    from ai_worker.policy import choose_play

    start = Position.start()
    [answer] = run_bot("expert", [f"{start.position_id()} 6 4"], "--seed", "s")
    play = choose_play(start, Dice(6, 4), "expert", "s")
    assert play is not None and answer["play"] == play.notation()


def test_the_bot_runs_without_django() -> None:
    code = (
        "import io, sys;"
        "sys.stdin = io.StringIO('4HPwATDgc/ABMA 3 1\\n');"
        "from ai_worker import bot; bot.main(['--tier', 'advanced']);"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stderr.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("tier", ["nobody", ""])
def test_an_unknown_tier_is_refused_at_start(tier: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ai_worker.bot", "--tier", tier],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode != 0 and "tier" in done.stderr
