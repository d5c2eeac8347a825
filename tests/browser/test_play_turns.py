"""Browser: what the play page shows of each turn, in both languages, at 1280
and 375 px: the computer's opening roll and play, the last play of each side
marked on the board, the move list in the board's numbering, "thinking" only
while the Expert thinks, the status line after a step, the result over the
board.

Games are prepared through the services with fixed dice in this process;
the computer's turns are held (``held_computer_turns``) and played here, so
the page is caught at the moment each test needs. Assertions read the
screen: the SVG's dice and marks, the status line, the move list, the panel.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game
from games.steps import display_notation
from tests.boards import board
from tests.browser.helpers import (
    SCREENS,
    fixed_dice,
    live_text,
    marks,
    move_list,
    no_sideways_scroll,
    open_game,
    open_page,
    play_computer_turn,
    set_prefs,
    wait_idle,
    words,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}


def wait_live(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('play-live').textContent.includes(t)", arg=text
    )


@pytest.mark.parametrize(("language", "width"), SCREENS)
def test_the_computers_opening_roll_is_shown_played_announced_and_marked(
    browser: Any,
    daphne_server: str,
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, animation_speed="slow")
    # You 2, the computer 5: it starts, plays 5-2, then you roll 6-4.
    fixed_dice(monkeypatch, 2, 5, 6, 4)
    game = services.start_game(user, "beginner")
    assert held_computer_turns
    play = play_computer_turn(game, lambda p: p.notation() in ("13/8 13/11", "13/11 13/8"))
    shown = display_notation(play.notation(), "dark")
    assert shown.startswith("12/"), "in the board's numbering"
    w = words(game, language)

    page = open_page(browser, daphne_server, user, language, width, timeout=20_000)
    page.goto(f"/games/{game.pk}/")
    # Before its play is animated: the opening roll, yours left, its right.
    page.wait_for_function(
        """() => {
          const l = document.querySelectorAll('#board .b-die-light');
          const d = document.querySelectorAll('#board .b-die-dark');
          return l.length === 1 && d.length === 1 && l[0].dataset.value === '2'
            && d[0].dataset.value === '5'
            && l[0].getBoundingClientRect().x < d[0].getBoundingClientRect().x;
        }"""
    )
    page.wait_for_function("() => window.__shuanglu.idle && window.__shuanglu.animatedPlays === 1")
    opening = page.locator("#play-opening").inner_text()
    assert w["opening_roll"] % {"light": 2, "dark": 5} in opening
    assert w["computer_starts"] in opening
    wait_live(page, w["computer_opened"] % {"play": shown})
    assert w["you_rolled"] % {"dice": "6-4"} in live_text(page)
    assert page.locator("#play-turn").inner_text() == w["your_turn"]
    # Its play is marked where it left and where it arrived (display points).
    assert marks(page, "from", "dark") == {"12"}
    assert marks(page, "to", "dark") == {"17", "14"}
    rows = move_list(page)
    assert len(rows) == 1 and shown in rows[0] and w["side_dark"] in rows[0]
    assert "13/8" not in rows[0] and "13/8" not in live_text(page)
    dice = page.locator("#board .b-die-light")
    assert sorted(dice.evaluate_all("ds => ds.map((d) => d.dataset.value)")) == ["4", "6"]
    assert no_sideways_scroll(page, width)

    # A reload says and marks it again, without playing it again.
    page.reload()
    wait_idle(page)
    wait_live(page, w["computer_opened"] % {"play": shown})
    assert page.evaluate("() => window.__shuanglu.animatedPlays") == 0
    assert marks(page, "to", "dark") == {"17", "14"}
    assert w["opening_roll"] % {"light": 2, "dark": 5} in page.locator("#play-opening").inner_text()
    page.context.close()


# What the board shows at each frame drawn (a requestAnimationFrame loop,
# from before the page's scripts run): the person's dice, the computer's,
# where the computer's checkers stand, and how many of its plays were shown.
FRAMES_JS = """
window.__frames = [];
const frame = () => {
  const board = document.getElementById("board");
  const shuanglu = window.__shuanglu;
  if (board && shuanglu && board.querySelector(".b-die-light, .b-die-dark")) {
    const values = (sel) => [...board.querySelectorAll(sel)].map((d) => d.dataset.value).join(",");
    const dark = [...board.querySelectorAll(".b-checker.b-dark")]
      .map((c) => `${c.getAttribute("cx")}:${c.getAttribute("cy")}`).sort().join(" ");
    const seen = {
      light: values(".b-die-light"), dark: values(".b-die-dark"),
      checkers: dark, plays: shuanglu.animatedPlays,
    };
    const last = window.__frames[window.__frames.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(seen)) window.__frames.push(seen);
  }
  window.requestAnimationFrame(frame);
};
window.requestAnimationFrame(frame);
"""


@pytest.mark.parametrize(("language", "width"), SCREENS)
def test_a_page_opened_after_the_computers_opening_play_shows_the_opening_then_the_play(
    browser: Any,
    daphne_server: str,
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
    language: str,
    width: int,
) -> None:
    """The computer won the opening roll and played before the page opened
    (issue 32, item 13): from the first frame drawn the board shows the
    opening dice and the computer's checkers where they stood; its play is
    then played back step by step (the socket opening meanwhile draws
    nothing over it); only then the person's roll."""
    set_prefs(user, language=language, animation_speed="normal")
    # You 3, the computer 6: it starts and plays 6-3; then you roll 5-1.
    fixed_dice(monkeypatch, 3, 6, 5, 1)
    game = services.start_game(user, "beginner")
    play = play_computer_turn(game)
    w = words(game, language)
    page = open_page(browser, daphne_server, user, language, width, timeout=20_000)
    page.add_init_script(FRAMES_JS)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_function("() => window.__shuanglu.idle && window.__shuanglu.animatedPlays === 1")
    page.wait_for_timeout(300)  # a few frames of the person's roll
    frames = page.evaluate("() => window.__frames")
    final = frames[-1]
    assert (final["light"], final["dark"]) == ("5,1", "")
    # The first frame: the opening roll, yours left of its, and its checkers unmoved.
    first = frames[0]
    assert (first["light"], first["dark"], first["plays"]) == ("3", "6", 0)
    assert first["checkers"] != final["checkers"]
    # Every frame until the person's roll: the opening dice, while the checkers move.
    roll_at = next(i for i, f in enumerate(frames) if f["light"] == "5,1")
    opening = frames[:roll_at]
    assert all((f["light"], f["dark"]) == ("3", "6") for f in opening), opening
    assert {f["checkers"] for f in opening} >= {first["checkers"], final["checkers"]}
    assert len({f["checkers"] for f in opening}) >= len(play.steps) + 1, "step by step"
    assert opening[-1]["plays"] == 1
    assert all(f["light"] == "5,1" and f["checkers"] == final["checkers"] for f in frames[roll_at:])
    # And in words: the opening roll, and the computer's play in the board's numbering.
    assert w["opening_roll"] % {"light": 3, "dark": 6} in page.locator("#play-opening").inner_text()
    wait_live(page, w["computer_opened"] % {"play": display_notation(play.notation(), "dark")})
    assert no_sideways_scroll(page, width)
    page.context.close()


@pytest.mark.parametrize(("language", "width"), SCREENS)
def test_the_expert_is_thinking_only_until_its_play_and_both_plays_are_marked(
    browser: Any,
    daphne_server: str,
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, animation_speed="fast")
    # You 6, the computer 1: you play 8/2 6/5; it rolls 3-2; then you 5-4.
    fixed_dice(monkeypatch, 6, 1, 3, 2, 5, 4)
    game = services.start_game(user, "expert")
    game = services.make_step(game.pk, user, game.version, 8, 2)
    game = services.make_step(game.pk, user, game.version, 6, 5)
    assert game.turn == "dark" and held_computer_turns
    page, w = open_game(browser, daphne_server, user, game, language, width)
    turn_line = page.locator("#play-turn")
    assert turn_line.inner_text() == w["thinking"]
    assert "play-thinking" in (turn_line.get_attribute("class") or "")
    assert page.locator("#btn-hint").is_disabled(), "no hint on the computer's turn"
    assert marks(page, "to", "light") == {"2", "5"} and marks(page, "from", "light") == {"8", "6"}

    play = play_computer_turn(game)
    shown = display_notation(play.notation(), "dark")
    wait_live(page, w["computer_played"] % {"dice": "3-2", "play": shown})
    wait_idle(page)
    assert turn_line.inner_text() == w["your_turn"]
    assert "play-thinking" not in (turn_line.get_attribute("class") or "")
    assert page.locator("#btn-hint").is_enabled()
    arrived = {str(s["to"]) for s in page.evaluate("() => window.__shuanglu.state.last_turn.steps")}
    assert marks(page, "to", "dark") == arrived
    assert marks(page, "to", "light") == {"2", "5"}, "your last play stays marked"
    rows = move_list(page)
    assert len(rows) == 2
    assert w["side_light"] in rows[0] and "8/2 6/5" in rows[0] and "6-1" in rows[0]
    assert shown in rows[1] and "3-2" in rows[1]
    assert no_sideways_scroll(page, width)
    page.context.close()


@pytest.mark.parametrize(("language", "width"), SCREENS)
def test_the_status_line_drops_a_pick_once_the_step_is_made_or_refused(
    browser: Any,
    daphne_server: str,
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language, auto_end_turn=False)
    fixed_dice(monkeypatch, 6, 5)
    game = services.start_game(user, "beginner")
    page, w = open_game(browser, daphne_server, user, game, language, width)
    picked = w["picked"].split("%(")[0]
    page.locator('#board [data-point="24"]').click()
    wait_live(page, picked)
    version = page.evaluate("() => window.__shuanglu.state.version")
    page.locator('#board [data-point="18"]').click()
    page.wait_for_function("v => window.__shuanglu.state.version > v", arg=version)
    wait_live(page, w["you_moved"].split("%(")[0].strip())
    assert picked not in live_text(page)
    # Picked up, then put down where it cannot go: the reason, not the pick.
    page.locator('#board [data-point="13"]').click()
    wait_live(page, picked)
    page.locator('#board [data-point="14"]').click()
    page.wait_for_function("() => document.getElementById('play-refusal').textContent !== ''")
    page.wait_for_function(
        "p => !document.getElementById('play-live').textContent.includes(p)", arg=picked
    )
    page.context.close()


# LIGHT: one checker left, on its 1 point; DARK: all fifteen at home.
LAST_CHECKER_HOME = board(light={1: 1}, dark={24: 15})


@pytest.mark.parametrize(("language", "width"), SCREENS)
def test_the_result_is_over_the_board_with_review_and_new_game(
    browser: Any,
    daphne_server: str,
    user: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list[tuple[int, int]],
    language: str,
    width: int,
) -> None:
    set_prefs(user, language=language)
    game = services.start_game_from(user, "beginner", LAST_CHECKER_HOME, dice=[6, 5])
    page, w = open_game(browser, daphne_server, user, game, language, width)
    assert page.locator("#play-over").is_hidden()
    page.locator('#board [data-point="1"]').click()
    page.locator('#board [data-point="0"]').click()
    panel = page.locator("#play-over")
    panel.wait_for(state="visible")
    box = panel.bounding_box()
    assert box is not None
    assert 0 <= box["x"] and box["x"] + box["width"] <= width
    assert 0 <= box["y"] and box["y"] + box["height"] <= 800, "in the viewport"
    assert page.locator("#over-title").inner_text() == w["win"]
    assert page.locator("#over-kind").inner_text() == w["kind_gammon"]
    assert "2" in page.locator("#over-points").inner_text()
    review = page.locator("#over-review")
    assert review.is_visible() and review.get_attribute("href") == f"/learn/games/{game.pk}/review/"
    assert review.inner_text() == ("复盘" if language == "zh-hans" else "Review this game")
    again = page.locator("#over-new")
    assert again.inner_text() == ("再来一局" if language == "zh-hans" else "New game")
    # No hint once the game is over.
    assert page.locator("#btn-hint").is_hidden() and page.locator("#hint-panel").is_hidden()
    assert no_sideways_scroll(page, width)
    again.click()
    page.wait_for_url(lambda url: url.rstrip("/").split("/")[-1] not in ("", str(game.pk)))
    newest = Game.objects.filter(owner=user).latest("pk")
    assert newest.pk != game.pk and newest.tier == game.tier
    page.context.close()
