"""Browser: a game starts only under the commitment its page showed (issue 46),
zh and en.

Two tabs of one person show the same commitment; the first starts a game;
the second's start is refused in words that show the new commitment, which
its form then shows and sends. A tab shows the next commitment afresh when
it comes to the front. The end-of-game panel's New game starts under the
commitment the panel showed, even when another tab used the one the page
was drawn with. A game started by a POST without a seed says that it
proves nothing on its page, its verify page and its download.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import services
from games.models import Game
from games.words.dice import commitment_words, unproven_words
from learning.dice.verify import verify_strings
from tests.browser.helpers import LOCALES, set_prefs, sign_in, wait_connected

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["zh-hans", "en"]
START = 'form[action$="/games/new/"] button[type="submit"]'


def tab(context: Any) -> Any:
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def shown(page: Any, prefix: str = "lobby") -> str:
    """The commitment the form shows; the one it will send is the same."""
    text = page.locator(f"#{prefix}-commitment").locator("xpath=..").locator("[data-commitment]")
    value = page.locator(f"#{prefix}-commitment").input_value()
    assert text.inner_text() == value and re.fullmatch(r"[0-9a-f]{64}", value)
    return str(value)


def people_context(browser: Any, daphne_server: str, user: Any, language: str) -> Any:
    context = browser.new_context(
        base_url=daphne_server, locale=LOCALES[language], viewport={"width": 1280, "height": 900}
    )
    first = tab(context)
    sign_in(first, daphne_server, user)
    return context, first


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_second_tab_is_refused_in_words_and_shown_the_new_commitment(
    browser: Any, daphne_server: str, user: Any, language: str
) -> None:
    set_prefs(user, language=language)
    context, first = people_context(browser, daphne_server, user, language)
    second = tab(context)
    first.goto("/")
    second.goto("/")
    committed = shown(first)
    assert shown(second) == committed
    seed = first.locator("#lobby-dice-seed")
    expect(seed).to_be_visible()  # drawn in the browser, shown before the start
    assert re.fullmatch(r"[0-9a-f]{32}", seed.input_value())
    assert seed.input_value() != second.locator("#lobby-dice-seed").input_value()
    first.locator(START).click()
    first.wait_for_url(re.compile(r".*/games/\d+/$"))
    game = Game.objects.get(owner=user)
    assert game.dice_commitment == committed

    second.locator("#lobby-dice-seed").fill("second-tab")
    second.locator(START).click()
    second.wait_for_url(re.compile(r".*/$"))
    new = services.next_commitment(user)
    with translation.override(language):
        words = commitment_words("commitment_used", new)
    expect(second.locator(".messages")).to_contain_text(words)
    assert shown(second) == new != committed
    expect(second.locator("#lobby-dice-seed")).to_have_value("second-tab")  # kept
    assert Game.objects.filter(owner=user).count() == 1

    # A third tab left open while a game starts elsewhere shows the next one
    # when it comes to the front, with no reload.
    third = tab(context)
    third.goto("/")
    assert shown(third) == new
    second.locator(START).click()
    second.wait_for_url(re.compile(r".*/games/\d+/$"))
    assert Game.objects.filter(owner=user).latest("pk").dice_commitment == new
    third.bring_to_front()
    third.evaluate("() => window.dispatchEvent(new Event('focus'))")  # headless: no OS focus
    newest = services.next_commitment(user)
    expect(third.locator("#lobby-commitment")).to_have_value(newest, timeout=5_000)
    expect(third.locator(".start-dice [data-commitment]")).to_have_text(newest)
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_end_panels_new_game_uses_the_commitment_it_showed(
    browser: Any, daphne_server: str, user: Any, language: str
) -> None:
    set_prefs(user, language=language)
    context, page = people_context(browser, daphne_server, user, language)
    page.goto("/")
    page.locator(START).click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    wait_connected(page)
    drawn_with = page.locator("#next-commitment").input_value()
    # Another tab starts a game with the commitment this page was drawn with.
    services.start_game(user, "beginner", person_seed="elsewhere", commitment=drawn_with)
    page.locator("#btn-resign").click()
    page.locator("#resign-confirm").click()
    expect(page.locator("#play-over")).to_be_visible(timeout=15_000)
    fresh = services.next_commitment(user)
    assert fresh != drawn_with
    expect(page.locator("#next-commitment")).to_have_value(fresh, timeout=5_000)
    expect(page.locator("#play-over [data-commitment]")).to_have_text(fresh)
    seed = page.locator("#next-dice-seed")
    expect(seed).to_be_visible()
    seed.fill("from-the-panel")
    page.locator("#over-new").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    started = Game.objects.filter(owner=user).latest("pk")
    assert (started.dice_commitment, started.person_seed) == (fresh, "from-the-panel")
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_start_without_a_seed_is_labelled_unproven_on_its_page_verify_page_and_download(
    browser: Any, daphne_server: str, user: Any, language: str
) -> None:
    set_prefs(user, language=language)
    context, page = people_context(browser, daphne_server, user, language)
    page.goto("/")
    token = page.locator('input[name="csrfmiddlewaretoken"]').first.input_value()
    form = {"tier": "beginner", "commitment": shown(page), "csrfmiddlewaretoken": token}
    answer = page.request.post(
        "/games/new/", form=form, headers={"Referer": f"{daphne_server}/"}, max_redirects=0
    )
    assert answer.status == 302
    game = Game.objects.get(owner=user)
    with translation.override(language):
        words = unproven_words(game)
    assert words is not None
    page.goto(answer.headers["location"])
    wait_connected(page)
    expect(page.locator("#play-dice-unproven")).to_have_text(words)
    page.locator("#btn-resign").click()
    page.locator("#resign-confirm").click()
    expect(page.locator("#play-over")).to_be_visible(timeout=15_000)
    page.locator("#over-verify").click()
    expect(page.locator("#verify-unproven")).to_have_text(words)
    expect(page.locator("#verify-summary")).to_have_attribute("data-verdict", "match")
    # What the person noted down before the game, checked in the browser.
    with translation.override(language):
        said = verify_strings()
    noted = page.locator("#verify-noted-commitment")
    noted.fill(game.dice_commitment)
    expect(page.locator("#verify-noted-result")).to_have_text(said["noted_match"])
    noted.fill("0" * 64)
    expect(page.locator("#verify-noted-result")).to_have_text(said["noted_mismatch"])
    expect(page.locator("#verify-noted-result")).to_have_attribute("data-verdict", "mismatch")
    with page.expect_download() as fetched:
        page.locator("#verify-download").click()
    proof = fetched.value.path().read_text(encoding="utf-8")
    data = json.loads(proof)
    assert (data["proven"], data["person_seed_from"], data["unproven_why"]) == (
        False,
        "server",
        words,
    )
    context.close()
