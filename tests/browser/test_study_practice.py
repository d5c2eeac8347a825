"""Browser: practise three positions from a real review with the keyboard only.

The person's game is a real one (the engine and the 1-ply evaluator, the
person playing the worst play each turn), reviewed by the real analysis at
1-ply. On the page, the arrow keys walk the board's points and Enter picks a
checker and its destination; the verdict, the reasons and the due count are
read off the screen.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.db import connections
from django.utils import translation
from playwright.sync_api import expect

from learning.models import PracticeItem
from learning.study import practice
from learning.words.study_strings import PRACTICE_STRINGS
from tests.browser import helpers as play
from tests.browser.helpers import Keyboard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def zh(key: str, **values: Any) -> str:
    with translation.override("zh-hans"):
        text = str(PRACTICE_STRINGS[key])
    return text % values if values else text


def test_three_positions_practised_with_the_keyboard(
    daphne_server: str, browser_page: Any, practice_user: Any
) -> None:
    page = browser_page
    play.sign_in(page, daphne_server, practice_user)
    due = PracticeItem.objects.filter(owner=practice_user).count()
    page.goto("/practice/")
    seen = []
    for n in range(3):
        assert f"{due - n}" in (page.locator("#practice-due").text_content() or "")
        data = json.loads(page.locator("#practice-item").text_content() or "{}")
        item = PracticeItem.objects.select_related("turn").get(pk=data["id"])
        assert data["position_id"] == item.position_id
        dice = f"{item.die1}-{item.die2}"
        # The page's script writes the task after load: wait for it.
        expect(page.locator("#pr-task")).to_have_text(zh("task", dice=dice), timeout=15_000)
        assert page.locator("#pr-board g.b-dice g.b-die").count() in (2, 4)
        keys = Keyboard(page)
        page.wait_for_function("() => document.querySelector('#pr-board').dataset.steps === '0'")
        best = item.turn.report["alternatives"][0]
        for i, (src, dst, *_hit) in enumerate(best["steps"]):
            keys.pick(int(src))
            keys.pick(int(dst))
            if i < len(best["steps"]) - 1:
                page.wait_for_function(
                    f"() => document.querySelector('#pr-board').dataset.steps === '{i + 1}'"
                )
        page.locator("#pr-verdict-title").filter(has_text=zh("best")).wait_for()
        assert page.locator("#pr-best").text_content() == zh("best_play", play=best["notation"])
        assert page.locator("#pr-best-reasons li").count() == len(best["reasons"])
        game_play = item.turn.report["played_candidate"]["notation"]
        assert game_play in (page.locator("#pr-game").text_content() or "")
        assert page.locator("#pr-again").text_content() == zh("again_tomorrow")
        seen.append(item.pk)
        page.keyboard.press("n")
        page.wait_for_load_state()
        if n < 2:
            page.locator("#practice-item").wait_for(state="attached")
            shown = "JSON.parse(document.querySelector('#practice-item').textContent).id"
            page.wait_for_function(f"() => {shown} !== {item.pk}")
    assert len(set(seen)) == 3
    page.locator("#practice-due").filter(has_text=str(due - 3)).wait_for()
    answered = PracticeItem.objects.filter(pk__in=seen)
    assert all(i.streak == 1 and i.right == 1 for i in answered)


def test_the_board_counts_no_steps_until_the_servers_turn_is_here(
    daphne_server: str, browser_page: Any, practice_user: Any
) -> None:
    # The first step request (the roll's allowed steps) is held back: until it
    # is answered the board has nothing to pick from, and says no count.
    page = browser_page
    play.sign_in(page, daphne_server, practice_user)
    held: list[Any] = []
    page.route("**/analysis/step", lambda route: held.append(route))
    page.goto("/practice/")
    page.wait_for_function("() => document.querySelector('#pr-task').textContent !== ''")
    expect(page.locator("#pr-board")).not_to_have_attribute("data-steps", "0")
    assert page.evaluate("() => 'steps' in document.querySelector('#pr-board').dataset") is False
    page.wait_for_timeout(200)
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_function("() => document.querySelector('#pr-board').dataset.steps === '0'")


@pytest.fixture
def cube_user(user: Any, held_reviews: list[int]) -> Any:
    """The person's two wrong cube decisions of a reviewed money game."""
    from tests.learning.conftest import cube_game_reviewed

    games = []

    def run() -> None:
        try:
            games.append(cube_game_reviewed(user).pk)
        finally:
            connections.close_all()

    job = threading.Thread(target=run)  # the review broadcasts through async_to_sync
    job.start()
    job.join()
    assert held_reviews == games  # analysed there, at one ply
    practice.add_from_reviews(user)
    assert PracticeItem.objects.filter(owner=user, phase="cube").count() == 2
    return user


def test_cube_decisions_practised_by_key_and_by_button(
    daphne_server: str, browser_page: Any, cube_user: Any
) -> None:
    from learning.words.cube import action_label

    page = browser_page
    play.sign_in(page, daphne_server, cube_user)
    page.goto("/practice/?phase=cube")
    # The person's double at the start: the board as it was, the cube in the middle.
    expect(page.locator("#pr-task")).to_have_text(zh("task_double"), timeout=15_000)
    cube = page.locator("#pr-board g.b-cube")
    expect(cube).to_have_attribute("data-value", "1")
    expect(cube).to_have_attribute("data-owner", "centre")
    assert page.locator("#pr-board g.b-dice g.b-die").count() == 0
    expect(page.locator("#pr-setting")).to_have_text("现金局，使用雅各比规则；倍数骰 1 在中间。")
    page.locator("body").press("r")  # roll without doubling: right
    with translation.override("zh-hans"):
        no_double, double, take = (action_label(a) for a in ("no_double", "double", "take"))
    expect(page.locator("#pr-verdict-title")).to_have_text(zh("cube_best", action=no_double))
    expect(page.locator("#pr-best")).to_have_text("正确的倍数骰决策：不加倍，接受。")
    assert page.locator("#pr-best-reasons li").count() >= 3
    assert f"「{double}」" in (page.locator("#pr-game").text_content() or "")
    expect(page.locator('.pr-action[data-action="no_double"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    page.keyboard.press("n")
    # The computer's redouble to 4 in a strong position: the person answers.
    expect(page.locator("#pr-task")).to_have_text(zh("task_take"), timeout=15_000)
    expect(page.locator("#pr-board g.b-cube")).to_have_attribute("data-offered", "dark")
    expect(page.locator("#pr-board g.b-cube")).to_have_attribute("data-value", "4")
    page.get_by_role("button", name=take).click()  # a take: wrong, a pass is right
    title = page.locator("#pr-verdict-title")
    expect(title).to_have_attribute("data-right", "false")
    assert (title.text_content() or "").startswith(f"还不够好：「{take}」")
    expect(page.locator("#pr-best")).to_have_text("正确的倍数骰决策：放弃。")
    expect(page.locator("#pr-again")).to_have_text(zh("again_tomorrow"))
    rows = PracticeItem.objects.filter(owner=cube_user, phase="cube").order_by("pk")
    assert [(i.answers, i.right) for i in rows] == [(1, 1), (1, 0)]
