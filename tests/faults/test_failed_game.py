"""Issue 13, item 6: a failed game whose row is corrupt still has a state;
its pages show the failure in words, and other games are untouched. Since
issue 30 (item 6) the words say the record is damaged (tests/games/
test_damaged_rows.py has the rows damaged in other ways)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.live.state import build_state
from games.models import Game, Status

pytestmark = pytest.mark.django_db


@pytest.fixture
def corrupt_failed_game(make_game: Any) -> Game:
    game = make_game(dice=[5, 2])
    Game.objects.filter(pk=game.pk).update(position_id="not-a-position", status=Status.FAILED)
    return Game.objects.get(pk=game.pk)


def test_the_state_of_a_corrupt_failed_game_is_built_with_the_failure_in_words(
    corrupt_failed_game: Game,
) -> None:
    with translation.override("zh-hans"):
        state = build_state(corrupt_failed_game, moves=True)
    assert state["status"] == "failed"
    assert state["allowed"] == [] and state["board"]["points"] == [0] * 24
    assert state["damaged"] is True
    assert state["message"] == "这局棋的记录已损坏，无法显示。你可以认输，或者开始新的一局。"


def test_its_pages_answer_with_the_failure_and_other_games_are_untouched(
    corrupt_failed_game: Game, make_game: Any, client_logged_in: Client
) -> None:
    other = make_game(dice=[5, 2])
    page = client_logged_in.get(reverse("games:play", args=[corrupt_failed_game.pk]))
    assert page.status_code == 200
    state = client_logged_in.get(reverse("games:state", args=[corrupt_failed_game.pk]))
    assert state.status_code == 200
    assert state.json()["status"] == "failed"
    # The page says it in words (games/damaged.html), with its two ways on.
    assert state.json()["message"] in page.content.decode()
    fine = client_logged_in.get(reverse("games:state", args=[other.pk])).json()
    assert (fine["status"], fine["version"]) == ("playing", 1)
