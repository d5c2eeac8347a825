"""Browser: the play page's controls against the real server.

Undo, End turn with Enter when auto end turn is off, a refused step's reason,
keyboard-only play with accessible names, reload mid-turn, two tabs on one
game, resigning with a confirmation, and a 375 px wide screen.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.helpers import (
    click_step,
    play_allowed_step,
    set_prefs,
    sign_in,
    start_game,
    state,
    target,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game_page(browser_page: Any, play_server: str, user: Any) -> Any:  # noqa: F811
    """A signed-in page on a new beginner game, ready for the person to move."""
    set_prefs(user, animation_speed="off", auto_end_turn=False)
    sign_in(browser_page, play_server, user)
    start_game(browser_page)
    wait_ready(browser_page)
    return browser_page


def board_of(page: Any) -> dict[str, Any]:
    return state(page)["board"]


def drawn_checkers(page: Any) -> str:
    """The checkers as the SVG draws them (what the person sees)."""
    return str(page.locator("#board g.b-checkers").inner_html())


def test_undo_button_and_keys_step_back_to_the_roll(game_page: Any) -> None:
    page = game_page
    before = state(page)
    drawn = drawn_checkers(page)
    assert page.locator("#btn-undo").is_disabled()
    after = play_allowed_step(page)
    assert after["steps"] and after["can_undo"]
    assert after["board"] != before["board"]
    page.locator("#btn-undo").click()
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.idle", arg=after["version"]
    )
    assert board_of(page) == before["board"]
    assert drawn_checkers(page) == drawn, "the board is drawn as it was"
    assert state(page)["steps"] == []
    # The U key does the same.
    stepped = play_allowed_step(page)
    page.locator("body").press("u")
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.idle", arg=stepped["version"]
    )
    assert board_of(page) == before["board"]


def test_with_auto_end_off_the_turn_waits_for_enter(game_page: Any) -> None:
    page = game_page
    start = state(page)
    st = start
    while not st["can_end_turn"]:
        st = play_allowed_step(page)
        assert st["turn"] == "light", "auto end turn is off: the turn must wait"
    assert page.locator("#btn-end").is_enabled()
    page.locator("body").press("Enter")
    page.wait_for_function(
        """v => { const st = window.__shuanglu.state;
          return st.version > v && st.last_turn && (st.turn === 'dark'
            || st.last_turn.side === 'dark' || st.status === 'finished'); }""",
        arg=st["version"],
    )


def test_a_refused_step_shows_the_servers_reason(game_page: Any) -> None:
    page = game_page
    st = state(page)
    sources = {s["from"] for s in st["allowed"]}
    src = next(iter(sorted(sources)))
    points = st["board"]["points"]
    # Backwards from a source: never legal, and not a point we would re-pick.
    candidates = [p for p in range(src + 1, 25) if not (points[p - 1] > 0 and p in sources)]
    # A new game: nothing on the bar, and every roll leaves a point behind a source.
    assert src != 25 and candidates
    target(page, src).click()
    target(page, candidates[0]).click()
    refusal = page.locator("#play-refusal")
    refusal.wait_for(state="attached")
    page.wait_for_function(
        "() => document.getElementById('play-refusal').textContent.trim() !== ''"
    )
    assert state(page)["version"] == st["version"], "a refused step changes nothing"


def test_keyboard_alone_picks_and_drops_with_accessible_names(game_page: Any) -> None:
    page = game_page
    st = state(page)
    step = st["allowed"][0]
    label = target(page, step["from"]).get_attribute("aria-label")
    assert step["from"] != 25, "a new game has nothing on the bar"
    count = st["board"]["points"][step["from"] - 1]
    assert label == f"{step['from']} 点，你的 {count} 枚"
    # Tab into the board, then walk with the arrow keys to the source.
    page.locator("#board [tabindex='0']").focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.point")
    assert focused is not None
    target(page, step["from"]).focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.__shuanglu.selected") == step["from"]
    target(page, step["to"]).focus()
    page.keyboard.press(" ")
    page.wait_for_function("v => window.__shuanglu.state.version > v", arg=st["version"])
    assert len(state(page)["steps"]) == 1
    page.wait_for_function("() => document.getElementById('play-live').textContent.trim() !== ''")


def test_reload_mid_turn_restores_the_steps(game_page: Any) -> None:
    page = game_page
    after = play_allowed_step(page)
    drawn = drawn_checkers(page)
    page.reload()
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle")
    assert drawn_checkers(page) == drawn, "the step is on the board after the reload"
    again = state(page)
    assert again["version"] == after["version"]
    assert again["steps"] == after["steps"]
    assert again["board"] == after["board"]
    assert page.locator("#btn-undo").is_enabled()


def test_two_tabs_on_one_game_converge(game_page: Any) -> None:
    page = game_page
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle")
    after = play_allowed_step(page)
    other.wait_for_function("v => window.__shuanglu.state.version === v", arg=after["version"])
    assert state(other)["board"] == after["board"]
    # And back: an undo in the second tab reaches the first, board and buttons.
    other.locator("#btn-undo").click()
    page.wait_for_function("v => window.__shuanglu.state.version === v + 1", arg=after["version"])
    assert state(page)["steps"] == [] and page.locator("#btn-undo").is_disabled()
    other.close()


def test_a_dropped_socket_reconnects_and_resumes_where_the_game_is(game_page: Any) -> None:
    page = game_page
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle")
    page.evaluate("() => window.__shuanglu.dropSocket()")
    # The game moves on in the other tab while this one is away.
    done = play_allowed_step(other)
    page.wait_for_function(
        "v => window.__shuanglu.connected && window.__shuanglu.state.version === v",
        arg=done["version"],
    )
    assert state(page)["board"] == done["board"]
    after = play_allowed_step(page)
    assert after["version"] > done["version"]
    other.close()


def test_a_checker_can_be_dragged_to_its_destination(game_page: Any) -> None:
    page = game_page
    st = state(page)
    step = st["allowed"][0]
    a = target(page, step["from"]).bounding_box()
    b = target(page, step["to"]).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.idle", arg=st["version"]
    )
    after = state(page)
    assert [(s["from"], s["to"]) for s in after["steps"]] == [(step["from"], step["to"])]


def test_resign_asks_first_then_ends_the_game(game_page: Any) -> None:
    page = game_page
    page.locator("#btn-resign").click()
    dialog = page.locator("#resign-dialog")
    assert dialog.is_visible()
    page.locator("#resign-cancel").click()
    assert not dialog.is_visible()
    assert state(page)["status"] in ("playing", "opening")
    page.locator("#btn-resign").click()
    page.locator("#resign-confirm").click()
    page.wait_for_function("() => window.__shuanglu.state.status === 'finished'")
    st = state(page)
    assert st["result"]["winner"] == "dark"
    assert page.locator("#play-over").is_visible()


def test_the_board_fits_a_375_px_screen(game_page: Any) -> None:
    page = game_page
    page.set_viewport_size({"width": 375, "height": 740})
    page.wait_for_timeout(100)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375
    box = page.locator("#board").bounding_box()
    assert box is not None and box["width"] >= 300 and box["x"] >= 0
    st = state(page)
    step = st["allowed"][0]
    after = click_step(page, step["from"], step["to"])
    assert len(after["steps"]) == 1
    assert re.search(r"\d", page.locator("#play-pips").inner_text())
