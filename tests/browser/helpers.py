"""What the browser tests do on a page, shared by them: sign in, open a page
in a language and width, wait for the play module, read its state, click or
key a step. Fixtures are in ``tests/browser/conftest.py``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.utils import translation

from games import services
from games.engine import legal_plays
from games.live.state import build_state
from games.models import Game
from games.words.play import board_words
from learning.review import game as review
from tests.conftest import dark_turn

# The page is ready for the person: nothing in flight, nothing animating.
READY_JS = """() => {
  const s = window.__shuanglu;
  if (!s || !s.idle) return false;
  const st = s.state;
  return st.status === 'finished' || st.status === 'failed'
    || (st.turn === 'light' && (st.allowed.length > 0 || st.can_end_turn));
}"""


def set_prefs(user: Any, **fields: Any) -> None:
    from accounts.models import Preferences

    Preferences.objects.update_or_create(user=user, defaults=fields)


def sign_in(page: Any, base_url: str, user: Any) -> None:
    """Give the browser a real session for ``user`` (made by Django's client)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}]
    )


def start_game(page: Any, tier: str = "beginner") -> int:
    """Start a game from the lobby form; returns its id once the board is live."""
    page.goto("/")
    page.check(f'input[name="tier"][value="{tier}"]')
    page.locator('form[action$="/games/new/"] button[type="submit"]').click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    wait_connected(page)
    return int(page.locator("#play").get_attribute("data-game"))


def wait_connected(page: Any) -> None:
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle", timeout=15_000)


def wait_ready(page: Any, timeout: float = 60_000) -> dict[str, Any]:
    page.wait_for_function(READY_JS, timeout=timeout)
    return state(page)


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.__shuanglu.state")


def target(page: Any, where: int) -> Any:
    return page.locator(f'#board [data-point="{where}"]')


def click_step(page: Any, src: int, dst: int) -> dict[str, Any]:
    """Click a checker, then its destination; wait for the new state."""
    version = state(page)["version"]
    target(page, src).click()
    target(page, dst).click()
    page.wait_for_function(
        "v => window.__shuanglu.state.version > v && window.__shuanglu.idle", arg=version
    )
    return state(page)


def play_allowed_step(page: Any) -> dict[str, Any]:
    st = state(page)
    step = st["allowed"][0]
    return click_step(page, step["from"], step["to"])


SCREENS = [("zh-hans", 1280), ("zh-hans", 375), ("en", 1280), ("en", 375)]


def fixed_dice(monkeypatch: pytest.MonkeyPatch, *values: int) -> None:
    rolls: Iterator[int] = iter(values)
    monkeypatch.setattr(services.dice, "roll_die", lambda: next(rolls))


def wait_idle(page: Any) -> None:
    page.wait_for_function("() => window.__shuanglu && window.__shuanglu.idle")


def open_game(
    browser: Any, base_url: str, user: Any, game: Game, language: str, width: int
) -> tuple[Any, dict[str, Any]]:
    """``game``'s play page, signed in, its module idle; and the board's words."""
    page = open_page(browser, base_url, user, language, width, timeout=20_000)
    page.goto(f"/games/{game.pk}/")
    wait_idle(page)
    return page, words(game, language)


def live_text(page: Any) -> str:
    return str(page.locator("#play-live").inner_text())


def marks(page: Any, kind: str, side: str) -> set[str]:
    found = page.evaluate(
        "sel => [...document.querySelectorAll(sel)].map((m) => m.dataset.last)",
        f"#board .b-last-{kind}.b-last-{side}",
    )
    return set(found)


def move_list(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#play-moves-list > li").all_inner_texts()]


def no_sideways_scroll(page: Any, width: int) -> bool:
    return int(page.evaluate("() => document.documentElement.scrollWidth")) <= width


def play_computer_turn(game: Game, choose: Any = None) -> Any:
    """Plays the held computer turn here, as the worker would; returns the play."""
    game.refresh_from_db()
    begun = dark_turn(game.pk, game.version)
    assert begun is not None, "the computer is on turn"
    position, rolled = begun
    plays = legal_plays(position, rolled)
    play = next((p for p in plays if choose(p)), plays[0]) if choose else plays[0]
    assert services.finish_computer_turn(game.pk, game.version, play)
    return play


def analyse_then_close(game_id: int) -> None:
    """The review job on this thread; its connection goes back to the pool."""
    try:
        review.run_analysis(game_id)
    finally:
        connections.close_all()


LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
DATA = Path(__file__).resolve().parents[1] / "data"


def upload(page: Any, name: str, mine: str) -> str:
    """Import ``name`` through the history page's form; the message it shows."""
    page.goto("/learn/history/")
    page.locator('.history-import input[type="file"]').set_input_files(str(DATA / name))
    page.locator(f'.history-import input[name="mine"][value="{mine}"]').check()
    page.locator('.history-import button[type="submit"]').click()
    page.wait_for_load_state()
    return page.locator(".messages li").first.text_content() or ""


def open_page(
    browser: Any, base_url: str, user: Any, language: str, width: int, timeout: float = 15_000
) -> Any:
    """A signed-in page in ``language`` at ``width`` pixels."""
    context = browser.new_context(
        base_url=base_url, locale=LOCALES[language], viewport={"width": width, "height": 800}
    )
    context.set_default_timeout(timeout)
    page = context.new_page()
    sign_in(page, base_url, user)
    return page


WAIT_MS = 45_000


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


def fits(page: Any, selector: str, width: int) -> bool:
    """Drawn inside the page's width, and the page does not scroll sideways."""
    box = page.locator(selector).bounding_box()
    wide = int(page.evaluate("() => document.documentElement.scrollWidth"))
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width and wide <= width


class Keyboard:
    """Moves the board's focus with arrow keys, as a person would. ``board``
    (a selector) is focused on its point 24, the tab stop; None when the page
    puts the focus there itself (the course's tasks)."""

    def __init__(self, page: Any, board: str | None = "#pr-board") -> None:
        self.page = page
        self.reset()
        if board is not None:
            page.locator(f'{board} [data-point="24"]').focus()

    def reset(self) -> None:
        self.where, self.row = 24, TOP

    def go(self, where: int) -> None:
        if where not in self.row:
            self.page.keyboard.press("ArrowDown" if self.row is TOP else "ArrowUp")
            other = BOTTOM if self.row is TOP else TOP
            self.where = other[self.row.index(self.where)]  # the same column
            self.row = other
        step = self.row.index(where) - self.row.index(self.where)
        for _ in range(abs(step)):
            self.page.keyboard.press("ArrowRight" if step > 0 else "ArrowLeft")
        self.where = where

    def pick(self, where: int) -> None:
        self.go(where)
        self.page.keyboard.press("Enter")


def words(game: Game, language: str) -> dict[str, Any]:
    with translation.override(language):
        return board_words(game)


# The board's targets in screen order (home board bottom right), as the
# arrow keys walk them: a column holds one point of each row.
TOP = [13, 14, 15, 16, 17, 18, 25, 19, 20, 21, 22, 23, 24, 0]


BOTTOM = [12, 11, 10, 9, 8, 7, 25, 6, 5, 4, 3, 2, 1, 0]
