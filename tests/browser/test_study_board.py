"""Browser: the analysis board — an address with a position and a roll, the
ranked plays and their arrows, set-up by clicks and by keys, bad input in
words, a variation played and undone.

Real daphne and Chromium; with REDIS_URL set a real Celery worker runs the
analyses on the ``analysis`` queue, otherwise the web process's pool does.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.utils import translation

from games.engine import Dice, Position, encode_xgid
from learning.board.errors import BoardInputError, describe_error
from learning.words.study_strings import ANALYSIS_STRINGS

# The real Celery worker fixture; requested only when REDIS_URL is set.

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

START = Position.start().position_id()


def zh(key: str) -> str:
    with translation.override("zh-hans"):
        return str(ANALYSIS_STRINGS[key])


def facts_text(light: int, dark: int, lc: int, dc: int) -> str:
    return zh("facts") % {"light": light, "dark": dark, "lc": lc, "dc": dc}


def address(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def test_an_address_opens_its_position_and_roll_with_ranked_plays_and_arrows(
    play_server: str, browser_page: Any
) -> None:
    page = browser_page
    page.goto(f"/analysis/?id={START}&dice=31")
    first = page.locator("#ab-plays tbody tr.ab-play").first
    first.wait_for(timeout=60_000)
    assert first.get_attribute("data-notation") == "8/5 6/5"
    # The best play's two steps are drawn as arrows on the board.
    assert page.locator("#ab-board g.b-arrows line.b-arrow").count() == 2
    assert page.locator("#ab-pid").text_content() == START
    assert page.locator("#ab-xgid").text_content() == encode_xgid(Position.start(), Dice(3, 1))
    reasons = page.locator("#ab-plays tbody tr.reasons").first.text_content() or ""
    assert "5" in reasons and "。" in reasons
    # All 21 rolls: one row per roll and the average in words.
    page.select_option("#ab-dice", "all")
    page.locator("#ab-average").filter(has_text=re.compile("21")).wait_for(timeout=60_000)
    assert page.locator("#ab-plays tbody tr.ab-play").count() == 21
    assert address(page)["dice"] == ["all"]


def test_set_up_by_clicks_and_keys_with_pips_and_the_fifteen_checker_check(
    play_server: str, browser_page: Any
) -> None:
    page = browser_page
    page.goto("/analysis/")
    page.click("#ab-setup")
    page.click("#ab-clear")
    page.locator("#ab-facts").filter(has_text=facts_text(0, 0, 0, 0)).wait_for()
    # Three clicks on the 6-point put three light checkers there.
    target6 = page.locator('#ab-board [data-point="6"]')
    for n in range(1, 4):
        target6.click()
        page.locator("#ab-facts").filter(has_text=facts_text(6 * n, 0, n, 0)).wait_for()
    assert page.locator("#ab-board g.b-checkers circle.b-light").count() == 3
    # Keys: from the 6-point the left arrow reaches the bar (25 pips a
    # checker); "+" adds one there, "-" takes it away.
    target6.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("+")
    page.locator("#ab-facts").filter(has_text=facts_text(43, 0, 4, 0)).wait_for()
    page.keyboard.press("-")
    page.locator("#ab-facts").filter(has_text=facts_text(18, 0, 3, 0)).wait_for()
    # Dark checkers on the 6-point where light stands: refused, board unchanged.
    page.check("input[name=ab-colour][value=dark]")
    pid_before = page.locator("#ab-pid").text_content()
    target6.click()
    with translation.override("zh-hans"):
        both = describe_error(BoardInputError("both_sides", {"point": 6}))
    page.locator("#ab-error").filter(has_text=both).wait_for()
    assert page.locator("#ab-pid").text_content() == pid_before
    assert page.locator("#ab-board g.b-checkers circle.b-dark").count() == 0
    # A sixteenth light checker is refused the same way.
    page.check("input[name=ab-colour][value=light]")
    for n in range(4, 16):
        target6.click()
        page.locator("#ab-facts").filter(has_text=facts_text(6 * n, 0, n, 0)).wait_for()
    target6.click()
    with translation.override("zh-hans"):
        too_many = describe_error(BoardInputError("too_many", {"count": 16}))
    page.locator("#ab-error").filter(has_text=too_many).wait_for()
    assert page.locator("#ab-facts").text_content() == facts_text(90, 0, 15, 0)
    # The address holds the set-up: opening it again shows the same position.
    pid = page.locator("#ab-pid").text_content()
    assert address(page)["id"] == [pid]
    page.goto(page.url)
    assert page.locator("#ab-pid").text_content() == pid
    page.locator("#ab-facts").filter(has_text=facts_text(90, 0, 15, 0)).wait_for()


def test_bad_input_is_refused_in_words_and_the_board_stays(
    play_server: str, browser_page: Any
) -> None:
    page = browser_page
    page.goto(f"/analysis/?id={START}")
    page.fill("#ab-input", "XGID=-b----F-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    page.click("#ab-open button[type=submit]")
    with translation.override("zh-hans"):
        too_many = describe_error(BoardInputError("too_many", {"count": 16}))
    page.locator("#ab-error").filter(has_text=too_many).wait_for()
    assert page.locator("#ab-pid").text_content() == START
    page.fill("#ab-input", "hello")
    page.click("#ab-open button[type=submit]")
    page.locator("#ab-error").filter(has_text="hello").wait_for()
    assert "既不是" in (page.locator("#ab-error").text_content() or "")
    assert page.locator("#ab-board g.b-checkers circle.b-light").count() == 15


def test_a_variation_is_played_by_keys_then_undone(play_server: str, browser_page: Any) -> None:
    page = browser_page
    page.goto(f"/analysis/?id={START}&dice=31")
    page.locator('#ab-board [data-point="8"]').wait_for(state="attached")
    steps = "() => document.querySelector('#ab-board').dataset.steps"
    for n, (src, dst) in enumerate(((8, 5), (6, 5))):
        # The board has the server's answer to the step before: keys pick from it.
        page.wait_for_function(f"() => ({steps})() === '{n}'")
        page.locator(f'#ab-board [data-point="{src}"]').focus()
        page.keyboard.press("Enter")
        page.locator(f'#ab-board [data-point="{dst}"]').focus()
        page.keyboard.press("Enter")
    page.locator("#ab-variation").filter(has_text="8/5 6/5").wait_for()
    assert page.locator("#ab-turn").text_content() == zh("on_roll") % {"side": zh("dark")}
    assert address(page)["side"] == ["dark"]
    # Light moved four pips; dark is on roll with the board after the play.
    page.locator("#ab-facts").filter(has_text=facts_text(163, 167, 15, 15)).wait_for()
    page.locator("#ab-undo").click()
    page.locator("#ab-variation").filter(has_text=zh("variation_empty")).wait_for()
    page.wait_for_function("() => document.querySelector('#ab-board').dataset.steps === '1'")
    assert page.locator("#ab-turn").text_content() == zh("on_roll") % {"side": zh("light")}
    page.keyboard.press("u")
    page.wait_for_function("() => document.querySelector('#ab-board').dataset.steps === '0'")
    assert address(page)["id"] == [START]


DOUBLE_PASS = "d1bABBi8eYQJQA"  # a money double and a pass, the side on roll's


def test_the_cube_and_the_score_set_on_the_page_give_the_cube_action(
    play_server: str, browser_page: Any
) -> None:
    page = browser_page
    page.goto(f"/analysis/?id={DOUBLE_PASS}&jacoby=1")
    cube = page.locator("#ab-board g.b-cube")
    cube.wait_for(state="attached")
    assert (cube.get_attribute("data-value"), cube.get_attribute("data-owner")) == ("1", "centre")
    assert page.locator("#ab-jacoby").is_checked()
    page.locator("body").press("a")  # no roll chosen: the cube action before the roll
    title = page.locator("#ab-cube-title")
    title.filter(has_text="正确的倍数骰决策：加倍，放弃。").wait_for(timeout=60_000)
    rows = page.locator("#ab-cube-equities tbody tr")
    assert rows.count() == 3
    assert rows.nth(2).get_attribute("data-best") == "true"  # double, pass
    assert (rows.nth(2).text_content() or "").endswith("+1.000")
    assert page.locator("#ab-cube-double-lines li").count() >= 3
    taker = page.locator("#ab-cube-take-lines li").first.text_content()
    assert taker == "正确的倍数骰决策：放弃。"
    # A 7-point match at 0-0: the address holds it, the action is found again.
    page.select_option("#ab-match", "7")
    page.locator("#ab-setting-words").filter(has_text="7 分比赛，浅色 0 分，深色 0 分").wait_for()
    page.wait_for_function("() => new URL(location.href).searchParams.get('match') === '7'")
    assert address(page)["score"] == ["0-0"] and "jacoby" not in address(page)
    assert page.locator("#ab-jacoby").is_disabled()
    # A score past the match's end: refused in words, the form as it was.
    page.fill("#ab-score-light", "9")
    page.keyboard.press("Tab")
    page.locator("#ab-error").filter(has_text="9-0").wait_for()
    assert page.locator("#ab-score-light").input_value() == "0"
    assert address(page)["score"] == ["0-0"]
    # The cube action at 7 points, still on its way: its progress and its
    # end leave the refusal on the screen (they once erased it, under load).
    page.locator("#ab-results-title[data-state='done']").wait_for(timeout=60_000)
    assert "9-0" in (page.locator("#ab-error").text_content() or "")
    # The cube on 2, owned by dark: light may not double, and the page says why.
    page.select_option("#ab-cube", "2")
    page.wait_for_function("() => new URL(location.href).searchParams.get('cube') === '2'")
    page.select_option("#ab-owner", "dark")
    page.locator("#ab-board g.b-cube[data-owner='dark'][data-value='2']").wait_for()
    page.click("#ab-analyse")
    title.filter(has_text="倍数骰在对方手里").wait_for(timeout=60_000)
    assert page.locator("#ab-cube-table").is_hidden()
    # The address round trip: a fresh page from it has the same cube and score,
    # and the cube action it showed (show=cube) is asked for again.
    assert address(page)["show"] == ["cube"]
    page.goto(page.url)
    title.filter(has_text="倍数骰在对方手里").wait_for(timeout=60_000)
    page.locator("#ab-board g.b-cube[data-owner='dark'][data-value='2']").wait_for()
    assert page.locator("#ab-match").input_value() == "7"
    assert page.locator("#ab-owner").input_value() == "dark"
    assert page.locator("#ab-setting-words").text_content() == (
        "7 分比赛，浅色 0 分，深色 0 分；倍数骰 2 在深色一方。"
    )
