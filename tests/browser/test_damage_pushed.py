"""Browser: damage found while a game's page is open reaches that page at once
(issue 46, item 4), zh and en.

A page of a game is open, its socket live. A fault damages the game's row,
or separately one of its Turn rows; another tab of the game finds it. Within
2 seconds, with no reload, the open page shows what a new page shows: the
words, what could not be read, Resign and New game. Every page of the game
answers 200 with the words, never 500; Resign from the open page gives the
game up.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import services
from games.engine import Position, Side
from games.live.state import damaged_words
from games.models import Game, Status, Turn
from tests.browser.helpers import open_page, set_prefs, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PUSH_MS = 2_000
DAMAGES = {
    "game": lambda game: Game.objects.filter(pk=game.pk).update(position_id="zzzzzzzzzzzzzz"),
    "turn": lambda game: Turn.objects.filter(game=game, number=1).update(die1=9),
}


def a_game_with_a_turn(user: Any) -> Game:
    """A game whose first turn (the person's) is stored, the person on roll again."""
    game = services.start_game_from(user, "beginner", Position.start(), Side.LIGHT, [3, 1])
    for src, dst, die in ((8, 5, 3), (6, 5, 1)):
        game = services.make_step(game.pk, user, game.version, src, dst, die)
    if game.turn == Side.LIGHT.value:
        game = services.end_turn(game.pk, user, game.version)
    assert Turn.objects.filter(game=game).count() == 1 and game.turn == Side.DARK.value
    return game


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("where", sorted(DAMAGES))
def test_the_open_page_shows_the_damage_another_tab_found_within_two_seconds(
    browser: Any,
    daphne_server: str,
    user: Any,
    held_computer_turns: list[tuple[int, int]],
    language: str,
    where: str,
) -> None:
    set_prefs(user, language=language)
    game = a_game_with_a_turn(user)
    page = open_page(browser, daphne_server, user, language, 1280)
    page.goto(f"/games/{game.pk}/")
    wait_idle(page)
    expect(page.locator("#damaged")).to_be_hidden()
    DAMAGES[where](game)

    other = page.context.new_page()
    other.goto(f"/games/{game.pk}/")  # finds it: the damaged page
    with translation.override(language):
        words = damaged_words(finished=False)
    expect(other.locator("#damaged-message")).to_have_text(words)

    expect(page.locator("#damaged-message")).to_have_text(words, timeout=PUSH_MS)
    expect(page.locator("#damaged")).to_be_visible()
    expect(page.locator("#play")).to_be_hidden()
    expect(page.locator("#damaged-resign")).to_be_visible()
    expect(page.locator("#damaged-new")).to_be_visible()
    expect(page.locator("#damaged-dice-seed")).to_be_visible()
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == Status.FAILED and services.is_damaged(stored)
    why = stored.failure.removeprefix(services.DAMAGED)
    assert why.startswith("turn 1: die1" if where == "turn" else "position_id")
    expect(page.locator("#damaged-failure")).to_have_text(why)
    assert page.url.endswith(f"/games/{game.pk}/")  # no reload

    for url in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/state",
        f"/learn/games/{game.pk}/review/",
        f"/learn/verify/{game.pk}/",
        f"/learn/verify/{game.pk}/proof.json",
    ):
        answer = other.request.get(url)
        assert answer.status == 200, url
    page.locator("#damaged-resign").click()
    page.wait_for_url(re.compile(rf".*/games/{game.pk}/$"))
    with translation.override(language):
        given_up = damaged_words(finished=True, resigned=True)
    expect(page.locator("#damaged-message")).to_have_text(given_up)
    expect(page.locator("#damaged-resign")).to_have_count(0)
    assert Game.objects.get(pk=game.pk).status == Status.FINISHED
    page.context.close()
