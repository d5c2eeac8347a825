"""Browser: the board in two set-up situations, prepared through the services.

Dice are fixed by patching ``games.services.dice.roll_die`` in this process and
the games are made by ``services.start_game`` / ``start_game_from`` /
``finish_computer_turn``; the page then shows them from the real daphne server.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine import Dice, Side, legal_plays
from tests.boards import board
from tests.browser.helpers import (
    fixed_dice,
    sign_in,
    state,
    wait_connected,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_opening_tie_is_shown_and_rolled_again(
    browser_page: Any,
    play_server: str,  # noqa: F811
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = browser_page
    fixed_dice(monkeypatch, 3, 3, 5, 2)
    game = services.start_game(user, "beginner")
    sign_in(page, play_server, user)
    page.goto(f"/games/{game.pk}/")
    wait_connected(page)
    st = state(page)
    assert st["opening"]["rolls"] == [[3, 3], [5, 2]]
    dice = page.evaluate(
        """() => [...document.querySelectorAll('#board .b-die')].map((d) => ({
          value: Number(d.dataset.value), dark: d.classList.contains('b-die-dark'),
          x: d.getBoundingClientRect().x }))"""
    )
    light = [d for d in dice if not d["dark"]]
    dark = [d for d in dice if d["dark"]]
    assert [d["value"] for d in light] == [5] and [d["value"] for d in dark] == [2]
    assert light[0]["x"] < dark[0]["x"], "the person's die on the left"
    opening = page.locator("#play-opening").inner_text()
    assert "平局" in opening and "3" in opening  # the tie, in the page's language
    assert "你先走" in opening


# LIGHT: one on the bar, 14 at home; DARK: 19-24 made, three back on 10.
CLOSED_BOARD_LIGHT_ON_THE_BAR = board(
    light={6: 5, 5: 5, 4: 4},
    light_bar=1,
    dark={19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 10: 3},
)


def board_stays_closed(play: Any) -> bool:
    return all(n >= 2 for n in play.result.me[:6])


def test_with_no_legal_move_the_page_says_so_and_the_turn_passes(
    browser_page: Any,
    play_server: str,  # noqa: F811
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
) -> None:
    page = browser_page
    position = CLOSED_BOARD_LIGHT_ON_THE_BAR
    game = services.start_game_from(user, "beginner", position, Side.DARK, dice=[2, 1])
    play = next(p for p in legal_plays(position.swapped(), Dice(2, 1)) if board_stays_closed(p))
    # The person then rolls 6-5 against a closed board and the computer 4-3;
    # its turn is only recorded, so the page is caught right after the pass.
    fixed_dice(monkeypatch, 6, 5, 4, 3)
    assert held_computer_turns == [(game.pk, game.version)]  # its turn, held
    assert services.finish_computer_turn(game.pk, game.version, play)
    # The person passed at once: the computer is on turn again, one version on.
    assert held_computer_turns[-1] == (game.pk, game.version + 1)

    sign_in(page, play_server, user)
    page.goto(f"/games/{game.pk}/")
    wait_connected(page)
    st = state(page)
    assert st["no_move"] and st["turn"] == "dark" and st["message"]
    assert "6" in st["message"] and "5" in st["message"]
    page.wait_for_function(
        "m => document.getElementById('play-live').textContent.includes(m)", arg=st["message"]
    )
    # A Beginner answers at once: its turn, not "thinking".
    assert page.locator("#play-turn").inner_text() == "轮到电脑"
    assert page.locator("#btn-hint").is_disabled(), "no hint on the computer's turn"
    assert page.locator("#btn-undo").is_disabled()
