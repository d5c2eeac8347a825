"""Browser: a whole game against the computer, played by clicking the board.

Real daphne (``daphne_server``), real Chromium, real WebSockets; with
REDIS_URL set, a real Celery worker plays the computer's turns. The test
reads the server's `allowed` list through the page's ``window.__shuanglu``
handle and clicks the board's targets like a person would.

The helpers here are shared with ``test_play_controls.py``.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

# The real Celery worker fixture ("ai"); requested only when REDIS_URL is set.
from tests.ai.conftest import celery_worker_process  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page is ready for the person: nothing in flight, nothing animating.
READY_JS = """() => {
  const s = window.__shuanglu;
  if (!s || !s.idle) return false;
  const st = s.state;
  return st.status === 'finished' || st.status === 'failed'
    || (st.turn === 'light' && (st.allowed.length > 0 || st.can_end_turn));
}"""
GAME_SECONDS = 240


@pytest.fixture
def play_server(request: pytest.FixtureRequest, daphne_server: str) -> str:
    """The daphne URL, with a Celery worker running when REDIS_URL is set."""
    if os.environ.get("REDIS_URL"):
        request.getfixturevalue("celery_worker_process")
    return daphne_server


def set_prefs(user: Any, **fields: Any) -> None:
    from accounts.models import Preferences

    Preferences.objects.update_or_create(user=user, defaults=fields)


def sign_in(page: Any, base_url: str, user: Any) -> None:
    """Give the browser a real session for ``user`` (made by Django's client)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}]
    )


def start_game(page: Any, tier: str = "beginner") -> int:
    """Start a game from the lobby form; returns its id once the board is live."""
    page.goto("/")
    page.check(f'input[name="tier"][value="{tier}"]')
    page.locator('form[action$="/games/new/"] button[type="submit"]').click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    wait_connected(page)
    return int(page.locator("#play").get_attribute("data-game"))


def wait_connected(page: Any) -> None:
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle", timeout=15_000)


def wait_ready(page: Any, timeout: float = 60_000) -> dict[str, Any]:
    page.wait_for_function(READY_JS, timeout=timeout)
    return state(page)


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.__shuanglu.state")


def target(page: Any, where: int) -> Any:
    return page.locator(f'#board [data-point="{where}"]')


def click_step(page: Any, src: int, dst: int) -> dict[str, Any]:
    """Click a checker, then its destination; wait for the new state."""
    version = state(page)["version"]
    target(page, src).click()
    target(page, dst).click()
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.idle", arg=version
    )
    return state(page)


def play_allowed_step(page: Any) -> dict[str, Any]:
    st = state(page)
    step = st["allowed"][0]
    return click_step(page, step["from"], step["to"])


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
