"""Issue 13, item 2: the page never waits forever on the computer.

The computer's reply is made, but its broadcast is lost (as when a worker's
publish failed): the socket stays open and silent. While the state says the
computer is thinking, the page asks for the state itself every 12 s
(static/games/socket.js, THINKING_RESYNC_MS), so the reply reaches the
screen without a reload or a reconnect.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.utils import translation

from games import services
from games.services import rows
from games.steps import display_notation
from games.words.play import board_words
from tests.browser.helpers import (
    fixed_dice,
    marks,
    move_list,
    play_computer_turn,
    set_prefs,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESYNC_S = 12


def test_a_lost_computer_reply_reaches_the_page_by_its_resync(
    browser_page: Any,
    daphne_server: str,
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
) -> None:
    set_prefs(user, animation_speed="fast")
    # You 2, the Expert 5: it starts, and its turn is held here.
    fixed_dice(monkeypatch, 2, 5, 6, 4)
    game = services.start_game(user, "expert")
    assert held_computer_turns == [(game.pk, game.version)]
    with translation.override("zh-hans"):
        w = board_words(game)
    page = browser_page
    fetched: list[float] = []
    page.on(
        "request",
        lambda r: fetched.append(time.monotonic()) if r.url.endswith("/state") else None,
    )
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    sign_in(page, daphne_server, user)
    page.goto(f"/games/{game.pk}/")
    turn = page.locator("#play-turn")
    turn.filter(has_text=w["thinking"]).wait_for()
    page.wait_for_function("() => window.__shuanglu.state.thinking === true")
    thinking_seen = time.monotonic()  # the thinking state is in: its resync timer runs
    page.wait_for_timeout(500)  # the socket's first state is in
    assert fetched == []  # it is the whole state: opening the socket fetches nothing

    # The reply is made (as the worker would), its broadcast lost.
    monkeypatch.setattr(rows, "_broadcast", lambda game: None)
    play = play_computer_turn(game)
    shown = display_notation(play.notation(), "dark")

    made = time.monotonic()
    try:
        page.wait_for_function(
            "v => window.__shuanglu.state.version === v && window.__shuanglu.idle",
            arg=game.version + 1,
            timeout=(RESYNC_S + 20) * 1000,
        )
    except Exception as exc:
        asked = [round(t - made, 1) for t in fetched]
        pytest.fail(f"not on the page: fetched at {asked} s from the move; {exc}", pytrace=False)
    # On the board: its play marked where it arrived; its row in the move list; your turn.
    last = page.evaluate("() => window.__shuanglu.state.last_turn")
    assert last["side"] == "dark" and last["notation"] == shown
    assert marks(page, "to", "dark") == {str(step["to"]) for step in last["steps"]}
    assert any(shown in row for row in move_list(page))
    assert turn.inner_text() == w["your_turn"]
    assert len(fetched) == 1  # one resync brought it, not a reload
    assert fetched[0] - thinking_seen >= RESYNC_S - 1  # the timer, not an earlier ask
    assert len(sockets) == 1  # and not a reconnect
