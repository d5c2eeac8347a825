"""学棋: every lesson's tasks played through the engine, the forgiving input
(a far click is the checker's steps, full-width digits are digits, a
refused step or a stuck checker is no mistake), the refusal codes the play
page can give each taught by a lesson, the questions answered by the engine."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from ai_worker.features import count_shots
from games.engine import Display, IllegalStepError, Position, RefusalCode, Turn, legal_plays
from games.words.refusals import describe_refusal
from learning.course import answers, check, clicks, hints
from learning.course.lessons import BY_SLUG, LESSONS, known_terms
from learning.course.shapes import START, Goal, Lesson, Task
from learning.course.words import play_words
from tests.chinese import en, zh
from tests.learning.fixtures_course import (
    PLAY_TASKS,
    QUESTION_TASKS,
    WRONG_STEPS,
    missing_plays,
)

MISSES = [
    pytest.param(t, play, id=f"{lesson.slug}-{play.notation()}")
    for lesson in LESSONS
    for t in lesson.tasks
    if t.goal in (Goal.PLAY, Goal.HIT, Goal.ENTER, Goal.OFF, Goal.SAFEST)
    for play in missing_plays(t)[:2]
]


def test_there_are_sixteen_lessons_each_with_words_and_tasks() -> None:
    assert len(LESSONS) == 16
    for lesson in LESSONS:
        assert lesson.tasks and lesson.intro
        assert zh(lesson.title) != en(lesson.title)  # translated


@pytest.mark.parametrize("task", PLAY_TASKS)
def test_each_task_s_intended_clicks_reach_its_goal_through_the_engine(task: Task) -> None:
    position, dice = check.task_position(task), check.task_dice(task)
    steps = clicks.expand(position, dice, task.solution)
    turn = Turn(position, dice)
    for src, dst in steps:
        turn = turn.step(src, dst)
    assert turn.complete
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, list(task.solution))
    assert verdict.state == "done" and verdict.message.startswith("答对了")
    for n in range(len(task.solution)):
        assert check.judge_steps(task, list(task.solution[:n])).state == "partial"


@pytest.mark.parametrize(("task", "wrong"), WRONG_STEPS)
def test_a_wrong_step_is_refused_with_the_play_page_s_reason_and_is_no_mistake(
    task: Task, wrong: Any
) -> None:
    position, dice = check.task_position(task), check.task_dice(task)
    turn = Turn(position, dice)
    for src, dst in wrong.steps[:-1]:
        turn = turn.step(src, dst)
    with pytest.raises(IllegalStepError) as refused:
        turn.step(*wrong.steps[-1])
    assert refused.value.refusal.code is wrong.code
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, list(wrong.steps))
        assert verdict.state == "refused" and not verdict.counts_as_miss
        assert verdict.message == describe_refusal(refused.value.refusal)
    # The board stays where it was before the refused step.
    assert verdict.turn is not None
    assert len(verdict.turn["steps"]) == len(wrong.steps) - 1


def test_a_click_on_the_point_both_dice_reach_is_one_checker_s_two_steps() -> None:
    lesson = BY_SLUG["two-dice"]
    task = lesson.tasks[1]  # 6-4: 24 to 14
    verdict = check.judge_steps(task, [(24, 14)], known_terms(lesson))
    assert verdict.state == "done"
    assert verdict.turn is not None and [s["from"] for s in verdict.turn["steps"]] == [24, 20]
    with translation.override("zh-hans"):
        assert check.judge_steps(task, [(24, 14)]).message == "答对了：一枚棋子从 24 点走到 14 点。"
    # The board lights the far point up as one the checker on 24 can reach.
    start = check.judge_steps(task, [])
    assert start.turn is not None and {"from": 24, "to": 14} in start.turn["reach"]


def test_a_far_click_hits_nothing_on_the_way_when_another_way_is_open() -> None:
    # 13 to 7 with 4-2: through 9 (open) or 11; neither hits; the far click
    # on the blot on 7 hits there, as asked.
    task = BY_SLUG["hitting"].tasks[1]
    steps = clicks.expand(check.task_position(task), check.task_dice(task), [(13, 7)])
    assert len(steps) == 2 and steps[-1] == ((steps[0][1], 7))


def test_a_far_click_no_dice_reach_is_refused_as_the_engine_words_it() -> None:
    task = BY_SLUG["two-dice"].tasks[0]  # 3-1 from the start
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, [(8, 6)])
    assert verdict.state == "refused" and "2 格" in verdict.message


def test_tapping_a_checker_that_cannot_move_says_why_and_counts_nothing() -> None:
    task = BY_SLUG["entering"].tasks[0]  # on the bar with 5-3
    with translation.override("zh-hans"):
        verdict = check.probe(task, [], 13)
    assert verdict.state == "partial" and not verdict.counts_as_miss
    assert "吧台" in verdict.message and "进场" in verdict.message
    assert check.probe(task, [], 25).message == ""  # the bar's checker can move


@pytest.mark.parametrize(("task", "play"), MISSES)
def test_a_legal_play_that_misses_the_goal_is_a_mistake_with_the_lesson_s_words(
    task: Task, play: Any
) -> None:
    steps = [(s.src, s.dst) for s in play.steps]
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, steps)
        assert verdict.state == "miss" and verdict.counts_as_miss
        assert verdict.message and verdict.turn is not None
        assert verdict.message == check.miss_message(task, verdict.turn)


def test_the_safest_play_is_the_one_fewest_rolls_hit() -> None:
    task = BY_SLUG["shots"].tasks[2]
    position, dice = check.task_position(task), check.task_dice(task)
    counts = {p.notation(): count_shots(p.result) for p in legal_plays(position, dice)}
    assert counts["13/8 11/8"] == 0 == min(counts.values()) < max(counts.values())
    with translation.override("zh-hans"):
        verdict = check.judge_steps(task, [(13, 10), (11, 6)])
    assert verdict.state == "miss"
    assert (
        verdict.message
        == f"这样走，36 种掷法里有 {counts['13/10 11/6']} 种能打中你；换一种走法，最少只有 0 种。"
    )


def test_early_lessons_say_a_play_in_words_and_later_ones_add_its_notation() -> None:
    task = BY_SLUG["hitting"].tasks[0]
    with translation.override("zh-hans"):
        early = check.judge_steps(task, [(13, 10), (6, 5)], known_terms(BY_SLUG["hitting"]))
        late = check.judge_steps(task, [(13, 10), (6, 5)], known_terms(BY_SLUG["notation"]))
    words = "一枚棋子从 13 点走到 10 点，在 10 点打掉了电脑的棋子；一枚棋子从 6 点走到 5 点"
    assert early.message == f"答对了：{words}。"
    assert late.message == f"答对了：{words}（13/10* 6/5）。"


def test_a_play_is_said_as_it_was_made_checker_by_checker() -> None:
    # Lesson 7's 6-2 played 22/16 24/22: two checkers moved, said as such.
    with translation.override("zh-hans"):
        said = play_words([{"from": 22, "to": 16}, {"from": 24, "to": 22}])
        entered = play_words([{"from": 25, "to": 22}, {"from": 22, "to": 17}])
        off = play_words([{"from": 6, "to": 0}, {"from": 6, "to": 0}])
    assert said == "一枚棋子从 22 点走到 16 点；一枚棋子从 24 点走到 22 点"
    assert entered == "一枚棋子从吧台进场到 22 点，再走到 17 点"
    assert off == "两枚棋子从 6 点移出"


ASKED = [t for t in QUESTION_TASKS if t.values[0].goal is not Goal.SHOW]
SHOWN = [t for t in QUESTION_TASKS if t.values[0].goal is Goal.SHOW]


@pytest.mark.parametrize("task", ASKED)
def test_a_question_is_answered_by_the_engine_and_a_wrong_answer_gets_words(task: Task) -> None:
    right = answers.right_answer(task)
    keys = [key for key, _label in answers.choices(task)]
    assert bool(keys) != (task.goal in (Goal.COUNT, Goal.SHOTS))  # a number is typed
    assert answers.judge_answer(task, right).state == "done"
    wrong = [k for k in keys if k != right] or [str(int(right) + 1), "abc"]
    with translation.override("zh-hans"):
        verdicts = [answers.judge_answer(task, answer) for answer in wrong]
    assert all(v.state == "miss" and v.message for v in verdicts)


@pytest.mark.parametrize("task", SHOWN)
def test_a_play_shown_is_read_and_gone_on_from_with_nothing_to_get_wrong(task: Task) -> None:
    assert [key for key, _label in answers.choices(task)] == ["seen"]
    assert answers.judge_answer(task, "seen").state == "done"
    refused = answers.judge_answer(task, "x")
    assert refused.state == "refused" and not refused.counts_as_miss


def pips_by_hand(position: Position) -> int:
    board = Display.from_position(position).to_json()
    on_points = sum(p * n for p, n in enumerate(board["points"], 1) if n > 0)
    return int(on_points + 25 * board["bar"]["light"])


@pytest.mark.parametrize("task", BY_SLUG["pip-count"].tasks)
def test_a_pip_count_in_full_width_digits_is_the_number(task: Task) -> None:
    right = pips_by_hand(check.task_position(task))
    assert answers.right_answer(task) == str(right)
    wide = "".join(chr(ord(c) - ord("0") + ord("０")) for c in str(right))
    assert answers.judge_answer(task, f" {wide} ").state == "done"
    with translation.override("zh-hans"):
        typed = answers.judge_answer(task, "二十")
    assert typed.state == "miss" and "数字" in typed.message


@pytest.mark.parametrize("task", BY_SLUG["shots"].tasks[:2])
def test_the_shots_counted_are_the_rolls_the_rules_let_hit(task: Task) -> None:
    rolls = answers.hitting_rolls(check.task_position(task), task.point)
    assert answers.right_answer(task) == str(sum(w for _a, _b, w in rolls))
    assert answers.right_answer(task) == {7: "17", 9: "6"}[task.point]


def test_the_dance_task_has_no_play_and_the_entering_task_has_one() -> None:
    task = next(t for t in BY_SLUG["entering"].tasks if t.goal is Goal.CAN_ENTER)
    assert answers.right_answer(task) == "no"
    plays = legal_plays(check.task_position(task), check.task_dice(task))
    assert [p.steps for p in plays] in ([], [()])


def test_the_winning_lesson_asks_about_each_kind_of_win() -> None:
    tasks = BY_SLUG["winning"].tasks
    kinds = {answers.right_answer(t) for t in tasks if t.goal is Goal.RESULT}
    assert kinds == {"single", "gammon", "backgammon"}


def test_the_larger_die_lesson_also_plays_the_smaller_when_the_larger_cannot_move() -> None:
    task = BY_SLUG["both-dice"].tasks[2]
    plays = legal_plays(check.task_position(task), check.task_dice(task))
    assert [p.notation() for p in plays] == ["24/23"]


def lesson_teaching(code: RefusalCode) -> Lesson:
    return next(lesson for lesson in LESSONS if code in lesson.teaches)


@pytest.mark.parametrize("code", list(RefusalCode))
def test_every_refusal_the_play_page_can_give_is_taught_by_a_lesson(code: RefusalCode) -> None:
    assert LESSONS.index(lesson_teaching(code)) < 10  # lessons 1-10 cover every refusal


@pytest.mark.parametrize("code", [c for c in RefusalCode if c is not RefusalCode.NOTHING_TO_UNDO])
def test_every_other_refusal_is_shown_by_a_task_of_its_lesson(code: RefusalCode) -> None:
    lesson = lesson_teaching(code)
    assert [w for t in lesson.tasks for w in t.wrong if w.code is code]


def test_nothing_to_undo_is_taught_in_the_lessons_words() -> None:
    lesson = lesson_teaching(RefusalCode.NOTHING_TO_UNDO)
    assert any("撤销" in zh(line) for line in lesson.intro)


NO_HINT = (Goal.PICK, Goal.DOUBLE, Goal.TAKE, Goal.MAY_DOUBLE, Goal.SHOW, Goal.RESULT)
EVERY_TASK = [*PLAY_TASKS, *QUESTION_TASKS]


@pytest.mark.parametrize("task", [t for t in EVERY_TASK if t.values[0].goal in NO_HINT])
def test_a_miss_s_own_words_say_it_all_where_there_is_no_hint(task: Task) -> None:
    assert hints.hint(task) is None


@pytest.mark.parametrize("task", PLAY_TASKS)
def test_a_hint_after_two_misses_draws_a_play_that_reaches_the_goal(task: Task) -> None:
    shown = hints.hint(task)
    assert shown is not None and shown["text"] and shown["arrows"]
    position, dice = check.task_position(task), check.task_dice(task)
    turn = Turn(position, dice)
    for step in shown["arrows"]:
        turn = turn.step(step["from"], step["to"])
    play = turn.play()
    walked = {"result_id": play.result.position_id(), "steps": [{"hit": s.hit} for s in play.steps]}
    assert check.reaches_goal(task, position, dice, walked)


@pytest.mark.parametrize(
    "task",
    [t for t in QUESTION_TASKS if t.values[0].goal in (Goal.COUNT, Goal.SHOTS, Goal.CAN_ENTER)],
)
def test_a_hint_after_two_misses_works_a_question_out(task: Task) -> None:
    shown = hints.hint(task)
    assert shown is not None and shown["text"] and shown["arrows"] == []


def test_the_count_hint_adds_it_up() -> None:
    task = BY_SLUG["pip-count"].tasks[2]  # the bar and point 6
    with translation.override("zh-hans"):
        shown = hints.hint(task)
    assert shown is not None and shown["text"] == "提示：1 × 6 + 1 × 25 = 31。"


def test_the_start_is_the_start() -> None:
    assert Position.from_position_id(START) == Position.start()
