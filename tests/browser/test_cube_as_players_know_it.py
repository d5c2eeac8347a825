"""Browser: the cube and the match as players know them (issue 32), in Chinese
and English at 1280 and 375 px.

Real daphne and Chromium; the computer answers through the real worker (a
Celery worker with REDIS_URL, the web process's task threads without), or
through ``games.services`` where a test holds its tasks in Redis.

- A money game with the Jacoby rule, the cube in the middle: the cube reads
  64, 28 px or more on the screen; the resign dialog offers each result at
  the points it will score (a gammon or a backgammon is worth 1 under
  Jacoby), with no space before a full-width bracket; the gammon resigned
  scores what the dialog said.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from django.db import connections, transaction
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from games import services
from games.engine import Position, Side
from games.engine.matchid import MatchIdFields, match_id
from games.models import Game, GameKind, Match, Status
from games.words.play import board_words
from learning.models import AnalysisState, CubeAnalysis, GameAnalysis, TurnAnalysis
from learning.review import game as review
from learning.review.replay import sides_json
from learning.words.cube import cube_verdict, proper_action
from learning.words.labels import RATING_LABELS, millipoints
from learning.words.reasons import render_reasons

# The real Celery worker fixture, which play_server requests when REDIS_URL is set.
from tests.browser.helpers import set_prefs, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
WAIT_MS = 120_000  # a computer answer under CI's load (45 s ran out once)
LANGUAGES = pytest.mark.parametrize("language", ["zh-hans", "en"])
WIDTHS = pytest.mark.parametrize("width", [1280, 375])
# A space before a full-width bracket, or an ASCII bracket next to Chinese.
BAD_BRACKETS = re.compile(r"\s[（）]|[\u4e00-\u9fff][()]|[()][\u4e00-\u9fff]")


def open_game_page(browser: Any, base_url: str, user: Any, language: str, width: int) -> Any:
    """A signed-in page of ``user``'s in ``language``, ``width`` px wide."""
    context = browser.new_context(
        base_url=base_url, locale=LOCALES[language], viewport={"width": width, "height": 900}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, base_url, user)
    return page


def open_game(browser: Any, base_url: str, user: Any, game: Game, language: str, width: int) -> Any:
    page = open_game_page(browser, base_url, user, language, width)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle", timeout=WAIT_MS)
    return page


def analyse_then_close(game_id: int) -> None:
    """The review job on this thread; its connection goes back to the pool."""
    try:
        review.run_analysis(game_id)
    finally:
        connections.close_all()


def money_game_deciding(user: Any) -> Game:
    """A money game with Jacoby at the start position, the person to roll or double."""
    game = services.start_game_from(
        user, "beginner", Position.start(), Side.LIGHT, None, kind=GameKind.MONEY, jacoby=True
    )
    assert (game.status, game.cube_value, game.jacoby) == (Status.DECIDING, 1, True)
    return game


@LANGUAGES
@WIDTHS
def test_a_centred_cube_reads_64_and_the_resign_dialog_offers_what_jacoby_scores(
    browser: Any,
    play_server: str,  # noqa: F811
    user: Any,
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, animation_speed="off", jacoby=True)
    game = money_game_deciding(user)
    page = open_game(browser, play_server, user, game, language, width)
    with translation.override(language):
        w = board_words(game)
        kinds = [gettext("a single game"), gettext("a gammon"), gettext("a backgammon")]

    cube = page.locator("#board g.b-cube")
    assert cube.get_attribute("data-owner") == "centre" and cube.text_content() == "64"
    box = cube.bounding_box()
    assert box is not None and min(box["width"], box["height"]) >= 28, box

    page.locator("#btn-resign").click()
    assert page.locator("#resign-dialog").is_visible()
    offers = page.locator("#resign-kinds .resign-offer").all_inner_texts()
    # Jacoby, the cube never turned: a gammon and a backgammon count single.
    assert offers == [w["resign_offer"] % {"kind": kind, "points": 1} for kind in kinds]
    assert not [offer for offer in offers if BAD_BRACKETS.search(offer)], offers
    page.locator('#resign-kinds input[value="gammon"]').check()
    page.locator("#resign-confirm").click()
    page.wait_for_function(
        "() => window.__shuanglu.state.status === 'finished' && window.__shuanglu.idle",
        timeout=WAIT_MS,
    )
    game = Game.objects.get(pk=game.pk)
    assert (game.winner, game.result_kind, game.points) == ("dark", "gammon", 1)
    assert page.locator("#over-points").inner_text() == w["points_line"] % {"points": 1}
    page.context.close()


def analysed_cube_game(game: Game) -> dict[str, Any]:
    """``cube_game_played``'s review, run here on a thread of its own: its summary."""
    job = threading.Thread(target=analyse_then_close, args=(game.pk,))
    job.start()
    job.join()
    row = GameAnalysis.objects.get(game=game)
    assert row.state == AnalysisState.DONE
    return dict(row.summary)


def rate_written(language: str, rate: float, rating: str) -> str:
    """An error rate and its rating as each language writes them."""
    with translation.override(language):
        label = str(RATING_LABELS[rating])
    return {"zh-hans": f"{millipoints(rate)}（{label}）", "en": f"{millipoints(rate)} ({label})"}[
        language
    ]


def lines_of(page: Any, selector: str) -> int:
    """How many lines the element's text is drawn on (boxes of a smaller font on
    the same line start a few pixels lower: a new line is a line-height down)."""
    return int(
        page.evaluate(
            """s => {
              const range = document.createRange();
              range.selectNodeContents(document.querySelector(s));
              const tops = [...range.getClientRects()].map((r) => r.top).sort((a, b) => a - b);
              return tops.filter((top, i) => i === 0 || top - tops[i - 1] > 10).length;
            }""",
            selector,
        )
    )


@LANGUAGES
@WIDTHS
def test_the_review_of_a_passed_double_and_its_tables_read_as_each_language_writes(
    browser: Any,
    daphne_server: str,
    user: Any,
    held_reviews: list[int],
    cube_game_played: Game,  # noqa: F811
    language: str,
    width: int,
) -> None:
    assert held_reviews == [cube_game_played.pk]
    summary = analysed_cube_game(cube_game_played)
    light = summary["light"]
    with translation.override(language):
        passed = ngettext(
            "You passed the computer's double; the computer won %(n)s point.",
            "You passed the computer's double; the computer won %(n)s points.",
            2,
        ) % {"n": 2}
        caption = gettext("Checker play and the cube")
    page = open_game_page(browser, daphne_server, user, language, width)
    page.goto(f"/learn/games/{cube_game_played.pk}/review/")

    # The person passed: the review says so, with the points.
    assert page.locator(".review-result").inner_text().strip() == passed
    # The cube's summary: its caption on one line, the rate and its rating one box.
    assert page.locator(".cube-summary caption").inner_text() == caption
    assert lines_of(page, ".cube-summary caption") == 1
    cell = page.locator('.cube-summary tr[data-side="light"] .summary-total-rate')
    written = rate_written(language, light["total_error_rate"], light["total_rating"])
    assert cell.inner_text().split("\n")[-1].strip() == written
    value = cell.locator(".rate-rating")
    assert value.inner_text() == written and lines_of(page, ".cube-summary .rate-rating") == 1
    # Flush right in its cell, as the numbers are (on a phone, "label … value" lines).
    gap = page.evaluate(
        """() => {
          const row = document.querySelector('.cube-summary tr[data-side="light"]');
          const cell = row.querySelector('.summary-total-rate');
          const padding = parseFloat(getComputedStyle(cell).paddingRight);
          const right = cell.getBoundingClientRect().right - padding;
          return right - cell.querySelector('.rate-rating').getBoundingClientRect().right;
        }"""
    )
    assert abs(gap) < 2, gap

    # The history table writes the checker play's rate the same way.
    page.goto("/learn/history/")
    row = page.locator(f'.history-row[data-game="{cube_game_played.pk}"]')
    rate = row.locator(".history-rate .rate-rating")
    assert rate.inner_text() == rate_written(language, light["error_rate"], light["rating"])
    assert not [t for t in page.locator("td").all_inner_texts() if BAD_BRACKETS.search(t)]
    page.context.close()


@WIDTHS
def test_the_analysis_board_says_position_id_in_chinese(
    browser: Any, daphne_server: str, user: Any, width: int
) -> None:
    page = open_game_page(browser, daphne_server, user, "zh-hans", width)
    page.goto("/analysis/?id=4HPwATDgc/ABMA")
    assert page.locator(".ab-ids dt").first.inner_text() == "局面编号"
    assert page.locator('label[for="ab-input"]').inner_text() == "局面编号或 XGID"
    note = page.locator("#analysis > p.note").first.inner_text()
    assert note.count("局面编号（Position ID）") == 1, note
    assert "Position ID" not in page.locator("#analysis").inner_text().replace(
        "局面编号（Position ID）", ""
    )
    page.context.close()


@LANGUAGES
@WIDTHS
def test_the_crawford_game_is_announced_and_the_match_won_in_it_ends_without_it(
    browser: Any,
    play_server: str,  # noqa: F811
    user: Any,
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, animation_speed="off")
    match = Match.objects.create(
        owner=user, tier="beginner", length=3, score_light=0, score_dark=2, crawford=True
    )
    game = services.start_game(user, "beginner", GameKind.MATCH, match=match)
    assert game.crawford
    with translation.override(language):
        w = board_words(game)
    page = open_game(browser, play_server, user, game, language, width)
    line = w["match_line"] % {"length": 3, "light": 0, "dark": 2}

    notice = page.locator("#play-crawford")
    assert notice.is_visible() and notice.inner_text() == w["crawford_notice_dark"]
    box = notice.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.locator("#play-match").inner_text() == line + w["list_sep"] + w["crawford"]

    # You resign: the computer has the point it needed and the match.
    page.locator("#btn-resign").click()
    page.locator("#resign-confirm").click()
    page.wait_for_function(
        "() => window.__shuanglu.state.status === 'finished' && window.__shuanglu.idle",
        timeout=WAIT_MS,
    )
    assert page.locator("#over-match").inner_text() == w["match_lost"] % {"length": 3}
    over = w["match_line"] % {"length": 3, "light": 0, "dark": 3}
    assert page.locator("#play-match").inner_text() == over, "no Crawford game after the match"
    assert notice.is_hidden()
    page.context.close()


@LANGUAGES
@WIDTHS
def test_the_play_page_shows_the_position_and_match_ids_to_copy_and_analyse(
    browser: Any,
    play_server: str,  # noqa: F811
    user: Any,
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, animation_speed="off", jacoby=True)
    game = money_game_deciding(user)
    page = open_game(browser, play_server, user, game, language, width)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    with translation.override(language):
        labels = [gettext("Position ID"), gettext("Match ID")]
    # The start, the person to roll or double, the cube in the middle: as
    # GNU Backgammon writes it (player 1 on roll, no dice, a money game).
    assert page.locator("#play-ids dt").all_inner_texts() == labels
    assert page.locator("#play-pid").inner_text() == "4HPwATDgc/ABMA"
    assert page.locator("#play-mid").inner_text() == "cAkAAAAAAAAA"
    box = page.locator("#play-ids").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width

    page.locator('#play-ids button[data-copy="play-mid"]').click()
    copied = "() => navigator.clipboard.readText()"
    page.wait_for_function(f"async () => ({copied})() .then((t) => t === 'cAkAAAAAAAAA')")

    # You roll: the Match ID gains the dice (the position stays: no step made yet).
    page.keyboard.press("r")
    page.wait_for_function(
        "() => window.__shuanglu.state.dice && window.__shuanglu.idle", timeout=WAIT_MS
    )
    game = Game.objects.get(pk=game.pk)
    rolled = match_id(MatchIdFields(dice=(game.dice[0], game.dice[1])))
    assert page.locator("#play-mid").inner_text() == rolled != "cAkAAAAAAAAA"
    assert page.locator("#play-pid").inner_text() == "4HPwATDgc/ABMA"

    page.locator("#play-analyse").click()
    page.wait_for_url(re.compile(r".*/analysis/\?.*id=4HPwATDgc%2FABMA.*"), timeout=WAIT_MS)
    assert page.locator("#ab-pid").inner_text() == "4HPwATDgc/ABMA"
    page.context.close()


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@LANGUAGES
@WIDTHS
def test_the_computers_double_is_answered_beside_the_board_with_the_pips_and_the_hint(
    browser: Any,
    play_server: str,  # noqa: F811
    user: Any,
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, animation_speed="off", jacoby=True)
    # The computer doubles at the start (in one transaction: no computer turn
    # starts beside this call); the person is to answer.
    with transaction.atomic():
        game = services.start_game_from(
            user, "beginner", Position.start(), Side.DARK, None, kind=GameKind.MONEY, jacoby=True
        )
        assert services.finish_computer_cube(game.pk, game.version, "double")
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.turn, game.cube_offered) == (Status.DOUBLED, "light", "dark")
    with translation.override(language):
        w = board_words(game)
    page = open_game(browser, play_server, user, game, language, width)

    panel = page.locator("#cube-dialog")
    assert panel.is_visible() and page.locator("dialog[open]").count() == 0, "nothing modal"
    assert page.locator("#cube-title").inner_text() == w["double_title"] % {"value": 2}
    assert page.locator("#cube-pips").inner_text() == w["pips"] % {"light": 167, "dark": 167}
    # The whole board, the offered cube on it, and the answer are all in view, apart.
    board = page.locator("#board").bounding_box()
    answer = panel.bounding_box()
    assert board is not None and answer is not None
    assert not overlap(board, answer), (board, answer)
    for box in (board, answer):
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["y"] >= 0 and box["y"] + box["height"] <= 900, box
    cube = page.locator("#board g.b-cube")
    assert cube.get_attribute("data-offered") == "dark" and cube.text_content() == "2"
    centre = cube.bounding_box()
    assert centre is not None
    on_top = page.evaluate(
        "([x, y]) => Boolean(document.elementFromPoint(x, y).closest('#board'))",
        [centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2],
    )
    assert on_top, "the offered cube is not covered"

    # H asks for the hint while the double waits; T takes it.
    page.keyboard.press("h")
    page.locator("#hint-panel").wait_for(state="visible")
    page.wait_for_function("() => window.__shuanglu.idle", timeout=WAIT_MS)  # the hint asked
    page.keyboard.press("t")
    page.wait_for_function("() => window.__shuanglu.state.cube.owner === 'light'", timeout=WAIT_MS)
    assert panel.is_hidden()
    page.context.close()


@LANGUAGES
@WIDTHS
def test_a_cube_turn_in_the_review_has_its_own_block_and_table_of_equities(
    browser: Any,
    daphne_server: str,
    user: Any,
    held_reviews: list[int],
    cube_game_played: Game,  # noqa: F811
    language: str,
    width: int,
) -> None:
    assert held_reviews == [cube_game_played.pk]
    analysed_cube_game(cube_game_played)
    row = GameAnalysis.objects.get(game=cube_game_played)
    took = CubeAnalysis.objects.get(analysis=row, before_turn=3, decision="take")
    turn = TurnAnalysis.objects.get(analysis=row, number=3)
    e = took.report["equities"]
    with translation.override(language):
        heading = str(sides_json(cube_game_played)["cube_heading"]["dark"])
        verdict = cube_verdict(took.report, "take")
        labels = [pgettext("cube action", a) for a in ("No double", "Double, take", "Double, pass")]
        right = gettext("The right action: %(action)s.") % {"action": proper_action(took.report)}
    page = open_game_page(browser, daphne_server, user, language, width)
    page.goto(f"/learn/games/{cube_game_played.pk}/review/")
    page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(2):
        page.keyboard.press("ArrowRight")

    # The computer's take (a wrong one): a block of its own, in its own colour.
    block = page.locator('#rv-cube .cube-block[data-side="dark"][data-decision="take"]')
    assert block.locator("h3").inner_text() == heading  # not "Cube, The computer:"
    assert verdict in block.locator(".cube-verdict").inner_text()
    assert f"verdict-{took.error_class}" in (block.get_attribute("class") or "")
    assert took.error_class != "none"
    # GNU Backgammon's table: each action's equity for the doubler; the right one.
    cells = block.locator(".cube-equities tbody tr")
    assert cells.locator("th").all_inner_texts() == labels
    shown_equities = cells.locator("td:nth-of-type(1)").all_inner_texts()
    assert shown_equities == [
        f"{float(e[k]):+.3f}" for k in ("no_double", "double_take", "double_pass")
    ]
    assert block.locator(".cube-right").inner_text().startswith(right)
    table = block.locator(".cube-equities").bounding_box()
    assert table is not None and table["x"] >= 0 and table["x"] + table["width"] <= width
    # The checker play's verdict apart, in the colour of the checker play alone.
    checker = page.locator("#rv-turn-verdict")
    assert verdict not in checker.inner_text()
    assert checker.get_attribute("class") == f"verdict verdict-{turn.error_class}"
    page.context.close()


def on_the_board(reason: dict[str, Any]) -> dict[str, Any]:
    """A stored reason of the computer's with its points in the board's numbering."""
    from ai_worker.explain import POINT_PARAMS

    def flipped(value: Any) -> Any:
        return [25 - int(p) for p in value] if isinstance(value, list) else 25 - int(value)

    params = reason.get("params") or {}
    return {
        **reason,
        "params": {k: flipped(v) if k in POINT_PARAMS else v for k, v in params.items()},
    }


@LANGUAGES
@WIDTHS
def test_the_computers_play_and_its_reasons_use_the_boards_numbers_in_the_review(
    browser: Any,
    daphne_server: str,
    user: Any,
    held_reviews: list[int],
    cube_game_played: Game,  # noqa: F811
    language: str,
    width: int,
) -> None:
    from ai_worker.explain import PLAY_PARAMS

    assert held_reviews == [cube_game_played.pk]
    analysed_cube_game(cube_game_played)
    theirs = TurnAnalysis.objects.filter(analysis__game=cube_game_played, side="dark")
    named = [
        (t, c)
        for t in theirs.order_by("number")
        for c in t.report["alternatives"]
        if any("points" in (r.get("params") or {}) for r in c["reasons"])
        and not any(set(r.get("params") or {}) & set(PLAY_PARAMS) for r in c["reasons"])
    ]
    assert named, "a play of the computer's whose reasons name points"
    turn, candidate = named[0]
    with translation.override(language):
        reasons = render_reasons([on_the_board(r) for r in candidate["reasons"]])
    page = open_game_page(browser, daphne_server, user, language, width)
    page.goto(f"/learn/games/{cube_game_played.pk}/review/")
    page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(turn.number - 1):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.__review.view") == turn.number - 1
    # The computer's plays are in the board's numbers (17/20), and so are their reasons.
    text = page.locator("#rv-alternatives").inner_text()
    for reason in reasons:
        assert reason in text, (reason, text)
    page.context.close()


@LANGUAGES
def test_a_cube_the_person_owns_is_redoubled_in_words(
    browser: Any,
    play_server: str,  # noqa: F811
    user: Any,
    language: str,
) -> None:
    """Issue 31, item 5: the button and the turn's line say 再加倍 / redouble
    when the person's double would turn a cube they already own."""
    set_prefs(user, language=language, animation_speed="off")
    game = money_game_deciding(user)
    Game.objects.filter(pk=game.pk).update(cube_value=2, cube_owner=Side.LIGHT.value)
    page = open_game(browser, play_server, user, game, language, 1280)
    with translation.override(language):
        button, line = gettext("Redouble (D)"), gettext("Your turn: roll (R) or redouble (D)")
        plain = gettext("Double (D)")
    page.wait_for_function(
        "(text) => document.querySelector('#btn-double').textContent === text",
        arg=button,
        timeout=WAIT_MS,
    )
    assert page.locator("#btn-double").is_enabled()
    assert page.locator("#btn-double").text_content() != plain
    assert line in page.locator("body").inner_text()
    page.context.close()
