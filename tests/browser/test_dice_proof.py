"""Browser: the dice commitment from the lobby to the verify page (docs/dice.md), zh and en.

A game started from the lobby with the person's own seed shows the lobby's
commitment; resigned, it shows its server seed and the verify page confirms
every roll in the browser (Web Crypto). A game played to its end through the
services has every roll confirmed; one Turn row's dice changed, the page
says which roll does not match.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.models import Game, Turn
from learning.dice.verify import verify_strings
from tests.browser.helpers import set_prefs, sign_in, wait_connected
from tests.learning.conftest import RACE, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["zh-hans", "en"]


def words(language: str) -> dict[str, str]:
    with translation.override(language):
        return verify_strings()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_resigned_game_shows_its_seed_and_every_roll_is_confirmed(
    browser_page: Any, daphne_server: str, user: Any, language: str
) -> None:
    page = browser_page
    set_prefs(user, language=language)
    sign_in(page, daphne_server, user)
    page.goto("/")
    lobby_text = page.locator(".start-dice").inner_text()  # shown, not folded away
    committed = re.search(r"[0-9a-f]{64}", lobby_text)
    assert committed is not None
    seed = page.locator("#lobby-dice-seed")
    assert re.fullmatch(r"[0-9a-f]{32}", seed.input_value())  # the browser's random seed
    seed.fill("my-own_seed-42")
    page.locator('form[action$="/games/new/"] button[type="submit"]').click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    wait_connected(page)
    proof = page.locator("#play-dice-proof")
    expect(proof).to_contain_text(committed.group(0))
    expect(proof).to_contain_text("my-own_seed-42")
    expect(page.locator("#over-dice")).to_be_hidden()

    page.locator("#btn-resign").click()
    page.locator("#resign-confirm").click()
    game = Game.objects.get(pk=int(page.locator("#play").get_attribute("data-game")))
    expect(page.locator("#over-server-seed")).to_have_text(game.server_seed, timeout=15_000)
    assert game.dice_commitment == committed.group(0)
    page.locator("#over-verify").click()
    summary = page.locator("#verify-summary")
    rolls = page.locator(".verify-roll")
    expect(summary).to_have_text(
        words(language)["all_match"] % {"count": rolls.count()}, timeout=15_000
    )
    assert rolls.count() >= len(game.opening_rolls)
    expect(page.locator('.verify-roll[data-matches="1"]')).to_have_count(rolls.count())


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_changed_roll_is_named_on_the_verify_page(
    browser_page: Any, daphne_server: str, user: Any, language: str
) -> None:
    page = browser_page
    set_prefs(user, language=language)
    game = play_out(user, RACE, committed=True)
    assert game.is_over
    sign_in(page, daphne_server, user)
    page.goto(f"/learn/verify/{game.pk}/")
    rolls = page.locator(".verify-roll")
    s = words(language)
    count = rolls.count()
    assert count == Turn.objects.filter(game=game).exclude(roll=None).count() > 5
    expect(page.locator("#verify-summary")).to_have_text(s["all_match"] % {"count": count})
    expect(page.locator('.verify-roll[data-matches="1"]')).to_have_count(count)

    turn = Turn.objects.get(game=game, number=5)
    played = (turn.die1, turn.die2)
    changed = (turn.die1 % 6 + 1, turn.die2)
    Turn.objects.filter(pk=turn.pk).update(die1=changed[0])
    page.reload()
    summary = page.locator("#verify-summary")
    expect(summary).to_contain_text(f"{changed[0]}-{changed[1]}")
    expect(summary).to_contain_text(f"{played[0]}-{played[1]}")
    bad = page.locator('.verify-roll[data-matches="0"]')
    expect(bad).to_have_count(1)
    expect(bad.locator(".verify-number")).to_have_text(str(turn.roll))
    assert str(turn.roll) in summary.inner_text()
    expect(page.locator('.verify-roll[data-matches="1"]')).to_have_count(count - 1)
