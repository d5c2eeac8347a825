"""Browser: finish a game, wait for its analysis, step through the review by keys.

Real daphne, real Chromium; with REDIS_URL set, a real Celery worker runs the
review on the ``analysis`` queue, otherwise the web process runs it on its
thread pool. The game is a real one (played by the engine and the 1-ply
evaluator, stored with the ORM) stopped one LIGHT turn before LIGHT wins;
the browser plays that last turn by clicking the board.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from games.models import Game
from learning.models import AnalysisState, GameAnalysis
from tests.browser import test_play_game as play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_log(request: pytest.FixtureRequest, daphne_server: str) -> Any:
    """Start the real worker when REDIS_URL is set; returns a log reader."""
    if os.environ.get("REDIS_URL"):
        worker = request.getfixturevalue("celery_worker_process")
        return worker.log
    return lambda: "(no worker: in-process tasks)"


@pytest.fixture
def review_server(daphne_server: str, worker_log: Any) -> str:
    return daphne_server


def view(page: Any) -> int:
    return int(page.evaluate("() => window.__review.view"))


def press(page: Any, key: str) -> int:
    page.keyboard.press(key)
    return view(page)


def test_finish_a_game_then_review_it_with_the_keys(
    browser_page: Any, review_server: str, user: Any, nearly_won_game: Game, worker_log: Any
) -> None:
    page = browser_page
    game = nearly_won_game
    play.sign_in(page, review_server, user)
    page.goto(f"/games/{game.pk}/")
    play.wait_connected(page)
    for _ in range(8):
        st = play.wait_ready(page)
        if st["status"] == "finished":
            break
        if st["can_end_turn"]:
            page.locator("#btn-end").click()
            page.wait_for_function("v => window.__shuanglu.state.version > v", arg=st["version"])
            continue
        play.play_allowed_step(page)
    assert play.state(page)["status"] == "finished"
    game.refresh_from_db()
    assert game.winner == "light"
    turns = game.turns.count()

    # The review: the page follows the analysis job, then shows the summary.
    page.goto(f"/learn/games/{game.pk}/review/")
    try:
        page.wait_for_selector("#summary-title", timeout=120_000)
    except Exception:
        row = GameAnalysis.objects.filter(game=game).first()
        pytest.fail(f"no analysis ({row}); worker log:\n{worker_log()[-4000:]}", pytrace=False)
    assert GameAnalysis.objects.get(game=game).state == AnalysisState.DONE
    assert page.locator("#win-graph circle").count() == turns
    assert page.locator(".summary-table tbody tr").count() == 2

    page.locator("body").click(position={"x": 1, "y": 1})
    assert view(page) == 0
    title0 = page.locator("#rv-turn-title").inner_text()
    assert press(page, "ArrowRight") == 1
    assert page.locator("#rv-turn-title").inner_text() != title0
    assert page.locator("#rv-alternatives tbody tr").count() >= 1
    assert press(page, "ArrowLeft") == 0
    assert press(page, "End") == turns
    assert press(page, "Home") == 0

    # n / p jump between errors (turns marked ?!, ? or ??), if there are any.
    errors = page.evaluate(
        "() => JSON.parse(document.getElementById('review-data').textContent).turns"
        ".map((t, i) => t.analysis && t.analysis.error !== 'none' ? i : -1)"
        ".filter(i => i >= 0)"
    )
    if errors:
        assert press(page, "n") == errors[0]
        if len(errors) > 1:
            assert press(page, "n") == errors[1]
            assert press(page, "p") == errors[0]
    else:
        assert press(page, "n") == 0

    # Clicking the graph jumps to a turn.
    box = page.locator("#win-graph").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.9, box["y"] + box["height"] / 2)
    assert view(page) > turns // 2
