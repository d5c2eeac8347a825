"""Browser: a turn the site played for the person (its one legal play, with
"play forced moves for me" on) is animated after the computer's play and
said in words, in the page's language, and stays said on screen.

The computer's play and the person's forced play are made in one
transaction, so the page gets one state for two turns: it fetches the turn
in between and shows both. The game is prepared through the services with
fixed dice; the computer's turns are held and played here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games import services
from games.engine import Dice, Side, legal_plays
from games.steps import display_notation
from games.words.notation import notation_words
from tests.boards import board
from tests.browser.helpers import (
    SCREENS,
    fixed_dice,
    live_text,
    marks,
    move_list,
    no_sideways_scroll,
    open_game,
    set_prefs,
    state,
    target,
    wait_idle,
)
from tests.chinese import CJK

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# LIGHT: one on the bar, 14 at home; DARK: 19-23 made, 24 open, five outside.
LIGHT_ON_THE_BAR_ONE_WAY_IN = board(
    light={6: 5, 5: 5, 4: 4},
    light_bar=1,
    dark={19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 10: 3, 12: 2},
)


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
    # A chosen position: your 6-6 cannot enter, so you pass; the computer
    # rolls 2-1 (its turn held).
    position = LIGHT_ON_THE_BAR_ONE_WAY_IN
    fixed_dice(monkeypatch, 2, 1)
    game = services.start_game_from(user, "beginner", position, Side.LIGHT, dice=[6, 6])
    assert (game.turn, game.dice) == ("dark", [2, 1])
    assert held_computer_turns == [(game.pk, game.version)]
    page, w = open_game(browser, daphne_server, user, game, language, width)
    assert page.locator("#play-turn").inner_text() == w["computer_turn"]
    passed = w["auto_passed"] % {"dice": "6-6"}
    assert page.locator("#play-automatic").inner_text() == w["auto_note"] % {"what": passed}

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
    with translation.override(language):  # 吧台/18 on a Chinese page (issue 45)
        entered = notation_words("bar/18")
    # As the page's fmt writes it: no space left between 了 and 吧台.
    forced = re.sub(
        rf"([{CJK}]) +(?=[{CJK}])", r"\1", w["auto_played"] % {"dice": "6-1", "play": entered}
    )
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
    assert len(rows) == 3 and "2-1" in rows[1] and entered in rows[2] and "6-1" in rows[2]
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
