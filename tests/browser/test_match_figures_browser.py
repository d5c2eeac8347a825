"""Browser, zh and en (issue 44): an imported match's review in its own unit.

A 3-point match of GNU Backgammon's (tests/data/gnubg_match3_short.mat)
imported as a study through the history page's import (its form's POST,
sent from this process so that the reviews wait for the test), reviewed at 1-ply at
each turn's cube and score; its review shows both sides' PR, the luck and
the luck-adjusted result in match winning chances, the line saying what the
figures are in, and the file's players by their own names, never "you".
Real daphne, real Chromium; what is checked is read off the screen.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ai_worker.evaluator import rank_plays
from games.engine import Position
from games.models import Game
from learning.models import GameAnalysis
from learning.review import game as review
from learning.review.luck import luck_context
from learning.words.unit import unit_line
from tests.browser.helpers import DATA, open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def one_ply(
    position: Position, dice: Any, ply: int, keep: Any = None, shown: int = 2, context: Any = None
) -> Any:
    return rank_plays(position, dice, 1, keep, context=context)


def reviewed(games: list[Game]) -> None:
    def run() -> None:
        try:
            for game in games:
                review.run_analysis(game.pk, rank=one_ply)
        finally:
            connections.close_all()

    job = threading.Thread(target=run)  # the review broadcasts through async_to_sync
    job.start()
    job.join()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_an_imported_matchs_review_shows_pr_luck_in_match_chances_and_the_players(
    browser: Any, daphne_server: str, user: Any, held_reviews: list[int], language: str
) -> None:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    upload = SimpleUploadedFile("match.mat", (DATA / "gnubg_match3_short.mat").read_bytes())
    done = client.post(reverse("learning:import_mat"), {"file": upload, "mine": "neither"})
    assert done.status_code == 302
    games = list(Game.objects.filter(owner=user).studies().order_by("match_game"))
    assert [g.pk for g in games] == held_reviews and len(games) == 2
    reviewed(games)
    game = games[1]  # alice's gammon at the cube of 2 ends the match
    row = GameAnalysis.objects.get(game=game)
    page = open_page(browser, daphne_server, user, language, 1280)
    page.goto(f"/learn/games/{game.pk}/review/")

    # Both sides by the file's names, each with its PR as the review stored it.
    summary = page.locator("#pr-summary tbody tr")
    assert summary.locator("th").all_text_contents() == ["alice", "bob"]
    for side, tr in zip(("light", "dark"), summary.all(), strict=True):
        pr = row.summary[side]["pr"]["overall"]
        assert pr is not None
        assert tr.locator(".summary-pr").get_attribute("data-pr") == str(pr)
        assert tr.locator(".summary-pr").inner_text().startswith(f"{pr:.1f}")
    with translation.override(language):
        you = {gettext("You"), gettext("you")}
        expected = luck_context(game, row)
        unit = unit_line("match", row.ply)
    assert not you & set(summary.locator("th").all_text_contents())

    # The luck and the luck-adjusted result, in match winning chances.
    assert expected is not None and expected["unit"] == "mwc"
    luck = page.locator("#luck-result")
    assert luck.get_attribute("data-unit") == "mwc"
    words = luck.inner_text()
    assert words == expected["words"]
    phrase = "赢下整场比赛的机会" if language == "zh-hans" else "chance of winning the match"
    assert phrase in words
    assert f"{abs(expected['luck']) * 100:.1f}%" in words or abs(expected["luck"]) < 0.005
    assert "alice" in words or "bob" in words
    assert not any(re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", words) for w in you)
    # Each side's total luck in the table: in the unit, and in MWC beside it.
    cells = page.locator("#review .summary-luck").all_inner_texts()[:2]
    for side, cell in zip(("light", "dark"), cells, strict=True):
        mwc = row.summary[side]["luck_mwc"]
        assert cell.endswith(f"({mwc * 100:+.1f}%)")
    assert page.locator("#review-unit").inner_text() == unit

    # The turns' headings name the players.
    page.locator("#rv-first").click()
    titles = []
    for _ in range(3):
        page.locator("#rv-next").click()
        titles.append(page.locator("#rv-turn-title").inner_text())
    assert any("alice" in t for t in titles) and any("bob" in t for t in titles)
