"""Browser: 教练模式 on the play page, in Chinese and in English.

A known error (the opening 31 played 13/10 6/5, the best 8/5 6/5) is warned
at once with the best play as arrows on the board as it was before the move,
then its words arrive, in Chinese and in English: three lines first (what it
costs in chances to win, what the best play does better, the best play), the
rest behind 详细, terms linked to the glossary; 撤销重走 says what it took
back; a reload or a second
tab shows the same panel at once; 撤销重走 from the reloaded page then the
best play commits unwarned; 仍然这样走 commits the error and the game keeps the
override; a pass of a clear take (a money game, the computer's double at
the opening position) is warned before it is sent; with the tutor off the
error commits at once. Real daphne and Chromium; with REDIS_URL the ranking
is computed by a real Celery worker on the ``hints`` queue.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from accounts.models import Preferences
from games import services
from games.engine import Position, Side
from games.models import Game, GameKind, Status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
SCREEN = {
    "zh-hans": {
        "title": "教练提醒：大错",
        "cost": "这步棋让你赢这盘的机会少了约",
        "why": "最佳走法占住 5 点",
        "anyway": "仍然这样走（K）",
        "undo": "撤销重走（U）",
        "hint": "看提示（H）",
        "best": "最佳走法是 8/5 6/5，箭头画出了它。",
        "details": "详细",
        "figure": "按期望值算",
        "arrows": "棋盘上显示的是你走之前的局面，箭头是最佳走法：8/5 6/5。",
        "undone": "已撤销这一回合走的全部 2 步（13 点到 10 点、6 点到 5 点）",
        "cube_cost": "平均大约少得",
    },
    "en": {
        "title": "The tutor: Very bad",
        "cost": "This play gives up about",
        "why": "The best play makes the 5-point",
        "anyway": "Play it anyway (K)",
        "undo": "Undo and play again (U)",
        "hint": "Show the hint (H)",
        "best": "The best play is 8/5 6/5; the arrows draw it.",
        "details": "Details",
        "figure": "In equity",
        "arrows": "Arrows on the board as it was before your move show the best play: 8/5 6/5.",
        "undone": (
            "Your whole move is taken back (2 steps: point 13 to point 10, point 6 to point 5)"
        ),
        "cube_cost": "points over 100 games",
    },
}


LAST_MOVE = {"zh-hans": "电脑的上一步", "en": "the computer's last move"}
REVIEW = {"zh-hans": "你仍然这样走了。", "en": "You played it anyway."}


def open_game(browser: Any, server: str, user: Any, game: Game, language: str) -> Any:
    context = browser.new_context(
        base_url=server, locale=LOCALES[language], viewport={"width": 375, "height": 900}
    )
    context.set_default_timeout(20_000)
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": server}])
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    idle(page)
    return page


def idle(page: Any) -> None:
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle", timeout=20_000)


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.__shuanglu.state")


def step(page: Any, src: int, dst: int) -> None:
    version = state(page)["version"]
    page.locator(f'#board [data-point="{src}"]').click()
    page.locator(f'#board [data-point="{dst}"]').click()
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.idle", arg=version
    )


def set_prefs(user: Any, **fields: Any) -> None:
    defaults = {"auto_end_turn": False, "animation_speed": "off", **fields}
    Preferences.objects.update_or_create(user=user, defaults=defaults)


def opening_31(user: Any) -> Game:
    return services.start_game_from(user, "casual", Position.start(), dice=[3, 1])


# Each change of the panel, as the page shows it: visible or not, and whether
# its words are there yet (learning/tutor.js marks data-worded).
WATCH_PANEL = """() => {
  const panel = document.getElementById("tutor-panel");
  window.__panelSeen = [];
  new MutationObserver(() => {
    const seen = [panel.hidden ? "hidden" : "shown", panel.dataset.worded,
                  document.getElementById("tutor-title").textContent];
    const last = window.__panelSeen[window.__panelSeen.length - 1];
    if (!last || last.join() !== seen.join()) window.__panelSeen.push(seen);
  }).observe(panel, {attributes: true, subtree: true, childList: true, characterData: true});
}"""


def play_error_and_end(page: Any) -> None:
    step(page, 13, 10)
    step(page, 6, 5)
    page.locator("#btn-end").click()
    page.locator("#tutor-panel").wait_for(state="visible", timeout=20_000)


def worded(page: Any) -> None:
    """The warning's words have arrived (pushed after the warning)."""
    page.locator('#tutor-panel[data-worded="1"]').wait_for(state="visible", timeout=20_000)


def panel(page: Any) -> dict[str, Any]:
    """What the tutor's panel shows: its words, its arrows and what they say."""
    page.locator("#tutor-panel").wait_for(state="visible")
    worded(page)
    arrows = page.locator("#board line.b-arrow-tutor")
    return {
        "title": page.locator("#tutor-title").inner_text(),
        "lead": page.locator("#tutor-lead li").all_inner_texts(),
        "details": page.locator("#tutor-details li").all_text_contents(),
        "arrows": sorted(
            (arrows.nth(i).get_attribute("data-from"), arrows.nth(i).get_attribute("data-to"))
            for i in range(arrows.count())
        ),
        "said": page.locator("#board g.b-arrows").get_attribute("aria-label"),
        "buttons": page.locator("#tutor-panel menu button").all_inner_texts(),
    }


def tutor_warnings(game: Game) -> list[tuple[str, str]]:
    game.refresh_from_db()
    return [(w["played"], w["outcome"]) for w in game.tutor_warnings]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_an_error_is_warned_with_cost_reason_and_arrows_then_undone_and_played_best(
    browser: Any, play_server: str, user: Any, language: str
) -> None:
    set_prefs(user, tutor="bad", language=language)
    game = opening_31(user)
    words = SCREEN[language]
    page = open_game(browser, play_server, user, game, language)
    page.evaluate(WATCH_PANEL)
    play_error_and_end(page)
    worded(page)
    # The warning showed first (its title, the words not there), then its words.
    seen = page.evaluate("() => window.__panelSeen")
    assert seen[0] == ["shown", "0", words["title"]], seen
    assert seen[-1] == ["shown", "1", words["title"]], seen
    assert page.locator("#tutor-title").inner_text() == words["title"]
    # Three lines first: what it costs (the chance to win given up, in %),
    # what the best play does better, the best play; the rest behind 详细.
    cost, why, best = page.locator("#tutor-lead li").all_inner_texts()
    assert cost.startswith(words["cost"]) and re.search(r"\d+%", cost), cost
    assert why.startswith(words["why"]) and best == words["best"], (why, best)
    more = page.locator("#tutor-more")
    assert more.locator("summary").inner_text() == words["details"]
    assert (
        more.get_attribute("open") is None
        and not page.locator("#tutor-details li").first.is_visible()
    )
    more.locator("summary").click()
    assert page.locator("#tutor-details li").last.inner_text().startswith(words["figure"])
    # Terms are linked to the glossary where they first appear: the play's notation.
    notation = page.locator('#tutor-lead a.term[data-term="notation"]')
    assert notation.inner_text() == "8/5 6/5"
    for button in ("anyway", "undo", "hint"):
        assert page.locator(f"#btn-tutor-{button}").inner_text() == words[button]
    # The best play drawn as arrows, and said in words to a screen reader.
    arrows = page.locator("#board line.b-arrow-tutor")
    assert arrows.count() == 2
    drawn = sorted(
        (int(arrows.nth(i).get_attribute("data-from")), int(arrows.nth(i).get_attribute("data-to")))
        for i in range(2)
    )
    assert drawn == [(6, 5), (8, 5)]
    assert page.locator("#board g.b-arrows").get_attribute("aria-label") == words["arrows"]
    # Nothing was committed: still the person's turn, the error on the board.
    assert state(page)["turn"] == "light" and len(state(page)["steps"]) == 2
    assert tutor_warnings(game) == [("13/10 6/5", "pending")]
    shown = panel(page)
    # A reload, and a second tab, show the same panel at once: nothing slips
    # through, and nothing is to be asked again.
    page.reload()
    idle(page)
    assert panel(page) == shown
    assert state(page)["turn"] == "light" and len(state(page)["steps"]) == 2
    other = page.context.new_page()
    other.goto(f"/games/{game.pk}/")
    idle(other)
    assert panel(other) == shown
    # 撤销重走 (U) from the reloaded page: the whole turn taken back, the
    # panel gone in both tabs; the best play goes through.
    page.keyboard.press("u")
    page.wait_for_function("() => window.__shuanglu.state.steps.length === 0")
    assert page.locator("#tutor-panel").is_hidden()
    # It says what it took back: the whole move, not one step.
    expect(page.locator("#play-live")).to_contain_text(words["undone"])
    other.wait_for_function("() => window.__shuanglu.state.steps.length === 0")
    other.locator("#tutor-panel").wait_for(state="hidden")
    assert other.locator("#board line.b-arrow-tutor").count() == 0
    other.close()
    idle(page)
    step(page, 8, 5)
    step(page, 6, 5)
    version = state(page)["version"]
    page.locator("#btn-end").click()
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.state.turn !== 'light'"
        " || (window.__shuanglu.state.last_turn || {}).number >= 2",
        arg=version,
    )
    assert page.locator("#tutor-panel").is_hidden()
    game.refresh_from_db()
    first = game.turns.get(number=1)
    assert (first.side, first.notation) == ("light", "8/5 6/5")
    assert tutor_warnings(game) == [("13/10 6/5", "changed")]
    page.context.close()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_play_it_anyway_commits_the_error_and_keeps_the_override(
    browser: Any, play_server: str, user: Any, language: str
) -> None:
    set_prefs(user, tutor="very_bad", language=language)
    game = opening_31(user)
    page = open_game(browser, play_server, user, game, language)
    play_error_and_end(page)
    page.keyboard.press("k")
    page.wait_for_function("() => (window.__shuanglu.state.last_turn || {}).number >= 1")
    assert page.locator("#tutor-panel").is_hidden()
    game.refresh_from_db()
    assert game.turns.get(number=1).notation == "13/10 6/5"
    assert tutor_warnings(game) == [("13/10 6/5", "overridden")]
    # The review lists the warning and that it was overridden.
    page.goto(reverse("learning:review", args=[game.pk]))
    item = page.locator("#tutor-warnings li")
    assert item.count() == 1 and item.get_attribute("data-outcome") == "overridden"
    assert REVIEW[language] in item.inner_text() and "13/10 6/5" in item.inner_text()
    # The history finds it among the games played with the tutor, and only there.
    listed = f'table a[href="{reverse("games:play", args=[game.pk])}"]'
    page.goto(reverse("learning:history") + "?tutor=on")
    assert page.locator(listed).count() == 1
    page.goto(reverse("learning:history") + "?tutor=off")
    assert page.locator(listed).count() == 0
    page.context.close()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_with_the_tutor_off_the_error_commits_at_once(
    browser: Any, play_server: str, user: Any, language: str
) -> None:
    set_prefs(user, language=language)
    game = opening_31(user)
    page = open_game(browser, play_server, user, game, language)
    step(page, 13, 10)
    step(page, 6, 5)
    page.locator("#btn-end").click()
    page.wait_for_function("() => (window.__shuanglu.state.last_turn || {}).number >= 1")
    assert page.locator("#tutor-panel").is_hidden()
    game.refresh_from_db()
    assert game.turns.get(number=1).notation == "13/10 6/5" and not game.tutored
    # The computer's reply is drawn as arrows (a preference, on by default),
    # said in words, until the person's next step.
    page.wait_for_function(
        "() => window.__shuanglu.state.turn === 'light' && window.__shuanglu.idle"
        " && (window.__shuanglu.state.last_turn || {}).side === 'dark'",
        timeout=60_000,
    )
    reply = state(page)["last_turn"]
    assert page.locator("#board line.b-arrow-last").count() == len(reply["steps"]) > 0
    label = page.locator("#board g.b-arrows").get_attribute("aria-label") or ""
    assert reply["notation"] in label and LAST_MOVE[language] in label
    allowed = state(page)["allowed"][0]
    step(page, allowed["from"], allowed["to"])
    assert page.locator("#board line.b-arrow-last").count() == 0
    page.context.close()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_pass_of_a_clear_take_is_warned_before_it_is_sent(
    browser: Any, play_server: str, user: Any, language: str, held_computer_turns: list
) -> None:
    set_prefs(user, tutor="bad", language=language)
    game = services.start_game_from(
        user, "casual", Position.start(), Side.DARK, kind=GameKind.MONEY
    )
    assert services.finish_computer_cube(game.pk, game.version, "double")
    page = open_game(browser, play_server, user, game, language)
    # The hint first: it reads the advice the tutor checks against, so the
    # pass is checked however slow the machine (else, past a second: unchecked).
    page.locator("#btn-hint").click()
    page.wait_for_selector("#hint-list > li", timeout=60_000)
    page.locator("#btn-pass").click()
    page.locator("#tutor-panel").wait_for(state="visible", timeout=20_000)
    worded(page)
    lead = page.locator("#tutor-lead li").all_inner_texts()
    assert len(lead) <= 3 and SCREEN[language]["cube_cost"] in lead[0], lead
    game.refresh_from_db()
    assert (game.status, game.winner) == (Status.DOUBLED, "")
    page.locator("#btn-tutor-anyway").click()
    page.wait_for_function("() => window.__shuanglu.state.status === 'finished'")
    game.refresh_from_db()
    assert game.passed and [(w["played"], w["outcome"]) for w in game.tutor_warnings] == [
        ("pass", "overridden")
    ]
    page.context.close()


# LIGHT to play 4-3 (noisy self-play, tests/learning/test_coach_words.py):
# the best play is 9/5 8/5; 9/5/2 moves the 9-point's one checker on, so the
# board after the move has none there, where the best play's arrow starts.
EMPTIED = ("sp2h4ACYWQIOMw", [4, 3], [(9, 5), (5, 2)])


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_best_plays_arrows_start_on_the_board_as_it_was_before_the_move(
    browser: Any, play_server: str, user: Any, language: str
) -> None:
    set_prefs(user, tutor="bad", language=language)
    position_id, dice, steps = EMPTIED
    game = services.start_game_from(
        user, "casual", Position.from_position_id(position_id), dice=dice
    )
    page = open_game(browser, play_server, user, game, language)
    for src, dst in steps:
        step(page, src, dst)
    assert state(page)["board"]["points"][8] == 0, "the move left the 9-point empty"
    page.locator("#btn-end").click()
    worded(page)
    arrows = page.locator("#board line.b-arrow-tutor")
    assert arrows.count() == 2
    origins = sorted(int(arrows.nth(i).get_attribute("data-from")) for i in range(2))
    assert origins == [8, 9]
    # The board on screen is the one before the move: a checker of the
    # person's on each point an arrow starts from.
    drawn = page.evaluate("() => document.getElementById('board').__board")
    assert drawn == state(page)["tutor"]["warning"]["before"]
    assert all(drawn["points"][p - 1] > 0 for p in origins), drawn["points"]
    # 仍然这样走 commits the move as made; the board shows it again.
    page.keyboard.press("k")
    page.wait_for_function("() => (window.__shuanglu.state.last_turn || {}).number >= 1")
    game.refresh_from_db()
    assert game.turns.filter(side="light").first().notation == "9/2"
    page.context.close()
