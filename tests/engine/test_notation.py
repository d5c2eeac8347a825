"""Notation, Position ID and XGID: written like gnubg / XG and read back."""

from __future__ import annotations

import pytest

from games.engine import (
    Dice,
    IllegalPlayError,
    InvalidNotationError,
    Position,
    Step,
    decode_xgid,
    encode_xgid,
    legal_plays,
    parse_play,
)
from games.engine.notation import format_play
from tests.engine.boards import board


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ((Step(24, 18, 6), Step(13, 11, 2)), "24/18 13/11"),
        ((Step(25, 22, 3, True),), "bar/22*"),
        ((Step(6, 0, 6),), "6/off"),
        ((Step(8, 5, 3), Step(8, 5, 3), Step(6, 3, 3), Step(6, 3, 3)), "8/5(2) 6/3(2)"),
        ((Step(24, 21, 3), Step(21, 16, 5)), "24/16"),
        ((Step(24, 21, 3, True), Step(21, 16, 5)), "24/21*/16"),
        ((Step(13, 7, 6), Step(7, 2, 5, True)), "13/2*"),
        ((Step(6, 2, 4), Step(6, 2, 4), Step(2, 0, 4), Step(2, 0, 4)), "6/off(2)"),
        ((Step(24, 20, 4), Step(20, 16, 4), Step(16, 12, 4), Step(13, 9, 4)), "24/12 13/9"),
        ((), ""),
    ],
)
def test_notation_is_written_like_gnubg(steps: tuple[Step, ...], text: str) -> None:
    assert format_play(steps) == text


def test_full_notation_shows_every_point_a_checker_touches() -> None:
    assert format_play((Step(24, 21, 3), Step(21, 16, 5)), full=True) == "24/21/16"


def test_a_star_is_written_once_per_hit_point() -> None:
    steps = (Step(13, 9, 4, True), Step(13, 9, 4, False))
    assert format_play(steps) == "13/9*(2)"


@pytest.mark.parametrize(
    ("text", "dice", "expected"),
    [
        ("24/18 13/11", (6, 2), "24/18 13/11"),
        ("13/11 24/18", (6, 2), "24/18 13/11"),
        ("24/21/16", (5, 3), "24/16"),
        ("24/16", (5, 3), "24/16"),
        ("8/5(2) 6/3(2)", (3, 3), "8/5(2) 6/3(2)"),
        ("13/7 13/7 8/2 8/2", (6, 6), "13/7(2) 8/2(2)"),
        ("24-18 13-11", (6, 2), "24/18 13/11"),
    ],
)
def test_notation_is_read_in_its_usual_spellings(
    text: str, dice: tuple[int, int], expected: str
) -> None:
    assert parse_play(Position.start(), Dice(*dice), text).notation() == expected


def test_reading_prefers_the_path_the_stars_describe() -> None:
    position = board({24: 1, 6: 5}, {21: 1})
    hit = parse_play(position, Dice(5, 3), "24/21*/16")
    assert hit.result.opp[24] == 1
    quiet = parse_play(position, Dice(5, 3), "24/16")
    assert quiet.result.opp[24] == 0


def test_bar_and_off_are_read() -> None:
    entering = board({25: 1, 6: 5}, {22: 1})
    assert parse_play(entering, Dice(3, 1), "bar/22* 6/5").notation() == "bar/22* 6/5"
    assert parse_play(board({6: 1, 3: 1}), Dice(6, 3), "6/off 3/off").notation() == "6/off 3/off"


def test_no_play_reads_as_the_empty_string() -> None:
    closed = board({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    assert parse_play(closed, Dice(6, 5), "").steps == ()
    with pytest.raises(IllegalPlayError):
        parse_play(Position.start(), Dice(6, 5), "")


@pytest.mark.parametrize("text", ["24/", "x/13", "13/7(9)", "13/15", "26/20", "13//7"])
def test_malformed_notation_raises_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_play(Position.start(), Dice(6, 5), text)


@pytest.mark.parametrize("text", ["24/18", "24/13 13/8", "6/1 13/8", "24/18 24/19"])
def test_well_formed_but_illegal_plays_raise_illegal_play(text: str) -> None:
    with pytest.raises(IllegalPlayError):
        parse_play(Position.start(), Dice(6, 5), text)


def test_every_opening_play_round_trips_through_its_notation() -> None:
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            for play in legal_plays(Position.start(), Dice(d1, d2)):
                again = parse_play(Position.start(), Dice(d1, d2), play.notation())
                assert again.result == play.result


def test_position_id_of_known_boards() -> None:
    assert Position.start().position_id() == "4HPwATDgc/ABMA"
    after_lovers_leap = board({13: 6, 8: 3, 6: 5, 24: 1}, {1: 2, 12: 5, 17: 3, 19: 5})
    # Checked against GNU Backgammon's own PositionID (gnubg-nn) when written.
    assert after_lovers_leap.position_id() == "4HPwATDgc/ADIA"
    assert Position.from_position_id("4HPwATDgc/ADIA") == after_lovers_leap


@pytest.mark.parametrize("pid", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABM!", "//////////////"])
def test_malformed_position_ids_raise(pid: str) -> None:
    with pytest.raises(InvalidNotationError):
        Position.from_position_id(pid)


def test_xgid_is_written_and_read_with_the_side_on_roll() -> None:
    position = board({25: 1, 6: 5, 8: 3}, {20: 2, 3: 1}, their_bar=1)
    text = encode_xgid(position, Dice(4, 2))
    assert text.startswith("XGID=a--a--E-C-----------b----A:0:0:1:42:")
    assert decode_xgid(text) == (position, Dice(4, 2))
    seen_by_other, dice = decode_xgid(text.replace(":1:42:", ":-1:42:"))
    assert seen_by_other == position.swapped() and dice == Dice(4, 2)
    assert decode_xgid(encode_xgid(Position.start()))[1] is None


@pytest.mark.parametrize(
    "text",
    [
        "XGID=",
        "XGID=-b----E-C---eE---c-e----B-",
        "XGID=A-----E-C---eE---c-e----B-:0:0:1:00:0",
    ],
)
def test_malformed_xgids_raise(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        decode_xgid(text)
