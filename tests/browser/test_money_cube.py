"""Browser: money games with the cube, started from the lobby's 现金局 with the
Jacoby rule on, the person by keyboard.

Real daphne and Chromium; the computer is played here through
``games.services`` while its tasks wait in Redis unconsumed (as in
``test_match_play``), so the games go the same way whatever the dice:

1. You double (D), it takes: the cube is 2 and its, on the board and in the
   status bar; the move list shows 加倍 and 接受 among the turns, in order.
   You resign a gammon: 2 (gammon) x 2 (the cube) = 4 points.
2. You resign a gammon with the cube never turned: the Jacoby rule counts
   it single, 1 point.

Every wait is for a version the page shows.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games.models import Game
from games.words.play import board_words
from tests.browser.helpers import (
    LOCALES,
    WAIT_MS,
    computer_acts,
    fits,
    person_deciding,
    person_on_roll,
    play_turn_by_keys,
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


def money_game_from_lobby(page: Any, words: dict[str, Any]) -> Game:
    """The lobby's 现金局, New game: the page of the game it started."""
    page.goto("/")
    money = page.locator('input[name="kind"][value="money"]')
    label = page.locator("label.kind-choice", has=money)
    assert label.inner_text().strip() == words["kind_money"]
    money.check()
    page.locator('form[action$="/games/new/"] button[type="submit"]').click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"), timeout=WAIT_MS)
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle", timeout=WAIT_MS)
    game = Game.objects.get(pk=int(page.locator("#play").get_attribute("data-game")))
    assert (game.kind, game.jacoby, game.cube_value) == ("money", True, 1)
    return game


def move_rows(page: Any) -> list[dict[str, str]]:
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('#play-moves-list > li')].map((li) => ({
              text: li.textContent, cube: li.dataset.cube || '', number: String(li.value),
            }))"""
        )
    )


def resign_gammon(page: Any, game: Game) -> Game:
    """Resign a gammon by keys; the computer accepts; the end is on screen."""
    game = wait_shown(page, game)
    resign_by_keys(page, "gammon")
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v", arg=game.version, timeout=WAIT_MS
    )
    assert computer_acts(game) == "resign"
    game = wait_shown(page, game)
    assert page.locator("#play-over").is_visible()
    return game


@pytest.mark.usefixtures("computer_held")
@pytest.mark.parametrize(("language", "width"), [("zh-hans", 1280), ("en", 375)])
def test_a_money_game_with_jacoby_a_double_taken_then_a_gammon_at_the_cube(
    browser: Any, daphne_server: str, user: Any, language: str, width: int
) -> None:
    set_prefs(user, language=language, animation_speed="off", jacoby=True)
    context = browser.new_context(
        base_url=daphne_server, locale=LOCALES[language], viewport={"width": width, "height": 900}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, daphne_server, user)
    with translation.override(language):
        w = board_words(Game(tier="beginner"))
    cube = page.locator("#board g.b-cube")

    # Game 1: you double when you may, it takes.
    game = until(page, money_game_from_lobby(page, w), person_deciding)
    assert shown(page, "#play-cube") == w["cube_line"] % {"value": 1, "owner": w["cube_centre"]}
    assert cube.get_attribute("data-owner") == "centre" and cube.text_content() == "64"
    before = move_rows(page)
    assert before and not [r for r in before if r["cube"]]
    game = press(page, game, "d")
    double = w["cube_double_line"] % {"side": w["side_light"], "value": 2}
    offered = [(r["text"], r["cube"]) for r in move_rows(page)[len(before) :]]
    assert offered == [(double, "double")], "the socket's cube action, appended"
    assert computer_acts(game, answer="take") == "answer"
    game = wait_shown(page, game)  # the doubler rolls at once
    assert person_on_roll(page.evaluate("() => window.__shuanglu.state"))
    assert shown(page, "#play-cube") == w["cube_line"] % {"value": 2, "owner": w["cube_theirs"]}
    assert cube.get_attribute("data-owner") == "dark" and cube.text_content() == "2"
    take = w["cube_take_line"] % {"side": w["side_dark"], "value": 2}
    rows = move_rows(page)
    assert [(r["text"], r["cube"]) for r in rows[len(before) :]] == [
        (double, "double"),
        (take, "take"),
    ]
    game = play_turn_by_keys(page, game)
    game = wait_shown(page, game)
    rows = move_rows(page)
    assert [r["cube"] for r in rows[len(before) :]] == ["double", "take", ""]
    played = rows[len(before) + 2]
    assert played["text"].startswith(w["side_light"]) and played["number"] == rows[-2]["number"]
    assert fits(page, "#play-moves", width)

    # The computer plays; on your roll you resign a gammon: 2 x the cube's 2.
    game = until(page, game, person_on_roll)
    game = resign_gammon(page, game)
    assert (game.winner, game.result_kind, game.points, game.cube_value) == ("dark", "gammon", 4, 2)
    assert shown(page, "#over-kind") == w["kind_gammon"]
    assert shown(page, "#over-points") == w["points_cube_line"] % {"points": 4, "cube": 2}

    # Game 2: the cube never turned, a gammon resigned counts single (Jacoby).
    game = until(page, money_game_from_lobby(page, w), person_deciding)
    game = resign_gammon(page, game)
    assert (game.result_kind, game.points, game.cube_value) == ("gammon", 1, 1)
    assert shown(page, "#over-kind") == w["kind_gammon"]
    assert shown(page, "#over-points") == w["points_line"] % {"points": 1}
    assert shown(page, "#play-cube") == w["cube_line"] % {"value": 1, "owner": w["cube_centre"]}
    context.close()
