"""Every page fits its window: no sideways scroll at 375, 820 or 1280 px, in
Chinese and in English, and no table hides part of a cell.

A real daphne and Chromium; the pages hold real data (an analysed finished
game, a game being played), so the tables the pages draw have rows.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from tests.browser.helpers import LOCALES, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIGNED_IN_PAGES = [
    "/",
    "/learn/history/",
    "/learn/stats/",
    "/learn/help/",
    "/learn/help/glossary/",
    "/learn/help/faq/",
    "/analysis/?id=4HPwATDgc/ABMA&dice=31",
    "/practice/",
    "/account/",
    "/account/preferences/",
    "/account/password/",
]
VISITOR_PAGES = [
    "/",
    "/account/login/",
    "/account/signup/",
    "/account/password/reset/",
    "/learn/help/",
    "/analysis/",
    "/practice/",
    "/learn/",
    "/learn/lesson/bearing-off/",
]

# Every overflow on the page: the document's width, and each table cell whose
# text is wider than the cell or lies outside what its scrolling wrapper shows.
OVERFLOW_JS = """() => {
  const out = [];
  const doc = document.scrollingElement;
  if (doc.scrollWidth > window.innerWidth) {
    out.push(`page ${doc.scrollWidth} > ${window.innerWidth}`);
  }
  for (const cell of document.querySelectorAll("th, td")) {
    const box = cell.getBoundingClientRect();
    if (!box.width || !cell.textContent.trim()) continue;
    if (getComputedStyle(cell).visibility === "hidden") continue;
    if (cell.closest(".visually-hidden")) continue;
    const label = `${cell.tagName} "${cell.textContent.trim().slice(0, 24)}"`;
    if (cell.scrollWidth > cell.clientWidth + 1) {
      out.push(`${label} text ${cell.scrollWidth} > ${cell.clientWidth}`);
    }
    for (let up = cell.parentElement; up && up !== document.body; up = up.parentElement) {
      const ox = getComputedStyle(up).overflowX;
      if (ox === "visible") continue;
      const edge = up.getBoundingClientRect();
      if (box.right > edge.right + 1 || box.left < edge.left - 1) {
        out.push(`${label} outside ${up.className || up.tagName}`);
      }
      break;
    }
  }
  return out;
}"""


def overflows(page: Any, path: str) -> list[str]:
    page.goto(path)
    page.wait_for_load_state("load")
    return [f"{path}: {o}" for o in page.evaluate(OVERFLOW_JS)]


def record_failures(page: Any, found: list[str]) -> None:
    """Every answer of 400 or more the page asks for (a missing favicon...)."""
    page.on(
        "response",
        lambda r: found.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )


# 820 px: the review's turn panel beside the board is at its narrowest.
@pytest.mark.parametrize("width", [375, 820, 1280])
@pytest.mark.parametrize("language", sorted(LOCALES))
def test_no_page_scrolls_sideways_clips_a_table_or_misses_a_file(
    browser: Any, daphne_server: str, user: Any, analysed_game: int, language: str, width: int
) -> None:
    playing = services.start_game(user, "beginner")
    pages = SIGNED_IN_PAGES + [
        f"/games/{playing.pk}/",
        f"/learn/games/{analysed_game}/review/",
        f"/learn/verify/{analysed_game}/",
    ]
    found: list[str] = []
    for signed_in, paths in ((True, pages), (False, VISITOR_PAGES)):
        context = browser.new_context(
            base_url=daphne_server,
            locale=LOCALES[language],
            viewport={"width": width, "height": 800},
        )
        context.set_default_timeout(15_000)
        page = context.new_page()
        record_failures(page, found)
        if signed_in:
            sign_in(page, daphne_server, user)
        for path in paths:
            found += overflows(page, path)
            assert page.locator("html").get_attribute("lang") == (
                "zh-Hans" if language == "zh-hans" else "en"
            ), path
        context.close()
    assert found == [], "\n".join(found)
    icon = page_icon(browser, daphne_server)
    assert icon == (200, "image/svg+xml")


def page_icon(browser: Any, base_url: str) -> tuple[int, str]:
    """The favicon the pages name: its status and type."""
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    page.goto("/account/login/")
    href = page.locator('link[rel="icon"]').get_attribute("href")
    answer = page.request.get(href)
    context.close()
    return answer.status, answer.headers["content-type"].split(";")[0]
