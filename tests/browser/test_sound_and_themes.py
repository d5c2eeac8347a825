"""Browser: the board themes and the sounds, as the preferences choose them.

Real daphne and Chromium; with REDIS_URL set, a real Celery worker plays the
computer. The themes are read from the board's computed colours; the sounds
from Web Audio sources started, counted by a script the test adds to the page
(the page itself ships no hook for it).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import services

# The real Celery worker fixture, for play_server when REDIS_URL is set.
from tests.browser import helpers as play
from tests.browser.helpers import LOCALES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(language, width) for language in sorted(LOCALES) for width in (375, 1280)]

# (field, point, light checker's fill, its edge's width) for each theme.
THEMES = {
    "wood": ("rgb(232, 213, 169)", "rgb(181, 84, 58)", "rgb(247, 241, 227)", "1.5px"),
    "contrast": ("rgb(255, 255, 255)", "rgb(0, 114, 178)", "rgb(255, 255, 255)", "3px"),
    "dark": ("rgb(51, 54, 61)", "rgb(154, 74, 58)", "rgb(236, 230, 216)", "1.5px"),
}

BOARD_COLOURS_JS = """() => {
  const fill = (sel) => getComputedStyle(document.querySelector(sel)).fill;
  const checker = getComputedStyle(document.querySelector("#board .b-checker.b-light"));
  return [fill("#board .b-field"), fill("#board .b-point-odd"), checker.fill, checker.strokeWidth];
}"""

# Counts every Web Audio source started: oscillators and noise buffers.
COUNT_SOUNDS_JS = """
window.__soundsStarted = 0;
for (const name of ["OscillatorNode", "AudioBufferSourceNode"]) {
  const start = window[name].prototype.start;
  window[name].prototype.start = function (...args) {
    window.__soundsStarted += 1;
    return start.apply(this, args);
  };
}
"""


def new_page(browser: Any, base_url: str, user: Any, language: str, width: int) -> Any:
    context = browser.new_context(
        base_url=base_url, locale=LOCALES[language], viewport={"width": width, "height": 900}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    play.sign_in(page, base_url, user)
    return page


@pytest.mark.parametrize(("language", "width"), SIZES)
def test_each_board_theme_paints_the_board(
    browser: Any, daphne_server: str, user: Any, language: str, width: int
) -> None:
    game = services.start_game(user, "beginner")
    page = new_page(browser, daphne_server, user, language, width)
    seen = {}
    for theme in THEMES:
        play.set_prefs(user, board_theme=theme)
        page.goto(f"/games/{game.pk}/")
        page.locator("#board .b-checker.b-light").first.wait_for()
        assert page.locator("body").get_attribute("data-board-theme") == theme
        seen[theme] = tuple(page.evaluate(BOARD_COLOURS_JS))
    assert seen == THEMES
    page.context.close()


@pytest.mark.parametrize(("language", "width"), SIZES)
def test_the_preferences_page_offers_the_comforts_off_by_default(
    browser: Any, daphne_server: str, user: Any, language: str, width: int
) -> None:
    page = new_page(browser, daphne_server, user, language, width)
    page.goto("/account/preferences/")
    boxes = [page.locator(f"#id_{name}") for name in ("auto_forced", "auto_bear_off", "sound")]
    for box in boxes:
        assert box.is_visible()
        assert not box.is_checked()
    labels = [page.locator(f'label[for="id_{n}"]').inner_text() for n in ("sound", "board_theme")]
    assert labels == (
        ["音效：掷骰、落子和打击", "棋盘主题"]
        if language == "zh-hans"
        else ["Sound: dice, checkers and hits", "Board theme"]
    )
    assert page.locator("#id_board_theme").input_value() == "wood"
    boxes[2].check()
    page.locator("#id_board_theme").select_option("dark")
    page.locator("form.preferences-form button[type=submit]").click()
    page.wait_for_url("**/account/preferences/")
    assert page.locator("body").get_attribute("data-board-theme") == "dark"
    assert page.locator("#id_sound").is_checked()
    page.context.close()


LIVE = ("playing", "opening")  # the first turn is played in the "opening" status


def play_until_my_next_roll(page: Any) -> dict[str, Any]:
    """Play the person's turn by clicks, then wait for the computer's turn to end."""
    st = play.wait_ready(page)
    version = st["version"]
    while st["turn"] == "light" and st["status"] in LIVE:
        if st["can_end_turn"] and not st["allowed"]:
            page.locator("#btn-end").click()
            page.wait_for_function("v => window.__shuanglu.state.version > v", arg=st["version"])
            st = play.state(page)
            continue
        st = play.play_allowed_step(page)
    try:
        page.wait_for_function(
            "v => { const s = window.__shuanglu; return s.idle && s.state.version > v"
            " && (s.state.turn === 'light' || !['playing', 'opening'].includes(s.state.status)); }",
            arg=version,
            timeout=60_000,
        )
    except PlaywrightTimeout:
        seen = page.evaluate(
            "() => { const s = window.__shuanglu; const st = s.state; return {idle: s.idle,"
            " version: st.version, turn: st.turn, status: st.status, thinking: st.thinking}; }"
        )
        pytest.fail(f"the computer's turn after version {version} did not end: {seen}")
    return play.wait_ready(page)


@pytest.mark.parametrize(("language", "width"), SIZES)
def test_sounds_play_when_chosen_and_stop_on_mute(
    browser: Any, play_server: str, user: Any, language: str, width: int
) -> None:
    play.set_prefs(user, sound=True, animation_speed="fast")
    page = new_page(browser, play_server, user, language, width)
    page.add_init_script(COUNT_SOUNDS_JS)
    play.start_game(page)
    mute = page.locator("#btn-mute")
    assert mute.is_visible()
    assert mute.inner_text() == ("静音" if language == "zh-hans" else "Mute")
    assert mute.get_attribute("aria-pressed") == "false"

    play_until_my_next_roll(page)  # the computer's dice and checkers, then mine
    heard = page.evaluate("window.__soundsStarted")
    assert heard > 0

    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    play_until_my_next_roll(page)
    assert page.evaluate("window.__soundsStarted") == heard
    page.context.close()


def test_sounds_are_off_by_default(browser: Any, play_server: str, user: Any) -> None:
    play.set_prefs(user, animation_speed="fast")  # sound left at its default
    page = new_page(browser, play_server, user, "zh-hans", 1280)
    page.add_init_script(COUNT_SOUNDS_JS)
    play.start_game(page)
    assert page.locator("#btn-mute").is_hidden()
    play_until_my_next_roll(page)
    assert page.evaluate("window.__soundsStarted") == 0
    page.context.close()
