"""The state's cube and match fields (docs/interfaces.md §4a), in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games import services
from games.engine import Side
from games.engine.matchid import MatchIdFields, match_id
from games.live.state import build_state
from games.models import GameKind, Match, Status
from games.reading import position_of

pytestmark = pytest.mark.django_db

LAST_TURN_4 = {"number": 4, "side": "light", "dice": [3, 1], "notation": "8/5 6/5", "steps": []}


def test_a_single_game_has_no_cube_and_no_match(make_game: Any) -> None:
    state = build_state(make_game(dice=[5, 2]))
    assert (state["kind"], state["cube"], state["match"]) == ("single", None, None)
    assert (state["last_cube_action"], state["resign_offer"]) == (None, None)


def test_a_money_game_in_the_deciding_status_offers_the_person_the_cube(make_game: Any) -> None:
    game = make_game(status=Status.DECIDING, kind=GameKind.MONEY, jacoby=True)
    state = build_state(game)
    assert state["cube"] == {
        "value": 1,
        "owner": "centre",
        "offered": None,
        "may_double": True,
        "why_not": None,
        "why_not_code": None,
        "jacoby": True,
        "dialog": None,
        # The cube never turned, Jacoby: a gammon or a backgammon resigned scores 1.
        "resign_points": {"single": 1, "gammon": 1, "backgammon": 1},
    }
    assert (state["dice"], state["thinking"]) == (None, False)


def test_each_resignation_is_offered_at_the_points_it_would_score(
    make_game: Any, user: Any
) -> None:
    turned = make_game(
        status=Status.DECIDING, kind=GameKind.MONEY, jacoby=True, cube_value=2, cube_owner="dark"
    )
    assert build_state(turned)["cube"]["resign_points"] == {
        "single": 2,
        "gammon": 4,
        "backgammon": 6,
    }
    match = Match.objects.create(owner=user, length=5, score_light=1, score_dark=3)
    capped = make_game(
        status=Status.DECIDING,
        kind=GameKind.MATCH,
        match=match,
        match_game=4,
        score_light=1,
        score_dark=3,
        cube_value=1,
    )
    # 2 away: the computer scores at most the 2 points it needs.
    assert build_state(capped)["cube"]["resign_points"] == {
        "single": 1,
        "gammon": 2,
        "backgammon": 2,
    }


def test_the_computers_cube_is_not_the_persons_and_the_state_says_why(make_game: Any) -> None:
    game = make_game(status=Status.DECIDING, kind=GameKind.MONEY, cube_value=2, cube_owner="dark")
    with translation.override("en"):
        cube = build_state(game)["cube"]
    assert (cube["may_double"], cube["why_not_code"]) == (False, "not_your_cube")
    assert cube["why_not"] == "The computer owns the cube; only it may double now."
    with translation.override("zh-hans"):
        assert build_state(game)["cube"]["why_not"] == "倍数骰在电脑手里，现在只有它能加倍。"


def test_the_computers_double_in_a_match_says_what_take_and_pass_mean(
    make_game: Any, user: Any
) -> None:
    match = Match.objects.create(owner=user, length=7, score_light=3, score_dark=1)
    # Game 3 at 3-1 after four turns (a state no command reaches from a
    # chosen position); the computer's double goes through the services.
    game = make_game(
        turn="dark",
        status=Status.DECIDING,
        kind=GameKind.MATCH,
        match=match,
        match_game=3,
        score_light=3,
        score_dark=1,
        cube_value=1,
        last_turn=LAST_TURN_4,
    )
    assert services.finish_computer_cube(game.pk, game.version, "double")
    game.refresh_from_db()
    assert (game.status, game.cube_offered) == (Status.DOUBLED, "dark")
    with translation.override("en"):
        state = build_state(game)
    assert state["cube"]["dialog"] == {
        "take": "Take: the cube goes to 2 on your side; play on, you lead 3–1 in a 7-point match.",
        "pass": "Pass: the computer wins 1 point; you lead 3–2 in a 7-point match.",
    }
    assert state["message"] == "The computer doubles to 2: take or pass?"
    assert state["match"] == {
        "id": match.pk,
        "length": 7,
        "game": 3,
        "score": {"light": 3, "dark": 1},
        "game_score": {"light": 3, "dark": 1},
        "crawford": False,
        "post_crawford": False,
        "over": False,
        "winner": None,
        "next_game": None,
    }
    assert state["last_cube_action"] == {
        "number": 1,
        "side": "dark",
        "action": "double",
        "value": 2,
        "before_turn": 5,
    }


def test_the_full_state_lists_every_cube_action_in_order_with_the_turns(
    make_game: Any, user: Any, dice: Any
) -> None:
    game = make_game(kind=GameKind.MONEY, jacoby=True)  # the person decides first
    game = services.double(game.pk, user, game.version)
    dice.queue(3, 1)  # the doubler rolls at once
    assert services.finish_computer_cube(game.pk, game.version, "take")
    game = services.make_step(game.pk, user, game.version + 1, 8, 5)
    game = services.make_step(game.pk, user, game.version, 6, 5)
    assert (game.turn, game.status) == ("dark", "deciding")  # its cube, it may redouble
    assert services.finish_computer_cube(game.pk, game.version, "double")
    game.refresh_from_db()
    full = build_state(game, moves=True)
    assert [t["number"] for t in full["moves"]] == [1]
    assert full["cube_actions"] == [
        {"number": 1, "side": "light", "action": "double", "value": 2, "before_turn": 1},
        {"number": 2, "side": "dark", "action": "take", "value": 2, "before_turn": 1},
        {"number": 3, "side": "dark", "action": "double", "value": 4, "before_turn": 2},
    ]
    socket = build_state(game)  # a socket state: the latest only, which the page appends
    assert "cube_actions" not in socket
    assert socket["last_cube_action"] == full["cube_actions"][-1]
    assert build_state(make_game(dice=[5, 2]), moves=True)["cube_actions"] == []


def test_the_ids_of_a_double_waiting_are_the_doublers_board_and_say_who_answers(
    make_game: Any, user: Any
) -> None:
    match = Match.objects.create(owner=user, length=7, score_light=3, score_dark=1)
    game = make_game(
        turn="dark",
        status=Status.DECIDING,
        kind=GameKind.MATCH,
        match=match,
        match_game=3,
        score_light=3,
        score_dark=1,
        cube_value=1,
        last_turn=LAST_TURN_4,
    )
    start = build_state(game)["ids"]
    assert start["match_id"] == match_id(
        MatchIdFields(on_roll=Side.DARK, deciding=Side.DARK, length=7, score_light=3, score_dark=1)
    )
    assert services.finish_computer_cube(game.pk, game.version, "double")
    game.refresh_from_db()
    ids = build_state(game)["ids"]
    # The computer doubled: it is on roll (its board), the person answers.
    assert ids["position_id"] == position_of(game).swapped().position_id() == start["position_id"]
    assert ids["match_id"] == match_id(
        MatchIdFields(
            on_roll=Side.DARK,
            deciding=Side.LIGHT,
            doubled=True,
            length=7,
            score_light=3,
            score_dark=1,
        )
    )
