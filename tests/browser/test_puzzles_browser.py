"""Browser: 练习题 as a new guest, in Chinese and English, on a desktop and
a 375 px phone. The guest solves a puzzle with the mouse (on the phone, a
finger's taps) and fails one with the keyboard (its loss said in the
puzzle's unit), sees the rating move once per puzzle (a second look changes
nothing), trains a theme, finds the dashboard's weakest themes after a
reviewed game of their own, and retries that game's biggest error from its
review.
The puzzles are a small bank made here (tests/learning/fixtures_puzzles.py),
the game a real one reviewed at 1-ply.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest
from django.db import connections
from django.utils import translation

from accounts.models import User
from games.engine import Dice, Position, parse_play
from learning.models import TurnAnalysis
from learning.puzzles.labels import page_strings
from learning.puzzles.models import Puzzle, PuzzleRating
from learning.review import game as review
from learning.words.unit import unit_name
from tests.browser.helpers import Keyboard
from tests.learning.conftest import RACE, one_ply, play_out, worst
from tests.learning.fixtures_puzzles import HITTABLE, START, checker_puzzle, only

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 740}}
LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}


def words(language: str) -> dict[str, str]:
    with translation.override(language):
        return {k: str(v) for k, v in page_strings().items()}


def unit(language: str, kind: str) -> str:
    with translation.override(language):
        return unit_name(kind)


def shown(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(page.locator("#puzzle-data").text_content() or "{}")
    return data


def steps(puzzle_id: int, best: bool) -> list[tuple[int, int]]:
    p = Puzzle.objects.get(pk=puzzle_id)
    row = p.ranking[0] if best else p.ranking[-1]
    play = parse_play(Position.from_position_id(p.position_id), Dice(p.die1, p.die2), row[0])
    return [(s.src, s.dst) for s in play.steps]


def play_by(
    page: Any, moves: list[tuple[int, int]], keys: Keyboard | None, touch: bool = False
) -> None:
    """The play's steps by the keyboard (``keys``), a finger (``touch``) or the mouse."""
    page.wait_for_function("() => document.querySelector('#pz-board').dataset.steps === '0'")
    for i, (src, dst) in enumerate(moves):
        for where in (src, dst):
            point = page.locator(f'#pz-board [data-point="{where}"]')
            if keys is not None:
                keys.pick(where)
            elif touch:
                point.tap()
            else:
                point.click()
        if i < len(moves) - 1:
            page.wait_for_function(
                f"() => document.querySelector('#pz-board').dataset.steps === '{i + 1}'"
            )


def reviewed_game(user: Any) -> int:
    game = play_out(user, RACE, seed=3, light_choice=worst)

    def run() -> None:
        try:
            review.run_analysis(game.pk, rank=one_ply)
        finally:
            connections.close_all()

    job = threading.Thread(target=run)  # the job broadcasts through async_to_sync
    job.start()
    job.join()
    return game.pk


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", list(LOCALES))
def test_a_new_guest_solves_fails_trains_and_retries(
    browser: Any, daphne_server: str, held_reviews: list[int], language: str, size: str
) -> None:
    only()
    easy = checker_puzzle(START, (3, 1), key="b:start", rating=1500)
    hard = checker_puzzle(
        HITTABLE, (3, 1), key="b:hit", rating=1500, tags=" phase:middle hit_or_build "
    )
    checker_puzzle(START, (6, 5), key="b:run", rating=1500, tags=" phase:opening escape ")
    S = words(language)
    touch = size == "phone"  # the phone's finger: a tap on each point
    context = browser.new_context(
        base_url=daphne_server,
        locale=LOCALES[language],
        viewport=SIZES[size],
        has_touch=touch,
        is_mobile=touch,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(f"/puzzles/{easy.pk}/")
        guest = User.objects.get()
        assert guest.is_guest
        page.locator("#pz-task").filter(has_text=S["task"] % {"dice": "3-1"}).wait_for()
        play_by(page, steps(easy.pk, best=True), keys=None, touch=touch)  # mouse or finger
        page.locator("#pz-verdict-title[data-solved='true']").wait_for()
        change = page.locator("#pz-change").text_content() or ""
        assert re.search(r"1500 → 1\d\d\d", change), change
        after_first = PuzzleRating.objects.get(user=guest).rating
        assert after_first > 1500
        assert page.locator("#pz-best-reasons li").count() >= 1
        assert page.locator("#pz-rollout").text_content()

        # A second look at the same puzzle changes nothing.
        page.goto(f"/puzzles/{easy.pk}/")
        page.locator("#pz-next").wait_for()
        refused = page.evaluate(
            """async (id) => {
                const token = document.querySelector('[name=csrfmiddlewaretoken]').value;
                const r = await fetch(`/puzzles/${id}/answer`, {method: 'POST',
                  headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
                  body: JSON.stringify({steps: [[8, 5], [6, 5]]})});
                return [r.status, (await r.json()).message];
            }""",
            easy.pk,
        )
        assert refused[0] == 409 and refused[1]
        assert PuzzleRating.objects.get(user=guest).rating == after_first

        # The keyboard, a wrong play: the rating goes down once.
        page.goto(f"/puzzles/{hard.pk}/")
        keys = Keyboard(page, "#pz-board")
        play_by(page, steps(hard.pk, best=False), keys=keys)
        title = page.locator("#pz-verdict-title[data-solved='false']")
        title.wait_for()
        assert unit(language, "cubeless") in (title.text_content() or "")  # the bank's: no cube
        assert int(page.locator("#pz-change").get_attribute("data-diff") or "0") < 0
        assert page.locator("#pz-mine-reasons li").count() >= 1
        assert PuzzleRating.objects.get(user=guest).rating < after_first

        # Training a theme: the filter keeps to it.
        page.goto("/puzzles/")
        page.select_option("#pz-theme", "escape")
        page.locator("form.practice-filter button[type=submit]").click()
        page.wait_for_url(re.compile(r".*theme=escape.*"))
        assert shown(page)["tags"][0]["key"] == "escape"
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"] + 1

        # A reviewed game of the guest's own: the weakest themes, then 再试一次.
        game_id = reviewed_game(guest)
        page.goto("/puzzles/themes/")
        assert page.locator("#weakest li a").count() >= 1
        page.locator("#weakest li a").first.click()
        page.wait_for_url(re.compile(r".*/puzzles/\?(theme|phase)=.*"))
        page.goto(f"/learn/games/{game_id}/review/")
        page.locator("#review-retry a").click()
        page.wait_for_url(re.compile(rf".*/puzzles/retry/{game_id}/.*"))
        data = shown(page)
        assert data["count"] >= 1
        page.locator("#pz-task").filter(
            has_text=S["task"] % {"dice": "-".join(map(str, data["dice"]))}
        ).wait_for()
        row = TurnAnalysis.objects.select_related("turn").get(pk=data["id"])
        turn = row.turn
        best = parse_play(
            Position.from_position_id(turn.position_before),
            Dice(turn.die1, turn.die2),
            row.report["alternatives"][0]["notation"],
        )
        play_by(page, [(s.src, s.dst) for s in best.steps], keys=None, touch=touch)
        page.locator("#pz-verdict-title[data-solved='true']").wait_for()
        assert unit(language, "cubeless") in (page.locator("#pz-rollout").text_content() or "")
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"] + 1
    finally:
        context.close()
