"""Browser: finish a game, wait for its analysis, step through the review by keys.

Real daphne, real Chromium; with REDIS_URL set, a real Celery worker runs the
review on the ``analysis`` queue, otherwise the web process runs it on its
thread pool. The game is a real one (played through ``games.services`` by
the 1-ply evaluator, LIGHT blundering twice) stopped one LIGHT turn before
LIGHT wins; the browser plays that last turn by clicking the board.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.db import transaction
from django.utils import translation
from playwright.sync_api import expect

from ai_worker.grading import ErrorClass
from games.models import Game
from learning.models import AnalysisState, GameAnalysis, TurnAnalysis
from learning.review.replay import sides_json
from learning.words.client_strings import REVIEW_STRINGS
from learning.words.labels import ERROR_LABELS
from tests.ai.conftest import wait_until
from tests.browser import helpers as play
from tests.browser.helpers import LOCALES, open_page
from tests.chinese import chinese_mistakes
from tests.learning.conftest import RACE, ErringGame, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
VIEWS = [(language, width) for language in sorted(LOCALES) for width in (375, 1280)]


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


def words(language: str, key: str, **values: Any) -> str:
    with translation.override(language):
        text = str(REVIEW_STRINGS[key])
    return text % values if values else text


def named(language: str, game: Game, side: str) -> str:
    """How the review names a side of this game (the page's data.sides)."""
    with translation.override(language):
        return str(sides_json(game)[side])


def view(page: Any) -> int:
    return int(page.evaluate("() => window.__review.view"))


def press(page: Any, key: str) -> int:
    page.keyboard.press(key)
    return view(page)


def test_finish_a_game_then_review_it_with_the_keys(
    browser_page: Any, review_server: str, user: Any, erring_game: ErringGame, worker_log: Any
) -> None:
    page = browser_page
    game, blunders = erring_game
    assert len(blunders) == 2
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
        page.wait_for_selector("#summary-title", timeout=300_000)  # a whole review
    except Exception:
        row = GameAnalysis.objects.filter(game=game).first()
        pytest.fail(f"no analysis ({row}); worker log:\n{worker_log()[-4000:]}", pytrace=False)
    assert GameAnalysis.objects.get(game=game).state == AnalysisState.DONE
    # The summary is the server's; the graph is drawn once the module has run.
    page.locator("#win-graph circle").first.wait_for()
    assert page.locator("#win-graph circle").count() == turns
    # One row a side in the error table and in the PR table (issue 34).
    assert page.locator(".summary-table:not(.pr-summary) tbody tr").count() == 2
    assert page.locator("#pr-summary tbody tr").count() == 2

    page.locator("body").click(position={"x": 1, "y": 1})
    assert view(page) == 0
    title0 = page.locator("#rv-turn-title").inner_text()
    assert press(page, "ArrowRight") == 1
    assert page.locator("#rv-turn-title").inner_text() != title0
    assert page.locator("#rv-alternatives tbody tr").count() >= 1
    # The turn's verdict: whole Chinese sentences, no English joins ("。 之后").
    verdict = page.locator("#rv-turn-verdict").inner_text()
    assert verdict.endswith("。") and chinese_mistakes(verdict) == [], verdict
    assert press(page, "ArrowLeft") == 0
    assert press(page, "End") == turns
    assert press(page, "Home") == 0

    # The page marks the errors (?!, ? or ??) as the graph's larger dots, one
    # dot a turn; LIGHT's two blunders are among them, marked ? or ??.
    marked = page.locator("#win-graph circle").evaluate_all(
        "dots => dots.map(d => d.classList.contains('g-error'))"
    )
    errors = [k for k, error in enumerate(marked) if error]
    rows = {
        t.turn.number: t
        for t in TurnAnalysis.objects.filter(analysis__game=game).select_related("turn")
    }
    assert [k + 1 for k in errors] == sorted(n for n, t in rows.items() if t.error_class != "none")
    assert set(blunders) <= {k + 1 for k in errors}
    assert {rows[n].error_class for n in blunders} <= {ErrorClass.BAD, ErrorClass.VERY_BAD}

    # n / p jump from error to error, each shown with its mark in the verdict.
    def shows_error(k: int) -> None:
        row = rows[k + 1]
        turn = row.turn
        side, dice = named("zh-hans", game, turn.side), f"{turn.die1}-{turn.die2}"
        title = words("zh-hans", "turn_title", n=turn.number, side=side, dice=dice)
        assert page.locator("#rv-turn-title").inner_text() == title
        with translation.override("zh-hans"):
            label = str(ERROR_LABELS[row.error_class])
        mark, lost = ErrorClass(row.error_class).mark, f"{round(row.equity_lost, 4):.3f}"
        lost = words("zh-hans", "lost", label=label, mark=mark, lost=lost)
        assert lost in page.locator("#rv-turn-verdict").inner_text()

    assert press(page, "Home") == 0
    ahead = [k for k in errors if k > 0]
    for k in ahead:
        assert press(page, "n") == k
        shows_error(k)
    assert press(page, "n") == errors[-1]  # no error after the last one
    for k in reversed(errors[:-1]):
        assert press(page, "p") == k
        shows_error(k)

    # Clicking the graph jumps to a turn.
    box = page.locator("#win-graph").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.9, box["y"] + box["height"] / 2)
    assert view(page) > turns // 2


def test_the_counter_counts_turns_as_the_title_does(
    browser: Any, daphne_server: str, user: Any, analysed_game: int
) -> None:
    game = Game.objects.get(pk=analysed_game)
    turns = list(game.turns.order_by("number"))
    last = turns[-1].number
    # One reviewed game seen in each language at each width: it is played out
    # and reviewed once, not once a view.
    for language, width in VIEWS:
        page = open_page(browser, daphne_server, user, language, width)
        page.goto(f"/learn/games/{game.pk}/review/")
        title, counter = page.locator("#rv-turn-title"), page.locator("#rv-position")
        for k in (0, 1):
            if k:
                page.keyboard.press("ArrowRight")
            turn = turns[k]
            side = named(language, game, turn.side)
            dice = f"{turn.die1}-{turn.die2}"
            assert title.inner_text() == words(
                language, "turn_title", n=k + 1, side=side, dice=dice
            )
            assert counter.inner_text() == f"{k + 1} / {last}"
        # Every turn was analysed at the review's depth, which the page says once:
        # the turn with a choice says no depth of its own.
        rows = {t.turn_id: t for t in TurnAnalysis.objects.filter(analysis__game=game)}
        k, row = next(
            (k, rows[t.pk]) for k, t in enumerate(turns) if t.steps and not rows[t.pk].forced
        )
        page.keyboard.press("Home")
        for _ in range(k):
            page.keyboard.press("ArrowRight")
        ply = row.report["ply"]
        assert ply == GameAnalysis.objects.get(game=game).ply
        verdict = page.locator("#rv-turn-verdict").inner_text()
        assert verdict and words(language, "depth", ply=ply) not in verdict
        said = f"{ply}-ply" if language == "en" else f"按 {ply} 层分析"
        assert said in page.locator(".review-depth").inner_text()
        page.keyboard.press("End")
        assert title.inner_text() == counter.inner_text() == words(language, "end")
        assert counter.is_visible()
        page.context.close()


def test_a_recent_game_in_the_lobby_opens_its_review(
    browser: Any, daphne_server: str, user: Any, analysed_game: int
) -> None:
    # One reviewed game seen in each language at each width: it is played out
    # and reviewed once, not once a view.
    for language, width in VIEWS:
        page = open_page(browser, daphne_server, user, language, width)
        page.goto("/")
        link = page.locator('section[aria-labelledby="lobby-recent"] .game-list a')
        assert link.count() == 1
        link.click()
        page.wait_for_url(f"**/learn/games/{analysed_game}/review/")
        assert page.locator("#review-board").is_visible()
        assert page.locator("#summary-title").is_visible()
        page.context.close()


# Each language once and each width once: every view plays out and reviews a
# whole game, about two minutes of a CI pass's CPU each.
@pytest.mark.parametrize(("language", "width"), [("zh-hans", 375), ("en", 1280)])
def test_a_failed_analysis_is_said_in_words_and_followed_no_more(
    browser: Any, review_server: str, user: Any, worker_log: Any, language: str, width: int
) -> None:
    # A real failure in the real job: turn 3's stored die cannot be a die, so
    # the analysis stores turns 1 and 2, then fails on turn 3. The game's end
    # queues the first analysis (learning.receivers; in the zero set-up mode
    # it runs in this process, whose broadcasts the server's sockets never
    # see, so the page is opened once it has failed); the button the next.
    # The fault is mended before the page opens, as a restore would: a page
    # of a game whose rows cannot be read shows that instead (issue 46,
    # tests/browser/test_damage_pushed.py), so the next analysis is done.
    with transaction.atomic():
        game = play_out(user, RACE, seed=3)
        real = game.turns.get(number=3).die1
        game.turns.filter(number=3).update(die1=7)

    def has_failed() -> bool:
        return GameAnalysis.objects.filter(game=game, state=AnalysisState.FAILED).exists()

    try:
        wait_until(has_failed, 300, "the first analysis to fail")
    except BaseException:
        print(f"worker log:\n{worker_log()[-4000:]}")
        raise
    game.turns.filter(number=3).update(die1=real)
    page = open_page(browser, review_server, user, language, width)
    sockets: list[Any] = []
    status_reads: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.on(
        "request",
        lambda r: status_reads.append(r.url) if r.url.endswith("/analysis") else None,
    )
    review_url = f"/learn/games/{game.pk}/review/"
    page.goto(review_url)

    failed = page.locator("#analysis-failed")
    button = page.locator("#analysis-again button")

    def said_failed() -> None:
        try:
            failed.wait_for(state="visible", timeout=300_000)
        except Exception:
            row = GameAnalysis.objects.filter(game=game).first()
            pytest.fail(f"not failed ({row}); worker log:\n{worker_log()[-4000:]}", pytrace=False)
        assert failed.inner_text() == gettext(language, "The analysis failed.")
        assert page.locator("#analysis-progress-box").get_attribute("data-state") == "failed"
        assert page.locator("#analysis-count").inner_text().startswith("2/")
        assert button.is_visible()
        assert button.inner_text() == gettext(language, "Analyse again")
        assert GameAnalysis.objects.get(game=game).state == AnalysisState.FAILED

    # Failed when the page opened: said so, nothing followed.
    said_failed()
    assert sockets == [] and status_reads == []
    # The button (a POST) queues it again; the page after it follows the
    # job over its socket until it is done, and shows the review.
    with page.expect_navigation(url=f"**{review_url}"):
        button.click()
    expect(page.locator("#summary-title")).to_be_visible(timeout=300_000)
    assert GameAnalysis.objects.get(game=game).state == AnalysisState.DONE
    expect(failed).to_be_hidden()

    # Done following: the socket is closed, and nothing reads the status
    # again. (A job done before the page after the button was drawn, as the
    # web process's own pool can, leaves that page nothing to follow.)
    reads = len(status_reads)
    page.wait_for_timeout(3_000)
    assert len(sockets) <= 1
    assert all(ws.is_closed() for ws in sockets)
    assert len(status_reads) == reads
    page.context.close()


def gettext(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)
