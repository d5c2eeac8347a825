"""Browser: a new guest goes through every lesson of 学棋 on the real board,
sees each lesson's stars and the next lesson, signs up and still sees them.

Real daphne and Chromium. In Chinese at 1280 px the person uses the mouse
and makes one wrong step (its reason read off the screen, two stars for that
lesson); in English at 375 px the keyboard only (arrow keys, Enter, Tab) and
one wrong pip count. The steps are each task's intended ones
(``learning.course.lessons``); the answers to questions are the engine's.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from accounts.models import User
from games.engine import Refusal, RefusalCode, Turn
from games.words.play import board_names
from games.words.refusals import describe_refusal
from learning.course import check
from learning.course.lessons import LESSONS
from learning.course.models import LessonProgress
from learning.course.quiz import QUIZ_SIZE, lesson_tasks
from learning.course.shapes import QUESTIONS, Goal, Task
from learning.course.strings import course_strings
from tests.browser.helpers import LOCALES, Keyboard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The lesson whose first quiz task gets a wrong step, by mouse and by keyboard.
WRONG_IN_QUIZ = {False: "blocked", True: "both-dice"}


def words(language: str) -> dict[str, Any]:
    with translation.override(language):
        return {**course_strings(), **{k: str(v) for k, v in board_names().items()}}


def text(language: str, lazy: Any) -> str:
    with translation.override(language):
        return str(lazy)


def wait_steps(page: Any, n: int) -> None:
    page.wait_for_function(
        f"() => document.querySelector('#ls-board').dataset.steps === '{n}'"
        " && document.querySelector('#ls-board').dataset.ready === 'true'"
    )


def step(page: Any, keys: Keyboard | None, src: int, dst: int) -> None:
    for where in (src, dst):
        if keys is None:
            page.locator(f'#ls-board [data-point="{where}"]').click()
        else:
            keys.pick(where)


def play_task(page: Any, keys: Keyboard | None, task: Task) -> None:
    wait_steps(page, 0)
    for i, (src, dst) in enumerate(task.solution):
        step(page, keys, src, dst)
        if i < len(task.solution) - 1:
            wait_steps(page, i + 1)


def answer_task(page: Any, keys: Keyboard | None, task: Task, language: str) -> None:
    right = check.right_answer(task)
    if task.goal is Goal.COUNT:
        if keys is None:
            page.locator("#ls-answer").fill(right)
            page.locator("#ls-count-form button").click()
        else:
            expect(page.locator("#ls-answer")).to_be_focused()
            page.keyboard.type(right)
            page.keyboard.press("Enter")
        return
    with translation.override(language):
        label = dict(check.choices(task))[right]
    button = page.locator("#ls-choices").get_by_role("button", name=label, exact=True)
    if keys is None:
        button.click()
        return
    tab_to(page, button)
    page.keyboard.press("Enter")


def tab_to(page: Any, target: Any) -> None:
    """Press Tab until ``target`` has the focus (a few presses at most)."""
    for _ in range(8):
        if target.evaluate("node => node === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(target).to_be_focused()


def next_task(page: Any, keys: Keyboard | None) -> None:
    button = page.locator("#ls-next-task")
    expect(button).to_be_visible()
    if keys is None:
        button.click()
    else:
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
        keys.reset()


def wrong_step(page: Any, keys: Keyboard | None, language: str) -> None:
    """Lesson 1's first task: 13 to 19 goes backwards; the reason is shown."""
    wait_steps(page, 0)
    step(page, keys, 13, 19)
    with translation.override(language):
        reason = describe_refusal(Refusal(RefusalCode.WRONG_DIRECTION, {"src": 13, "dst": 19}))
    expect(page.locator("#ls-error")).to_have_text(reason)
    misses = words(language)["tries"] % {"n": 1}
    expect(page.locator("#ls-count")).to_contain_text(misses)
    wait_steps(page, 0)


def wrong_quiz_step(page: Any, keys: Keyboard | None, task: Task, language: str) -> None:
    """A drawn quiz task's wrong step (the engine's refusal for it made at
    drawing time): its reason is shown and the board stays as it was."""
    wrong = task.wrong[0]
    wait_steps(page, 0)
    turn = Turn(check.task_position(task), check.task_dice(task))
    for src, dst in wrong.steps[:-1]:
        step(page, keys, src, dst)
        turn = turn.step(src, dst)
    refusal = turn.refusal(*wrong.steps[-1])
    assert refusal is not None and refusal.code is wrong.code
    step(page, keys, *wrong.steps[-1])
    with translation.override(language):
        expect(page.locator("#ls-error")).to_have_text(describe_refusal(refusal))
    wait_steps(page, 0)


def wrong_count(page: Any, keys: Keyboard | None, task: Task, language: str) -> None:
    wrong = str(int(check.right_answer(task)) + 2)
    if keys is None:
        page.locator("#ls-answer").fill(wrong)
        page.locator("#ls-count-form button").click()
    else:
        tab_to(page, page.locator("#ls-answer"))
        page.keyboard.type(wrong)
        page.keyboard.press("Enter")
    with translation.override(language):
        message = check.miss_words(task, wrong)
    expect(page.locator("#ls-error")).to_have_text(message)
    if keys is None:
        page.locator("#ls-answer").fill("")
    else:
        page.keyboard.press("Control+a")
        page.keyboard.press("Backspace")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "width", "keyboard"), [("zh-hans", 1280, False), ("en", 375, True)]
)
def test_a_new_guest_finishes_every_lesson_then_signs_up_and_keeps_the_stars(
    browser: Any, daphne_server: str, language: str, width: int, keyboard: bool
) -> None:
    context = browser.new_context(
        base_url=daphne_server, locale=LOCALES[language], viewport={"width": width, "height": 900}
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    w = words(language)
    keys = Keyboard(page, board=None) if keyboard else None

    page.goto("/")
    with translation.override(language):
        offer = translation.gettext("First time? Learn to move in five minutes")
    page.get_by_role("link", name=offer).click()
    page.wait_for_url("**/learn/")
    assert page.locator(".course-lesson[data-stars='0']").count() == len(LESSONS)
    first = page.locator("#course-next")
    expect(first).to_contain_text(text(language, LESSONS[0].title))
    if keyboard:
        first.focus()
        page.keyboard.press("Enter")
    else:
        first.click()

    expected_stars = {}
    for n, lesson in enumerate(LESSONS):
        page.wait_for_url(f"**/learn/lesson/{lesson.slug}/")
        expect(page.locator("#lesson-title")).to_have_text(text(language, lesson.title))
        intro = page.locator(".lesson-intro p").first
        expect(intro).to_have_text(text(language, lesson.intro[0]))
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if keys is not None:
            page.locator('#ls-board [data-point="24"]').focus()  # the board's tab stop
            keys.reset()
        misses = 0
        # The run's quiz follows the lesson's tasks, drawn from the run's seed.
        seed = LessonProgress.objects.get(owner__is_guest=True, lesson=lesson.slug).seed
        tasks = lesson_tasks(lesson, seed)
        for i, task in enumerate(tasks):
            expect(page.locator("#ls-prompt")).to_have_text(text(language, task.prompt))
            if task.dice:
                dice = w["dice"] % {"dice": f"{task.dice[0]}-{task.dice[1]}"}
                expect(page.locator("#ls-dice")).to_have_text(dice)
            if n == 0 and i == 0 and not keyboard:
                label = w["point_mine"] % {"n": 24, "count": 2}
                target = page.locator('#ls-board [data-point="24"]')
                expect(target).to_have_attribute("aria-label", label)
                wrong_step(page, keys, language)
                misses += 1
            if task.goal is Goal.COUNT and i == 0 and keyboard:
                wrong_count(page, keys, task, language)
                misses += 1
            if i >= len(lesson.tasks):  # the run's quiz: fresh positions
                where = w["quiz_of"] % {"n": i - len(lesson.tasks) + 1, "total": QUIZ_SIZE}
                expect(page.locator("#ls-count")).to_contain_text(where)
            if i == len(lesson.tasks) and lesson.slug == WRONG_IN_QUIZ[keyboard]:
                wrong_quiz_step(page, keys, task, language)
                misses += 1
            if task.goal is Goal.TAKE:  # the computer's double, offered on the board
                cube = page.locator("#ls-board g.b-cube")
                expect(cube).to_have_attribute("data-offered", "dark")
            if task.goal in QUESTIONS:
                answer_task(page, keys, task, language)
            else:
                play_task(page, keys, task)
            expect(page.locator("#ls-right")).not_to_be_empty()
            if task.why:
                expect(page.locator("#ls-reasons li")).to_have_text([text(language, task.why)])
            if i < len(tasks) - 1:
                next_task(page, keys)
        stars = 3 if misses == 0 else 2
        expected_stars[lesson.slug] = stars
        finished = page.locator("#ls-finished")
        expect(finished).to_be_visible()
        expect(page.locator("#ls-finished-title")).to_have_text(w["finished"] % {"stars": stars})
        expect(page.locator("#ls-stars")).to_have_text("★" * stars + "☆" * (3 - stars))
        after = page.locator("#ls-next-lesson")
        expect(after).to_have_count(1 if n + 1 < len(LESSONS) else 0)
        if n + 1 < len(LESSONS):
            expect(after).to_contain_text(text(language, LESSONS[n + 1].title))
            if keyboard:
                expect(after).to_be_focused()
                page.keyboard.press("Enter")
            else:
                after.click()

    page.goto("/learn/")
    for slug, stars in expected_stars.items():
        row = page.locator(f".course-lesson[data-lesson='{slug}']")
        expect(row).to_have_attribute("data-stars", str(stars))
        expect(row.locator(".stars")).to_have_text("★" * stars + "☆" * (3 - stars))
    with translation.override(language):
        done = translation.gettext("You have finished every lesson.")
    expect(page.locator("#course-done-title")).to_have_text(done)
    with translation.override(language):
        first_game = translation.gettext("Play a first game at Beginner")
    expect(page.locator("#course-done").get_by_role("button", name=first_game)).to_be_visible()
    assert page.locator("#course-done input[name=tier]").get_attribute("value") == "beginner"
    assert page.locator("#course-done a").get_attribute("href") == "/practice/"
    assert page.locator("#course-next").count() == 0

    guest = User.objects.get()
    assert guest.is_guest
    page.goto("/account/signup/")
    page.locator("#id_username").fill("lin")
    page.locator("#id_email").fill("lin@example.com")
    page.locator("#id_password1").fill("Shuang-lu-2026!")
    page.locator("#id_password2").fill("Shuang-lu-2026!")
    page.locator("form.account-form button[type=submit]").click()
    page.wait_for_url("**/account/")
    page.goto("/learn/")
    for slug, stars in expected_stars.items():
        row = page.locator(f".course-lesson[data-lesson='{slug}']")
        expect(row).to_have_attribute("data-stars", str(stars))
    named = User.objects.get()
    assert (named.pk, named.username, named.is_guest) == (guest.pk, "lin", False)
    rows = dict(LessonProgress.objects.filter(owner=named).values_list("lesson", "stars"))
    assert rows == expected_stars
    context.close()
