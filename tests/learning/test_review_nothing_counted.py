"""A review with no decision of the person's to count says why in words, not
a bare "—" (issue 46, item 5)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Game
from learning.review import game as review
from tests.learning.conftest import RACE, one_ply, play_out

pytestmark = pytest.mark.django_db

WORDS = {
    "zh-hans": "这局你没有需要判断的决策（都是唯一走法或直接认输），所以没有 PR。",
    "en": (
        "You had no decision to judge in this game (every move was the only one, "
        "or you resigned at once), so there is no PR."
    ),
}


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_game_resigned_at_once_says_why_it_has_no_pr(
    client_logged_in: Client,
    user: Any,
    held_computer_turns: list[tuple[int, int]],
    held_reviews: list[int],
    language: str,
) -> None:
    game = services.start_game(user, "beginner", person_seed="at-once")
    services.resign(game.pk, user, Game.objects.get(pk=game.pk).version)
    assert review.run_analysis(game.pk, rank=one_ply)
    page = client_logged_in.get(f"/learn/games/{game.pk}/review/", HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode().replace("&#x27;", "'")
    assert 'id="pr-summary"' in text and WORDS[language] in text


def test_a_review_with_decisions_counted_has_no_such_words(
    client_logged_in: Client, user: Any, held_reviews: list[int]
) -> None:
    game = play_out(user, RACE, seed=3)
    assert review.run_analysis(game.pk, rank=one_ply)
    text = client_logged_in.get(
        f"/learn/games/{game.pk}/review/", HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert 'id="pr-summary"' in text and WORDS["zh-hans"] not in text
