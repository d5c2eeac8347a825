"""The cube and the match in the engine: who may double, takes and passes, points, Crawford."""

from __future__ import annotations

import pytest

from games.engine import (
    MAX_CUBE,
    Cube,
    CubeRefusal,
    Match,
    ResultKind,
    Side,
    double_refusal,
    pass_points,
    result_points,
)

LIGHT, DARK = Side.LIGHT, Side.DARK
VALUES = (1, 2, 4, 8, 16, 32, 64)
KINDS = tuple(ResultKind)


# ---------------------------------------------------------------- ownership


def test_a_centred_cube_may_be_turned_by_either_side() -> None:
    assert double_refusal(Cube(), Match(), LIGHT) is None
    assert double_refusal(Cube(), Match(), DARK) is None


def test_only_the_owner_may_redouble() -> None:
    owned = Cube().taken(DARK)
    assert owned == Cube(2, DARK)
    assert double_refusal(owned, Match(), DARK) is None
    assert double_refusal(owned, Match(), LIGHT) is CubeRefusal.NOT_YOUR_CUBE


def test_takes_pass_the_cube_back_and_forth_up_to_64_and_stop_there() -> None:
    cube, taker = Cube(), DARK
    seen = [cube.value]
    while double_refusal(cube, Match(), taker.other) is None:
        cube = cube.taken(taker)
        assert cube.owner is taker
        seen.append(cube.value)
        taker = taker.other
    assert seen == list(VALUES)
    assert double_refusal(cube, Match(), taker.other) is CubeRefusal.CUBE_AT_MAX
    assert double_refusal(cube, Match(), taker) is CubeRefusal.NOT_YOUR_CUBE
    with pytest.raises(ValueError):
        cube.taken(taker)


@pytest.mark.parametrize("value", [0, 3, 6, 128, -2])
def test_a_cube_shows_only_powers_of_two_to_64(value: int) -> None:
    with pytest.raises(ValueError):
        Cube(value)


@pytest.mark.parametrize(("value", "level"), [(1, 0), (2, 1), (8, 3), (64, 6)])
def test_the_cube_level_is_its_power_of_two(value: int, level: int) -> None:
    assert Cube(value).level == level and MAX_CUBE == 64


def test_the_single_game_has_no_cube_and_a_finished_game_no_double() -> None:
    assert double_refusal(None, Match(), LIGHT) is CubeRefusal.NO_CUBE
    assert double_refusal(Cube(), Match(), LIGHT, game_over=True) is CubeRefusal.GAME_OVER
    won = Match(length=3, light=3, dark=1)
    assert won.winner is LIGHT
    assert double_refusal(Cube(), won, DARK) is CubeRefusal.GAME_OVER


# ---------------------------------------------------------------- Crawford


def test_nobody_doubles_in_the_crawford_game() -> None:
    crawford = Match(length=5, light=4, dark=2, crawford=True)
    assert double_refusal(Cube(), crawford, LIGHT) is CubeRefusal.CRAWFORD_GAME
    assert double_refusal(Cube(), crawford, DARK) is CubeRefusal.CRAWFORD_GAME


def test_after_crawford_the_trailer_doubles_and_the_leaders_cube_is_dead() -> None:
    post = Match(length=5, light=4, dark=2)
    assert post.post_crawford and not post.crawford
    assert double_refusal(Cube(), post, LIGHT) is CubeRefusal.DEAD_CUBE
    assert double_refusal(Cube(), post, DARK) is None
    # The trailer needs 3: with a 4-cube of its own the cube is dead for it too.
    assert double_refusal(Cube(2, DARK), post, DARK) is None
    assert double_refusal(Cube(4, DARK), post, DARK) is CubeRefusal.DEAD_CUBE


def test_a_cube_that_already_wins_the_match_is_dead_before_crawford_too() -> None:
    match = Match(length=7, light=5, dark=1)
    assert double_refusal(Cube(), match, LIGHT) is None  # 5 + 1 < 7
    assert double_refusal(Cube(2, LIGHT), match, LIGHT) is CubeRefusal.DEAD_CUBE
    assert double_refusal(Cube(2, DARK), match, DARK) is None


def test_the_crawford_game_comes_once_right_after_a_side_reaches_match_point() -> None:
    match = Match(length=5)
    steps = [(LIGHT, 2), (LIGHT, 2), (DARK, 1), (DARK, 2), (DARK, 1), (LIGHT, 1)]
    flags: list[tuple[int, int, bool, bool]] = []
    for winner, points in steps:
        match = match.after(winner, points)
        flags.append((match.light, match.dark, match.crawford, match.post_crawford))
    assert flags == [
        (2, 0, False, False),
        (4, 0, True, False),  # LIGHT first reaches 4: the Crawford game
        (4, 1, False, True),
        (4, 3, False, True),
        (4, 4, False, True),  # DARK reaching 4 later makes no second Crawford game
        (5, 4, False, False),
    ]
    assert match.winner is LIGHT


def test_a_win_that_jumps_over_match_point_minus_one_makes_no_crawford_game() -> None:
    assert Match(length=3).after(DARK, 4) == Match(length=3, dark=3)
    assert Match(length=9, light=3).after(LIGHT, 5).crawford is True


def test_money_games_keep_a_running_score_and_never_a_crawford_game() -> None:
    money = Match(jacoby=True).after(LIGHT, 4).after(DARK, 2)
    assert (money.light, money.dark, money.crawford, money.jacoby) == (4, 2, False, True)
    assert money.winner is None and money.away(LIGHT) == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"length": -1},
        {"length": 5, "light": 6},
        {"length": 5, "jacoby": True},
        {"length": 5, "light": 2, "crawford": True},
        {"crawford": True},
    ],
)
def test_impossible_matches_are_refused(kwargs: dict[str, int | bool]) -> None:
    with pytest.raises(ValueError):
        Match(**kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- points


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("kind", KINDS)
def test_a_money_game_is_worth_the_kind_times_the_cube(value: int, kind: ResultKind) -> None:
    owner = None if value == 1 else DARK
    assert result_points(kind, Cube(value, owner), Match(), LIGHT) == kind.points * value


@pytest.mark.parametrize("kind", KINDS)
def test_jacoby_counts_a_single_while_the_cube_is_centred(kind: ResultKind) -> None:
    assert result_points(kind, Cube(), Match(jacoby=True), LIGHT) == 1
    assert result_points(kind, Cube(2, LIGHT), Match(jacoby=True), LIGHT) == 2 * kind.points
    assert result_points(kind, Cube(), Match(), LIGHT) == kind.points


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("kind", KINDS)
def test_a_match_game_gives_at_most_what_the_winner_needs(value: int, kind: ResultKind) -> None:
    match = Match(length=15, light=3, dark=9)
    owner = None if value == 1 else LIGHT
    assert result_points(kind, Cube(value, owner), match, LIGHT) == min(kind.points * value, 12)
    assert result_points(kind, Cube(value, owner), match, DARK) == min(kind.points * value, 6)


def test_gammons_count_in_matches_whatever_the_cube() -> None:
    assert result_points(ResultKind.GAMMON, Cube(), Match(length=7), DARK) == 2


def test_the_single_game_without_the_cube_counts_1_2_3() -> None:
    assert [result_points(k, None, Match(), LIGHT) for k in KINDS] == [1, 2, 3]


@pytest.mark.parametrize("value", VALUES[:-1])
def test_a_pass_gives_the_doubler_the_cube_before_the_double(value: int) -> None:
    owner = None if value == 1 else LIGHT
    assert pass_points(Cube(value, owner), Match(jacoby=True), LIGHT) == value
    assert pass_points(Cube(value, owner), Match(length=25, light=22), LIGHT) == min(value, 3)


def test_a_take_doubles_the_stake_of_every_result() -> None:
    taken = Cube().taken(DARK)
    assert result_points(ResultKind.BACKGAMMON, taken, Match(), LIGHT) == 6
    assert result_points(ResultKind.SINGLE, taken.taken(LIGHT), Match(), DARK) == 4
