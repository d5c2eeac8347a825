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

from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games import services
from games.live.state import build_state
from games.models import Game
from games.words.cube import describe_cube_refusal
from games.words.play import board_words
from tests.browser.helpers import (
    WAIT_MS,
    computer_acts,
    fits,
    latest,
    person_deciding,
    person_on_roll,
    press,
    resign_by_keys,
    set_prefs,
    shown,
    sign_in,
    until,
    wait_shown,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}


def computer_to_double(state: dict[str, Any]) -> bool:
    return state["status"] == "deciding" and state["turn"] == "dark"


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
