"""A beginner walking 学棋 in a browser: the clicks, taps and answers of each
task, the mistakes the issue saw beginners make, and what was read and done
(to hold the lobby's time promise to ``learning.course.pace``). Used by
tests/browser/test_course_browser.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation

from learning.course import answers, check, clicks
from learning.course.pace import acting_seconds, reading_seconds
from learning.course.shapes import NUMBERS, QUESTIONS, Goal, Task
from learning.course.strings import course_strings

# A Latin letter in a Chinese answer: only the brief's own term "pip 数" may have them.
LATIN = re.compile(r"[A-Za-z]")


@dataclass
class Walk:
    """One walk through the course: the page, touch or mouse, and the tally."""

    page: Any
    touch: bool
    texts: list[str] = field(default_factory=list)
    moves: int = 0
    answers: int = 0
    mistakes: int = 0

    def words(self) -> dict[str, Any]:
        with translation.override("zh-hans"):
            return course_strings()

    def hit(self, where: int) -> None:
        target = self.page.locator(f'#ls-board [data-point="{where}"]')
        if self.touch:
            target.tap()
        else:
            target.click()

    def press(self, locator: Any) -> None:
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def wait_steps(self, n: int) -> None:
        self.page.wait_for_function(
            "n => { const b = document.querySelector('#ls-board');"
            " return b.dataset.steps === String(n) && b.dataset.ready === 'true'; }",
            arg=n,
        )

    def read(self, selector: str) -> None:
        """What the person reads on the screen, for the pace."""
        for text in self.page.locator(selector).all_inner_texts():
            if text.strip():
                self.texts.append(text)

    def minutes(self) -> float:
        acting = acting_seconds(self.moves, self.answers, self.mistakes)
        return (reading_seconds(self.texts) + acting) / 60

    # --- what a task asks ----------------------------------------------------------------

    def play(self, task: Task, clicks_made: list[tuple[int, int]]) -> None:
        """Click ``clicks_made`` (a checker, then its point) on the task's
        board, each far click waiting for the steps the server makes of it."""
        position, dice = check.task_position(task), check.task_dice(task)
        for i, (src, dst) in enumerate(clicks_made):
            self.hit(src)
            self.hit(dst)
            self.moves += 1
            made = len(clicks.expand(position, dice, [*clicks_made[: i + 1]]))
            if i < len(clicks_made) - 1:
                self.wait_steps(made)

    def answer(self, task: Task, value: str | None = None) -> None:
        value = answers.right_answer(task) if value is None else value
        self.answers += 1
        if task.goal in NUMBERS:
            self.page.locator("#ls-answer").fill(value)
            self.press(self.page.locator("#ls-count-form button"))
            return
        with translation.override("zh-hans"):
            label = dict(answers.choices(task))[value]
        self.press(self.page.locator("#ls-choices").get_by_role("button", name=label, exact=True))

    def solve(self, task: Task) -> None:
        if task.goal in QUESTIONS:
            self.answer(task)
        else:
            self.wait_steps(0)
            self.play(task, list(task.solution))

    # --- what the screen must show -------------------------------------------------------

    def in_view(self, selector: str) -> None:
        """At 375 px the words after a move are on the screen, not below it."""
        box = self.page.locator(selector).bounding_box()
        height = self.page.viewport_size["height"]
        assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= height, (
            selector,
            box,
        )

    def no_latin(self, selector: str) -> None:
        for text in self.page.locator(selector).all_inner_texts():
            assert not LATIN.search(text.replace("pip", "")), text


def is_show(task: Task) -> bool:
    return task.goal is Goal.SHOW
