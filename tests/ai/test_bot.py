"""The bot protocol, driven as outside tools drive it: a subprocess over pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Cube, Dice, Match, Position, Side, Xgid, legal_plays
from tests.engine.boards import board

from .positions import playout_positions

LIGHT, DARK = Side.LIGHT, Side.DARK

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
        # With no legal play the one answer is no play and the same position.
        answers_allowed = results or {position.position_id(): None}
        assert answer["result"] in answers_allowed
        assert answer["play"] == answers_allowed[str(answer["result"])]
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


def test_the_bot_runs_without_django_set_up() -> None:
    # The tier table's labels are lazy translations (django.utils), read only
    # by the site: the bot needs no settings, no app registry, no database.
    code = (
        "import io, json, sys;"
        "sys.stdin = io.StringIO('4HPwATDgc/ABMA 3 1\\n' + sys.argv[1] + '\\n');"
        "from ai_worker import bot; bot.main(['--tier', 'advanced']);"
        "names = [m for m in sys.modules if m.split('.')[0] == 'django'];"
        "print(json.dumps(names), file=sys.stderr)"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    line = Xgid(Position.start(), doubled=True).text()
    done = subprocess.run(
        [sys.executable, "-c", code, line],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        env=env,
    )
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert not [m for m in loaded if m.startswith(("django.db", "django.conf", "django.contrib"))]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert "play" in answers[0] and answers[1]["action"] == "take"


# An XGID line per decision the protocol answers (money game with Jacoby
# unless a match is given); the expected answers are the clear ones.
LAST_RACE = board({1: 2, 2: 2}, {19: 4})
CLOSED_OUT = board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {12: 4, 13: 4, 14: 3}, their_bar=4)
JACOBY = Match(jacoby=True)


def test_xgid_cube_decisions_get_an_action() -> None:
    crawford = Match(length=5, light=2, dark=4, crawford=True)
    lines = {
        "opening": Xgid(Position.start(), LIGHT, None, Cube(), JACOBY),
        "opening_doubled": Xgid(Position.start(), DARK, None, Cube(), JACOBY, doubled=True),
        "race": Xgid(LAST_RACE, LIGHT, None, Cube(), JACOBY),
        "race_doubled": Xgid(LAST_RACE, DARK, None, Cube(2, LIGHT), JACOBY, doubled=True),
        "closed_out": Xgid(CLOSED_OUT, LIGHT, None, Cube(), Match()),
        "crawford": Xgid(LAST_RACE, LIGHT, None, Cube(), crawford),
    }
    answers = dict(zip(lines, run_bot("expert", [x.text() for x in lines.values()]), strict=True))
    assert {name: a["action"] for name, a in answers.items()} == {
        "opening": "no_double",
        "opening_doubled": "take",
        "race": "double",
        "race_doubled": "pass",
        "closed_out": "too_good",
        "crawford": "no_double",
    }
    assert answers["crawford"]["refusal"] == "crawford_game"
    assert all(isinstance(a["ms"], float | int) and a["ms"] >= 0 for a in answers.values())


def test_an_xgid_with_dice_gets_a_legal_play_from_the_side_on_turn() -> None:
    pairs = playout_positions(6, seed=5)
    xgids = [
        Xgid(p, DARK if i % 2 else LIGHT, d, Cube(2, LIGHT), Match(length=7, light=4, dark=5))
        for i, (p, d) in enumerate(pairs)
    ]
    answers = run_bot("casual", [x.text() for x in xgids])
    for (position, dice), answer in zip(pairs, answers, strict=True):
        results = {p.result.position_id(): p.notation() for p in legal_plays(position, dice)}
        # With no legal play the one answer is no play and the same position.
        answers_allowed = results or {position.position_id(): None}
        assert answer["result"] in answers_allowed
        assert answer["play"] == answers_allowed[answer["result"]]


def test_an_xgid_the_site_cannot_play_gets_an_error() -> None:
    beaver = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:B:0:0:3:0:10"
    [answer] = run_bot("casual", [beaver])
    assert answer["line"] == beaver and "beaver" in str(answer["error"])


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
