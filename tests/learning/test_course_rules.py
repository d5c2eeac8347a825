"""The rules the course states: each rule sentence names the clauses of the
brief it restates (quoted exactly, found in the brief's text), or the
engine check that holds it; and every rule the engine can check is checked
by it here (who may double, the larger die, bearing off, entering, the pip
count, the kinds of win, the take point, too good)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings

from games.engine import (
    Cube,
    Dice,
    IllegalStepError,
    Match,
    Position,
    RefusalCode,
    Side,
    Turn,
    double_refusal,
    legal_plays,
    outcome,
)
from learning.course import answers, check
from learning.course.lessons import BY_SLUG, LESSONS
from learning.course.quiz import quiz
from learning.course.quiz_draw import _position
from learning.course.shapes import Goal, Rule, Task

ROOT = Path(settings.BASE_DIR)
# The brief the lessons quote, kept in the repository (docs/brief/) as the
# user's seed file; the seed itself sits beside the main worktree.
BRIEF = ROOT / "docs" / "brief" / "site-brief.zh.txt"
RULES = [
    pytest.param(rule, id=f"{lesson.slug}-{i}")
    for lesson in LESSONS
    for i, rule in enumerate(lesson.intro)
    if isinstance(rule, Rule)
]


def seed_brief() -> Path | None:
    common = subprocess.run(
        ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    for base in (ROOT.parent, Path(common).parent.parent if common else ROOT.parent):
        path = base / "shared" / "seed" / "site-brief.zh.txt"
        if path.exists():
            return path
    return None


def test_the_brief_kept_here_is_the_user_s_seed_when_the_seed_is_at_hand() -> None:
    seed = seed_brief()
    text = BRIEF.read_text(encoding="utf-8")
    assert "大的走不了才走小的" in text
    assert seed is None or seed.read_text(encoding="utf-8") == text


def test_the_course_states_its_rules_as_rules() -> None:
    assert len(RULES) >= 20
    checks = {rule.values[0].check for rule in RULES}
    # The rules issue 45 names, each held by the engine.
    assert {"who_may_double", "larger_die", "bear_off_home", "bear_off_highest"} <= checks


@pytest.mark.parametrize("rule", RULES)
def test_each_rule_names_the_brief_s_clauses_or_the_engine_check_that_holds_it(rule: Rule) -> None:
    brief = BRIEF.read_text(encoding="utf-8")
    assert rule.clauses or rule.check, "a rule with neither a clause of the brief nor a check"
    for clause in rule.clauses:
        assert clause in brief, f"not in the brief: {clause}"
    assert rule.check is None or rule.check in CHECKS


def refusal(task: Task, *steps: tuple[int, int]) -> RefusalCode | None:
    turn = Turn(check.task_position(task), check.task_dice(task))
    for step in steps[:-1]:
        turn = turn.step(*step)
    found = turn.refusal(*steps[-1])
    return None if found is None else found.code


def enter_first() -> None:
    task = BY_SLUG["entering"].tasks[0]
    assert refusal(task, (13, 10)) is RefusalCode.MUST_ENTER_FIRST
    assert refusal(task, (25, 20)) is RefusalCode.POINT_BLOCKED  # held: cannot enter there
    assert refusal(task, (25, 22)) is None
    dance = BY_SLUG["entering"].tasks[1]
    assert all(not p.steps for p in legal_plays(check.task_position(dance), check.task_dice(dance)))


def both_dice() -> None:
    task = BY_SLUG["both-dice"].tasks[0]
    assert refusal(task, (22, 20)) is RefusalCode.MUST_USE_BOTH
    plays = legal_plays(check.task_position(task), check.task_dice(task))
    assert plays and all(len(p.steps) == 2 for p in plays)


def larger_die() -> None:
    task = BY_SLUG["both-dice"].tasks[1]
    assert refusal(task, (24, 19)) is RefusalCode.MUST_USE_LARGER
    assert refusal(task, (24, 18)) is None
    # The larger cannot be played at all: then the smaller is.
    smaller = BY_SLUG["both-dice"].tasks[2]
    plays = legal_plays(check.task_position(smaller), check.task_dice(smaller))
    assert [[s.die for s in p.steps] for p in plays] == [[1]]


def doubles_most() -> None:
    # 6-6 with one checker on 24 and the computer on 12: one step, no more.
    position = _position({24: 1, 1: 14}, {12: 2, 19: 13})
    plays = legal_plays(position, Dice(6, 6))
    assert [p.notation() for p in plays] == ["24/18"]
    assert Turn(position, Dice(6, 6)).step(24, 18).complete


def bear_off_home() -> None:
    task = BY_SLUG["bearing-off"].tasks[1]
    assert refusal(task, (6, 0)) is RefusalCode.BEAR_OFF_OUTSIDE
    assert refusal(task, (7, 6), (6, 0)) is None


def bear_off_exact() -> None:
    task = BY_SLUG["bearing-off"].tasks[0]
    assert refusal(task, (6, 0)) is None and refusal(task, (4, 0)) is None


def bear_off_highest() -> None:
    behind = BY_SLUG["bearing-off"].tasks[2]  # 5-4, checkers on 6 and 3
    assert refusal(behind, (3, 0)) is RefusalCode.BEAR_OFF_NOT_HIGHEST
    nothing_behind = BY_SLUG["bearing-off"].tasks[3]  # 6-5, the last two on 4 and 1
    assert refusal(nothing_behind, (4, 0)) is None


def pips() -> None:
    assert Position.start().pips() == (167, 167)
    bar_task = BY_SLUG["pip-count"].tasks[2]
    assert answers.right_answer(bar_task) == str(25 + 6)


def kinds() -> None:
    won = [outcome(check.task_position(t), Side.LIGHT) for t in BY_SLUG["winning"].tasks[1:]]
    assert {w.kind.value: w.points for w in won if w is not None} == {
        "single": 1,
        "gammon": 2,
        "backgammon": 3,
    }


def who_may_double() -> None:
    centred, mine, its = Cube(), Cube(2, Side.LIGHT), Cube(2, Side.DARK)
    assert double_refusal(centred, Match(), Side.LIGHT) is None
    assert double_refusal(centred, Match(), Side.DARK) is None
    assert double_refusal(mine, Match(), Side.LIGHT) is None
    assert double_refusal(mine, Match(), Side.DARK) is not None
    assert double_refusal(its, Match(), Side.LIGHT) is not None
    for task in [t for t in BY_SLUG["cube"].tasks if t.goal is Goal.MAY_DOUBLE]:
        assert (answers.right_answer(task) == "yes") == (task.cube != (2, "dark"))
    assert Cube(2, Side.DARK).taken(Side.LIGHT) == Cube(4, Side.LIGHT)  # a take: the taker's


def cube_tasks() -> list[Task]:
    drawn = [t for seed in range(4) for t in quiz("cube", seed)]
    return [t for t in (*BY_SLUG["cube"].tasks, *drawn) if t.goal in (Goal.DOUBLE, Goal.TAKE)]


def take_point() -> None:
    # Worked out in the lesson: at p = 25%, taking (4p − 2) equals passing (−1).
    p = 0.25
    assert 2 * p - 2 * (1 - p) == pytest.approx(-1)
    for task in [t for t in BY_SLUG["cube"].tasks if t.goal is Goal.TAKE]:
        advice = answers.cube_advice(task.position, task.goal)
        assert 0.20 <= advice["take_point"] < 0.25  # "about 21%": lower for the cube owned
        mine = 1 - advice["probs"]["win"]
        assert (mine >= advice["take_point"]) == (answers.right_answer(task) == "take")


def too_good() -> None:
    for task in cube_tasks():
        advice = answers.cube_advice(task.position, task.goal)
        assert advice["probs"]["win_gammon"] == advice["probs"]["lose_gammon"] == 0
        assert advice["best"] != "too_good"


CHECKS: dict[str, Callable[[], None]] = {
    "enter_first": enter_first,
    "both_dice": both_dice,
    "larger_die": larger_die,
    "doubles_most": doubles_most,
    "bear_off_home": bear_off_home,
    "bear_off_exact": bear_off_exact,
    "bear_off_highest": bear_off_highest,
    "pips": pips,
    "kinds": kinds,
    "who_may_double": who_may_double,
    "take_point": take_point,
    "too_good": too_good,
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_engine_holds_the_rule(name: str) -> None:
    CHECKS[name]()


def test_every_engine_check_belongs_to_a_rule_of_the_course() -> None:
    assert {rule.values[0].check for rule in RULES} - {None} == set(CHECKS)


def test_a_step_the_rules_refuse_is_refused_by_the_engine_not_by_the_course() -> None:
    task = BY_SLUG["bearing-off"].tasks[2]
    with pytest.raises(IllegalStepError):
        Turn(check.task_position(task), check.task_dice(task)).step(3, 0)
