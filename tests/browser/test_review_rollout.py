"""Browser: 精确分析 of a reviewed game's cube decision, and of a checker
decision, from the review page.

The game is ``cube_game_played`` (LIGHT doubles before turn 3, DARK takes);
its review runs with the real evaluator. On turn 3 the double's block asks
the analysis board's endpoint for a rollout of the doubler's board with its
cube and score: its progress bar while it runs, then the block's table with
the rollout's figures, each with its standard error, and a note saying it
was rolled out. In Chinese and in English.

Real daphne and Chromium; with REDIS_URL set a real Celery worker runs the
rollout on the ``analysis`` queue, otherwise the web process's pool does.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from django.utils import translation

from ai_worker.grading import ErrorClass, classify
from games.models import Game
from learning.models import AnalysisState, BoardAnalysis, GameAnalysis, TurnAnalysis
from learning.review.cube import cube_decisions
from learning.study.board import played_of
from learning.study.queue import ROLLOUT_PLY
from learning.words.labels import ERROR_LABELS
from learning.words.study_strings import ANALYSIS_STRINGS
from tests.browser.helpers import analyse_then_close, open_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

WORDS = {
    "zh-hans": {
        "button": "精确分析",
        "progress": re.compile(r"精确分析中：已模拟 \d+ 局，共 72 局"),
        "note": "精确分析：从这个局面带倍数骰模拟了 72 局",
        "right": "精确分析的正确操作：",
    },
    "en": {
        "button": "Rollout (precise analysis)",
        "progress": re.compile(r"Rolling out: \d+ of 72 games"),
        "note": "Rollout: 72 games played out from here with the cube",
        "right": "The rollout's right action: ",
    },
}
SIGNED = re.compile(r"^[+-]\d\.\d{3}$")
WITH_ERROR = re.compile(r"^[+-]\d\.\d{3} ± 0\.0\d\d$")

# Records the status line's every drawing: shown or not, its words, the bar.
WATCH = """(status) => {
  window.__rolloutSeen = [];
  const note = () => {
    const bar = status.querySelector("progress");
    window.__rolloutSeen.push({
      hidden: status.hidden, text: status.querySelector("span").textContent,
      value: bar.getAttribute("value"), max: bar.getAttribute("max"),
    });
  };
  new MutationObserver(note).observe(status, {
    attributes: true, childList: true, subtree: true, characterData: true,
  });
}"""


def reviewed_page(browser: Any, server: str, user: Any, language: str, game: Game) -> Any:
    """The game reviewed, its review page open at LIGHT's turn 3 (two turns on)."""
    job = threading.Thread(target=analyse_then_close, args=(game.pk,))
    job.start()
    job.join()
    page = open_page(browser, server, user, language, 1280)
    page.goto(f"/learn/games/{game.pk}/review/")
    page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    return page


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_cube_decision_is_rolled_out_from_the_review(
    browser: Any,
    play_server: str,
    user: Any,
    held_reviews: list[int],
    cube_game_played: Game,
    language: str,
) -> None:
    words = WORDS[language]
    with translation.override(language):
        queued = str(ANALYSIS_STRINGS["rollout_queued"])
    assert held_reviews == [cube_game_played.pk]
    page = reviewed_page(browser, play_server, user, language, cube_game_played)
    assert GameAnalysis.objects.get(game=cube_game_played).state == AnalysisState.DONE
    double = next(
        d for d in cube_decisions(cube_game_played) if d.before_turn == 3 and d.decision == "double"
    )
    block = page.locator("#rv-cube .cube-block[data-decision='double']")
    rows = block.locator("table.cube-equities tbody tr")
    # The review's own figures: plain equities, no error, no note.
    reviewed = rows.locator("td:nth-of-type(1)").all_inner_texts()
    assert len(reviewed) == 3 and all(SIGNED.match(t) for t in reviewed), reviewed
    assert block.locator(".cube-rollout-note").inner_text() == ""

    button = block.locator("button.cube-rollout")
    assert button.inner_text() == words["button"]
    # Every state the status line goes through is recorded as it is drawn:
    # this decision's rollout may finish between two readings (500 ms apart).
    status = block.locator(".cube-rollout-status")
    status.evaluate(WATCH)
    button.click()
    # Then its figures in the block's table: no double and double/take with
    # their standard errors, double/pass exact; the note says it was rolled out.
    block.locator(".cube-rollout-note").filter(has_text=words["note"]).wait_for(timeout=90_000)
    assert status.is_hidden()
    assert button.is_hidden()
    # While it ran: the bar shown, first waiting in the queue (no value yet),
    # then (if a reading came while it ran) the games done, of 72.
    seen = page.evaluate("() => window.__rolloutSeen")
    shown = [s for s in seen if not s["hidden"]]
    assert shown[0] == {"hidden": False, "text": queued, "value": None, "max": "1"}, seen
    assert all(
        s["text"] == queued or (words["progress"].search(s["text"]) and s["max"] == "72")
        for s in shown
    ), seen
    rolled = rows.locator("td:nth-of-type(1)").all_inner_texts()
    assert WITH_ERROR.match(rolled[0]) and WITH_ERROR.match(rolled[1]), rolled
    assert rolled[2] == "+1.000"
    assert rolled[:2] != reviewed[:2]
    differences = rows.locator("td:nth-of-type(2)").all_inner_texts()
    assert "+0.000" in differences, differences  # the right action's own
    assert block.locator(".cube-right").inner_text().startswith(words["right"])
    # It rolled out this decision: the doubler's board, cube and score.
    job_row = BoardAnalysis.objects.get(ply=ROLLOUT_PLY)
    assert job_row.state == AnalysisState.DONE
    assert job_row.position_id == double.position.position_id()
    assert job_row.cube["side"] == double.side.value == "light"
    assert job_row.cube["cube"] == double.context.cube.value
    page.context.close()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_second_rollout_while_one_runs_is_refused_in_words_on_the_review(
    browser: Any,
    daphne_server: str,
    user: Any,
    held_reviews: list[int],
    cube_game_played: Game,
    language: str,
) -> None:
    assert held_reviews == [cube_game_played.pk]
    page = reviewed_page(browser, daphne_server, user, language, cube_game_played)
    # A rollout of this person's still waits (asked on the analysis board).
    BoardAnalysis.objects.create(
        key="other-rollout",
        position_id="4HPwATDgc/ABMA",
        ply=ROLLOUT_PLY,
        cube={
            "cube": 1,
            "owner": "",
            "match": 0,
            "score": "",
            "crawford": False,
            "jacoby": True,
            "side": "light",
        },
        requested_by=f"user:{user.pk}",
    )
    with translation.override(language):
        refusal = translation.gettext(
            "A rollout of yours is still running; ask for this one once it is done."
        )
    block = page.locator("#rv-cube .cube-block[data-decision='double']")
    reviewed = block.locator("table.cube-equities td").all_inner_texts()
    block.locator("button.cube-rollout").click()
    error = block.locator(".cube-rollout-error")
    error.filter(has_text=refusal).wait_for()
    # Refused in words; the review's figures stay, the button stays to ask later.
    assert block.locator("table.cube-equities td").all_inner_texts() == reviewed
    assert block.locator("button.cube-rollout").is_enabled()
    assert block.locator(".cube-rollout-status").is_hidden()
    assert BoardAnalysis.objects.filter(ply=ROLLOUT_PLY).count() == 1
    page.context.close()


PLAY_WORDS = {
    "zh-hans": {
        "progress": re.compile(r"精确分析中：已模拟 \d+ 局，共 \d+ 局"),
        "note": re.compile(r"^精确分析：这 \d 种走法各模拟了 72 局，不带倍数骰"),
        "best": "精确分析：这是最佳走法。",
        "lost": "精确分析：{label}（{mark}），比最佳走法少了 {lost} 期望值。",
        "close": "精确分析：不算失误，比最佳走法少 {lost} 期望值。",
        "played": "（实际走法）",
    },
    "en": {
        "progress": re.compile(r"Rolling out: \d+ of \d+ games"),
        "note": re.compile(
            r"^Rollout: each of these \d plays played out 72 times without the cube"
        ),
        "best": "By the rollout: the best play.",
        "lost": "By the rollout: {label} ({mark}), gave away {lost} equity against the best play.",
        "close": "By the rollout: no error, {lost} equity behind the best play.",
        "played": "(played)",
    },
}
PLAIN = re.compile(r"^-?\d\.\d{3}$")
ROLLED = re.compile(r"^([+-]\d\.\d{3}) ± (0\.\d{3})$")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_checker_decision_is_rolled_out_from_the_review(
    browser: Any,
    play_server: str,
    user: Any,
    held_reviews: list[int],
    cube_game_played: Game,
    language: str,
) -> None:
    words = PLAY_WORDS[language]
    with translation.override(language):
        queued = str(ANALYSIS_STRINGS["rollout_queued"])
        labels = {code: str(label) for code, label in ERROR_LABELS.items()}
    page = reviewed_page(browser, play_server, user, language, cube_game_played)
    turn = cube_game_played.turns.get(number=3)  # LIGHT's 5-2, after the take
    assert not TurnAnalysis.objects.get(analysis__game=cube_game_played, number=3).forced
    table = page.locator("#rv-alternatives")
    rows = table.locator("tbody tr:not(.reasons)")
    reviewed = rows.locator("td:nth-of-type(3)").all_inner_texts()
    assert reviewed and all(PLAIN.match(t) for t in reviewed), reviewed
    button = page.locator("#rv-rollout")
    assert button.inner_text() == WORDS[language]["button"]
    status = page.locator("#rv-rollout-status")
    status.evaluate(WATCH)
    button.click()
    page.locator("#rv-rollout-note").filter(has_text=words["note"]).wait_for(timeout=120_000)
    assert status.is_hidden() and button.is_hidden()
    seen = page.evaluate("() => window.__rolloutSeen")
    shown = [s for s in seen if not s["hidden"]]
    assert shown[0] == {"hidden": False, "text": queued, "value": None, "max": "1"}, seen
    assert all(s["text"] == queued or words["progress"].search(s["text"]) for s in shown), seen
    # The plays ranked by the rollout, each equity with its standard error.
    rolled = [ROLLED.match(t) for t in rows.locator("td:nth-of-type(3)").all_inner_texts()]
    assert rolled and all(rolled), rows.locator("td:nth-of-type(3)").all_inner_texts()
    equities = [float(m.group(1)) for m in rolled if m]
    assert equities == sorted(equities, reverse=True)
    assert all(0 < float(m.group(2)) < 0.1 for m in rolled if m)
    # It rolled out this turn: LIGHT's board before its 5-2, the play made kept.
    job_row = BoardAnalysis.objects.get(ply=ROLLOUT_PLY)
    assert job_row.state == AnalysisState.DONE and job_row.dice == "52"
    assert job_row.position_id == turn.position_before
    made = TurnAnalysis.objects.get(analysis__game=cube_game_played, number=3).report
    made_id = made["played_candidate"]["result"]
    rolled_play = played_of(job_row)  # the key names the play made, then the game's unit
    assert rolled_play is not None and rolled_play.result.position_id() == made_id
    # The page's figures are the rollout's.
    figures = job_row.result["plays"]
    assert [f"{p['equity']:+.3f} ± {p['se']:.3f}" for p in figures] == [
        m.group(0) for m in rolled if m
    ]
    # The play made, marked, judged by the rollout's figures.
    index = next(i for i, p in enumerate(figures) if p["result"] == made_id)
    played = table.locator("tbody tr.played:not(.reasons)")
    assert played.count() == 1
    assert played.locator("td:nth-of-type(2)").inner_text().endswith(words["played"])
    assert played.locator("td:nth-of-type(1)").inner_text() == str(index + 1)
    lost = max(0.0, figures[0]["equity"] - figures[index]["equity"])
    error = classify(lost)
    if index == 0:
        expected = words["best"]
    elif error is ErrorClass.NONE:
        expected = words["close"].format(lost=f"{lost:.3f}")
    else:
        label = labels[error.value]
        expected = words["lost"].format(label=label, mark=error.mark, lost=f"{lost:.3f}")
    assert page.locator("#rv-rollout-verdict").inner_text() == expected
    verdict_class = page.locator("#rv-rollout-verdict").get_attribute("class")
    assert verdict_class == f"verdict verdict-{error.value}"
    page.context.close()
