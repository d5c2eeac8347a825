"""Browser: the review of a money game shows each cube decision on its turn.

Real daphne, real Chromium. The game is ``test_cube_teaching``'s: LIGHT
doubles before turn 3 and DARK takes (a wrong take), DARK redoubles after
the last turn and LIGHT passes; its analysis runs with the real evaluator.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections
from django.utils import translation

from games.models import Game
from learning.models import AnalysisState, CubeAnalysis, GameAnalysis
from learning.review import game as review
from learning.words.cube import cube_verdict
from tests.browser.helpers import LOCALES, open_page
from tests.chinese import chinese_mistakes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def analyse_then_close(game_id: int) -> None:
    try:
        review.run_analysis(game_id)
    finally:
        connections.close_all()


@pytest.mark.parametrize("language", sorted(LOCALES))
def test_the_cube_decisions_are_on_their_turn_and_at_the_end(
    browser: Any,
    daphne_server: str,
    user: Any,
    held_reviews: list[int],
    cube_game_played: Game,  # noqa: F811
    language: str,
) -> None:
    # The finish's own review is held (in the zero set-up mode the in-process
    # pool would run it beside this one, which then finds it running).
    assert held_reviews == [cube_game_played.pk]
    job = threading.Thread(target=analyse_then_close, args=(cube_game_played.pk,))
    job.start()
    job.join()
    row = GameAnalysis.objects.get(game=cube_game_played)
    assert row.state == AnalysisState.DONE
    took = CubeAnalysis.objects.get(analysis=row, before_turn=3, decision="take")
    passed = CubeAnalysis.objects.get(analysis=row, before_turn=4, decision="take")
    with translation.override(language):
        took_line = cube_verdict(took.report, "take")
        passed_line = cube_verdict(passed.report, "pass")
        summary_caption = translation.gettext("Checker play and the cube")

    page = open_page(browser, daphne_server, user, language, 1280)
    page.goto(f"/learn/games/{cube_game_played.pk}/review/")
    assert page.locator(".cube-summary caption").inner_text() == summary_caption
    page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    verdict = page.locator("#rv-cube")
    text = verdict.inner_text()
    assert took_line in text, text
    assert f"{took.equity_lost:.3f}" in text
    # The wrong take is an error: n from the start lands on its turn.
    page.keyboard.press("Home")
    page.keyboard.press("n")
    assert page.evaluate("() => window.__review.view") == 2
    page.keyboard.press("End")
    end = verdict.inner_text()
    assert passed_line in end, end
    assert chinese_mistakes(end) == [], end  # (no Chinese in English: nothing to mark)
    page.context.close()
