"""Browser: a finished, reviewed game shows its PR and band on the review page,
in the history's list and as a dot of the progress graph, in zh and in en.

Real daphne, real Chromium; the game is a real one played through
``games.services`` (the person erring now and then), its review run here
(the checker plays ranked at 1-ply, so the test is quick under load) and
stored as the site stores any review."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.utils import translation

from ai_worker.evaluator import rank_plays
from games.engine import Dice, Play, Position
from learning.models import AnalysisState, GameAnalysis
from learning.review import game as review
from learning.words.labels import PR_LABELS
from tests.learning.conftest import RACE, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _one_ply(
    position: Position,
    dice: Dice,
    ply: int,
    keep: Play | None = None,
    shown: int = 2,
    context: Any = None,
) -> Any:
    return rank_plays(position, dice, 1, keep, context=context)


def _review(game_id: int) -> None:
    try:
        review.run_analysis(game_id, rank=_one_ply)
    finally:
        connections.close_all()


@pytest.fixture
def reviewed_game(user: Any, held_reviews: list[int]) -> int:
    rng = random.Random(4)
    game = play_out(user, RACE, seed=4, light_choice=lambda r: r[min(len(r) - 1, rng.randrange(3))])
    assert held_reviews == [game.pk]
    job = threading.Thread(target=_review, args=(game.pk,))  # off Playwright's loop
    job.start()
    job.join()
    assert GameAnalysis.objects.get(game=game).state == AnalysisState.DONE
    return game.pk


def _page(browser: Any, base_url: str, user: Any, locale: str) -> Any:
    context = browser.new_context(base_url=base_url, locale=locale)
    context.set_default_timeout(15_000)
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}])
    return context.new_page()


@pytest.mark.parametrize(
    ("locale", "shown"), [("zh-CN", "{pr}（{band}）"), ("en-US", "{pr} ({band})")]
)
def test_a_reviewed_game_shows_its_pr_and_band_in_the_review_history_and_graph(
    browser: Any,
    daphne_server: str,
    user: Any,
    reviewed_game: int,
    locale: str,
    shown: str,
) -> None:
    figures = GameAnalysis.objects.get(game_id=reviewed_game).summary["light"]["pr"]
    pr = f"{figures['overall']:.1f}"
    with translation.override("zh-hans" if locale.startswith("zh") else "en"):
        band = str(PR_LABELS[figures["band"]])
    page = _page(browser, daphne_server, user, locale)
    page.goto(f"/learn/games/{reviewed_game}/review/")
    cell = page.locator('#pr-summary tr[data-side="light"] .summary-pr')
    assert cell.inner_text().strip() == shown.format(pr=pr, band=band)
    assert page.locator("#pr-summary caption").inner_text().startswith("PR")
    words = page.locator("#luck-result").inner_text()
    assert ("除去运气" if locale.startswith("zh") else "By the plays alone") in words
    page.goto("/learn/history/")
    row = page.locator(f'tr.history-row[data-game="{reviewed_game}"] .history-pr')
    assert pr in row.inner_text() and band in row.inner_text()
    dot = page.locator(f'#progress-rates circle.pg-dot[data-game="{reviewed_game}"]')
    assert dot.count() == 1
    assert float(dot.get_attribute("data-rate") or "nan") == pytest.approx(
        figures["overall"], abs=0.051
    )
    assert dot.is_visible()
    level = page.locator('#progress-level .level-window[data-window="10"]').inner_text()
    assert pr in level and band in level  # one reviewed game: its PR is the level
