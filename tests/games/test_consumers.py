"""The game socket through channels' WebsocketCommunicator and the real ASGI app."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.models import Preferences
from games import services
from games.engine import legal_plays
from games.live import broadcast
from games.models import Game
from tests.conftest import dark_turn
from tests.games.fixtures_sockets import TIMEOUT, fresh, open_socket
from tests.games.fixtures_sockets import connect_socket as connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(30)]


@pytest.fixture(autouse=True)
async def close_socket_thread_connections() -> Any:
    """Close the database connection of the thread the consumer ran its queries on,
    so the test database can be dropped at the end (PostgreSQL)."""
    yield
    from django.db import connections

    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def quiet_computer(held_computer_turns: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The computer's turns are recorded instead of played."""
    return held_computer_turns


@pytest.fixture
def game(make_game: Any) -> Game:
    return make_game(dice=[5, 2])


# --------------------------------------------------------------- who may connect


async def test_an_anonymous_visitor_is_refused_with_4403(game: Game) -> None:
    socket = await open_socket(game.pk, None)
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_output(TIMEOUT) == {"type": "websocket.close", "code": 4403}


async def test_another_user_is_refused_with_4403(game: Game, make_user: Any) -> None:
    other = await database_sync_to_async(make_user)("bob")
    socket = await open_socket(game.pk, other)
    await socket.connect()
    assert await socket.receive_output(TIMEOUT) == {"type": "websocket.close", "code": 4403}


async def test_an_expired_or_outdated_session_is_refused_with_4403(game: Game, user: Any) -> None:
    # The socket checks its session itself (no channels auth middleware): an
    # expired row, or one made under a password since changed, signs no one in.
    def change_password_quietly() -> None:  # no signal, as a raw UPDATE
        type(user).objects.filter(pk=user.pk).update(password="pbkdf2_sha256$1$x$y")

    socket = await open_socket(game.pk, user)
    await database_sync_to_async(Session.objects.update)(expire_date=timezone.now() - timedelta(1))
    await socket.connect()
    assert await socket.receive_output(TIMEOUT) == {"type": "websocket.close", "code": 4403}

    socket = await open_socket(game.pk, user)
    await database_sync_to_async(change_password_quietly)()
    await socket.connect()
    assert await socket.receive_output(TIMEOUT) == {"type": "websocket.close", "code": 4403}
    unexpired = Session.objects.filter(expire_date__gt=timezone.now()).exists
    assert not await database_sync_to_async(unexpired)()  # flushed, as over HTTP


async def test_another_users_refused_socket_is_sent_nothing_of_the_game(
    game: Game, make_user: Any
) -> None:
    # The socket is in the game's group before its owner check (so that no
    # change after its first state passes it by); refused, it forwards nothing.
    other = await database_sync_to_async(make_user)("eve")
    socket = await open_socket(game.pk, other)
    await socket.connect()
    assert await socket.receive_output(TIMEOUT) == {"type": "websocket.close", "code": 4403}
    await database_sync_to_async(broadcast.push_state)(Game, game)
    await database_sync_to_async(broadcast.send_to_game)(game.pk, {"type": "hint", "x": 1})
    assert await socket.receive_nothing(timeout=0.5)


async def test_a_foreign_origin_is_refused(game: Game, user: Any) -> None:
    socket = await open_socket(game.pk, user, origin=b"http://evil.example")
    connected, _ = await socket.connect()
    assert not connected


async def test_the_owner_gets_the_state_on_connect(game: Game, user: Any) -> None:
    socket, state = await connect(game.pk, user)
    assert (state["game"], state["version"], state["dice"]) == (game.pk, 1, [5, 2])
    assert {"from": 13, "to": 8, "die": 5} in state["allowed"]
    await socket.disconnect()


# --------------------------------------------------------------- commands


async def test_a_step_is_acked_then_the_new_state_follows(game: Game, user: Any) -> None:
    socket, _ = await connect(game.pk, user)
    await socket.send_json_to({"type": "step", "id": "c1", "version": 1, "from": 13, "to": 8})
    assert await socket.receive_json_from(TIMEOUT) == {"type": "ack", "id": "c1", "version": 2}
    state = await socket.receive_json_from(TIMEOUT)
    assert (state["type"], state["version"], state["remaining"]) == ("state", 2, [2])
    assert state["steps"] == [{"from": 13, "to": 8, "die": 5, "hit": False}]
    assert (await fresh(game)).steps == [[13, 8, 5, 0]]
    assert await socket.receive_nothing(0.2)
    await socket.disconnect()


async def test_a_refused_step_says_why_in_the_page_language(game: Game, user: Any) -> None:
    socket, _ = await connect(game.pk, user, language=b"en")
    await socket.send_json_to({"type": "step", "id": "c1", "version": 1, "from": 12, "to": 7})
    reply = await socket.receive_json_from(TIMEOUT)
    assert (reply["type"], reply["id"], reply["code"]) == ("refused", "c1", "no_checker")
    assert reply["params"] == {"point": 12}
    assert reply["message"] == "You have no checker on point 12."
    assert (await fresh(game)).version == 1
    await socket.disconnect()


async def test_the_players_chosen_language_wins_over_the_browsers(game: Game, user: Any) -> None:
    await database_sync_to_async(Preferences.objects.update_or_create)(
        user=user, defaults={"language": "en"}
    )
    socket, _ = await connect(game.pk, user, language=b"zh-CN")
    await socket.send_json_to({"type": "step", "id": "c1", "version": 1, "from": 12, "to": 7})
    reply = await socket.receive_json_from(TIMEOUT)
    assert reply["message"] == "You have no checker on point 12."
    await socket.disconnect()


async def test_refusals_are_in_chinese_by_default(game: Game, user: Any) -> None:
    socket, _ = await connect(game.pk, user, language=b"zh-CN")
    await socket.send_json_to({"type": "step", "id": "c1", "version": 1, "from": 12, "to": 7})
    reply = await socket.receive_json_from(TIMEOUT)
    assert "12" in reply["message"] and "checker" not in reply["message"]
    await socket.disconnect()


async def test_a_stale_command_changes_nothing_and_gets_the_state(game: Game, user: Any) -> None:
    socket, _ = await connect(game.pk, user)
    await socket.send_json_to({"type": "step", "id": "c1", "version": 1, "from": 13, "to": 8})
    await socket.receive_json_from(TIMEOUT)  # ack
    await socket.receive_json_from(TIMEOUT)  # state v2
    await socket.send_json_to({"type": "step", "id": "c2", "version": 1, "from": 13, "to": 11})
    error = await socket.receive_json_from(TIMEOUT)
    assert (error["type"], error["id"], error["code"]) == ("error", "c2", "stale")
    state = await socket.receive_json_from(TIMEOUT)
    assert (state["type"], state["version"]) == ("state", 2)
    assert (await fresh(game)).steps == [[13, 8, 5, 0]]
    await socket.disconnect()


async def test_a_repeated_command_id_is_not_run_twice(game: Game, user: Any) -> None:
    socket, _ = await connect(game.pk, user)
    await socket.send_json_to({"type": "step", "id": "c1", "version": 1, "from": 13, "to": 8})
    await socket.receive_json_from(TIMEOUT)
    await socket.receive_json_from(TIMEOUT)
    # Same id, current version: without the id check this would be a new step.
    await socket.send_json_to({"type": "step", "id": "c1", "version": 2, "from": 13, "to": 11})
    error = await socket.receive_json_from(TIMEOUT)
    assert (error["type"], error["code"]) == ("error", "duplicate")
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 2
    assert (await fresh(game)).steps == [[13, 8, 5, 0]]
    await socket.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        (json.dumps({"type": "teleport", "id": "x", "version": 1}), "unknown_type"),
        (json.dumps({"type": "step", "id": "x", "from": 13, "to": 8}), "bad_command"),
        (json.dumps({"type": "step", "id": "x", "version": 1, "from": "1"}), "bad_command"),
        (json.dumps({"type": "undo", "id": "x", "version": 1, "pad": "x" * 5000}), "too_large"),
    ],
)
async def test_bad_frames_get_a_clear_error_and_the_socket_and_game_survive(
    game: Game, user: Any, frame: str, code: str
) -> None:
    socket, _ = await connect(game.pk, user)
    await socket.send_to(text_data=frame)
    error = await socket.receive_json_from(TIMEOUT)
    assert (error["type"], error["code"]) == ("error", code)
    assert error["message"]
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "state"
    await socket.send_json_to({"type": "step", "id": "ok", "version": 1, "from": 13, "to": 8})
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    await socket.disconnect()


@pytest.mark.parametrize(
    ("accept", "default", "words"),
    [
        (
            b"en",
            "zh-hans",
            [
                "That message is not valid JSON.",
                "Unknown command type.",
                "This command was already received.",
            ],
        ),
        (
            b"zh-CN",
            "en",
            ["这条消息不是有效的 JSON。", "未知的指令类型。", "这条指令已经收到过了。"],
        ),
    ],
)
async def test_a_frames_refusal_is_in_the_page_language_not_the_sites(
    game: Game, user: Any, settings: Any, accept: bytes, default: str, words: list[str]
) -> None:
    # These refusals are worded on the event loop, not in a command's thread:
    # the page's language there too, whatever the site's default.
    settings.LANGUAGE_CODE = default
    # Not named ``page``: that is pytest-playwright's fixture, which would
    # start a browser (and its event loop) for this test.
    socket, _ = await connect(game.pk, user, language=accept)
    step = {"type": "step", "id": "c1", "version": 1, "from": 13, "to": 8}
    await socket.send_json_to(step)
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 2
    said = []
    for frame in ("{not json", json.dumps({**step, "type": "teleport"}), json.dumps(step)):
        await socket.send_to(text_data=frame)
        said.append(await socket.receive_json_from(TIMEOUT))
        assert (await socket.receive_json_from(TIMEOUT))["type"] == "state"
    assert [(error["code"], error["message"]) for error in said] == list(
        zip(["bad_json", "unknown_type", "duplicate"], words, strict=True)
    )
    await socket.disconnect()


async def test_binary_frames_are_refused_politely(game: Game, user: Any) -> None:
    socket, _ = await connect(game.pk, user)
    await socket.send_to(bytes_data=b"\x00\x01")
    error = await socket.receive_json_from(TIMEOUT)
    assert (error["type"], error["code"]) == ("error", "bad_json")
    await socket.disconnect()


# --------------------------------------------------------------- more than one socket


async def test_two_tabs_on_one_game_see_the_same_versions(game: Game, user: Any) -> None:
    tab_a, _ = await connect(game.pk, user)
    tab_b, _ = await connect(game.pk, user)
    await tab_a.send_json_to({"type": "step", "id": "a1", "version": 1, "from": 13, "to": 8})
    assert (await tab_a.receive_json_from(TIMEOUT))["type"] == "ack"
    state_a = await tab_a.receive_json_from(TIMEOUT)
    state_b = await tab_b.receive_json_from(TIMEOUT)
    assert state_a["version"] == state_b["version"] == 2
    assert state_a["board"] == state_b["board"]
    assert await tab_a.receive_nothing(0.2)  # its own broadcast is not sent twice
    await tab_a.disconnect()
    await tab_b.disconnect()


async def play_the_opening_5_2(socket: WebsocketCommunicator) -> tuple[dict, dict]:
    """13/8 13/11 on the game's opening 5-2; the last step's reply and state."""
    await socket.send_json_to({"type": "step", "id": "1", "version": 1, "from": 13, "to": 8})
    await socket.receive_json_from(TIMEOUT)
    await socket.receive_json_from(TIMEOUT)
    await socket.send_json_to({"type": "step", "id": "2", "version": 2, "from": 13, "to": 11})
    return await socket.receive_json_from(TIMEOUT), await socket.receive_json_from(TIMEOUT)


async def test_ending_the_turn_shows_the_computer_thinking_then_its_play(
    game: Game, user: Any, quiet_computer: list, dice: Any
) -> None:
    dice.queue(6, 4, 3, 1)  # the computer's roll, then the person's
    socket, _ = await connect(game.pk, user)
    ack, state = await play_the_opening_5_2(socket)
    assert ack["type"] == "ack"
    assert (state["turn"], state["thinking"], state["version"]) == ("dark", True, 3)
    assert state["dice"] == [6, 4], "the computer's roll shows while it thinks"
    assert quiet_computer == [(game.pk, 3)]
    assert sorted(state["last_turn"]["notation"].split()) == ["13/11", "13/8"]

    def computer_plays() -> None:
        position, rolled = dark_turn(game.pk, 3)
        services.finish_computer_turn(game.pk, 3, legal_plays(position, rolled)[0])

    await database_sync_to_async(computer_plays)()
    state = await socket.receive_json_from(TIMEOUT)
    assert (state["turn"], state["thinking"], state["version"], state["dice"]) == (
        "light",
        False,
        4,
        [3, 1],
    )
    assert state["last_turn"]["side"] == "dark"
    assert all(isinstance(s["from"], (int, str)) for s in state["last_turn"]["steps"])
    await socket.disconnect()


async def test_an_event_pushed_by_another_app_reaches_the_socket(game: Game, user: Any) -> None:
    from games.live import broadcast

    socket, _ = await connect(game.pk, user)
    await database_sync_to_async(broadcast.send_to_game)(game.pk, {"type": "hint", "plays": []})
    assert await socket.receive_json_from(TIMEOUT) == {"type": "hint", "plays": []}
    await socket.disconnect()


async def test_an_event_during_a_command_waits_for_the_commands_answer(
    game: Game, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One message at a time (channels' consumer): a group event that
    arrives while a command runs is handled once the command is answered."""
    import threading

    from games.live.consumers import GameConsumer

    running, go_on = threading.Event(), threading.Event()
    run_sync = GameConsumer._run_sync

    def held_run_sync(self: GameConsumer, command: Any) -> Any:
        running.set()
        assert go_on.wait(TIMEOUT)
        return run_sync(self, command)

    monkeypatch.setattr(GameConsumer, "_run_sync", held_run_sync)
    socket, _ = await connect(game.pk, user)
    await socket.send_json_to({"type": "step", "id": "s1", "version": 1, "from": 13, "to": 8})
    assert await database_sync_to_async(running.wait)(TIMEOUT)
    await database_sync_to_async(broadcast.send_to_game)(game.pk, {"type": "hint", "plays": []})
    assert await socket.receive_nothing(0.2)  # the event waits for the command
    go_on.set()
    kinds = [(await socket.receive_json_from(TIMEOUT))["type"] for _ in range(3)]
    assert kinds == ["ack", "state", "hint"]
    await socket.disconnect()  # a clean end: the consumer's task returns


async def test_the_computers_play_from_a_worker_thread_reaches_the_socket(
    game: Game, user: Any, quiet_computer: list, dice: Any
) -> None:
    """The in-process pool plays on its own threads, outside the server loop."""
    import threading

    from django.db import connection

    dice.queue(6, 4, 3, 1)
    socket, _ = await connect(game.pk, user)
    await play_the_opening_5_2(socket)

    def computer_plays() -> None:
        try:
            position, rolled = dark_turn(game.pk, 3)
            services.finish_computer_turn(game.pk, 3, legal_plays(position, rolled)[0])
        finally:
            connection.close()

    worker = threading.Thread(target=computer_plays)
    worker.start()
    state = await socket.receive_json_from(TIMEOUT)
    worker.join()
    assert (state["version"], state["turn"], state["last_turn"]["side"]) == (4, "light", "dark")
    await socket.disconnect()


@pytest.mark.timeout(120)
async def test_a_hint_is_acked_computed_on_the_pool_and_pushed_without_a_new_version(
    game: Game, user: Any
) -> None:
    from django.test import override_settings

    from ai_worker import dispatch
    from learning.models import Hint

    # The real path without a broker: signal, learning's receiver, the
    # in-process analysis pool, the hint pushed to the game's sockets.
    with override_settings(CELERY_BROKER_URL=""):
        socket, _ = await connect(game.pk, user)
        await socket.send_json_to({"type": "hint", "id": "h1", "version": 1})
        assert await socket.receive_json_from(TIMEOUT) == {"type": "ack", "id": "h1", "version": 1}
        pushed = await socket.receive_json_from(90)  # the next frame: no new state before it
        assert await database_sync_to_async(dispatch.wait_idle)(30)
    assert (pushed["type"], pushed["version"]) == ("hint", 1)
    stored = await fresh(game)
    assert (stored.hints_used, stored.version) == (True, 1)
    assert await database_sync_to_async(Hint.objects.filter(game=game, version=1).exists)()
    await socket.disconnect()


async def test_end_turn_before_the_dice_are_used_is_an_error_with_the_state(
    game: Game, user: Any
) -> None:
    socket, _ = await connect(game.pk, user, language=b"en")
    await socket.send_json_to({"type": "end_turn", "id": "e1", "version": 1})
    error = await socket.receive_json_from(TIMEOUT)
    assert (error["code"], error["message"]) == (
        "turn_incomplete",
        "Play your dice before ending the turn.",
    )
    assert (await socket.receive_json_from(TIMEOUT))["version"] == 1
    await socket.disconnect()


async def test_resign_over_the_socket_finishes_the_game(game: Game, user: Any) -> None:
    socket, _ = await connect(game.pk, user)
    await socket.send_json_to({"type": "resign", "id": "r1", "version": 1})
    assert (await socket.receive_json_from(TIMEOUT))["type"] == "ack"
    state = await socket.receive_json_from(TIMEOUT)
    assert state["status"] == "finished"
    assert state["result"] == {
        "winner": "dark",
        "kind": "single",
        "points": 1,
        "resigned": True,
        "passed": False,
        "cube": None,
    }
    await socket.send_json_to({"type": "step", "id": "s1", "version": 2, "from": 13, "to": 8})
    assert (await socket.receive_json_from(TIMEOUT))["code"] == "game_over"
    await socket.disconnect()
