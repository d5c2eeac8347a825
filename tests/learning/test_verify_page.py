"""The verify page (learning:verify) says why a game's dice cannot be checked,
keeps the server seed of a game in progress to itself, and the statistics
page links each finished game's proof."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import services
from games.models import DiceSource, Game
from learning.dice.verify import verify_context

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"


def _page(client: Client, game: Game) -> str:
    answer = client.get(f"/learn/verify/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_game_in_progress_shows_its_commitment_and_not_its_seed(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game(user, "beginner", person_seed="abc")
    text = _page(client_logged_in, game)
    assert "This game is not over yet" in text and game.dice_commitment in text
    assert game.server_seed not in text and 'id="verify-data"' not in text


def test_games_without_a_commitment_say_why(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game(user, "beginner")
    Game.objects.filter(pk=game.pk).update(dice_source=DiceSource.BEFORE)
    assert "started before the site committed to its dice" in _page(client_logged_in, game)
    imported = services.import_match_file(user, (DATA / "gnubg_match3.mat").read_text())
    first = imported.games[0]
    assert first.dice_source == DiceSource.IMPORTED
    assert "imported from a match file" in _page(client_logged_in, first)
    with translation.override("en"):
        play = client_logged_in.get(f"/games/{first.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Imported from a match file: no dice commitment." in play.content.decode()


def test_the_statistics_link_each_finished_games_proof(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game(user, "beginner")
    assert f"/learn/verify/{game.pk}/" not in client_logged_in.get("/learn/stats/").content.decode()
    services.resign(game.pk, user, Game.objects.get(pk=game.pk).version)
    stats = client_logged_in.get("/learn/stats/").content.decode()
    assert f'href="/learn/verify/{game.pk}/"' in stats
    assert stats.count('class="chi"') >= 4  # the chi-square tests stay
    review = client_logged_in.get(f"/learn/games/{game.pk}/review/").content.decode()
    assert f'href="/learn/verify/{game.pk}/"' in review


def test_a_roll_changed_after_the_game_no_longer_matches_its_seeds(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game(user, "beginner", person_seed="abc")
    services.resign(game.pk, user, Game.objects.get(pk=game.pk).version)
    game = Game.objects.get(pk=game.pk)
    honest = verify_context(game)
    assert honest["committed"] and honest["all_match"] and honest["rows"]
    light, dark = game.opening_rolls[-1]
    changed = [*game.opening_rolls[:-1], [light % 6 + 1, dark]]
    Game.objects.filter(pk=game.pk).update(opening_rolls=changed)
    tampered = verify_context(Game.objects.get(pk=game.pk))
    assert tampered["committed"] and not tampered["all_match"]
