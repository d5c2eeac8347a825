"""Issue 13, "also found": a Content-Security-Policy on every page, and no
page of the site breaks it (securitypolicyviolation events, in Chromium)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


def test_no_page_breaks_the_content_security_policy(browser_page: Any) -> None:
    page = browser_page
    page.add_init_script(LISTEN)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    response = page.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator("form[action$='/games/new/'] button").first.click()
    page.wait_for_url("**/games/*/")
    page.locator("#board svg, svg").first.wait_for()
    assert page.evaluate("window.__violations") == []
    for name in (
        "learning:history",
        "learning:stats",
        "learning:help",
        "accounts:preferences",
        "accounts:login",
        "accounts:signup",
        "accounts:password_reset",
    ):
        page.goto(reverse(name))
        page.wait_for_load_state("load")
        assert page.evaluate("window.__violations") == [], name
    assert not [m for m in console if "Content Security Policy" in m]
