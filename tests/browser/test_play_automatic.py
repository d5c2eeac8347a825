"""Browser: a turn the site played for the person (its one legal play, with
"play forced moves for me" on) is animated after the computer's play and
said in words, in the page's language, and stays said on screen.

The computer's play and the person's forced play are made in one
transaction, so the page gets one state for two turns: it fetches the turn
in between and shows both. The game is prepared through the services with
fixed dice; the computer's turns are held and played here.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine import Dice, Position, legal_plays
from games.models import Game
from games.steps import display_notation
from tests.browser.test_play_game import set_prefs, state, target
from tests.browser.test_play_turns import (
    SCREENS,
    fixed_dice,
    live_text,
    marks,
    move_list,
    no_sideways_scroll,
    open_page,
    wait_idle,
    words,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def light_on_the_bar_one_way_in() -> Position:
    """LIGHT: one on the bar, 14 at home; DARK: 19-23 made, 24 open, five outside."""
    me = [0] * 25
    me[24] = 1
    me[6 - 1], me[5 - 1], me[4 - 1] = 5, 5, 4
    opp = [0] * 25
    for display in range(19, 24):
        opp[(25 - display) - 1] = 2
    opp[(25 - 10) - 1], opp[(25 - 12) - 1] = 3, 2
    return Position(tuple(me), tuple(opp))


@pytest.mark.parametrize(("language", "width"), SCREENS)
def test_a_forced_play_made_for_the_person_is_shown_and_said(
    browser: Any,
    daphne_server: str,
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, animation_speed="fast", auto_forced=True)
    # You open with 5-2 (13/8 13/11); the computer rolls 2-1.
    fixed_dice(monkeypatch, 5, 2, 2, 1)
    game = services.start_game(user, "beginner")
    game = services.make_step(game.pk, user, game.version, 13, 8)
    game = services.make_step(game.pk, user, game.version, 13, 11)
    assert game.turn == "dark" and game.dice == [2, 1] and held_computer_turns
    # Then a chosen position, as test_play_positions prepares one.
    position = light_on_the_bar_one_way_in()
    Game.objects.filter(pk=game.pk).update(position_id=position.position_id())
    game.refresh_from_db()
    w = words(game, language)
    page = open_page(browser, daphne_server, user, language, width)
    page.goto(f"/games/{game.pk}/")
    wait_idle(page)
    assert page.locator("#play-turn").inner_text() == w["computer_turn"]
    assert page.locator("#play-automatic").inner_text() == ""

    # It plays 13/10; you then roll 6-1, whose one play bar/18 is made for you.
    play = next(p for p in legal_plays(position.swapped(), Dice(2, 1)) if p.notation() == "13/10")
    fixed_dice(monkeypatch, 6, 1, 4, 3)
    assert services.finish_computer_turn(game.pk, game.version, play)
    game.refresh_from_db()
    assert game.last_turn["automatic"] and game.last_turn["notation"] == "bar/18"
    page.wait_for_function(
        "v => window.__shuanglu.state.version === v && window.__shuanglu.idle",
        arg=game.version,
        timeout=30_000,
    )
    computer = w["computer_played"] % {"dice": "2-1", "play": display_notation("13/10", "dark")}
    forced = w["auto_played"] % {"dice": "6-1", "play": "bar/18"}
    page.wait_for_function(
        "t => document.getElementById('play-live').textContent.includes(t)", arg=forced
    )
    said = live_text(page)
    assert computer in said and said.index(computer) < said.index(forced), "in the order played"
    assert page.evaluate("() => window.__shuanglu.animatedPlays") == 1, "its play was animated"
    # On screen: the note, the checker on 18, both plays in the list and marked.
    note = page.locator("#play-automatic")
    assert note.is_visible() and note.inner_text() == w["auto_note"] % {"what": forced}
    assert target(page, 18).get_attribute("aria-label") == w["point_mine"] % {"n": 18, "count": 1}
    rows = move_list(page)
    assert len(rows) == 3 and "2-1" in rows[1] and "bar/18" in rows[2] and "6-1" in rows[2]
    assert marks(page, "to", "light") == {"18"}
    assert no_sideways_scroll(page, width)

    # Reloaded, the page still says why the checker moved.
    page.reload()
    wait_idle(page)
    assert state(page)["last_turn"]["automatic"]
    assert page.locator("#play-automatic").inner_text() == w["auto_note"] % {"what": forced}
    page.wait_for_function(
        "t => document.getElementById('play-live').textContent.includes(t)", arg=forced
    )
    page.context.close()
