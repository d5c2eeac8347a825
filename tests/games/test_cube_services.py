"""games.services with the cube: roll, double, take, pass, points, refusals, the computer's side."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import CubeAction, Game, GameKind, Status
from tests.boards import board

pytestmark = pytest.mark.django_db


def money(make_game: Any, position: Any = None, **fields: Any) -> Game:
    fields.setdefault("status", Status.DECIDING)
    fields.setdefault("jacoby", True)
    game: Game = make_game(position, kind=GameKind.MONEY, **fields)
    return game


LAST_TURN_6 = {"number": 6, "side": "dark", "dice": [3, 1], "notation": "8/5 6/5", "steps": []}


def actions(game: Game) -> list[tuple[int, str, str, int]]:
    rows = CubeAction.objects.filter(game=game).order_by("number")
    return [(a.before_turn, a.side, a.action, a.value) for a in rows]


def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_starting_a_money_game_hands_the_computer_its_cube_decision_after_the_opening(
    user: Any, dice: Any, computer_queue: list, django_capture_on_commit_callbacks: Any
) -> None:
    dice.queue(5, 2)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(user, "casual", GameKind.MONEY)
    assert (game.kind, game.jacoby, game.status, game.dice) == ("money", True, "opening", [5, 2])
    with django_capture_on_commit_callbacks(execute=True):
        services.make_step(game.pk, user, game.version, 13, 8)
        game = services.make_step(game.pk, user, game.version + 1, 13, 11)
    game = reload(game)
    # DARK may double before its roll: it decides first, no dice yet.
    assert (game.status, game.turn, game.dice) == ("deciding", "dark", None)
    assert computer_queue[-1] == (game.pk, game.version)
    due = services.computer_due(game.pk, game.version)
    assert due is not None and due.task == "cube"
    dice.queue(6, 4)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.finish_computer_cube(game.pk, game.version, "no_double")
    assert not services.finish_computer_cube(game.pk, game.version, "no_double")  # duplicate
    game = reload(game)
    assert (game.status, game.turn, game.dice) == ("playing", "dark", [6, 4])
    assert computer_queue[-1] == (game.pk, game.version)  # now its checker play
    due = services.computer_due(game.pk, game.version)
    assert due is not None and due.task == "play" and str(due.dice) == "64"


def test_the_person_rolls_instead_of_doubling(user: Any, make_game: Any, dice: Any) -> None:
    game = money(make_game)
    dice.queue(3, 1)
    game = services.roll_dice(game.pk, user, game.version)
    assert (game.status, game.dice, game.cube_value) == ("playing", [3, 1], 1)
    with pytest.raises(services.CubeRefusedError) as refused:
        services.double(game.pk, user, game.version)
    assert refused.value.refusal_code == "already_rolled"
    with pytest.raises(services.CubeRefusedError) as refused:
        services.roll_dice(game.pk, user, game.version)
    assert refused.value.refusal_code == "not_deciding"


def test_the_person_doubles_and_the_computer_takes(
    user: Any,
    make_game: Any,
    dice: Any,
    computer_queue: list,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = money(make_game, last_turn=LAST_TURN_6)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.double(game.pk, user, game.version)
    assert (game.status, game.turn, game.cube_offered) == ("doubled", "dark", "light")
    assert computer_queue[-1] == (game.pk, game.version)
    with pytest.raises(services.StaleVersionError):
        services.double(game.pk, user, game.version - 1)  # the same command again
    due = services.computer_due(game.pk, game.version)
    assert due is not None and (due.task, due.mover.value) == ("answer", "light")
    dice.queue(4, 2)
    assert services.finish_computer_cube(game.pk, game.version, "take")
    assert not services.finish_computer_cube(game.pk, game.version, "take")
    game = reload(game)
    # The doubler rolls at once: it cannot double again with the taker's cube.
    assert (game.cube_value, game.cube_owner, game.cube_offered) == (2, "dark", "")
    assert (game.status, game.turn, game.dice) == ("playing", "light", [4, 2])
    assert actions(game) == [(7, "light", "double", 2), (7, "dark", "take", 2)]


def test_the_computer_passes_and_the_person_wins_the_cube(user: Any, make_game: Any) -> None:
    game = money(make_game, cube_value=2, cube_owner="light")
    game = services.double(game.pk, user, game.version)
    assert services.finish_computer_cube(game.pk, game.version, "pass")
    game = reload(game)
    assert (game.status, game.winner, game.result_kind, game.points) == (
        "finished",
        "light",
        "single",
        2,
    )
    assert game.passed and actions(game)[-1][1:] == ("dark", "pass", 4)


def test_the_computer_doubles_and_the_person_takes_or_passes(
    user: Any, make_game: Any, dice: Any
) -> None:
    game = money(make_game, turn="dark")
    assert services.finish_computer_cube(game.pk, game.version, "double")
    game = reload(game)
    assert (game.status, game.turn, game.cube_offered) == ("doubled", "light", "dark")
    with pytest.raises(services.CubeRefusedError) as refused:
        services.roll_dice(game.pk, user, game.version)
    assert refused.value.refusal_code == "answer_first"
    with pytest.raises(services.NotYourTurnError):
        services.make_step(game.pk, user, game.version, 13, 8)
    dice.queue(6, 6)
    taken = services.take(game.pk, user, game.version)
    assert (taken.cube_value, taken.cube_owner, taken.turn, taken.dice) == (
        2,
        "light",
        "dark",
        [6, 6],
    )
    with pytest.raises(services.CubeRefusedError) as refused:
        services.take(game.pk, user, taken.version)
    assert refused.value.refusal_code == "no_double_pending"

    other = money(make_game, turn="dark", cube_value=2, cube_owner="dark")
    assert services.finish_computer_cube(other.pk, other.version, "double")
    other = services.pass_double(other.pk, user, other.version + 1)
    assert (other.winner, other.points, other.passed) == ("dark", 2, True)


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"cube_value": 2, "cube_owner": "dark"}, "not_your_cube"),
        ({"cube_value": 64, "cube_owner": "light"}, "cube_at_max"),
        ({"kind": GameKind.SINGLE}, "no_cube"),
    ],
)
def test_a_refused_double_changes_nothing_and_says_why(
    user: Any, make_game: Any, fields: dict[str, Any], code: str
) -> None:
    kind = fields.pop("kind", GameKind.MONEY)
    game = make_game(status=Status.DECIDING, kind=kind, **fields)
    with pytest.raises(services.CubeRefusedError) as refused:
        services.double(game.pk, user, game.version)
    assert refused.value.refusal_code == code
    after = reload(game)
    assert (after.version, after.status, after.cube_value) == (
        game.version,
        "deciding",
        game.cube_value,
    )
    assert not CubeAction.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("cube", "jacoby", "points"),
    [((1, ""), True, 1), ((1, ""), False, 2), ((4, "light"), True, 8), ((2, "dark"), True, 4)],
)
def test_a_gammon_is_worth_two_times_the_cube_and_one_under_jacoby_with_the_cube_centred(
    user: Any, make_game: Any, cube: tuple[int, str], jacoby: bool, points: int
) -> None:
    game = money(
        make_game,
        board(light={1: 1}, dark={24: 15}),
        status=Status.PLAYING,
        dice=[6, 5],
        jacoby=jacoby,
        cube_value=cube[0],
        cube_owner=cube[1],
    )
    game = services.make_step(game.pk, user, game.version, 1, 0)
    assert (game.winner, game.result_kind, game.points) == ("light", "gammon", points)


def test_the_computer_answers_a_resignation_and_play_goes_on_when_it_refuses(
    user: Any, make_game: Any, computer_queue: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = money(make_game, status=Status.PLAYING, dice=[5, 2], cube_value=2, cube_owner="light")
    with django_capture_on_commit_callbacks(execute=True):
        game = services.resign(game.pk, user, game.version, "gammon")
    assert (game.resign_offer, game.status) == ("gammon", "playing")
    assert computer_queue[-1] == (game.pk, game.version)
    with pytest.raises(services.CubeRefusedError) as refused:
        services.make_step(game.pk, user, game.version, 13, 8)
    assert refused.value.refusal_code == "resign_pending"
    due = services.computer_due(game.pk, game.version)
    assert due is not None and (due.task, due.offered) == ("resign", 4)
    assert services.answer_resignation(game.pk, game.version, accept=False)
    assert not services.answer_resignation(game.pk, game.version, accept=False)
    game = reload(game)
    assert (game.resign_offer, game.resign_refused, game.status) == ("", "gammon", "playing")
    game = services.make_step(game.pk, user, game.version, 13, 8)  # play goes on
    assert game.resign_refused == ""

    game = services.resign(game.pk, user, game.version, "backgammon")
    assert services.answer_resignation(game.pk, game.version, accept=True)
    game = reload(game)
    assert (game.winner, game.result_kind, game.points, game.resigned) == (
        "dark",
        "backgammon",
        6,
        True,
    )


def test_a_single_game_resignation_is_accepted_at_once_as_before(user: Any, make_game: Any) -> None:
    game = services.resign(make_game(dice=[5, 2]).pk, user, 1)
    assert (game.winner, game.result_kind, game.points, game.resign_offer) == (
        "dark",
        "single",
        1,
        "",
    )
