"""Each puzzle theme on constructed positions: one it must get, one it must
not (learning.puzzles.themes). LIGHT is on roll; points are LIGHT's."""

from __future__ import annotations

import pytest

from games.engine import Dice, Position, parse_play
from learning.puzzles import themes
from tests.boards import board

EVEN = {
    "win": 0.5,
    "win_gammon": 0.1,
    "win_backgammon": 0.0,
    "lose_gammon": 0.1,
    "lose_backgammon": 0.0,
}
START_LIGHT = {24: 2, 13: 5, 8: 3, 6: 5}
START_DARK = {1: 2, 12: 5, 17: 3, 19: 5}


def tags(
    position: Position, dice: tuple[int, int], best: str, other: str, turn: int = 9
) -> list[str]:
    roll = Dice(*dice)
    found = themes.checker_themes(
        position,
        turn,
        parse_play(position, roll, best),
        parse_play(position, roll, other),
        EVEN,
        EVEN,
    )
    answer = found["answer"]
    assert isinstance(answer, list)
    return answer


# ------------------------------------------------------------------ phase


def test_the_opening_is_the_first_six_turns_with_contact() -> None:
    assert themes.phase(Position.start(), 1) == themes.OPENING
    assert themes.phase(Position.start(), 9) == themes.MIDDLE


def test_a_race_and_a_bear_off_have_no_contact() -> None:
    race = board({12: 5, 6: 5, 5: 5}, {19: 5, 20: 5, 24: 5})
    home = board({6: 5, 5: 5, 4: 5}, {19: 5, 20: 5, 21: 5})
    assert themes.phase(race, 30) == themes.RACE
    assert themes.phase(home, 30) == themes.BEAROFF


def test_bearing_off_against_an_anchor_is_the_contact_endgame_not_the_bear_off() -> None:
    position = board({6: 4, 5: 4, 4: 4, 3: 3}, {1: 2, 19: 13})
    assert themes.phase(position, 40) == themes.CONTACT_ENDGAME
    # Each side still with checkers back: a middle game, not an endgame.
    assert themes.phase(board(START_LIGHT, START_DARK), 40) == themes.MIDDLE


# -------------------------------------------------------------- structure


def test_two_points_back_and_far_behind_is_a_back_game_one_point_a_holding_game() -> None:
    dark = {19: 3, 22: 3, 23: 3, 18: 3, 17: 3}
    back = board({21: 2, 20: 2, 13: 3, 8: 3, 6: 5}, dark)
    holding = board({21: 2, 13: 5, 8: 3, 6: 5}, dark)
    assert themes.structure(back) == themes.BACK_GAME
    assert themes.structure(holding) == themes.HOLDING


def test_three_home_points_against_a_checker_on_the_bar_is_a_blitz_not_against_an_anchor() -> None:
    light = {13: 4, 8: 2, 6: 3, 5: 3, 4: 3}
    assert themes.structure(board(light, {12: 5, 17: 3, 19: 6}, dark_bar=1)) == themes.BLITZ
    # The same attack against a checker that holds an anchor in LIGHT's board.
    assert themes.structure(board(light, {3: 2, 12: 4, 17: 3, 19: 5}, dark_bar=1)) != themes.BLITZ


def test_four_points_in_a_row_with_a_checker_behind_is_priming() -> None:
    primed = board({13: 3, 8: 3, 7: 3, 6: 3, 5: 3}, {2: 2, 12: 5, 17: 3, 19: 5})
    assert themes.structure(primed) == themes.PRIMING
    # Three points in a row are no prime.
    short = board({13: 3, 9: 3, 7: 3, 6: 3, 5: 3}, {2: 2, 12: 5, 17: 3, 19: 5})
    assert themes.structure(short) != themes.PRIMING


def test_both_sides_of_a_race_are_racing_and_the_start_is_none_of_them() -> None:
    race = board({12: 5, 6: 5, 5: 5}, {19: 5, 20: 5, 24: 5})
    assert themes.structures(race) == (themes.RACE_GAME, themes.RACE_GAME)
    assert themes.structure(Position.start()) == themes.HOLDING  # the 24-point is held


# ------------------------------------------------------- the answer's theme


def test_hit_or_build_one_play_hits_the_other_makes_a_point() -> None:
    position = board(START_LIGHT, {1: 2, 10: 1, 12: 4, 17: 3, 19: 5})
    assert themes.HIT_OR_BUILD in tags(position, (3, 1), "13/10* 10/9", "8/5 6/5")
    # Both plays hit: no question of hitting or building.
    assert themes.HIT_OR_BUILD not in tags(position, (3, 1), "13/10* 10/9", "13/10* 6/5")


def test_split_or_build_one_play_splits_the_back_checkers_the_other_builds() -> None:
    start = Position.start()
    assert themes.SPLIT_OR_BUILD in tags(start, (2, 1), "13/11 6/5", "24/23 13/11")
    assert themes.SPLIT_OR_BUILD not in tags(start, (2, 1), "13/11 6/5", "13/10")


def test_slot_one_play_slots_the_five_point() -> None:
    start = Position.start()
    assert themes.SLOT in tags(start, (2, 1), "13/11 6/5", "13/10")
    assert themes.SLOT not in tags(start, (2, 1), "24/21", "13/10")


def test_escape_one_play_brings_a_back_checker_out() -> None:
    start = Position.start()
    assert themes.ESCAPE in tags(start, (6, 5), "24/13", "13/7 13/8")
    assert themes.ESCAPE not in tags(start, (6, 5), "13/7 13/8", "13/2")


def test_anchor_one_play_makes_a_point_in_the_other_board() -> None:
    split = board({24: 1, 21: 1, 13: 5, 8: 3, 6: 5}, START_DARK)
    assert themes.ANCHOR in tags(split, (3, 2), "24/21 13/11", "13/10 13/11")
    assert themes.ANCHOR not in tags(split, (3, 2), "13/10 13/11", "13/8")


def test_clear_a_point_one_play_empties_the_eight_point_the_other_keeps_it() -> None:
    position = board({8: 2, 6: 4, 5: 3, 4: 3, 3: 3}, {1: 2, 19: 13})
    assert themes.CLEAR in tags(position, (4, 2), "8/4 8/6", "6/2 6/4", turn=40)
    assert themes.CLEAR not in tags(position, (4, 2), "6/2 5/3", "6/4 6/2", turn=40)


def test_bear_in_safely_the_plays_leave_different_shots_with_no_checker_back() -> None:
    position = board({9: 1, 8: 2, 6: 4, 5: 4, 4: 4}, {1: 2, 19: 13})
    assert themes.BEAR_IN in tags(position, (5, 1), "9/8 8/3", "9/4 8/7", turn=40)
    # LIGHT still has a checker back: bringing it round is no bear-in.
    back = board({24: 1, 8: 2, 6: 4, 5: 4, 4: 4}, {1: 2, 19: 13})
    assert themes.BEAR_IN not in tags(back, (5, 1), "8/3 8/7", "8/3 6/5", turn=40)


def test_bear_off_against_contact_every_checker_home_and_an_anchor_behind() -> None:
    position = board({6: 4, 5: 4, 4: 4, 3: 3}, {1: 2, 19: 13})
    assert themes.BEAR_OFF_CONTACT in tags(position, (6, 2), "6/off 5/3", "6/off 6/4", turn=40)
    no_contact = board({6: 4, 5: 4, 4: 4, 3: 3}, {19: 5, 20: 5, 21: 5})
    assert themes.BEAR_OFF_CONTACT not in tags(
        no_contact, (6, 2), "6/off 5/3", "6/off 6/4", turn=40
    )


@pytest.mark.parametrize(
    ("best", "match", "expected"),
    [
        ("double", False, ["double"]),
        ("no_double", True, ["no_double", "match_score"]),
        ("too_good", False, ["too_good"]),
        ("take", True, ["take", "match_score"]),
        ("pass", False, ["pass"]),
    ],
)
def test_a_cube_puzzle_is_tagged_with_its_answer_and_a_match_score(
    best: str, match: bool, expected: list[str]
) -> None:
    found = themes.cube_themes(Position.start(), 9, "double", best, match)
    assert found["answer"] == expected
    assert themes.flat(found)[0] == "phase:middle"
