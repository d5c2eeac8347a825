"""Browser: the Hint button / H key on the play page lists the best plays with
reasons and draws the best one on the board as arrows.

Real daphne and Chromium; with REDIS_URL set the hint is computed by a real
Celery worker on the ``analysis`` queue, otherwise on the web process's pool.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game
from learning.models import Hint
from tests.browser import helpers as play
from tests.learning.conftest import position

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hint_game(user: Any) -> Game:
    pos = position(light={13: 2, 8: 3, 6: 5, 24: 2, 10: 1, 5: 2}, dark={1: 2, 12: 5, 17: 3, 19: 5})
    return services.start_game_from(user, "casual", pos, dice=[6, 4])


# What the hint panel says, in each language (learning/words/client_strings.py).
SCREEN = {
    "zh-hans": {
        "button": "提示",
        "title": "这次掷骰的最佳走法",
        "ready": "最佳走法已用箭头画在棋盘上",
        "numbers": ("期望值", "胜率", "全胜"),
    },
    "en": {
        "button": "Hint",
        "title": "The best plays for this roll",
        "ready": "The best plays are drawn on the board as arrows",
        "numbers": ("equity", "win", "gammon"),
    },
}
LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}


def in_view(page: Any, selector: str, width: int) -> bool:
    """The element is drawn inside the page's width (nothing cut off sideways)."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_h_key_shows_five_ranked_plays_with_reasons_and_arrows(
    browser: Any, play_server: str, user: Any, language: str, width: int
) -> None:
    """Asked and answered over the socket, in the page's language, at each width."""
    play.set_prefs(user, language=language)
    game = hint_game(user)
    words = SCREEN[language]
    context = browser.new_context(
        base_url=play_server, locale=LOCALES[language], viewport={"width": width, "height": 800}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    play.sign_in(page, play_server, user)
    page.goto(f"/games/{game.pk}/")
    play.wait_connected(page)
    button = page.locator("#btn-hint")
    assert button.is_enabled() and button.inner_text() == words["button"]
    assert page.locator("#hint-panel").is_hidden()
    version = play.state(page)["version"]
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("h")
    page.wait_for_selector("#hint-list > li", timeout=60_000)
    items = page.locator("#hint-list > li")
    assert items.count() == 5
    assert page.locator("#hint-title").inner_text() == words["title"]
    assert words["ready"] in page.locator("#hint-status").inner_text()
    first = items.first.inner_text()
    assert "/" in first and first.count("\n") >= 1, "a play in notation, then its reasons"
    assert all(word in first for word in words["numbers"]), first
    for i in range(5):
        assert items.nth(i).is_visible() and in_view(page, f"#hint-list > li >> nth={i}", width)
    # The top three plays as arrows, the best one marked and said in words.
    assert page.locator("#board line.b-arrow-hint.b-arrow-best").count() >= 1
    assert page.locator("#board line.b-arrow-hint:not(.b-arrow-best)").count() >= 1
    assert "/" in (page.locator("#board g.b-arrows").get_attribute("aria-label") or "")
    assert int(page.evaluate("() => document.documentElement.scrollWidth")) <= width
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
    # The hint's arrows went with it (the computer's last move may be drawn).
    assert page.locator("#board line.b-arrow-hint").count() == 0
    context.close()


def test_the_h_key_asks_nothing_while_the_resign_dialog_is_open(
    browser_page: Any, play_server: str, user: Any
) -> None:
    game = hint_game(user)
    page = browser_page
    play.sign_in(page, play_server, user)
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


# The waiting words and the retry (learning/words/client_strings.py), in each language.
WAITING = {
    "zh-hans": {
        "queued": r"排队中……已等 ?\d+ ?秒",
        "slow": "这次比平常慢。可以继续等，也可以重试。",
        "retry": "重试",
    },
    "en": {
        "queued": r"Waiting in the queue… \d+ s so far",
        "slow": "This is taking longer than usual. You can keep waiting or try again.",
        "retry": "Try again",
    },
}


@pytest.mark.worker
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_lost_hint_says_what_it_waits_for_and_the_retry_gets_it(
    browser: Any,
    request: pytest.FixtureRequest,
    daphne_server: str,
    redis_url: str,
    user: Any,
    language: str,
) -> None:
    """No worker when the hint is asked; its message is then dropped (the
    worker fixture purges the queues before it starts). The page says it is
    waiting and for how long, offers the retry, and the retry gets the hint."""
    import re

    from django.conf import settings

    play.set_prefs(user, language=language)
    game = hint_game(user)
    words = WAITING[language]
    context = browser.new_context(
        base_url=daphne_server, locale=LOCALES[language], viewport={"width": 1280, "height": 800}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    play.sign_in(page, daphne_server, user)
    page.goto(f"/games/{game.pk}/")
    play.wait_connected(page)
    page.locator("#btn-hint").click()
    status = page.locator("#hint-status")
    page.wait_for_function(
        "(pattern) => new RegExp(pattern).test(document.querySelector('#hint-status').textContent)",
        arg=words["queued"],
    )
    assert re.fullmatch(words["queued"], status.inner_text())
    assert page.locator("#hint-retry").is_hidden()
    request.getfixturevalue("celery_worker_process")  # purges the queue: the message is lost
    retry = page.locator("#hint-retry")
    retry.wait_for(state="visible", timeout=(settings.WAIT_RETRY_SECONDS + 10) * 1000)
    assert retry.inner_text() == words["retry"]
    assert page.locator("#hint-wait-words").inner_text() == words["slow"]
    assert re.fullmatch(words["queued"], status.inner_text())
    assert not Hint.objects.filter(game=game, state="done").exists()
    retry.click()
    page.wait_for_selector("#hint-list > li", timeout=60_000)
    assert page.locator("#hint-list > li").count() == 5
    assert SCREEN[language]["ready"] in status.inner_text()
    assert page.locator("#hint-wait").is_hidden()
    assert page.locator("#board g.b-arrows line").count() >= 1
    context.close()
