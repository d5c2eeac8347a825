"""Lobby, start, play page and state JSON, through real URLs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Game, Status
from tests.conftest import start_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_game: Any) -> Game:
    return make_game(dice=[5, 2])


def test_the_lobby_opens_for_a_first_time_visitor(client: Any) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert b'name="tier"' in response.content
    assert b'value="casual"' in response.content


def test_the_lobby_lists_unfinished_and_finished_games(
    client_logged_in: Any, make_game: Any
) -> None:
    from django.utils import timezone

    unfinished = make_game(dice=[5, 2])
    done = make_game(
        status=Status.FINISHED,
        winner="light",
        result_kind="gammon",
        points=2,
        finished_at=timezone.now(),
    )
    response = client_logged_in.get("/")
    assert reverse("games:play", args=[unfinished.pk]).encode() in response.content
    assert reverse("games:play", args=[done.pk]).encode() in response.content
    assert [g.pk for g in response.context["unfinished"]] == [unfinished.pk]
    assert [g.pk for g in response.context["recent"]] == [done.pk]


def test_starting_a_game_as_a_guest_creates_the_guest_and_the_game(client: Any) -> None:
    response = client.post(reverse("games:start"), start_fields(client, tier="beginner"))
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:play", args=[game.pk])
    assert game.owner.is_guest and game.tier == "beginner"
    assert client.get(response["Location"]).status_code == 200


def test_an_unknown_tier_starts_nothing(client: Any) -> None:
    response = client.post(reverse("games:start"), {"tier": "grandmaster"})
    assert response.status_code == 302
    assert not Game.objects.exists()
    assert not User.objects.exists()


def test_starting_needs_a_post(client: Any) -> None:
    assert client.get(reverse("games:start")).status_code == 405


def test_the_play_page_gets_the_state_the_socket_and_the_prefs(
    client_logged_in: Any, game: Game
) -> None:
    response = client_logged_in.get(reverse("games:play", args=[game.pk]))
    assert response.status_code == 200
    assert response.context["state_json"]["version"] == 1
    assert response.context["ws_url"] == f"/ws/games/{game.pk}/"
    assert response.context["prefs_json"]["auto_end_turn"] is True
    assert b'id="game-state"' in response.content


def test_the_state_is_json_for_the_owner(client_logged_in: Any, game: Game) -> None:
    response = client_logged_in.get(reverse("games:state", args=[game.pk]))
    assert response.status_code == 200
    state = json.loads(response.content)
    assert (state["game"], state["version"], state["dice"]) == (game.pk, 1, [5, 2])
    assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("name", ["games:play", "games:state"])
def test_someone_elses_game_is_not_found(
    client: Any, make_user: Any, game: Game, name: str
) -> None:
    assert client.get(reverse(name, args=[game.pk])).status_code == 404
    client.force_login(make_user("bob"), backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(reverse(name, args=[game.pk])).status_code == 404
