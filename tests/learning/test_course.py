"""学棋: every lesson's tasks played through the engine, the refusal codes
the play page can give each taught by a lesson, and the pages and the check
endpoint through the real URLs (a guest's stars kept at sign-up)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from ai_worker import candidates
from ai_worker.ranking import default_rank
from games.engine import (
    ROLLS,
    Display,
    IllegalStepError,
    Position,
    RefusalCode,
    Turn,
    legal_plays,
    parse_play,
)
from games.words.refusals import describe_refusal
from learning.course import check
from learning.course.lessons import LESSONS
from learning.course.lessons_strategy import CUBE, HABITS, OPENINGS
from learning.course.models import LessonProgress
from learning.course.progress import stars_for
from learning.course.quiz import MAKERS, QUIZ_SIZE, lesson_tasks, quiz
from learning.course.quiz_questions import CUBE_GAP, PICK_GAP
from learning.course.shapes import QUESTIONS, Goal, Lesson, Task
from tests.chinese import en, zh

PLAY_TASKS = [
    pytest.param(t, id=f"{lesson.slug}-{i + 1}")
    for lesson in LESSONS
    for i, t in enumerate(lesson.tasks)
    if t.goal not in QUESTIONS
]
QUESTION_TASKS = [
    pytest.param(t, id=f"{lesson.slug}-{i + 1}")
    for lesson in LESSONS
    for i, t in enumerate(lesson.tasks)
    if t.goal in QUESTIONS
]
WRONG_STEPS = [
    pytest.param(t, w, id=f"{lesson.slug}-{i + 1}-{w.code}")
    for lesson in LESSONS
    for i, t in enumerate(lesson.tasks)
    for w in t.wrong
]


def missing_plays(task: Task) -> list[tuple[Task, Any]]:
    """The legal plays of ``task`` that do not reach its goal."""
    position, dice = check.task_position(task), check.task_dice(task)
    missing = []
    for play in legal_plays(position, dice):
        turn = Turn(position, dice)
        for step in play.steps:
            turn = turn.step(step.src, step.dst, step.die)
        walked = {
            "result_id": play.result.position_id(),
            "steps": [{"hit": s.hit} for s in play.steps],
        }
        if not check.reaches_goal(task, position, dice, walked):
            missing.append((task, play))
    return missing


MISSES = [
    pytest.param(t, play, id=f"{play.notation()}")
    for lesson in LESSONS
    for t in lesson.tasks
    if t.goal not in QUESTIONS and t.goal is not Goal.ANY
    for _t, play in missing_plays(t)[:2]
]


def test_there_are_at_least_ten_lessons_each_with_words_and_tasks() -> None:
    assert len(LESSONS) >= 10
    for lesson in LESSONS:
        assert lesson.tasks and lesson.intro
        assert zh(lesson.title) != en(lesson.title)  # translated


@pytest.mark.parametrize("task", PLAY_TASKS)
def test_each_task_s_intended_steps_reach_its_goal_through_the_engine(task: Task) -> None:
    position, dice = check.task_position(task), check.task_dice(task)
    turn = Turn(position, dice)
    for src, dst in task.solution:
        turn = turn.step(src, dst)
    assert turn.complete
    verdict = check.judge_steps(task, list(task.solution))
    assert verdict.state == "done"
    assert turn.play().notation() in verdict.message
    for n in range(len(task.solution)):
        assert check.judge_steps(task, list(task.solution[:n])).state == "partial"


@pytest.mark.parametrize(("task", "wrong"), WRONG_STEPS)
def test_a_wrong_step_is_refused_with_the_play_page_s_reason(task: Task, wrong: Any) -> None:
    position, dice = check.task_position(task), check.task_dice(task)
    turn = Turn(position, dice)
    for src, dst in wrong.steps[:-1]:
        turn = turn.step(src, dst)
    with pytest.raises(IllegalStepError) as refused:
        turn.step(*wrong.steps[-1])
    assert refused.value.refusal.code is wrong.code
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, list(wrong.steps))
        assert verdict.state == "refused"
        assert verdict.message == describe_refusal(refused.value.refusal)
    # The board stays where it was before the refused step.
    assert verdict.turn is not None
    assert len(verdict.turn["steps"]) == len(wrong.steps) - 1


def test_a_task_of_every_goal_that_can_be_missed_has_plays_that_miss_it() -> None:
    assert len(MISSES) >= 10


@pytest.mark.parametrize(("task", "play"), MISSES)
def test_a_legal_play_that_misses_the_goal_gets_the_lesson_s_words(task: Task, play: Any) -> None:
    steps = [(s.src if s.src != 25 else 25, s.dst) for s in play.steps]
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, steps)
    assert verdict.state == "miss"
    with translation.override("zh-hans"):
        assert verdict.message == check.miss_message(task)
    with translation.override("en"):
        assert verdict.message != check.miss_message(task)  # translated


def test_a_play_that_leaves_a_blot_is_told_how_many_rolls_hit_it() -> None:
    # Lesson 2's 3-1 played 13/10 6/5: two blots where the point could be made.
    task = LESSONS[1].tasks[0]
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, [(13, 10), (6, 5)])
    assert verdict.state == "miss"
    assert any("种掷法" in reason for reason in verdict.reasons)


def pips_by_hand(position: Position) -> int:
    board = Display.from_position(position).to_json()
    on_points = sum(p * n for p, n in enumerate(board["points"], 1) if n > 0)
    return int(on_points + 25 * board["bar"]["light"])


@pytest.mark.parametrize("task", QUESTION_TASKS)
def test_a_question_is_answered_by_the_engine_and_a_wrong_answer_gets_words(task: Task) -> None:
    right = check.right_answer(task)
    position = check.task_position(task)
    keys = [key for key, _label in check.choices(task)]
    assert (task.goal is Goal.COUNT) == (not keys)  # a count is typed, the rest chosen
    # A count: the pips counted by hand; a choice: one of its keys.
    assert right in (keys or [str(pips_by_hand(position))])
    wrong = [k for k in keys if k != right] or [str(int(right) + 1), "abc"]
    assert check.judge_answer(task, right).state == "done"
    with translation.override("zh-hans"):
        for answer in wrong:
            verdict = check.judge_answer(task, answer)
            assert verdict.state == "miss"
            assert verdict.message


def test_the_dance_task_has_no_play_and_the_entering_task_has_one() -> None:
    entering = LESSONS[5]
    kinds = {t.goal: check.right_answer(t) for t in entering.tasks if t.goal is Goal.CAN_ENTER}
    assert kinds == {Goal.CAN_ENTER: "no"}
    task = next(t for t in entering.tasks if t.goal is Goal.CAN_ENTER)
    assert [p.steps for p in legal_plays(check.task_position(task), check.task_dice(task))] in (
        [],
        [()],
    )


def test_the_winning_lesson_asks_about_each_kind_of_win() -> None:
    kinds = {check.right_answer(t) for t in LESSONS[9].tasks if t.goal is Goal.RESULT}
    assert kinds == {"single", "gammon", "backgammon"}


def lesson_teaching(code: RefusalCode) -> Lesson:
    return next(lesson for lesson in LESSONS if code in lesson.teaches)


@pytest.mark.parametrize("code", list(RefusalCode))
def test_every_refusal_the_play_page_can_give_is_taught_by_a_lesson(code: RefusalCode) -> None:
    assert LESSONS.index(lesson_teaching(code)) < 10  # lessons 1-10 cover every refusal


def test_nothing_to_undo_is_taught_in_the_lessons_words() -> None:
    code = RefusalCode.NOTHING_TO_UNDO
    lesson = lesson_teaching(code)
    task = lesson.tasks[0]
    with pytest.raises(IllegalStepError) as refused:
        Turn(check.task_position(task), check.task_dice(task)).undo()
    assert refused.value.refusal.code is code
    assert any("撤销" in zh(line) for line in lesson.intro)


@pytest.mark.parametrize("code", [c for c in RefusalCode if c is not RefusalCode.NOTHING_TO_UNDO])
def test_every_other_refusal_is_shown_by_a_task_of_its_lesson(code: RefusalCode) -> None:
    lesson = lesson_teaching(code)
    shown = [w for t in lesson.tasks for w in t.wrong if w.code is code]
    assert shown, f"{lesson.slug} teaches {code} but no task shows it"


@pytest.mark.parametrize(("misses", "stars"), [(0, 3), (1, 2), (2, 2), (3, 1), (9, 1)])
def test_stars_count_the_misses_of_a_run(misses: int, stars: int) -> None:
    assert stars_for(misses) == stars


# --- the pages ------------------------------------------------------------------------------


def post(client: Any, lesson: Lesson, index: int, body: dict[str, Any]) -> Any:
    url = reverse("learning:lesson_check", args=[lesson.slug, index])
    return client.post(url, json.dumps(body), content_type="application/json")


def run_tasks(lesson: Lesson) -> tuple[Task, ...]:
    """The tasks of the one person's current run (its quiz from the run's seed)."""
    return lesson_tasks(lesson, LessonProgress.objects.get(lesson=lesson.slug).seed)


def solve(client: Any, lesson: Lesson, index: int) -> dict[str, Any]:
    task = run_tasks(lesson)[index]
    if task.goal in QUESTIONS:
        body: dict[str, Any] = {"answer": check.right_answer(task)}
    else:
        body = {"steps": [list(s) for s in task.solution]}
    response = post(client, lesson, index, body)
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    assert data["state"] == "done"
    return data


@pytest.mark.django_db
def test_the_map_lists_the_lessons_in_order_with_no_stars_and_the_first_as_next(
    client: Any,
) -> None:
    response = client.get("/learn/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = response.content.decode()
    assert response.status_code == 200
    assert [item["slug"] for item in response.context["lessons"]] == [x.slug for x in LESSONS]
    assert all(item["stars"] == 0 for item in response.context["lessons"])
    assert response.context["next_lesson"] == LESSONS[0]
    assert "☆☆☆" in page and zh(LESSONS[0].title) in page
    assert User.objects.count() == 0  # the map alone makes no account


@pytest.mark.django_db
def test_the_lobby_offers_the_course_to_a_first_time_visitor(client: Any) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "第一次玩？先花五分钟学会走棋" in page
    assert 'href="/learn/"' in page


@pytest.mark.django_db
def test_a_lesson_page_makes_a_guest_and_carries_its_tasks(client: Any) -> None:
    lesson = LESSONS[0]
    response = client.get(reverse("learning:lesson", args=[lesson.slug]))
    assert response.status_code == 200
    assert User.objects.get().is_guest
    data = response.context["data"]
    assert [t["position_id"] for t in data["tasks"]] == [t.position for t in run_tasks(lesson)]
    assert len(data["tasks"]) == len(lesson.tasks) + QUIZ_SIZE
    assert data["run"] == {"task": 0, "misses": 0, "stars": 0}
    assert data["next_url"] == reverse("learning:lesson", args=[LESSONS[1].slug])


@pytest.mark.django_db
def test_a_run_with_one_miss_earns_two_stars_and_signing_up_keeps_them(client: Any) -> None:
    lesson = LESSONS[0]
    client.get(reverse("learning:lesson", args=[lesson.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    wrong = post(client, lesson, 0, {"steps": [[13, 19]]}).json()
    assert wrong["state"] == "refused"
    assert wrong["message"] == "棋子只能从大号点位走向小号点位：从 13 点到 19 点是往回走。"
    assert wrong["run"]["misses"] == 1
    assert post(client, lesson, 1, {"steps": []}).status_code == 409  # in order
    total = len(run_tasks(lesson))
    for i in range(total):
        last = solve(client, lesson, i)
    assert last["run"] == {
        "task": total,
        "misses": 1,
        "stars": 2,
        "finished": True,
        "run_stars": 2,
    }

    guest = User.objects.get()
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "cara",
            "email": "cara@example.com",
            "password1": "Shuang-lu-2026!",
            "password2": "Shuang-lu-2026!",
        },
    )
    assert response.status_code == 302
    row = LessonProgress.objects.get()
    assert (row.owner_id, row.owner.username, row.stars) == (guest.pk, "cara", 2)
    map_page = client.get("/learn/")
    assert map_page.context["lessons"][0]["stars"] == 2
    assert map_page.context["next_lesson"] == LESSONS[1]


@pytest.mark.django_db
def test_a_second_run_keeps_the_best_stars(client: Any) -> None:
    lesson = LESSONS[2]
    client.get(reverse("learning:lesson", args=[lesson.slug]))
    for i in range(len(run_tasks(lesson))):
        solve(client, lesson, i)
    post(client, lesson, 0, {"steps": [[6, 4]]})  # a miss in the second run: 6/4 needs a 2
    for i in range(len(run_tasks(lesson))):
        data = solve(client, lesson, i)
    assert (data["run"]["run_stars"], data["run"]["stars"]) == (2, 3)


@pytest.mark.django_db
def test_bad_input_is_refused_in_words_and_counts_nothing(client: Any) -> None:
    lesson = LESSONS[8]  # the pip count
    client.get(reverse("learning:lesson", args=[lesson.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    bad = client.post(
        reverse("learning:lesson_check", args=[lesson.slug, 0]),
        "not json",
        content_type="application/json",
    )
    assert bad.status_code == 400 and bad.json()["message"]
    assert post(client, lesson, 0, {"answer": ["17"]}).status_code == 400
    assert client.get(reverse("learning:lesson", args=["no-such-lesson"])).status_code == 404
    assert post(client, lesson, 9, {"answer": "1"}).status_code == 404
    assert not LessonProgress.objects.filter(misses__gt=0).exists()
    words = post(client, lesson, 0, {"answer": "abc"}).json()
    assert words["state"] == "miss" and "数字" in words["message"]


# How far below the best play a standard opening play may rank (equity, 1-ply).
OPENING_SLACK = 0.045


@pytest.mark.parametrize("task", [pytest.param(t, id=f"{t.dice}") for t in OPENINGS.tasks])
def test_the_standard_opening_plays_are_what_the_hints_rank_at_the_top(task: Task) -> None:
    position, dice = check.task_position(task), check.task_dice(task)
    ranked = candidates.hint(position, dice, 1, 8, default_rank)
    accepted = {parse_play(position, dice, text).result for text in task.accept}
    by_result = {Position.from_position_id(c.result_id): c.equity for c in ranked}
    assert Position.from_position_id(ranked[0].result_id) in accepted  # the best is accepted
    for result in accepted:
        assert by_result[result] >= ranked[0].equity - OPENING_SLACK


def test_the_opening_lesson_has_the_15_rolls_that_are_not_doubles() -> None:
    rolls = sorted(tuple(sorted(t.dice or ())) for t in OPENINGS.tasks)
    assert rolls == sorted((d2, d1) for d1, d2, _w in ROLLS if d1 != d2)
    assert all(t.why for t in OPENINGS.tasks)


@pytest.mark.parametrize("task", [pytest.param(t, id=f"{t.dice}") for t in HABITS.tasks])
def test_a_habit_is_the_play_the_hints_rank_higher_and_the_other_gets_the_gap(task: Task) -> None:
    position, dice = check.task_position(task), check.task_dice(task)
    ranked = candidates.hint(position, dice, 1, 100, default_rank)
    equity = {
        text: next(
            c.equity
            for c in ranked
            if c.result_id == parse_play(position, dice, text).result.position_id()
        )
        for text in task.accept
    }
    better, worse = sorted(task.accept, key=lambda text: -equity[text])
    assert check.right_answer(task) == better
    with translation.override("zh-hans"):
        right = check.judge_answer(task, better)
        wrong = check.judge_answer(task, worse)
        stray = check.judge_answer(task, "24/1")
    gap = f"{equity[better] - equity[worse]:.3f}"
    assert right.state == "done" and gap in right.message and right.reasons
    assert wrong.state == "miss" and gap in wrong.message and better in wrong.message
    assert stray.state == "miss" and stray.message


def test_the_cube_lesson_asks_both_decisions_each_way_and_takes_above_the_take_point() -> None:
    answers = {(t.goal, check.right_answer(t)) for t in CUBE.tasks}
    assert answers == {
        (Goal.DOUBLE, "double"),
        (Goal.DOUBLE, "no_double"),
        (Goal.TAKE, "take"),
        (Goal.TAKE, "pass"),
    }
    for task in [task for task in CUBE.tasks if task.goal is Goal.TAKE]:
        advice = check.cube_advice(task.position, task.goal)
        taker_wins = 1 - advice["probs"]["win"]
        assert (taker_wins >= advice["take_point"]) == (check.right_answer(task) == "take")
    with translation.override("zh-hans"):
        verdict = check.judge_answer(CUBE.tasks[2], "pass")
    assert verdict.state == "miss"
    assert any("接受点" in line for line in verdict.reasons)


QUIZZES = [pytest.param(slug, seed, id=f"{slug}-{seed}") for slug in MAKERS for seed in range(16)]
# The refusal each lesson's quiz shows with a wrong step (the lesson's own).
QUIZ_WRONG = {
    "board": {RefusalCode.WRONG_DIRECTION},
    "two-dice": {RefusalCode.NO_SUCH_DIE},
    "doubles": {RefusalCode.NO_SUCH_DIE},
    "blocked": {RefusalCode.POINT_BLOCKED},
    "both-dice": {RefusalCode.MUST_USE_BOTH, RefusalCode.MUST_USE_LARGER},
}


def refused_in_words(task: Task, wrong: Any) -> None:
    """The engine refuses ``wrong``'s last step with its code, and the check
    says so in the play page's words, the board left before that step."""
    position, dice = check.task_position(task), check.task_dice(task)
    turn = Turn(position, dice)
    for src, dst in wrong.steps[:-1]:
        turn = turn.step(src, dst)
    with pytest.raises(IllegalStepError) as refused:
        turn.step(*wrong.steps[-1])
    assert refused.value.refusal.code is wrong.code
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, list(wrong.steps))
        assert verdict.state == "refused"
        assert verdict.message == describe_refusal(refused.value.refusal)


def ranked_by_hints(task: Task) -> dict[str, float]:
    """The equity of each play of a pick, ranked here by the hints at 1-ply."""
    position, dice = check.task_position(task), check.task_dice(task)
    ranked = candidates.hint(position, dice, 1, len(legal_plays(position, dice)), default_rank)
    by_result = {c.result_id: c.equity for c in ranked}
    return {t: by_result[parse_play(position, dice, t).result.position_id()] for t in task.accept}


@pytest.mark.parametrize(("slug", "seed"), QUIZZES)
def test_a_quiz_is_fresh_positions_of_the_theme_checked_by_the_engine(slug: str, seed: int) -> None:
    tasks = quiz(slug, seed)
    assert len(tasks) == QUIZ_SIZE
    assert tasks == quiz.__wrapped__(slug, seed)  # made again the same for a check
    for task in [task for task in tasks if task.goal in QUESTIONS]:
        right = check.right_answer(task)
        assert check.judge_answer(task, right).state == "done"
        keys = [k for k, _label in check.choices(task)] or [str(int(right) + 1)]
        with translation.override("zh-hans"):
            for answer in [k for k in keys if k != right]:
                verdict = check.judge_answer(task, answer)
                assert verdict.state == "miss" and verdict.message
    for task in [task for task in tasks if task.goal not in QUESTIONS]:
        position = check.task_position(task)
        assert check.judge_steps(task, list(task.solution)).state == "done"
        assert {w.code for w in task.wrong} <= QUIZ_WRONG.get(slug, set())
        assert task.wrong or slug not in QUIZ_WRONG, "a quiz task without the lesson's refused step"
        for wrong in task.wrong:
            refused_in_words(task, wrong)
        missing = missing_plays(task) if task.goal is not Goal.ANY else []
        # Every play enters (the rules say so), and any play passes an ANY task.
        some_play_misses = task.goal not in (Goal.ENTER, Goal.ANY)
        assert missing or not some_play_misses, "a quiz task that any play would pass"
        for _task, play in missing[:1]:
            with translation.override("zh-hans"):
                verdict = check.judge_steps(task, [(s.src, s.dst) for s in play.steps])
                assert (verdict.state, verdict.message) == ("miss", check.miss_message(task))
        assert len(legal_plays(position, check.task_dice(task))) > len(missing)


@pytest.mark.parametrize("seed", range(16))
def test_a_drawn_choice_is_clear_by_the_hints_ranking(seed: int) -> None:
    for task in quiz("habits", seed) + quiz("openings", seed):
        assert task.goal is Goal.PICK
        equity = ranked_by_hints(task)
        better, worse = sorted(task.accept, key=lambda text: -equity[text])
        assert equity[better] - equity[worse] >= PICK_GAP
        assert check.right_answer(task) == better
        with translation.override("zh-hans"):
            wrong = check.judge_answer(task, worse)
        assert wrong.state == "miss" and better in wrong.message
    for task in quiz("cube", seed):
        advice = check.cube_advice(task.position, task.goal)
        values = advice["values"]
        right = check.right_answer(task)
        assert right == advice["best"] != "too_good"
        others = [v for k, v in values.items() if k not in (right, "too_good")]
        assert all(values[right] - v >= CUBE_GAP for v in others)


def test_every_lesson_ends_with_a_quiz() -> None:
    assert set(MAKERS) == {lesson.slug for lesson in LESSONS}


def test_quizzes_differ_from_seed_to_seed() -> None:
    for slug in MAKERS:
        drawn = {tuple(t.position for t in quiz(slug, seed)) for seed in range(10)}
        assert len(drawn) >= 5, slug


@pytest.mark.django_db
def test_a_finished_run_keeps_its_stars_and_draws_a_new_quiz(client: Any) -> None:
    lesson = next(x for x in LESSONS if x.slug == "hitting")
    page = client.get(reverse("learning:lesson", args=[lesson.slug]))
    data = page.context["data"]
    assert len(data["tasks"]) == len(lesson.tasks) + QUIZ_SIZE
    assert data["quiz_from"] == len(lesson.tasks)
    seed = LessonProgress.objects.get().seed
    shown = [t["position_id"] for t in data["tasks"][len(lesson.tasks) :]]
    assert shown == [t.position for t in quiz(lesson.slug, seed)]
    for i in range(len(data["tasks"])):
        last = solve(client, lesson, i)
    assert last["run"]["finished"] and last["run"]["stars"] == 3
    row = LessonProgress.objects.get()
    assert (row.task, row.misses, row.stars) == (0, 0, 3)
    assert row.seed != seed
