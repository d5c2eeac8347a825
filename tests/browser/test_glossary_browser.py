"""Browser: the glossary page draws every entry's small board, and a linked
term opens a pop-up under its line with the term's sentence and board, in
view on a 375 px phone; Escape closes it and gives the focus back.

Real daphne and Chromium, in Chinese, touch emulation at 375 px.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from learning.glossary.marks import plain
from learning.glossary.terms import BY_KEY, TERMS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_glossary_draws_each_board_and_a_term_opens_its_pop_up_on_a_phone(
    browser: Any, daphne_server: str
) -> None:
    context = browser.new_context(
        base_url=daphne_server,
        locale="zh-CN",
        viewport={"width": 375, "height": 812},
        has_touch=True,
        is_mobile=True,
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/learn/help/glossary/")
    boards = page.locator("svg[data-term-diagram]")
    expect(boards).to_have_count(len(TERMS))
    for entry in TERMS:
        board = page.locator(f'svg[data-term-diagram="{entry.key}"]')
        assert board.locator("circle.b-checker").count() > 0, entry.key
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

    # The entry of 打 links 落单: a tap opens the pop-up under that line.
    link = page.locator('dt#hit + dd a.term[data-term="blot"]')
    link.tap()
    pop = page.locator("#term-pop")
    expect(pop).to_be_visible()
    with translation.override("zh-hans"):
        expect(pop.locator(".term-pop-sentence")).to_have_text(plain(BY_KEY["blot"].sentence))
    expect(pop.locator("strong")).to_have_text("落单")
    expect(pop.locator("circle.b-checker").first).to_be_attached()
    box = pop.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    # Its own words link further terms (the bar), each a link of its own.
    expect(pop.locator('a.term[data-term="bar"]')).to_have_text("吧台")
    expect(link).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(pop).to_have_count(0)
    expect(link).to_be_focused()
    context.close()
