"""学棋's lessons on playing well, held against the engine: the standard
opening plays and the replies it shows are what the hints rank at the top,
a habit's better play keeps the habit (no more shots than the other), the
cube tasks ask each decision each way; and every quiz is fresh positions
of its lesson's theme, checked by the engine."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from ai_worker import candidates
from ai_worker.features import count_shots
from ai_worker.ranking import default_rank
from games.engine import (
    ROLLS,
    IllegalStepError,
    Position,
    RefusalCode,
    Turn,
    legal_plays,
    parse_play,
)
from games.words.refusals import describe_refusal
from learning.course import answers, check, clicks
from learning.course.lessons import BY_SLUG, LESSONS
from learning.course.lessons_cube import CUBE
from learning.course.lessons_strategy import HABITS, OPENINGS, REPLIES
from learning.course.quiz import MAKERS, QUIZ_SIZE, quiz, quiz_size
from learning.course.quiz_questions import CUBE_GAP, PICK_GAP, keeps_habit
from learning.course.shapes import QUESTIONS, Goal, Task
from tests.learning.fixtures_course import missing_plays

# How far below the best play a standard opening play may rank (equity, 1-ply).
OPENING_SLACK = 0.045


def ranked(task: Task, top: int = 100) -> list[Any]:
    position, dice = check.task_position(task), check.task_dice(task)
    return list(candidates.hint(position, dice, 1, top, default_rank))


def equity_of(task: Task) -> dict[str, float]:
    position, dice = check.task_position(task), check.task_dice(task)
    by_result = {c.result_id: c.equity for c in ranked(task, len(legal_plays(position, dice)))}
    return {t: by_result[parse_play(position, dice, t).result.position_id()] for t in task.accept}


@pytest.mark.parametrize("task", [pytest.param(t, id=f"{t.dice}") for t in OPENINGS.tasks])
def test_the_standard_opening_plays_are_what_the_hints_rank_at_the_top(task: Task) -> None:
    best = ranked(task, 8)[0]
    equity = equity_of(task)
    assert max(equity.values()) == pytest.approx(best.equity)  # the best is accepted
    assert min(equity.values()) >= best.equity - OPENING_SLACK
    # The play drawn on the board is one of the standard plays.
    position, dice = check.task_position(task), check.task_dice(task)
    turn = Turn(position, dice)
    for step in clicks.expand(position, dice, task.solution):
        turn = turn.step(*step)
    assert turn.play().notation() in task.accept


def test_the_opening_lesson_shows_the_15_rolls_that_are_not_doubles_then_drills_them() -> None:
    rolls = sorted(tuple(sorted(t.dice or ())) for t in OPENINGS.tasks)
    assert rolls == sorted((d2, d1) for d1, d2, _w in ROLLS if d1 != d2)
    assert all(t.goal is Goal.SHOW and t.why for t in OPENINGS.tasks)
    drill = quiz("openings", 1)
    assert len(drill) == quiz_size("openings") == 5
    shown = {t.dice: t.accept for t in OPENINGS.tasks}
    assert all(t.goal is Goal.PLAY and t.accept == shown[t.dice] for t in drill)


@pytest.mark.parametrize("task", [pytest.param(t, id=f"{t.dice}") for t in REPLIES.tasks])
def test_each_reply_shown_is_the_hints_best_and_hits_where_it_says(task: Task) -> None:
    best = ranked(task, 4)
    (play,) = task.accept
    assert best[0].notation == play
    assert best[0].equity - best[1].equity >= 0.02  # clearly the best, not a coin toss
    hits = any(
        s.hit for s in parse_play(check.task_position(task), check.task_dice(task), play).steps
    )
    assert hits == ("*" in play)


@pytest.mark.parametrize("task", [pytest.param(t, id=f"{t.dice}") for t in HABITS.tasks])
def test_a_habit_s_better_play_keeps_the_habit_and_leaves_no_more_shots(task: Task) -> None:
    equity = equity_of(task)
    better, worse = sorted(task.accept, key=lambda text: -equity[text])
    assert answers.right_answer(task) == better
    position, dice = check.task_position(task), check.task_dice(task)
    shots = {t: count_shots(parse_play(position, dice, t).result) for t in task.accept}
    assert shots[better] <= shots[worse]
    with translation.override("zh-hans"):
        right = answers.judge_answer(task, better)
        wrong = answers.judge_answer(task, worse)
        stray = answers.judge_answer(task, "24/1")
    gap = f"{equity[better] - equity[worse]:.3f}"
    assert right.state == "done" and gap in right.message and right.arrows
    assert wrong.state == "miss" and gap in wrong.message
    assert stray.state == "miss" and stray.message


def test_the_cube_lesson_asks_both_decisions_each_way_and_who_may_double() -> None:
    answered = {(t.goal, answers.right_answer(t)) for t in CUBE.tasks}
    assert answered == {
        (Goal.MAY_DOUBLE, "yes"),
        (Goal.MAY_DOUBLE, "no"),
        (Goal.DOUBLE, "double"),
        (Goal.DOUBLE, "no_double"),
        (Goal.TAKE, "take"),
        (Goal.TAKE, "pass"),
    }


def test_a_cube_verdict_writes_each_chance_once_and_says_no_score_in_a_money_game() -> None:
    task = next(t for t in CUBE.tasks if t.goal is Goal.DOUBLE)
    advice = answers.cube_advice(task.position, task.goal)
    with translation.override("zh-hans"):
        verdict = answers.judge_answer(task, "no_double")
    words = " ".join([verdict.message, *verdict.reasons])
    assert verdict.state == "miss" and "比分" not in words
    assert f"{100 * advice['probs']['win']:.1f}%" in words
    assert f"{100 * (1 - advice['probs']['win']):.1f}%" in words


QUIZZES = [pytest.param(slug, seed, id=f"{slug}-{seed}") for slug in MAKERS for seed in range(12)]
# The refusal each lesson's quiz shows with a wrong step (the lesson's own).
QUIZ_WRONG = {
    "board": {RefusalCode.WRONG_DIRECTION},
    "two-dice": {RefusalCode.NO_SUCH_DIE},
    "blocked": {RefusalCode.POINT_BLOCKED},
    "both-dice": {RefusalCode.MUST_USE_BOTH, RefusalCode.MUST_USE_LARGER},
}


@pytest.mark.parametrize(("slug", "seed"), QUIZZES)
def test_a_quiz_is_fresh_positions_of_the_theme_checked_by_the_engine(slug: str, seed: int) -> None:
    tasks = quiz(slug, seed)
    assert len(tasks) == quiz_size(slug) >= QUIZ_SIZE
    assert tasks == quiz.__wrapped__(slug, seed)  # made again the same for a check
    assert len({(t.position, t.dice) for t in tasks}) == len(tasks)
    for task in [task for task in tasks if task.goal in QUESTIONS]:
        right = answers.right_answer(task)
        assert answers.judge_answer(task, right).state == "done"
        keys = [k for k, _label in answers.choices(task)] or [str(int(right) + 1)]
        with translation.override("zh-hans"):
            for answer in [k for k in keys if k != right]:
                verdict = answers.judge_answer(task, answer)
                assert verdict.state == "miss" and verdict.message
    for task in [task for task in tasks if task.goal not in QUESTIONS]:
        assert check.judge_steps(task, list(task.solution)).state == "done"
        assert {w.code for w in task.wrong} <= QUIZ_WRONG.get(slug, set())
        assert task.wrong or slug not in QUIZ_WRONG, "a quiz task without the lesson's refused step"
        for wrong in task.wrong:
            with translation.override("zh-hans"):
                verdict = check.judge_steps(task, list(wrong.steps))
            turn = Turn(check.task_position(task), check.task_dice(task))
            with pytest.raises(IllegalStepError) as refused:
                turn.step(*wrong.steps[-1])
            with translation.override("zh-hans"):
                assert (verdict.state, verdict.message) == (
                    "refused",
                    describe_refusal(refused.value.refusal),
                )
        # A goal, not dictated clicks: some legal play misses it (but for ANY,
        # where the rules alone decide, and entering, which every play does).
        assert task.goal in (Goal.ANY, Goal.ENTER) or missing_plays(task), "any play would pass"


@pytest.mark.parametrize("seed", range(12))
def test_a_drawn_choice_is_clear_by_the_hints_ranking_and_a_habit_keeps_the_habit(
    seed: int,
) -> None:
    for task in quiz("habits", seed) + quiz("replies", seed):
        equity = equity_of(task)
        better, worse = sorted(task.accept, key=lambda text: -equity[text])
        assert equity[better] - equity[worse] >= PICK_GAP
        assert answers.right_answer(task) == better
    for task in quiz("habits", seed):
        pair = {c.notation: c for c in ranked(task, 200) if c.notation in task.accept}
        better = answers.right_answer(task)
        worse = next(t for t in task.accept if t != better)
        assert keeps_habit(pair[better], pair[worse])
    for task in quiz("cube", seed):
        advice = answers.cube_advice(task.position, task.goal)
        right = answers.right_answer(task)
        assert right == advice["best"] != "too_good"
        values = advice["values"]
        others = [v for k, v in values.items() if k not in (right, "too_good")]
        assert all(values[right] - v >= CUBE_GAP for v in others)


@pytest.mark.parametrize("seed", range(6))
def test_the_shots_quiz_counts_the_rolls_the_rules_let_hit(seed: int) -> None:
    for task in [t for t in quiz("shots", seed) if t.goal is Goal.SHOTS]:
        rolls = answers.hitting_rolls(check.task_position(task), task.point)
        assert answers.right_answer(task) == str(sum(w for _a, _b, w in rolls))


def test_every_lesson_ends_with_a_quiz() -> None:
    assert set(MAKERS) == {lesson.slug for lesson in LESSONS}


def test_quizzes_differ_from_seed_to_seed() -> None:
    for slug in MAKERS:
        drawn = {tuple((t.position, t.dice) for t in quiz(slug, seed)) for seed in range(10)}
        assert len(drawn) >= 5, slug


def test_the_replies_lesson_comes_before_its_quiz_of_replies() -> None:
    assert LESSONS.index(BY_SLUG["openings"]) < LESSONS.index(REPLIES)
    assert all(t.goal is Goal.SHOW for t in REPLIES.tasks)
    assert all(t.goal is Goal.PICK for t in quiz("replies", 0))


def test_positions_drawn_are_positions() -> None:
    for slug in MAKERS:
        for task in quiz(slug, 0):
            Position.from_position_id(task.position)
