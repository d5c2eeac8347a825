"""A real browser (Chromium) against a real daphne: a guest signs up, changes
a preference and switches the language; the database agrees afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Preferences, User

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_guest_signs_up_then_changes_a_preference_and_the_language(browser_page: Any) -> None:
    page = browser_page
    page.goto("/account/preferences/")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"

    # Saving preferences is the first thing that needs an account: a guest.
    page.get_by_label("默认难度").select_option("advanced")
    page.get_by_role("button", name="保存设置").click()
    page.wait_for_url("**/account/preferences/")
    assert page.locator(".guest-badge").inner_text() == "游客"
    guest = User.objects.get()
    assert guest.is_guest

    page.locator(".site-account").get_by_role("link", name="注册").click()
    page.get_by_label("用户名").fill("dora")
    page.locator("#id_email").fill("dora@example.com")
    page.locator("#id_password1").fill("Shuang-lu-2026!")
    page.locator("#id_password2").fill("Shuang-lu-2026!")
    page.locator("form.account-form").get_by_role("button", name="注册").click()
    page.wait_for_url("**/account/")
    assert page.locator(".site-account .account-name").inner_text() == "dora"

    page.goto("/account/preferences/")
    assert page.get_by_label("默认难度").input_value() == "advanced"  # kept from the guest
    page.get_by_label("棋盘方向").select_option("left")
    page.get_by_label("显示 pip 数").uncheck()
    page.get_by_role("button", name="保存设置").click()
    page.wait_for_url("**/account/preferences/")
    assert page.locator("body").get_attribute("data-board-direction") == "left"
    assert page.locator("body").get_attribute("data-show-pips") == "false"

    page.locator("#language-select").select_option("en")
    page.locator(".language-switch").get_by_role("button").click()
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.get_by_role("heading", name="Preferences").is_visible()
    assert page.locator(".site-nav").get_by_role("link", name="Lobby").is_visible()

    dora = User.objects.get()
    assert (dora.pk, dora.username, dora.is_guest) == (guest.pk, "dora", False)
    prefs = Preferences.objects.get(user=dora)
    assert (prefs.default_tier, prefs.board_direction, prefs.show_pips, prefs.language) == (
        "advanced",
        "left",
        False,
        "en",
    )


@pytest.mark.parametrize(
    "path", ["/", "/account/login/", "/account/signup/", "/account/preferences/"]
)
def test_account_pages_fit_a_375_pixel_phone(browser_page: Any, path: str) -> None:
    page = browser_page
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(path)
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= 375
    assert page.locator(".site-header .brand").is_visible()
    assert page.locator(".site-footer").count() == 1
