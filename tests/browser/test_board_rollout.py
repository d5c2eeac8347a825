"""Browser: 精确分析 on the analysis board — the cube action's N-ply figures,
then a rollout asked for: its progress bar while it runs, then its figures
in their place, each with its standard error. In Chinese and in English.

Real daphne and Chromium; with REDIS_URL set a real Celery worker runs the
rollout on the ``analysis`` queue, otherwise the web process's pool does.
"""

from __future__ import annotations

import os
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


@pytest.fixture
def board_server(request: pytest.FixtureRequest, daphne_server: str) -> str:
    if os.environ.get("REDIS_URL"):
        request.getfixturevalue("celery_worker_process")
    return daphne_server


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_rollout_shows_its_progress_then_its_figures_with_their_standard_error(
    browser: Any, board_server: str, language: str
) -> None:
    words = WORDS[language]
    context = browser.new_context(
        base_url=board_server, locale=LOCALES[language], viewport={"width": 1280, "height": 900}
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
