"""Browser: 精确分析 on the analysis board — the cube action's N-ply figures,
then a rollout asked for: its progress bar while it runs, then its figures
in their place, each with its standard error. In Chinese and in English.

Real daphne and Chromium; with REDIS_URL set a real Celery worker runs the
rollout on the ``analysis`` queue, otherwise the web process's pool does.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engine import Xgid

# The real Celery worker fixture; requested only when REDIS_URL is set.
from tests.ai.conftest import celery_worker_process  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
# Issue 31's redouble: a money game, the cube on 2 owned by light, on roll.
REDOUBLE = Xgid.parse("XGID=-ba--BCBBA--bAb--bccC--A--:1:1:1:00:0:0:0:0:10")
WORDS = {
    "zh-hans": {
        "labels": ["不再加倍", "再加倍，接受", "再加倍，放弃"],
        "button": "精确分析",
        "progress": re.compile(r"精确分析中：已模拟 \d+ 局，共 72 局"),
        "note": "精确分析：从这个局面带倍数骰模拟了 72 局",
    },
    "en": {
        "labels": ["No redouble", "Redouble, take", "Redouble, pass"],
        "button": "Rollout (precise analysis)",
        "progress": re.compile(r"Rolling out: \d+ of 72 games"),
        "note": "Rollout: 72 games played out from here with the cube",
    },
}
SIGNED = re.compile(r"^[+-]\d\.\d{3}$")
WITH_ERROR = re.compile(r"^[+-]\d\.\d{3} ± 0\.0\d\d$")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_rollout_shows_its_progress_then_its_figures_with_their_standard_error(
    browser: Any, play_server: str, language: str
) -> None:
    words = WORDS[language]
    context = browser.new_context(
        base_url=play_server, locale=LOCALES[language], viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"/analysis/?id={REDOUBLE.position.position_id()}&cube=2&owner=light")
    page.locator("#ab-board g.b-cube[data-owner='light'][data-value='2']").wait_for()
    page.click("#ab-analyse")
    rows = page.locator("#ab-cube-equities tbody tr")
    rows.first.wait_for(timeout=60_000)
    # The N-ply figures: a redouble's names, plain equities, no error.
    assert rows.locator("td:nth-of-type(1)").all_inner_texts() == words["labels"]
    n_ply = rows.locator("td:nth-of-type(2)").all_inner_texts()
    assert all(SIGNED.match(text) for text in n_ply), n_ply
    assert page.locator("#ab-rollout-note").inner_text() == ""

    button = page.locator("#ab-rollout")
    assert button.inner_text() == words["button"]
    button.click()
    # While it runs: the bar and the games done, of 72.
    text = page.locator("#ab-rollout-text")
    text.filter(has_text=words["progress"]).wait_for(timeout=60_000)
    assert page.locator("#ab-rollout-progress").is_visible()
    done = page.locator("#ab-rollout-progress").evaluate("(bar) => [bar.value, bar.max]")
    assert 0 < done[0] <= done[1] == 72
    # Then its figures in place of the N-ply ones: no double and double/take
    # with their standard errors, double/pass exact; the note says what it was.
    page.locator("#ab-rollout-note").filter(has_text=words["note"]).wait_for(timeout=90_000)
    assert page.locator("#ab-rollout-status").is_hidden()
    assert button.is_hidden()
    rolled = rows.locator("td:nth-of-type(2)").all_inner_texts()
    assert WITH_ERROR.match(rolled[0]) and WITH_ERROR.match(rolled[1]), rolled
    assert rolled[2] == "+1.000"
    assert rolled[:2] != n_ply[:2]
    context.close()


# Issue 31's checker decision: 4-2 (the mover, light, on roll).
CHECKER_ID = "fwEAAB3rAgk4AA"
PLAY_WORDS = {
    "zh-hans": {
        "best": "（最佳）",
        "progress": re.compile(r"精确分析中：已模拟 \d+ 局，共 (\d+) 局"),
        "note": "精确分析：这 5 种走法各模拟了 72 局，不带倍数骰",
    },
    "en": {
        "best": "(best)",
        "progress": re.compile(r"Rolling out: \d+ of (\d+) games"),
        "note": "Rollout: each of these 5 plays played out 72 times without the cube",
    },
}
PLAIN = re.compile(r"^-?\d\.\d{3} ")
ROLLED = re.compile(r"^([+-]\d\.\d{3}) ± (0\.0\d\d) ")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_checker_rollout_shows_its_progress_then_the_plays_ranked_with_their_errors(
    browser: Any, play_server: str, language: str
) -> None:
    words = PLAY_WORDS[language]
    context = browser.new_context(
        base_url=play_server, locale=LOCALES[language], viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"/analysis/?id={CHECKER_ID}&dice=42")
    rows = page.locator("#ab-plays tbody tr.ab-play")
    rows.first.wait_for(timeout=60_000)
    # The N-ply figures: eight plays, plain equities, no error.
    n_ply = rows.locator("td:nth-of-type(4)").all_inner_texts()
    assert len(n_ply) == 8 and all(PLAIN.match(t) for t in n_ply), n_ply
    n_ply_plays = rows.locator("td:nth-of-type(3)").all_inner_texts()
    assert page.locator("#ab-rollout-note").inner_text() == ""

    button = page.locator("#ab-rollout")
    assert button.inner_text() == WORDS[language]["button"]
    button.click()
    # While it runs: the bar and the games done, of all the plays' trials.
    text = page.locator("#ab-rollout-text")
    text.filter(has_text=words["progress"]).wait_for(timeout=60_000)
    assert page.locator("#ab-rollout-progress").is_visible()
    total = int(words["progress"].search(text.inner_text()).group(1))  # type: ignore[union-attr]
    assert total >= 5 * 72 and total % 72 == 0
    done = page.locator("#ab-rollout-progress").evaluate("(bar) => [bar.value, bar.max]")
    assert 0 < done[0] <= done[1] == total
    # Then the five shown plays rolled out, ranked by the rollout, each
    # equity with its standard error; the note says what it was.
    page.locator("#ab-rollout-note").filter(has_text=words["note"]).wait_for(timeout=120_000)
    assert page.locator("#ab-rollout-status").is_hidden()
    assert button.is_hidden()
    rolled = rows.locator("td:nth-of-type(4)").all_inner_texts()
    assert len(rolled) == 5, rolled
    found = [ROLLED.match(t) for t in rolled]
    assert all(found), rolled
    equities = [float(m.group(1)) for m in found if m]
    assert equities == sorted(equities, reverse=True)
    assert all(0 < float(m.group(2)) < 0.1 for m in found if m)
    assert words["best"] in rolled[0]
    assert set(rows.locator("td:nth-of-type(3)").all_inner_texts()) == set(n_ply_plays[:5])
    context.close()
