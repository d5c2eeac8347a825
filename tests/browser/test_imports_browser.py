"""Browser, zh and en at 1280 and 375 px (issue 32, items 4 and 5).

An imported match is a study: importing one through the history page's form
leaves the person's counts as they were and lists it apart under the file's
players' names; a file imported with "I played as: the right player" counts,
for that side. The progress graph, with one game far worse than the others,
keeps its band names apart (their boxes on the screen do not overlap) and
marks the outlier on its top edge. Real games, reviewed at 1-ply; real
daphne, real Chromium; what is checked is read off the screen.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext, ngettext

from accounts.models import Preferences
from ai_worker.evaluator import rank_plays
from games.engine import Position, Side
from games.engine.matfile import parse_mat
from games.engine.matreplay import replay_match
from games.models import Game
from learning.review import game as review
from tests.browser.helpers import upload
from tests.learning.conftest import RACE, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DATA = Path(__file__).resolve().parents[1] / "data"
LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
VIEWS = [("zh-hans", 1280), ("en", 1280), ("zh-hans", 375), ("en", 375)]
TOTALS = ("games", "wins", "losses", "points_won", "points_lost")


def one_ply(
    position: Position, dice: Any, ply: int, keep: Any = None, shown: int = 2, context: Any = None
) -> Any:
    return rank_plays(position, dice, 1, context=context)


def worst(ranked: list[Any]) -> Any:
    return ranked[-1]


def open_page(browser: Any, base_url: str, user: Any, language: str, width: int) -> Any:
    """A page signed in as ``user`` (a real session), in ``language`` at ``width`` px."""
    Preferences.objects.update_or_create(user=user, defaults={"language": language})
    context = browser.new_context(
        base_url=base_url, locale=LOCALES[language], viewport={"width": width, "height": 900}
    )
    context.set_default_timeout(15_000)
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}])
    return context.new_page()


def totals_on_screen(page: Any) -> list[int]:
    return [int(t) for t in page.locator("#history-totals dd").all_text_contents()]


def file_totals(name: str, side: Side) -> list[int]:
    """Games, wins, losses, points won and lost of ``side``'s player, as the file says."""
    record = parse_mat((DATA / name).read_text(encoding="utf-8"))
    games = wins = won = lost = 0
    for game in replay_match(record).games:
        end = game.end
        assert end is not None
        points = min(end.points, game.match.away(end.winner)) if record.length else end.points
        games += 1
        if end.winner is side:
            wins, won = wins + 1, won + points
        else:
            lost += points
    return [games, wins, games - wins, won, lost]


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize(("language", "width"), VIEWS)
def test_an_imported_match_is_kept_apart_until_a_side_is_named(
    browser: Any, daphne_server: str, user: Any, language: str, width: int
) -> None:
    played = play_out(user, RACE, seed=5)  # one game of the person's, played here
    page = open_page(browser, daphne_server, user, language, width)
    page.goto("/learn/history/")
    before = totals_on_screen(page)
    assert before[0] == 1 and f'data-game="{played.pk}"' in page.content()
    assert page.locator("#history-studies").count() == 0

    # Imported as a study (the form's default): the counts are the same.
    assert page.locator('.history-import input[value="neither"]').is_checked()
    message = upload(page, "gnubg_match3_short.mat", "neither")
    study = list(Game.objects.filter(owner=user).studies())
    with translation.override(language):
        expected = ngettext(
            "Imported %(count)d game for study; its review has been queued. It is listed "
            "apart and is not in your counts, progress or practice.",
            "Imported %(count)d games for study; their reviews have been queued. They are "
            "listed apart and are not in your counts, progress or practice.",
            len(study),
        ) % {"count": len(study)}
        against = gettext("%(left)s against %(right)s") % {"left": "alice", "right": "bob"}
        you = gettext("You")
    assert message == expected
    assert totals_on_screen(page) == before
    mine = page.locator("#history-games tbody tr")
    assert mine.count() == 1 and mine.first.get_attribute("data-game") == str(played.pk)
    apart = page.locator("#history-study-games tbody tr")
    assert apart.count() == len(study) == 2
    assert page.locator("#history-studies").is_visible()
    players = page.locator("#history-study-games .history-players").all_text_contents()
    assert [p.strip() for p in players] == [against] * 2
    winners = sorted(w.strip() for w in apart.locator(".history-winner").all_text_contents())
    assert winners == ["alice", "bob"] and you not in winners
    # The filter shows the studies alone, and no counts of the person's.
    page.goto("/learn/history/?source=imported")
    assert page.locator("#history-totals").count() == 0
    assert page.locator("#history-games tbody tr").count() == 2
    assert page.locator("#history-studies-note").is_visible()

    # A file imported with "I played as: the right player" counts, for that side.
    upload(page, "gnubg_money_pass.mat", "right")
    after = totals_on_screen(page)
    gained = file_totals("gnubg_money_pass.mat", Side.DARK)
    assert [a - b for a, b in zip(after, before, strict=True)] == gained
    assert gained[1] == 1  # bob won by alice's pass: the right player's win is the person's
    assert page.locator("#history-games tbody tr").count() == 2
    assert page.locator("#history-study-games tbody tr").count() == 2


@pytest.fixture
def one_outlier(user: Any, held_reviews: list[int]) -> list[Game]:
    """Three games played well and one played as badly as can be, reviewed."""
    games = [play_out(user, RACE, seed=s) for s in (5, 7, 9)]
    games.append(play_out(user, RACE, seed=3, light_choice=worst))
    assert held_reviews == [g.pk for g in games]

    def run() -> None:
        try:
            for game in games:
                review.run_analysis(game.pk, rank=one_ply)
        finally:
            connections.close_all()  # the thread's own connection

    job = threading.Thread(target=run)  # the review broadcasts through async_to_sync
    job.start()
    job.join()
    return games


def test_the_progress_graph_keeps_its_band_names_apart_and_marks_the_outlier(
    browser: Any, daphne_server: str, user: Any, one_outlier: list[Game]
) -> None:
    # The same four reviewed games seen in each language at each width: they
    # are played out and reviewed once, not once a view.
    for language, width in VIEWS:
        page = open_page(browser, daphne_server, user, language, width)
        page.goto("/learn/history/")
        graph = page.locator("#progress-rates")
        graph.scroll_into_view_if_needed()
        names = graph.locator(".pg-band-name")
        assert names.count() == 7  # every band is under the scale
        boxes = [names.nth(i).bounding_box() for i in range(names.count())]
        assert all(b is not None and b["height"] > 0 for b in boxes)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not boxes_overlap(a, b), (language, width, a, b)
        # The bad game: a triangle on the top edge with its rate beside it.
        outlier = graph.locator(".pg-outlier")
        assert outlier.count() == 1
        assert outlier.get_attribute("data-game") == str(one_outlier[3].pk)
        rate = float(outlier.get_attribute("data-rate") or 0)
        assert rate > 35  # a PR far above the others and above the scale (35)
        label = outlier.locator(".pg-outlier-label")
        assert label.text_content() == str(rate)
        mark = outlier.locator(".pg-outlier-mark").bounding_box()
        frame = graph.bounding_box()
        assert mark is not None and frame is not None
        assert frame["y"] <= mark["y"] < frame["y"] + 0.15 * frame["height"]
        label_box = label.bounding_box()
        assert label_box is not None and not any(boxes_overlap(label_box, b) for b in boxes)
        # The other games are dots inside the scale, the well played ones low.
        dots = graph.locator("circle.pg-dot")
        assert dots.count() == 3
        assert all(float(r) < 35 for r in dots.evaluate_all("ds => ds.map(d => d.dataset.rate)"))
        with translation.override(language):
            words = ngettext(
                "A triangle on the top edge is a game above the scale (%(top)s), its PR "
                "written beside it.",
                "The %(n)s triangles on the top edge are games above the scale (%(top)s), "
                "each PR written beside it.",
                1,
            ) % {"n": 1, "top": "35.0"}
        assert page.locator("#progress-outliers").text_content() == words
        page.context.close()
