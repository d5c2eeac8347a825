"""Issue 13, "also found": a Content-Security-Policy on every page, and no
page of the site breaks it (securitypolicyviolation events, in Chromium).

Every page is visited and used as a person would (a game started and a step
played, a review read, a practice position answered), since scripts write
most of the pages after load.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from learning.models import PracticeItem
from tests.browser import helpers as play
from tests.browser.helpers import Keyboard

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile);
});
"""


class Visits:
    """Opens pages in one browser page and collects each one's CSP violations."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.console: list[str] = []
        page.add_init_script(LISTEN)
        page.on("console", lambda m: self.console.append(m.text))

    def open(self, url: str) -> None:
        response = self.page.goto(url)
        assert response.status == 200, url
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "object-src 'none'" in policy, url
        self.page.wait_for_load_state("networkidle")

    def check(self, where: str) -> None:
        """No violation on the page now shown (the list is per document)."""
        self.page.wait_for_timeout(100)  # a violation is reported in a task of its own
        assert self.page.evaluate("window.__violations") == [], where
        assert not [m for m in self.console if "Content Security Policy" in m], where


def test_no_page_breaks_the_content_security_policy(
    play_server: str,  # noqa: F811
    browser_page: Any,
    practice_user: Any,  # noqa: F811
) -> None:
    page = browser_page
    visits = Visits(page)
    for name, args in (
        ("accounts:login", ()),
        ("accounts:signup", ()),
        ("accounts:password_reset", ()),
        ("learning:help", ()),
        ("learning:help_page", ("glossary",)),
        ("learning:help_page", ("faq",)),
        ("games:lobby", ()),
    ):
        visits.open(reverse(name, args=args))
        visits.check(name)

    play.sign_in(page, play_server, practice_user)
    play.start_game(page)
    if play.wait_ready(page)["allowed"]:  # the computer has played its opening, if it won it
        play.play_allowed_step(page)
    visits.check("play")

    item = PracticeItem.objects.select_related("turn__analysis").filter(owner=practice_user).first()
    assert item is not None
    visits.open(reverse("learning:review", args=[item.turn.analysis.game_id]))
    page.wait_for_selector("#summary-title")
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("ArrowRight")
    page.locator("#rv-alternatives tbody tr").first.wait_for()
    visits.check("review")

    for name in (
        "learning:history",
        "learning:reviews",
        "learning:stats",
        "study:analysis",
        "accounts:profile",
        "accounts:preferences",
        "accounts:password_change",
    ):
        visits.open(reverse(name))
        visits.check(name)

    visits.open(reverse("study:practice"))
    answer_one(page)
    visits.check("practice")


def answer_one(page: Any) -> None:
    """Play the shown practice position's best play with the keys; wait for the verdict."""
    data = json.loads(page.locator("#practice-item").text_content() or "{}")
    item = PracticeItem.objects.select_related("turn").get(pk=data["id"])
    keys = Keyboard(page)
    page.wait_for_function("() => document.querySelector('#pr-board').dataset.steps === '0'")
    steps = item.turn.report["alternatives"][0]["steps"]
    for i, (src, dst, *_hit) in enumerate(steps):
        keys.pick(int(src))
        keys.pick(int(dst))
        if i < len(steps) - 1:
            page.wait_for_function(
                f"() => document.querySelector('#pr-board').dataset.steps === '{i + 1}'"
            )
    page.locator("#pr-verdict-title").wait_for()
    page.locator("#pr-best-reasons li").first.wait_for()
