"""Browser: a whole game against the computer, played by clicking the board.

Real daphne (``daphne_server``), real Chromium, real WebSockets; with
REDIS_URL set, a real Celery worker plays the computer's turns. The test
reads the server's `allowed` list through the page's ``window.__shuanglu``
handle and clicks the board's targets like a person would.
"""

from __future__ import annotations

from typing import Any

import pytest

# The real Celery worker fixture ("ai"); requested only when REDIS_URL is set.
from tests.browser.helpers import (
    play_allowed_step,
    set_prefs,
    sign_in,
    start_game,
    state,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_SECONDS = 240


def test_a_whole_game_is_played_to_its_end_against_the_computer(
    browser_page: Any, play_server: str, user: Any
) -> None:
    page = browser_page
    # Fast, not off: the computer's steps are animated one by one.
    set_prefs(user, animation_speed="fast")
    sign_in(page, play_server, user)
    start_game(page)
    # The opening roll is always shown, whoever won it and whether or not
    # the computer has played it yet.
    st = state(page)
    light, dark = st["opening"]["rolls"][-1]
    opening = page.locator("#play-opening").inner_text()
    assert f"你 {light}" in opening and f"电脑 {dark}" in opening, opening

    # Every text the turn line shows from here on.
    page.evaluate("""() => {
      const line = document.getElementById('play-turn');
      window.__turnTexts = [];
      new MutationObserver(() => window.__turnTexts.push(line.textContent))
        .observe(line, { childList: true, characterData: true, subtree: true });
    }""")
    person_turns = 0
    saw_computer_play = False
    for _ in range(400):
        st = wait_ready(page, timeout=GAME_SECONDS * 1000)
        if st["status"] in ("finished", "failed"):
            break
        if st["last_turn"] and st["last_turn"]["side"] == "dark":
            saw_computer_play = True
        if st["can_end_turn"]:
            page.locator("#btn-end").click()
            page.wait_for_function("v => window.__shuanglu.state.version > v", arg=st["version"])
            continue
        before = len(st["steps"])
        after = play_allowed_step(page)
        finished_turn = after["last_turn"] != st["last_turn"] or after["turn"] != "light"
        # The step was taken, or it finished the turn (auto end turn).
        assert finished_turn or len(after["steps"]) == before + 1
        person_turns += finished_turn
    final = state(page)
    assert final["status"] == "finished", final
    assert saw_computer_play and person_turns > 0
    assert page.evaluate("() => window.__shuanglu.animatedPlays") > 0
    # While its checkers move the computer is no longer "thinking": the line
    # says what it rolled and plays.
    assert any("正在走" in text for text in page.evaluate("() => window.__turnTexts"))
    result = final["result"]
    assert result["winner"] in ("light", "dark")
    assert result["points"] == {"single": 1, "gammon": 2, "backgammon": 3}[result["kind"]]
    panel = page.locator("#play-over")
    assert panel.is_visible()
    assert page.locator("#over-title").inner_text().strip()
    assert str(result["points"]) in page.locator("#over-points").inner_text()
    winner_off = final["board"]["off"][result["winner"]]
    assert winner_off == 15, "the winner has borne off all fifteen checkers"
    assert page.locator("#btn-resign").is_disabled()
