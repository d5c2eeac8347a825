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
from django.utils.translation import gettext

from games import services
from games.engine import legal_plays
from games.live.state import build_state
from games.models import Game
from games.words.cube import describe_cube_refusal
from games.words.play import board_words
from tests.ai.conftest import purge_queues
from tests.browser.test_play_game import set_prefs, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

WAIT_MS = 45_000
LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}


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
    """Tab to Resign, Enter; in the dialog the arrow keys pick the offer, then Resign."""
    for _ in range(40):
        if page.evaluate("() => document.activeElement.id") == "btn-resign":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.locator("#resign-dialog").is_visible()
    assert page.locator("#resign-kinds").is_visible()
    on_kind = "() => document.activeElement.name === 'resign-kind'"
    for _ in range(10):
        if page.evaluate(on_kind):
            break
        page.keyboard.press("Shift+Tab")
    for _ in range(["single", "gammon", "backgammon"].index(kind)):
        page.keyboard.press("ArrowDown")
    for _ in range(10):
        if page.evaluate("() => document.activeElement.id") == "resign-confirm":
            break
        page.keyboard.press("Tab")
    checked = "() => document.querySelector('input[name=resign-kind]:checked').value"
    assert page.evaluate(checked) == kind
    page.keyboard.press("Enter")


def next_game_by_key(page: Any, game: Game) -> Game:
    """N on the finished game's screen: the page goes to the match's next game."""
    page.keyboard.press("n")
    page.wait_for_url(lambda url: not url.endswith(f"/games/{game.pk}/"), timeout=WAIT_MS)
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle", timeout=WAIT_MS)
    following = Game.objects.get(pk=int(page.locator("#play").get_attribute("data-game")))
    assert (following.match_id, following.match_game) == (game.match_id, (game.match_game or 0) + 1)
    return following


def server_words(game: Game, language: str) -> dict[str, Any]:
    """The state's words (the take/pass dialog) in the page's language."""
    with translation.override(language):
        return build_state(latest(game))


def refusal(code: str, language: str) -> str:
    with translation.override(language):
        return describe_cube_refusal(code)


def wait_refusal(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('play-refusal').textContent === t", arg=text
    )


def fits(page: Any, selector: str, width: int) -> bool:
    """Drawn inside the page's width, and the page does not scroll sideways."""
    box = page.locator(selector).bounding_box()
    wide = int(page.evaluate("() => document.documentElement.scrollWidth"))
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width and wide <= width


@pytest.mark.parametrize(("language", "width"), [("zh-hans", 1280), ("en", 375)])
def test_a_three_point_match_by_keyboard_with_doubles_taken_passed_and_crawford(
    browser: Any, computer_held: str, user: Any, language: str, width: int
) -> None:
    set_prefs(user, language=language, animation_speed="off")
    game = services.start_match(user, "beginner", 3)
    with translation.override(language):
        w = board_words(game)

    def match_line(light: int, dark: int) -> str:
        return str(w["match_line"] % {"length": 3, "light": light, "dark": dark})

    context = browser.new_context(
        base_url=computer_held, locale=LOCALES[language], viewport={"width": width, "height": 900}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, computer_held, user)
    page.goto(f"/games/{game.pk}/")

    # Game 1, 0–0. Your turn begins with the choice; only then the dice.
    game = until(page, game, person_deciding)
    assert shown(page, "#play-turn") == w["roll_or_double"]
    assert page.locator("#btn-roll").is_visible() and page.locator("#btn-double").is_visible()
    assert fits(page, "#play-cube-actions", width)
    assert page.locator("#board .b-die").count() == 0, "no dice before the choice"
    assert shown(page, "#play-match") == match_line(0, 0)
    assert shown(page, "#play-cube") == w["cube_line"] % {"value": 1, "owner": w["cube_centre"]}
    cube = page.locator("#board g.b-cube")
    assert cube.get_attribute("data-owner") == "centre" and cube.text_content() == "64"
    game = press(page, game, "r")
    game = until(page, game, computer_to_double)
    assert computer_acts(game, cube="double") == "cube"
    game = wait_shown(page, game)
    dialog = page.locator("#cube-dialog")
    assert dialog.is_visible() and fits(page, "#cube-dialog", width)
    assert shown(page, "#cube-title") == w["double_title"] % {"value": 2}
    words = server_words(game, language)["cube"]["dialog"]
    assert shown(page, "#cube-take-words") == words["take"]
    assert shown(page, "#cube-pass-words") == words["pass"]
    assert w["take"] in shown(page, "#btn-take") and w["pass"] in shown(page, "#btn-pass")
    game = press(page, game, "t")
    game = until(page, game, person_deciding)  # it rolls and plays; then you may redouble
    assert dialog.is_hidden()
    assert shown(page, "#play-cube") == w["cube_line"] % {"value": 2, "owner": w["cube_yours"]}
    assert cube.get_attribute("data-owner") == "light" and cube.text_content() == "2"
    game = press(page, game, "d")
    assert computer_acts(game, answer="pass") == "answer"
    game = wait_shown(page, game)
    assert page.locator("#play-over").is_visible() and fits(page, "#play-over", width)
    assert shown(page, "#over-title") == w["win"]
    assert shown(page, "#over-kind") == w["kind_passed_dark"]
    assert shown(page, "#over-points") == w["points_cube_line"] % {"points": 2, "cube": 2}
    assert shown(page, "#over-match") == w["match_next"] % {"game": 2}
    assert shown(page, "#play-match") == match_line(2, 0)
    assert page.locator("#over-next").is_visible() and page.locator("#over-new").is_hidden()

    # Game 2, the Crawford game: no cube to turn; the dice come at once.
    game = next_game_by_key(page, game)
    game = until(page, game, person_on_roll)
    crawford = match_line(2, 0) + w["list_sep"] + w["crawford"]
    assert shown(page, "#play-match") == crawford
    assert page.locator("#play-cube-actions").is_hidden()
    page.keyboard.press("d")
    wait_refusal(page, refusal("crawford_game", language))
    page.keyboard.press("p")
    wait_refusal(page, refusal("no_double_pending", language))
    version = latest(game).version
    resign_by_keys(page)
    page.wait_for_function("v => window.__shuanglu.state.version > v", arg=version, timeout=WAIT_MS)
    assert computer_acts(game) == "resign"
    game = wait_shown(page, game)
    assert shown(page, "#over-title") == w["resigned"]
    assert shown(page, "#play-match") == match_line(2, 1) + w["list_sep"] + w["crawford"]

    # Game 3, after the Crawford game: it doubles, you pass.
    game = next_game_by_key(page, game)
    game = until(page, game, computer_to_double)
    assert shown(page, "#play-match") == match_line(2, 1) + w["list_sep"] + w["post_crawford"]
    assert computer_acts(game, cube="double") == "cube"
    game = wait_shown(page, game)
    assert dialog.is_visible() and shown(page, "#cube-title") == w["double_title"] % {"value": 2}
    passing = server_words(game, language)["cube"]["dialog"]["pass"]
    assert shown(page, "#cube-pass-words") == passing and "2–2" in passing
    game = press(page, game, "p")
    page.wait_for_function("() => !document.getElementById('play-over').hidden")
    assert shown(page, "#over-kind") == w["kind_passed_light"]
    assert shown(page, "#play-match").startswith(match_line(2, 2))

    # Game 4, 2–2: it refuses a backgammon offered, takes a single: the match is its.
    game = next_game_by_key(page, game)
    game = until(page, game, person_on_roll)
    page.locator("#btn-resign").focus()
    page.keyboard.press("Enter")
    worth = page.locator("#resign-kinds .resign-offer").all_inner_texts()
    with translation.override(language):
        kinds = [gettext("a single game"), gettext("a gammon"), gettext("a backgammon")]
    # 2–2 in a 3-point match: any result wins the computer the 1 point it needs.
    assert worth == [w["resign_offer"] % {"kind": kind, "points": 1} for kind in kinds]
    page.keyboard.press("Escape")
    version = latest(game).version
    resign_by_keys(page, "backgammon")
    page.wait_for_function("v => window.__shuanglu.state.version > v", arg=version, timeout=WAIT_MS)
    assert latest(game).resign_offer == "backgammon"
    game = latest(game)
    assert services.answer_resignation(game.pk, game.version, False)
    game = wait_shown(page, game)
    refused = server_words(game, language)["message"]
    page.wait_for_function(
        "t => document.getElementById('play-live').textContent.includes(t)", arg=refused
    )
    version = latest(game).version
    resign_by_keys(page)
    page.wait_for_function("v => window.__shuanglu.state.version > v", arg=version, timeout=WAIT_MS)
    assert computer_acts(game) == "resign"
    game = wait_shown(page, game)
    assert shown(page, "#over-match") == w["match_lost"] % {"length": 3}
    assert shown(page, "#play-match").startswith(match_line(2, 3))
    assert page.locator("#over-next").is_hidden() and page.locator("#over-new").is_visible()
    context.close()
