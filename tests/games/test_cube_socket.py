"""The cube commands over the game socket: acks with versions, stale and repeated
commands, refusals in the page's language."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.models import Game, GameKind, Status
from tests.games.fixtures_sockets import TIMEOUT, fresh
from tests.games.fixtures_sockets import connect_socket as connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(30)]


@pytest.fixture
def deciding(make_game: Any, held_computer_turns: list) -> Game:
    game: Game = make_game(status=Status.DECIDING, kind=GameKind.MONEY, jacoby=True)
    return game


async def test_double_is_acked_and_the_state_shows_the_offer(
    deciding: Game, user: Any, held_computer_turns: list
) -> None:
    socket, state = await connect(deciding.pk, user, language=b"en")
    assert (state["status"], state["cube"]["may_double"]) == ("deciding", True)
    await socket.send_json_to({"type": "double", "id": "d1", "version": 1})
    ack = await socket.receive_json_from(TIMEOUT)
    assert (ack["type"], ack["id"], ack["version"]) == ("ack", "d1", 2)
    state = await socket.receive_json_from(TIMEOUT)
    assert (state["status"], state["turn"], state["thinking"]) == ("doubled", "dark", True)
    assert state["cube"]["offered"] == "light"
    assert state["message"] == "You double to 2; the computer is thinking."
    assert held_computer_turns == [(deciding.pk, 2)]
    # The same command again: a duplicate id, then a stale version; nothing changes.
    await socket.send_json_to({"type": "double", "id": "d1", "version": 2})
    assert (await socket.receive_json_from(TIMEOUT))["code"] == "duplicate"
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 2
    await socket.send_json_to({"type": "double", "id": "d2", "version": 1})
    assert (await socket.receive_json_from(TIMEOUT))["code"] == "stale"
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 2
    assert (await fresh(deciding)).version == 2
    await socket.disconnect()


async def test_a_refused_cube_command_says_why_in_chinese_and_changes_nothing(
    make_game: Any, user: Any, held_computer_turns: list
) -> None:
    game = await database_sync_to_async(make_game)(
        status=Status.DECIDING, kind=GameKind.MONEY, cube_value=2, cube_owner="dark"
    )
    socket, _ = await connect(game.pk, user)
    await socket.send_json_to({"type": "double", "id": "d1", "version": 1})
    refused = await socket.receive_json_from(TIMEOUT)
    assert (refused["type"], refused["id"], refused["code"]) == ("refused", "d1", "not_your_cube")
    assert refused["message"] == "倍数骰在电脑手里，现在只有它能加倍。"
    await socket.send_json_to({"type": "take", "id": "t1", "version": 1})
    refused = await socket.receive_json_from(TIMEOUT)
    assert (refused["code"], refused["message"]) == ("no_double_pending", "没有等你回应的加倍。")
    assert (await fresh(game)).version == 1
    await socket.disconnect()


async def test_roll_take_and_pass_over_the_socket(
    make_game: Any, user: Any, dice: Any, held_computer_turns: list
) -> None:
    game = await database_sync_to_async(make_game)(status=Status.DECIDING, kind=GameKind.MONEY)
    socket, _ = await connect(game.pk, user, language=b"en")
    dice.queue(3, 1)
    await socket.send_json_to({"type": "roll", "id": "r1", "version": 1})
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    state = await socket.receive_json_from(TIMEOUT)
    assert (state["status"], state["dice"]) == ("playing", [3, 1])
    await socket.disconnect()

    doubled = await database_sync_to_async(make_game)(
        status=Status.DOUBLED, kind=GameKind.MONEY, cube_offered="dark"
    )
    socket, state = await connect(doubled.pk, user, language=b"en")
    assert state["cube"]["dialog"]["pass"] == "Pass: the computer wins 1 point."
    await socket.send_json_to({"type": "pass", "id": "p1", "version": 1})
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    state = await socket.receive_json_from(TIMEOUT)
    assert state["result"]["passed"] and state["result"]["winner"] == "dark"
    assert state["message"] == "You pass; the computer wins 1 point."
    await socket.disconnect()


async def test_a_resignation_names_its_kind(make_game: Any, user: Any) -> None:
    game = await database_sync_to_async(make_game)(dice=[5, 2])
    socket, _ = await connect(game.pk, user)
    await socket.send_json_to({"type": "resign", "id": "x", "version": 1, "kind": "triple"})
    error = await socket.receive_json_from(TIMEOUT)
    assert (error["type"], error["code"]) == ("error", "bad_command")
    await socket.receive_json_from(TIMEOUT)
    await socket.send_json_to({"type": "resign", "id": "y", "version": 1, "kind": "gammon"})
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    state = await socket.receive_json_from(TIMEOUT)
    assert (state["result"]["kind"], state["result"]["points"]) == ("gammon", 2)
    await socket.disconnect()


async def test_a_resignation_waits_for_the_computers_answer(
    make_game: Any, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = await database_sync_to_async(make_game)(dice=[5, 2], kind="money", jacoby=True)
    socket, _ = await connect(game.pk, user, language=b"en")
    await socket.send_json_to({"type": "resign", "id": "a", "version": 1, "kind": "gammon"})
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    state = await socket.receive_json_from(TIMEOUT)
    assert (state["resign_offer"], state["status"]) == ("gammon", "playing")
    again = {"type": "resign", "id": "b", "version": state["version"], "kind": "single"}
    await socket.send_json_to(again)
    refused = await socket.receive_json_from(TIMEOUT)
    assert (refused["type"], refused["code"]) == ("refused", "resign_pending")
    assert refused["message"] == "The computer is still answering your resignation."
    await socket.disconnect()


async def test_a_broadcast_double_is_worded_in_each_sockets_language(
    make_game: Any, user: Any
) -> None:
    game = await database_sync_to_async(make_game)(
        status=Status.DOUBLED,
        kind=GameKind.MONEY,
        cube_offered="dark",
        cube_value=2,
        cube_owner="light",
    )
    socket, state = await connect(game.pk, user, language=b"en")
    assert state["cube"]["dialog"]["pass"] == "Pass: the computer wins 2 points."

    def broadcast_in_chinese() -> None:
        from django.utils import translation

        from games.live import broadcast

        Game.objects.filter(pk=game.pk).update(version=2)
        with translation.override("zh-hans"):
            broadcast.push_state(Game, Game.objects.get(pk=game.pk))

    await database_sync_to_async(broadcast_in_chinese)()
    state = await socket.receive_json_from(TIMEOUT)
    assert state["version"] == 2
    assert state["cube"]["dialog"]["pass"] == "Pass: the computer wins 2 points."
    assert state["cube"]["why_not"] is None and state["cube"]["why_not_code"] is None
    assert state["message"] == "The computer doubles to 4: take or pass?"
    await socket.disconnect()
