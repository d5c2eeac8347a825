"""XGID with the cube, the score, the match length and Crawford/Jacoby, read and written.

The last tests hand our XGIDs to GNU Backgammon (``/usr/games/gnubg -t``, an
outside program, never imported) and read back what it understood.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from games.engine import (
    Cube,
    Dice,
    InvalidNotationError,
    Match,
    Position,
    Side,
    Xgid,
    decode_xgid,
    encode_xgid,
)
from tests.conftest import require_service
from tests.engine.boards import board

GNUBG = Path("/usr/games/gnubg")
LIGHT, DARK = Side.LIGHT, Side.DARK
RACE = board({6: 3, 5: 4, 3: 2, 1: 2}, {22: 3, 20: 4, 19: 3})
HIT = board({25: 1, 6: 5, 8: 3}, {20: 2, 3: 1}, their_bar=1)

CASES = [
    Xgid(Position.start()),
    Xgid(Position.start(), DARK, Dice(6, 5)),
    Xgid(HIT, LIGHT, None, Cube(2, DARK), Match(jacoby=True)),
    Xgid(HIT, DARK, None, Cube(4, DARK), Match(), doubled=True),
    Xgid(RACE, LIGHT, Dice(3, 3), Cube(8, LIGHT), Match(length=11, light=3, dark=7)),
    Xgid(RACE, DARK, None, Cube(), Match(length=5, light=4, dark=2, crawford=True)),
    Xgid(RACE, LIGHT, Dice(2, 1), Cube(), Match(length=5, light=4, dark=2)),
    Xgid(RACE, DARK, Dice(4, 1), Cube(64, LIGHT), Match(length=0, light=12, dark=3)),
]


@pytest.mark.parametrize("xgid", CASES, ids=str)
def test_every_field_survives_a_round_trip(xgid: Xgid) -> None:
    assert Xgid.parse(xgid.text()) == xgid
    assert Xgid.parse(xgid.text().removeprefix("XGID=")) == xgid


def test_the_fields_are_written_where_the_standard_puts_them() -> None:
    xgid = Xgid(RACE, DARK, None, Cube(8, LIGHT), Match(length=7, light=6, dark=2), doubled=True)
    fields = xgid.text().split(":")[1:]
    assert fields == ["3", "1", "-1", "D", "6", "2", "0", "7", "6"]
    crawford = Xgid(RACE, LIGHT, Dice(5, 2), Cube(), Match(length=7, light=6, crawford=True))
    assert crawford.text().split(":")[1:] == ["0", "0", "1", "52", "6", "0", "1", "7", "6"]
    jacoby = Xgid(RACE, LIGHT, None, Cube(), Match(jacoby=True))
    assert jacoby.text().split(":")[7:9] == ["1", "0"]


def test_the_board_is_always_written_from_x_whoever_is_on_turn() -> None:
    light_on_turn = Xgid(HIT, LIGHT).text().split(":")[0]
    dark_on_turn = Xgid(HIT.swapped(), DARK).text().split(":")[0]
    assert light_on_turn == dark_on_turn == "XGID=a--a--E-C-----------b----A"


def test_a_money_session_from_extreme_gammon_reads_with_jacoby() -> None:
    # Posted to rec.games.backgammon as "Money session, Jacoby", X on roll, cube action.
    xgid = Xgid.parse("XGID=a--B-BCbBAA-cB---bbeAA----:0:0:1:00:0:0:1:0:10")
    assert (xgid.turn, xgid.dice, xgid.doubled) == (LIGHT, None, False)
    assert xgid.cube == Cube() and xgid.match == Match(jacoby=True)
    assert xgid.position.pips() == (136, 160)


def test_beaver_bit_is_dropped_and_the_old_two_tuple_helpers_still_read() -> None:
    xgid = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    assert xgid.match == Match(jacoby=True)
    position, dice = decode_xgid(encode_xgid(HIT, Dice(4, 2)))
    assert (position, dice) == (HIT, Dice(4, 2))


@pytest.mark.parametrize(
    "text",
    [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10",  # beaver
        "XGID=-b----E-C---eE---c-e----B-:7:1:1:00:0:0:0:0:10",  # a 128 cube
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:1:1:5:10",  # Crawford, nobody at 4
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:1:0:5:10",  # score past the length
        "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",  # no such owner
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:7:0:0:0:0:10",
    ],
)
def test_xgids_the_site_cannot_play_are_refused(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        Xgid.parse(text)


def test_a_doubled_position_has_no_dice() -> None:
    with pytest.raises(ValueError):
        Xgid(RACE, LIGHT, Dice(3, 1), doubled=True)


# ---------------------------------------------------------------- GNU Backgammon


def _gnubg_reads(xgid: Xgid) -> str:
    require_service("GNU Backgammon (/usr/games/gnubg)", GNUBG.exists)
    script = f"set xgid {xgid.text()}\nshow score\nshow cube\nshow dice\n"
    done = subprocess.run(
        [str(GNUBG), "-t", "-q"], input=script, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("xgid", CASES[2:], ids=str)
def test_gnu_backgammon_reads_our_cube_score_and_turn(xgid: Xgid) -> None:
    # gnubg's ``set xgid`` names X (LIGHT) "root" and O (DARK) "gnubg".
    out = _gnubg_reads(xgid)
    name = {LIGHT: "root", DARK: "gnubg"}
    match = xgid.match
    score = re.search(r"The score \(after 0 games\) is: (\w+ \d+), (\w+ \d+) \(([^)]*)\)", out)
    assert score is not None, out
    assert {score[1], score[2]} == {f"root {match.light}", f"gnubg {match.dark}"}
    if match.length and match.crawford:
        kind = f"match to {match.length} points, Crawford game"
    elif match.post_crawford:
        kind = f"match to {match.length} points, post-Crawford play"
    elif match.length:
        kind = f"match to {match.length} points"
    else:
        kind = f"money session, {'with' if match.jacoby else 'without'} Jacoby rule"
    assert score[3] == kind
    if match.crawford:
        cube = "The cube is disabled during the Crawford game."
    elif xgid.cube.owner is None:
        cube = f"The cube is at {xgid.cube.value}, and is centred."
    else:
        cube = f"The cube is at {xgid.cube.value}, and is owned by {name[xgid.cube.owner]}."
    assert cube in out
    dice = xgid.dice
    rolled = f"{name[xgid.turn]} has rolled {dice.d1} and {dice.d2}" if dice else "has rolled"
    assert (rolled in out) == (dice is not None), out
