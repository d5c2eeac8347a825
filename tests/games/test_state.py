"""games.live.state: the §4 JSON, in display numbering, built from stored games."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games import services
from games.engine import Dice, legal_plays
from games.live.state import build_state
from games.models import Status
from games.steps import display_notation, display_point
from tests.conftest import dark_turn
from tests.games.conftest import board

pytestmark = pytest.mark.django_db

STATE_KEYS = {
    "type",
    "game",
    "version",
    "status",
    "turn",
    "tier",
    "board",
    "dice",
    "remaining",
    "steps",
    "allowed",
    "can_undo",
    "can_end_turn",
    "no_move",
    "thinking",
    "pips",
    "opening",
    "last_turn",
    "result",
    "tutor",
    "message",
}


def test_the_start_state_has_every_field_of_the_contract(make_game: Any) -> None:
    game = make_game(dice=[5, 2], status=Status.OPENING, opening_rolls=[[3, 3], [5, 2]])
    state = build_state(game)
    assert STATE_KEYS <= set(state)
    assert state["board"]["points"][23] == 2  # two light checkers on display 24
    assert state["board"]["points"][0] == -2  # two dark ones on display 1
    assert state["board"]["bar"] == {"light": 0, "dark": 0}
    assert state["pips"] == {"light": 167, "dark": 167}
    assert state["opening"] == {"rolls": [[3, 3], [5, 2]], "starter": "light"}
    assert (state["remaining"], state["can_undo"], state["can_end_turn"]) == ([5, 2], False, False)
    assert {"from": 24, "to": 22, "die": 2} in state["allowed"]
    assert all(step["to"] != 19 for step in state["allowed"])  # 24/19 is blocked
    assert (state["thinking"], state["no_move"], state["result"], state["message"]) == (
        False,
        False,
        None,
        None,
    )


def test_mid_turn_steps_show_on_the_board_with_hits(user: Any, make_game: Any) -> None:
    # A dark blot on display 20; LIGHT 24/20* with a 4.
    game = make_game(
        board(light={24: 2, 13: 5, 8: 3, 6: 5}, dark={20: 1, 19: 4, 17: 3, 12: 5, 1: 2}),
        dice=[4, 1],
    )
    game = services.make_step(game.pk, user, 1, 24, 20)
    state = build_state(game)
    assert state["steps"] == [{"from": 24, "to": 20, "die": 4, "hit": True}]
    assert state["board"]["bar"]["dark"] == 1
    assert state["board"]["points"][19] == 1
    assert (state["remaining"], state["can_undo"]) == ([1], True)
    # Before: 166 (a checker on DARK's 5 instead of 6); the hit one goes to the bar (25).
    assert state["pips"]["dark"] == 166 - 5 + 25


def test_darks_last_turn_is_shown_in_display_numbering_with_bar_and_off() -> None:
    assert [display_point(p, "dark") for p in (25, 24, 13, 1, 0)] == ["bar", 1, 12, 24, "off"]
    assert [display_point(p, "light") for p in (25, 24, 1, 0)] == [25, 24, 1, 0]


def test_the_computers_entering_hit_is_converted(make_game: Any, dice: Any) -> None:
    # DARK on the bar, a light blot on display 3 (DARK's 22 after entering with a 3).
    position = board(
        light={3: 1, 6: 5, 8: 3, 13: 5, 24: 1}, dark={19: 5, 17: 3, 12: 5, 1: 1}, dark_bar=1
    )
    game = make_game(position, turn="dark", dice=[3, 1])
    dark_position, rolled = dark_turn(game.pk, 1)
    plays = legal_plays(dark_position, rolled)
    play = next(p for p in plays if (p.steps[0].src, p.steps[0].dst) == (25, 22))
    dice.queue(6, 5)
    services.finish_computer_turn(game.pk, 1, play)
    game.refresh_from_db()
    last = build_state(game)["last_turn"]
    assert last["side"] == "dark" and last["dice"] == [3, 1]
    assert last["steps"][0] == {"from": "bar", "to": 3, "die": 3, "hit": True}


def test_a_pass_without_legal_moves_is_flagged_and_worded(
    make_game: Any, dice: Any, computer_queue: list
) -> None:
    dark = {p: 2 for p in range(19, 25)}
    dark[18] = 3
    closed = board(light={1: 14}, light_bar=1, dark=dark)
    game = make_game(closed, turn="dark", dice=[2, 1])
    # DARK keeps its board closed; LIGHT then rolls 6-2 on the bar and passes.
    position, rolled = dark_turn(game.pk, 1)
    play = next(
        p for p in legal_plays(position, rolled) if all(p.result.me[i] >= 2 for i in range(6))
    )
    dice.queue(6, 2, 4, 3)
    assert services.finish_computer_turn(game.pk, 1, play)
    game.refresh_from_db()
    with translation.override("en"):
        state = build_state(game)
    assert (state["no_move"], state["thinking"]) == (True, True)
    assert state["message"] == "You rolled 6-2 and have no legal move; the turn passes."
    with translation.override("zh-hans"):
        assert "6-2" in build_state(game)["message"]


def test_a_finished_game_gives_the_result(make_game: Any) -> None:
    game = make_game(
        board(light={6: 3}, dark={}),
        status=Status.FINISHED,
        winner="light",
        result_kind="gammon",
        points=2,
    )
    with translation.override("en"):
        state = build_state(game)
    assert state["result"] == {
        "winner": "light",
        "kind": "gammon",
        "points": 2,
        "resigned": False,
        "passed": False,
        "cube": None,
    }
    assert (state["kind"], state["cube"], state["match"]) == ("single", None, None)
    assert state["message"] == "You won a gammon: 2 points."
    assert (state["allowed"], state["thinking"], state["remaining"]) == ([], False, [])


def test_the_person_state_uses_the_dice_values_for_doubles(make_game: Any) -> None:
    state = build_state(make_game(dice=[3, 3]))
    assert state["remaining"] == list(Dice(3, 3).values) == [3, 3, 3, 3]


def test_the_computers_play_reads_in_the_boards_numbering_everywhere(
    make_game: Any, dice: Any
) -> None:
    """The state's last play, the move list and the review: one conversion."""
    from learning.review.replay import replay_json

    game = make_game(turn="dark", dice=[5, 2])
    dark_position, rolled = dark_turn(game.pk, 1)
    play = next(
        p
        for p in legal_plays(dark_position, rolled)
        if sorted((s.src, s.dst) for s in p.steps) == [(13, 8), (13, 11)]
    )
    shown = display_notation(play.notation(), "dark")
    assert sorted(shown.split()) == ["12/14", "12/17"]
    dice.queue(6, 4)
    services.finish_computer_turn(game.pk, 1, play)
    game.refresh_from_db()
    state = build_state(game, moves=True)
    assert state["last_turn"]["notation"] == shown
    assert [m["notation"] for m in state["moves"]] == [shown]
    assert state["moves"][0] == state["last_turn"]
    assert "moves" not in build_state(game), "socket states carry only last_turn"
    assert [t["notation"] for t in replay_json(game)["turns"]] == [shown]
