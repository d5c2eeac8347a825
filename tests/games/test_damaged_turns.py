"""Damage found anywhere reaches every open page of the game (issue 46, item 4).

A Turn row that cannot be read (the move list, the review, the proof) is
treated as a damaged game row is: every page of the game answers 200 with
the damaged words and the ways on, the failure is stored, and an
unfinished game is stopped. A socket already open on the game is sent the
damaged state as soon as anything finds the damage: another page, the state
URL, a new socket, the computer's task.
"""

from __future__ import annotations

import html
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.models import Game, Status, Turn
from tests.games.fixtures_sockets import connect_socket
from tests.learning.conftest import RACE, play_out

DAMAGED_WORDS = "This game's record is damaged"
PUSH_SECONDS = 2.0

TURN_DAMAGES: list[dict[str, Any]] = [
    {"die1": 9},
    {"die2": 0},
    {"side": "bogus"},
    {"steps": "garbage"},
    {"steps": [[24, 18]]},
    {"steps": [{"from": 1}]},
    {"position_before": "zzzzzzzzzzzzzz"},
    {"position_after": "4HPwATDgc/AB"},
]


def game_pages(game_id: int) -> list[str]:
    return [
        f"/games/{game_id}/",
        f"/games/{game_id}/state",
        f"/learn/games/{game_id}/review/",
        f"/learn/verify/{game_id}/",
        f"/learn/verify/{game_id}/proof.json",
        f"/learn/games/{game_id}/export.mat",
    ]


def read_all(client: Client, game_id: int) -> dict[str, str]:
    """Every page of the game: each answers 200 (never 500), its text."""
    texts = {}
    for url in game_pages(game_id):
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200, (url, answer.status_code)
        texts[url] = html.unescape(answer.content.decode())
    return texts


@pytest.fixture
def played(user: Any, held_computer_turns: list[tuple[int, int]]) -> Game:
    """A game some turns into its play, the person on roll."""
    game = play_out(user, None, seed=5, turns=4)
    assert not game.is_over and Turn.objects.filter(game=game).count() == 4
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("fields", TURN_DAMAGES, ids=[str(d) for d in TURN_DAMAGES])
def test_a_damaged_turn_row_gives_every_page_in_words_and_stops_the_game(
    client_logged_in: Client, played: Game, fields: dict[str, Any]
) -> None:
    Turn.objects.filter(game=played, number=2).update(**fields)
    texts = read_all(client_logged_in, played.pk)
    pages = [url for url in game_pages(played.pk) if not url.endswith(("/state", ".json"))]
    assert len(pages) == 4
    said = [url for url in pages if "Resign it, or start a new game." in texts[url]]
    assert said == pages
    assert texts[f"/games/{played.pk}/state"].count("Resign it, or start a new game.") == 1
    stored = Game.objects.get(pk=played.pk)
    assert stored.status == Status.FAILED and stored.finished_at is not None
    name = next(iter(fields))
    assert stored.failure.startswith(f"{services.DAMAGED}turn 2: {name} cannot be read")
    page = texts[f"/games/{played.pk}/"]
    assert f'action="/games/{played.pk}/give-up"' in page  # Resign
    assert 'action="/games/new/"' in page and 'name="commitment"' in page  # New game
    assert f"turn 2: {name} cannot be read" in page  # what could not be read


@pytest.mark.django_db
def test_a_finished_games_damaged_turn_is_said_without_a_resignation(
    client_logged_in: Client, user: Any, held_reviews: list[int]
) -> None:
    game = play_out(user, RACE, seed=3)
    assert game.status == Status.FINISHED
    Turn.objects.filter(game=game, number=1).update(die1=7)
    texts = read_all(client_logged_in, game.pk)
    page = texts[f"/games/{game.pk}/"]
    assert "This game's record is damaged and cannot be shown. You can start a new game." in page
    assert "give-up" not in page and "You resigned" not in page
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == Status.FINISHED and stored.winner == game.winner  # its result stays
    assert stored.failure == f"{services.DAMAGED}turn 1: die1 cannot be read: 7"


async def _pushed(socket: Any, after: int) -> dict[str, Any]:
    """The first state past version ``after`` the socket is sent, within PUSH_SECONDS."""
    give_up = time.monotonic() + PUSH_SECONDS
    while True:
        message = await socket.receive_json_from(max(0.01, give_up - time.monotonic()))
        if message.get("type") == "state" and message["version"] > after:
            return dict(message)


def _get(client: Client, url: str) -> int:
    return int(client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").status_code)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
@pytest.mark.parametrize("where", ["game", "turn"])
async def test_an_open_socket_hears_of_damage_another_page_found(
    user: Any, held_computer_turns: list[tuple[int, int]], where: str
) -> None:
    game = await database_sync_to_async(play_out)(user, None, seed=5, turns=4)
    first, state = await connect_socket(game.pk, user, language=b"en")
    second, _ = await connect_socket(game.pk, user, language=b"zh-CN")
    if where == "game":
        await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(dice={"x": 1})
    else:
        rows = Turn.objects.filter(game=game, number=3)
        await database_sync_to_async(rows.update)(position_after="zzzzzzzzzzzzzz")
    client = await database_sync_to_async(_client)(user)
    assert await database_sync_to_async(_get)(client, f"/games/{game.pk}/") == 200  # finds it
    for socket, words in ((first, DAMAGED_WORDS), (second, "这局棋的记录已损坏")):
        pushed = await _pushed(socket, state["version"])
        assert pushed["damaged"] is True and pushed["status"] == Status.FAILED
        assert words in pushed["message"] and pushed["failure"]
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_a_socket_that_opens_on_damage_tells_the_sockets_already_open(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = await database_sync_to_async(play_out)(user, None, seed=5, turns=4)
    open_before, state = await connect_socket(game.pk, user, language=b"en")
    damage = Game.objects.filter(pk=game.pk).update
    await database_sync_to_async(damage)(steps=[[99, 1, 2, 3]])
    opening, first = await connect_socket(game.pk, user, language=b"en")  # a reload elsewhere
    assert first["damaged"] is True
    pushed = await _pushed(open_before, state["version"])
    assert pushed["damaged"] is True and DAMAGED_WORDS in pushed["message"]
    for socket in (open_before, opening):
        await socket.disconnect()


@pytest.mark.django_db
def test_the_computers_task_that_finds_damage_stops_the_game_as_damaged(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = play_out(user, None, seed=5, turns=3)
    assert game.turn == "dark"
    Game.objects.filter(pk=game.pk).update(position_id="zzzzzzzzzzzzzz")
    start = services.start_computer_turn(game.pk, game.version)
    assert start.due is None and start.starts == 0
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == Status.FAILED and services.is_damaged(stored)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client
