"""Browser: a whole 3-point match on the play page, the person by keyboard only.

Real daphne and Chromium. The person's commands go over the page's socket
(R rolls, D doubles, T takes, P passes, N starts the next game, the arrow
keys and Enter move the checkers, Tab and Enter resign). The computer is
played here through ``games.services``: with Redis as the broker and no
worker running, the tasks daphne queues for it wait unconsumed, and the
test makes its moves and cube decisions instead (``computer_due``), so the
match goes the same way on every run whatever the dice:

1. 0–0: you roll (R) and play; it doubles, you take (T); you redouble (D),
   it passes: you 2–0.
2. The Crawford game: D and P are refused in words; you resign: 2–1.
3. After it: it doubles, you pass (P): 2–2.
4. You resign: the computer wins the match 3–2.

Every wait is for a state the page shows, by version; a lost broadcast is
made good by the page's own refetch, never by a test's sleep.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from games import services
from games.engine import legal_plays
from games.models import Game
from games.play_words import board_words
from games.state import build_state
from tests.ai.conftest import purge_queues
from tests.browser.test_play_game import set_prefs, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

WAIT_MS = 45_000


@pytest.fixture
def computer_held(redis_url: str, daphne_server: str) -> Iterator[str]:
    """daphne's computer tasks stay in Redis (no worker): the test plays them."""
    purge_queues()
    yield daphne_server
    purge_queues()


def latest(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def shown(page: Any, selector: str) -> str:
    return str(page.locator(selector).inner_text())


def wait_shown(page: Any, game: Game) -> Game:
    """The page shows the game's stored version and is idle; the row, fresh."""
    game = latest(game)
    page.wait_for_function(
        "v => window.__shuanglu && window.__shuanglu.state.version === v && window.__shuanglu.idle",
        arg=game.version,
        timeout=WAIT_MS,
    )
    return game


def press(page: Any, game: Game, key: str) -> Game:
    """A key whose command changes the game: waits until the page shows the change."""
    version = page.evaluate("() => window.__shuanglu.state.version")
    page.keyboard.press(key)
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.idle",
        arg=version,
        timeout=WAIT_MS,
    )
    return latest(game)


def computer_acts(game: Game, cube: str = "no_double", answer: str = "take") -> str | None:
    """The computer's due task at the stored version, done; its name, or None."""
    game = latest(game)
    due = services.computer_due(game.pk, game.version)
    if due is None:
        return None
    if due.task == "play":
        assert due.dice is not None
        plays = legal_plays(due.position, due.dice)
        assert services.finish_computer_turn(game.pk, game.version, plays[0] if plays else None)
    elif due.task == "cube":
        assert services.finish_computer_cube(game.pk, game.version, cube)
    elif due.task == "answer":
        assert services.finish_computer_cube(game.pk, game.version, answer)
    else:
        assert services.answer_resignation(game.pk, game.version, True)
    return due.task


def focus_board(page: Any) -> None:
    for _ in range(40):
        if page.evaluate("() => document.activeElement.matches('#board [data-point]')"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the board")


def key_to(page: Any, where: int) -> None:
    """Arrow keys from the focused point to ``where`` (the bar and tray span both rows)."""
    for _ in range(40):
        at = page.evaluate(
            """() => {
              const a = document.activeElement;
              return {point: Number(a.dataset.point), x: a.getBoundingClientRect().x};
            }"""
        )
        if at["point"] == where:
            return
        target = page.locator(f'#board [data-point="{where}"]').bounding_box()
        spans = where in (0, 25) or at["point"] in (0, 25)
        if not spans and (where >= 13) != (at["point"] >= 13):
            page.keyboard.press("ArrowUp" if where >= 13 else "ArrowDown")
        else:
            page.keyboard.press("ArrowRight" if target["x"] > at["x"] else "ArrowLeft")
    raise AssertionError(f"the arrow keys never reached {where}")


def play_turn_by_keys(page: Any, game: Game) -> Game:
    """The person's roll, played step by step with the arrow keys and Enter."""
    game = wait_shown(page, game)
    focus_board(page)
    while True:
        st = page.evaluate("() => window.__shuanglu.state")
        if st["turn"] != "light" or not st["allowed"] or st["status"] not in ("playing", "opening"):
            return game
        step = st["allowed"][0]
        key_to(page, step["from"])
        page.keyboard.press("Enter")
        key_to(page, step["to"])
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => window.__shuanglu.state.version > v && window.__shuanglu.idle",
            arg=st["version"],
            timeout=WAIT_MS,
        )
        game = latest(game)


def until(page: Any, game: Game, done: Any, cube: str = "no_double") -> Game:
    """Both sides play on (the computer here, the person by keys) until ``done(state)``."""
    for _ in range(30):
        game = wait_shown(page, game)
        state = build_state(game)
        if done(state):
            return game
        if state["turn"] == "light" and state["allowed"]:
            game = play_turn_by_keys(page, game)
        else:
            assert computer_acts(game, cube=cube), f"nobody to act: {state['status']}"
    raise AssertionError("the game never reached the moment")


def person_deciding(state: dict[str, Any]) -> bool:
    return state["status"] == "deciding" and state["turn"] == "light"


def person_on_roll(state: dict[str, Any]) -> bool:
    return state["turn"] == "light" and bool(state["allowed"]) and state["status"] == "playing"


def computer_to_double(state: dict[str, Any]) -> bool:
    return state["status"] == "deciding" and state["turn"] == "dark"


def resign_by_keys(page: Any, kind: str = "single") -> None:
    for _ in range(40):
        if page.evaluate("() => document.activeElement.id") == "btn-resign":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.locator("#resign-dialog").is_visible()
    assert page.locator("#resign-kinds").is_visible()
    for _ in range(10):
        if page.evaluate("() => document.activeElement.id") == "resign-confirm":
            break
        page.keyboard.press("Tab")
    assert (
        page.evaluate("() => document.querySelector('input[name=resign-kind]:checked').value")
        == kind
    )
    page.keyboard.press("Enter")


def next_game_by_key(page: Any, game: Game) -> Game:
    """N on the finished game's screen: the page goes to the match's next game."""
    page.keyboard.press("n")
    page.wait_for_url(lambda url: not url.endswith(f"/games/{game.pk}/"), timeout=WAIT_MS)
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle", timeout=WAIT_MS)
    following = Game.objects.get(pk=int(page.locator("#play").get_attribute("data-game")))
    assert (following.match_id, following.match_game) == (game.match_id, (game.match_game or 0) + 1)
    return following


def test_a_three_point_match_by_keyboard_with_doubles_taken_passed_and_crawford(
    browser: Any, computer_held: str, user: Any
) -> None:
    set_prefs(user, language="zh-hans", animation_speed="off")
    game = services.start_match(user, "beginner", 3)
    with translation.override("zh-hans"):
        w = board_words(game)
    context = browser.new_context(
        base_url=computer_held, locale="zh-CN", viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, computer_held, user)
    page.goto(f"/games/{game.pk}/")

    # Game 1, 0–0. Your turn begins with the choice; only then the dice.
    game = until(page, game, person_deciding)
    assert shown(page, "#play-turn") == "轮到你：掷骰（R）或加倍（D）"
    assert page.locator("#btn-roll").is_visible() and page.locator("#btn-double").is_visible()
    assert page.locator("#board .b-die").count() == 0, "no dice before the choice"
    assert shown(page, "#play-match") == "3 分比赛：你 0 分，电脑 0 分"
    assert shown(page, "#play-cube") == "倍数骰：1，在中间"
    cube = page.locator("#board g.b-cube")
    assert cube.get_attribute("data-owner") == "centre" and cube.text_content() == "1"
    game = press(page, game, "r")
    game = until(page, game, computer_to_double)
    assert computer_acts(game, cube="double") == "cube"
    game = wait_shown(page, game)
    dialog = page.locator("#cube-dialog")
    assert dialog.is_visible()
    assert shown(page, "#cube-title") == "电脑加倍到 2"
    words = build_state(game)["cube"]["dialog"]
    assert shown(page, "#cube-take-words") == words["take"] and "接受" in words["take"]
    assert shown(page, "#cube-pass-words") == words["pass"] and "放弃" in words["pass"]
    game = press(page, game, "t")
    game = until(page, game, person_deciding)  # it rolls and plays; then you may redouble
    assert dialog.is_hidden()
    assert shown(page, "#play-cube") == "倍数骰：2，在你这边"
    assert cube.get_attribute("data-owner") == "light" and cube.text_content() == "2"
    game = press(page, game, "d")
    assert computer_acts(game, answer="pass") == "answer"
    game = wait_shown(page, game)
    assert page.locator("#play-over").is_visible()
    assert shown(page, "#over-title") == w["win"]
    assert shown(page, "#over-kind") == "结果：电脑放弃了你的加倍"
    assert shown(page, "#over-points") == "得分：2（倍数骰 2）"
    assert shown(page, "#over-match") == "接下来是比赛的第 2 局。"
    assert shown(page, "#play-match") == "3 分比赛：你 2 分，电脑 0 分"
    assert page.locator("#over-next").is_visible() and page.locator("#over-new").is_hidden()

    # Game 2, the Crawford game: no cube to turn; the dice come at once.
    game = next_game_by_key(page, game)
    game = until(page, game, person_on_roll)
    assert shown(page, "#play-match") == "3 分比赛：你 2 分，电脑 0 分，克劳福德局"
    assert page.locator("#play-cube-actions").is_hidden()
    page.keyboard.press("d")
    page.wait_for_function(
        "() => document.getElementById('play-refusal').textContent === '克劳福德局不能加倍。'"
    )
    page.keyboard.press("p")
    page.wait_for_function(
        "() => document.getElementById('play-refusal').textContent === '没有等你回应的加倍。'"
    )
    version = latest(game).version
    resign_by_keys(page)
    page.wait_for_function("v => window.__shuanglu.state.version > v", arg=version, timeout=WAIT_MS)
    assert computer_acts(game) == "resign"
    game = wait_shown(page, game)
    assert shown(page, "#over-title") == w["resigned"]
    assert shown(page, "#play-match") == "3 分比赛：你 2 分，电脑 1 分，克劳福德局"

    # Game 3, after the Crawford game: it doubles, you pass.
    game = next_game_by_key(page, game)
    game = until(page, game, computer_to_double)
    assert "克劳福德局之后" in shown(page, "#play-match")
    assert computer_acts(game, cube="double") == "cube"
    game = wait_shown(page, game)
    assert dialog.is_visible() and shown(page, "#cube-title") == "电脑加倍到 2"
    assert shown(page, "#cube-pass-words") == build_state(game)["cube"]["dialog"]["pass"]
    assert "电脑赢 1 分" in shown(page, "#cube-pass-words") and "2–2" in shown(
        page, "#cube-pass-words"
    )
    game = press(page, game, "p")
    page.wait_for_function("() => !document.getElementById('play-over').hidden")
    assert shown(page, "#over-kind") == "结果：你放弃了电脑的加倍"
    assert shown(page, "#play-match").startswith("3 分比赛：你 2 分，电脑 2 分")

    # Game 4, 2–2: you resign, the computer wins the match.
    game = next_game_by_key(page, game)
    game = until(page, game, person_on_roll)
    version = latest(game).version
    resign_by_keys(page)
    page.wait_for_function("v => window.__shuanglu.state.version > v", arg=version, timeout=WAIT_MS)
    assert computer_acts(game) == "resign"
    game = wait_shown(page, game)
    assert shown(page, "#over-match") == "电脑赢得了这场 3 分比赛。"
    assert shown(page, "#play-match").startswith("3 分比赛：你 2 分，电脑 3 分")
    assert page.locator("#over-next").is_hidden() and page.locator("#over-new").is_visible()
    context.close()
