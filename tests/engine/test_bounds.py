"""Every number a notation carries is bounded where it is read (issue 30, item 2).

An XGID, a Position ID and a match file are read from strangers' input: a
field may hold any digits. Each is refused with a typed error naming the
field and its limit before it can cost memory or time.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import InvalidNotationError, NumberOutOfRangeError, Position, Xgid
from games.engine.matfile import (
    MAX_FILE_CUBE,
    SAMPLE,
    MatFileError,
    MatProblem,
    parse_mat,
)
from games.engine.matreplay import replay_match

BOARD = "XGID=-b----E-C---eE---c-e----B-"


def xgid(cube: str = "0", score_x: str = "0", length: str = "0", max_cube: str = "10") -> str:
    return f"{BOARD}:{cube}:0:1:00:{score_x}:0:0:{length}:{max_cube}"


@pytest.mark.parametrize("level", ["999999999999", "1000000000", "7", "9" * 60])
def test_an_xgid_cube_past_64_is_refused_at_once_naming_the_field(level: str) -> None:
    began = time.process_time()  # this process's CPU: the machine's load is not in it
    with pytest.raises(NumberOutOfRangeError) as caught:
        Xgid.parse(xgid(cube=level))
    assert time.process_time() - began < 0.5  # 2**level would take hours
    assert (caught.value.field, caught.value.limit) == ("cube", 6)
    assert isinstance(caught.value, InvalidNotationError)


def test_an_xgid_longer_than_any_xgid_is_refused_unread() -> None:
    began = time.process_time()  # this process's CPU: the machine's load is not in it
    with pytest.raises(InvalidNotationError):
        Xgid.parse(xgid(cube="9" * 100_000))
    assert time.process_time() - began < 0.5  # 2**level would take hours


def test_the_largest_cube_is_read() -> None:
    assert Xgid.parse(xgid(cube="6")).cube.value == 64


@pytest.mark.parametrize(
    ("fields", "field", "limit"),
    [
        ({"score_x": "99999999999"}, "score", 64),
        ({"length": "99999999999", "score_x": "1"}, "length", 64),
        ({"length": "65"}, "length", 64),
        ({"max_cube": "99999999999999999"}, "max_cube", 15),
    ],
)
def test_an_xgid_score_length_or_max_cube_past_its_limit_is_refused(
    fields: dict[str, str], field: str, limit: int
) -> None:
    with pytest.raises(NumberOutOfRangeError) as caught:
        Xgid.parse(xgid(**fields))
    assert (caught.value.field, caught.value.limit) == (field, limit)


@pytest.mark.parametrize("digits", ["٣", "３", "²"])
def test_digits_other_than_ascii_are_not_read_as_numbers(digits: str) -> None:
    with pytest.raises(InvalidNotationError):
        Xgid.parse(xgid(score_x=digits))


def test_a_position_id_is_read_from_its_fourteen_characters_only() -> None:
    with pytest.raises(InvalidNotationError):
        Position.from_position_id("4HPwATDgc/ABMA" * 1000)


HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (SAMPLE.replace("alice : 0", f"alice : {HUGE}"), MatProblem.NUMBER_TOO_LARGE),
        (SAMPLE.replace("alice : 0", "alice : 99999999999999"), MatProblem.NUMBER_TOO_LARGE),
        (SAMPLE.replace("Doubles => 2", f"Doubles => {HUGE}"), MatProblem.NUMBER_TOO_LARGE),
        (SAMPLE.replace("Doubles => 2", "Doubles => 65536"), MatProblem.NUMBER_TOO_LARGE),
        (SAMPLE.replace("Doubles => 2", "Doubles => ²"), MatProblem.BAD_ROW),
        (SAMPLE.replace("Wins 2 points", "Wins ² points"), MatProblem.BAD_ROW),
        (SAMPLE.replace(" 3 point match", f" {HUGE} point match"), MatProblem.MATCH_TOO_LONG),
        (SAMPLE.replace(" 3 point match", " ٣ point match"), MatProblem.NO_LENGTH),
    ],
)
def test_a_match_file_number_past_its_limit_is_a_match_file_error(
    text: str, problem: MatProblem
) -> None:
    with pytest.raises(MatFileError) as caught:
        replay_match(parse_mat(text))
    assert caught.value.problem is problem


def test_a_file_cube_up_to_two_to_the_fifteen_is_read_then_judged_by_the_rules() -> None:
    text = SAMPLE.replace("Doubles => 2", f"Doubles => {MAX_FILE_CUBE}")
    assert parse_mat(text).games[0].actions[2].cube == MAX_FILE_CUBE
    with pytest.raises(MatFileError) as caught:
        replay_match(parse_mat(text))
    assert caught.value.problem is MatProblem.BAD_CUBE_VALUE


_NUMBERS = st.one_of(
    st.text(alphabet="0123456789", min_size=1, max_size=40),
    st.text(alphabet="0123456789٣３²¹", min_size=1, max_size=6),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_NUMBERS, min_size=1, max_size=12), st.data())
def test_any_number_anywhere_in_a_match_file_is_read_or_refused_as_a_match_file_error(
    numbers: list[str], data: st.DataObject
) -> None:
    text = SAMPLE
    spots = [i for i, ch in enumerate(text) if ch.isdigit()]
    for number in numbers:
        spot = data.draw(st.sampled_from(spots))
        text = text[:spot] + number + text[spot + 1 :]
        spots = [i for i, ch in enumerate(text) if ch.isdigit()]
    try:
        replay_match(parse_mat(text))
    except MatFileError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.lists(_NUMBERS, min_size=9, max_size=9))
def test_any_numbers_in_an_xgid_are_read_or_refused_as_a_notation_error(
    numbers: list[str],
) -> None:
    text = BOARD + "".join(f":{n}" for n in numbers)
    try:
        Xgid.parse(text)
    except InvalidNotationError:
        pass
