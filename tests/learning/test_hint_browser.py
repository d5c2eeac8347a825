"""Browser: the Hint button / H key on the play page lists the best plays with
reasons and draws the best one on the board as arrows.

Real daphne and Chromium; with REDIS_URL set the hint is computed by a real
Celery worker on the ``analysis`` queue, otherwise on the web process's pool.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from games.models import Game, Status
from learning.models import Hint
from tests.browser import test_play_game as play
from tests.learning.conftest import position

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def hint_server(request: pytest.FixtureRequest, daphne_server: str) -> str:
    if os.environ.get("REDIS_URL"):
        request.getfixturevalue("celery_worker_process")
    return daphne_server


def hint_game(user: Any) -> Game:
    pos = position(light={13: 2, 8: 3, 6: 5, 24: 2, 10: 1, 5: 2}, dark={1: 2, 12: 5, 17: 3, 19: 5})
    return Game.objects.create(
        owner=user,
        status=Status.PLAYING,
        turn="light",
        dice=[6, 4],
        position_id=pos.position_id(),
        opening_rolls=[[6, 4]],
    )


@pytest.mark.parametrize(
    ("language", "width", "ready"),
    [("zh-hans", 1280, "最佳走法已用箭头画在棋盘上"), ("en", 375, "Best play drawn on the board")],
)
def test_the_h_key_shows_five_ranked_plays_with_reasons_and_arrows(
    browser_page: Any, hint_server: str, user: Any, language: str, width: int, ready: str
) -> None:
    """Asked and answered over the socket, in the page's language."""
    play.set_prefs(user, language=language)
    game = hint_game(user)
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    play.sign_in(page, hint_server, user)
    page.goto(f"/games/{game.pk}/")
    play.wait_connected(page)
    assert page.locator("#btn-hint").is_enabled()
    version = play.state(page)["version"]
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("h")
    page.wait_for_selector("#hint-list > li", timeout=60_000)
    items = page.locator("#hint-list > li")
    assert items.count() == 5
    first = items.first.inner_text()
    assert "/" in first and first.count("\n") >= 1, "a play in notation, then its reasons"
    assert ready in page.locator("#hint-status").inner_text()
    assert page.locator("#board g.b-arrows line").count() >= 1
    # A hint changes nothing in the game but the record that hints were used.
    game.refresh_from_db()
    assert game.hints_used and game.version == version
    assert Hint.objects.get(game=game, version=version).state == "done"
    # Another play from the list is drawn instead when picked.
    before = page.locator("#board g.b-arrows").inner_html()
    items.nth(4).click()
    assert page.locator("#board g.b-arrows").inner_html() != before
    # The turn moves on: the list answered a roll that is gone.
    while play.state(page)["last_turn"] is None:
        play.wait_connected(page)
        play.play_allowed_step(page)
    page.wait_for_function("() => !document.querySelector('#hint-list > li')")
    assert page.locator("#hint-panel").is_hidden()
    assert page.locator("#board g.b-arrows line").count() == 0


def test_the_h_key_asks_nothing_while_the_resign_dialog_is_open(
    browser_page: Any, hint_server: str, user: Any
) -> None:
    game = hint_game(user)
    page = browser_page
    play.sign_in(page, hint_server, user)
    page.goto(f"/games/{game.pk}/")
    play.wait_connected(page)
    page.locator("#btn-resign").click()
    assert page.locator("#resign-dialog").is_visible()
    page.keyboard.press("h")
    page.wait_for_timeout(500)
    assert page.locator("#hint-panel").is_hidden()
    page.locator("#resign-cancel").click()
    game.refresh_from_db()
    assert not game.hints_used and not Hint.objects.filter(game=game).exists()
