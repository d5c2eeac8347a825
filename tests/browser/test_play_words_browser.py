"""Browser: plays on the screens that show them (issue 45). A Chinese page
writes bar and off as the notation lesson teaches, 吧台 and 移出, never in
Latin letters: the review's turn line and its plays' table, the play page's
move list, the hint's plays and its arrows' words; an English page keeps
bar and off. The reasons the review and the hint give link the glossary's
terms they name (a tap opens the term's entry), as the tutor's words do.

Real daphne and Chromium; the hint is computed by a real Celery worker when
REDIS_URL is set, otherwise on the web process's pool.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import services
from games.models import Game
from games.words.notation import notation_words
from learning.models import TurnAnalysis
from learning.words.client_strings import REVIEW_STRINGS
from tests.boards import board
from tests.browser import helpers as play
from tests.browser.helpers import open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("zh-hans", "en")
LATIN_MOVE_WORD = re.compile(r"\b(bar|off)\b", re.IGNORECASE)
WRITTEN = {"zh-hans": ("吧台", "移出"), "en": ("bar", "off")}


def written(language: str, notation: str) -> str:
    with translation.override(language):
        return notation_words(notation)


def no_latin_in_chinese(language: str, text: str) -> bool:
    return language != "zh-hans" or not LATIN_MOVE_WORD.search(text)


def test_the_review_and_the_move_list_write_off_in_the_page_s_language(
    browser: Any, daphne_server: str, user: Any, analysed_game: int
) -> None:
    game = Game.objects.get(pk=analysed_game)
    turns = list(game.turns.order_by("number"))
    rows = {t.turn_id: t for t in TurnAnalysis.objects.filter(analysis__game=game)}
    k, bearing = next(
        (k, t)
        for k, t in enumerate(turns)
        if t.side == "light" and "off" in t.notation and not rows[t.pk].forced
    )
    for language in LANGUAGES:
        page = open_page(browser, daphne_server, user, language, 1280)
        page.goto(f"/learn/games/{game.pk}/review/")
        page.evaluate("(k) => window.__review.show(k)", k)
        with translation.override(language):
            played = str(REVIEW_STRINGS["played"]) % {"play": written(language, bearing.notation)}
        expect(page.locator("#rv-turn-line")).to_have_text(played)
        table = page.locator("#rv-alternatives")
        expect(table).to_contain_text(WRITTEN[language][1])
        shown = page.locator("#rv-turn-line").inner_text() + table.inner_text()
        assert no_latin_in_chinese(language, shown), shown
        # The reasons link the glossary's terms: 移出 here, its entry a tap away.
        term = table.locator('a.term[data-term="bear-off"]').first
        expect(term).to_be_visible()
        term.click()
        expect(page.locator("#term-pop")).to_be_visible()
        # The play page's move list of the same game.
        page.goto(f"/games/{game.pk}/")
        play.wait_connected(page)
        moves = page.locator("#play-moves-list")
        expect(moves).to_contain_text(written(language, bearing.notation))
        assert no_latin_in_chinese(language, moves.inner_text())
        page.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hint_writes_bar_in_the_page_s_language_and_links_its_terms(
    browser: Any, play_server: str, user: Any, language: str
) -> None:
    play.set_prefs(user, language=language)
    on_bar = board({24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}, light_bar=1)
    game = services.start_game_from(user, "casual", on_bar, dice=[3, 1])
    page = open_page(browser, play_server, user, language, 375, timeout=20_000)
    page.goto(f"/games/{game.pk}/")
    play.wait_connected(page)
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("h")
    page.wait_for_selector("#hint-list > li", timeout=60_000)
    heads = page.locator("#hint-list > li > strong").all_inner_texts()
    assert heads and all(h.startswith(f"{WRITTEN[language][0]}/") for h in heads), heads
    listed = page.locator("#hint-list").inner_text()
    label = page.locator("#board g.b-arrows").get_attribute("aria-label") or ""
    assert WRITTEN[language][0] in label
    assert no_latin_in_chinese(language, listed + label), listed + label
    # Entering from the bar, the reasons link 进场 (enter) to its entry.
    term = page.locator('#hint-list a.term[data-term="enter"]').first
    expect(term).to_be_visible()
    term.click()
    expect(page.locator("#term-pop")).to_be_visible()
    page.context.close()
