"""Judging a task of the course with the engine.

Steps go through ``learning.board.steps.walk`` (the analysis board's walk
through ``games.engine.Turn``): a refused step comes back with the play
page's words for it. A complete play is then held against the task's goal;
one that misses it is answered with the lesson's words and the engine's
reasons about the play (a blot left, and how many rolls hit it). Questions
are answered by the engine: the pip count, whether any play enters, the
finished game's kind.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ai_worker import candidates
from ai_worker.cube import CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, advise
from ai_worker.explain import explain_play
from ai_worker.ranking import default_rank
from games.engine import Cube, Dice, Match, Position, Side, legal_plays, outcome, parse_play
from learning.board import steps as board_steps
from learning.course.shapes import CHOICES, Goal, Task
from learning.words.cube import cube_hint_json
from learning.words.reasons import render_reasons


@dataclass(frozen=True)
class Verdict:
    """``state``: "refused" (a step the rules refuse), "partial" (steps still
    to play), "miss" (a legal play or an answer that misses the goal) or "done"."""

    state: str
    message: str = ""
    reasons: list[str] = field(default_factory=list)
    turn: dict[str, Any] | None = None

    @property
    def counts_as_miss(self) -> bool:
        return self.state in ("refused", "miss")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"state": self.state, "message": self.message}
        data["reasons"] = self.reasons
        if self.turn is not None:
            data["turn"] = self.turn
        return data


def task_position(task: Task) -> Position:
    return Position.from_position_id(task.position)


def task_dice(task: Task) -> Dice:
    if task.dice is None:
        raise ValueError("a question task has no dice")
    return Dice(*task.dice)


def judge_steps(task: Task, steps: Sequence[tuple[int, int]]) -> Verdict:
    """The verdict on the steps made so far in a play task."""
    position, dice = task_position(task), task_dice(task)
    turn = board_steps.walk(position, dice, "light", steps)
    if turn["refusal"]:
        return Verdict("refused", turn["refusal"], turn=turn)
    if not turn["complete"]:
        return Verdict("partial", turn=turn)
    play = parse_play(position, dice, turn["notation"]) if turn["notation"] else None
    if reaches_goal(task, position, dice, turn):
        why = [str(task.why)] if task.why else []
        return Verdict("done", done_words(task, turn), why, turn=turn)
    reasons = [] if play is None else [r.to_json() for r in explain_play(position, play)]
    return Verdict("miss", miss_message(task), render_reasons(reasons), turn=turn)


def miss_message(task: Task) -> str:
    """Why a legal play misses the task: the lesson's words, or the plays it accepts."""
    if task.miss:
        return str(task.miss)
    plays = pgettext("list separator", ", ").join(task.accept)
    return _("The standard plays of this roll: %(plays)s.") % {"plays": plays}


def reaches_goal(task: Task, position: Position, dice: Dice, turn: dict[str, Any]) -> bool:
    """Whether a complete play (``turn`` from ``walk``) reaches the task's goal."""
    result = Position.from_position_id(turn["result_id"])
    if task.goal is Goal.PLAY:
        return result in {parse_play(position, dice, text).result for text in task.accept}
    if task.goal is Goal.HIT:
        return any(step["hit"] for step in turn["steps"])
    if task.goal is Goal.ENTER:
        return result.me[24] == 0
    if task.goal is Goal.OFF:
        return result.borne_off()[0] - position.borne_off()[0] >= task.off
    return task.goal is Goal.ANY


def done_words(task: Task, turn: dict[str, Any]) -> str:
    result = Position.from_position_id(turn["result_id"])
    won = outcome(result, Side.LIGHT)
    if won is not None:
        return _("Right: %(play)s. You have won: %(kind)s.") % {
            "play": turn["notation"],
            "kind": result_label(won.kind.value),
        }
    return _("Right: %(play)s.") % {"play": turn["notation"]}


# The hints' ranking at 1-ply: bgsage's net in this process, a few
# milliseconds a position; no job for the computer's workers.
PICK_PLY = 1


@functools.lru_cache(maxsize=256)
def ranked_plays(position_id: str, dice: tuple[int, int]) -> tuple[Any, ...]:
    """Every legal play as the hints rank it (``ai_worker.candidates.Candidate``), best first."""
    position, roll = Position.from_position_id(position_id), Dice(*dice)
    top = len(legal_plays(position, roll))
    return tuple(candidates.hint(position, roll, PICK_PLY, top, default_rank))


@functools.lru_cache(maxsize=64)
def ranked_pair(position_id: str, dice: tuple[int, int], plays: tuple[str, ...]) -> tuple[Any, ...]:
    """The candidates (``ai_worker.candidates.Candidate``) of ``plays``, best first."""
    position, roll = Position.from_position_id(position_id), Dice(*dice)
    wanted = {parse_play(position, roll, text).result.position_id(): text for text in plays}
    ranked = ranked_plays(position_id, dice)
    return tuple((wanted[c.result_id], c) for c in ranked if c.result_id in wanted)


def _roll(task: Task) -> tuple[int, int]:
    dice = task_dice(task)
    return dice.d1, dice.d2


def choices(task: Task) -> list[tuple[str, str]]:
    """The answers a question task offers: (key, label)."""
    if task.goal is Goal.PICK:
        return [(text, text) for text in task.accept]
    return [(key, str(label)) for key, label in CHOICES.get(task.goal, ())]


@functools.lru_cache(maxsize=32)
def cube_advice(position_id: str, goal: Goal) -> dict[str, Any]:
    """The engine's advice on a cube task (money game, cube in the middle, no
    Jacoby rule): the person doubles (``DOUBLE``) or answers the computer's
    double (``TAKE``, the computer on roll); bgsage at 1-ply in this process."""
    position = Position.from_position_id(position_id)
    if goal is Goal.DOUBLE:
        context = CubeContext(Cube(), Match(jacoby=False), Side.LIGHT)
        return advise(position, context, DOUBLE, PICK_PLY).to_json()
    context = CubeContext(Cube(), Match(jacoby=False), Side.DARK)
    return advise(position.swapped(), context, TAKE, PICK_PLY).to_json()


def cube_on_board(task: Task) -> dict[str, Any] | None:
    """The cube as games/board.js draws it: offered by the computer in a take task."""
    if task.goal not in (Goal.DOUBLE, Goal.TAKE):
        return None
    return {"value": 1, "owner": "", "offered": "dark" if task.goal is Goal.TAKE else ""}


def right_answer(task: Task) -> str:
    """The engine's answer to a question task."""
    position = task_position(task)
    if task.goal in (Goal.DOUBLE, Goal.TAKE):
        best = str(cube_advice(task.position, task.goal)["best"])
        return "no_double" if best == "too_good" else best
    if task.goal is Goal.PICK:
        return str(ranked_pair(task.position, _roll(task), task.accept)[0][0])
    if task.goal is Goal.COUNT:
        return str(position.pips()[0])
    if task.goal is Goal.CAN_ENTER:
        plays = legal_plays(position, task_dice(task))
        return "yes" if any(play.steps for play in plays) else "no"
    if task.goal is Goal.RESULT:
        won = outcome(position, Side.LIGHT)
        if won is None:
            raise ValueError("the task's game is not over")
        return won.kind.value
    raise ValueError(f"{task.goal} is not a question")


def judge_answer(task: Task, answer: str) -> Verdict:
    if task.goal is Goal.PICK:
        return judge_pick(task, answer.strip())
    if task.goal in (Goal.DOUBLE, Goal.TAKE):
        return judge_cube(task, answer.strip())
    right = right_answer(task)
    if answer.strip() == right:
        return Verdict("done", _("Right."))
    return Verdict("miss", miss_words(task, answer.strip()))


def judge_pick(task: Task, answer: str) -> Verdict:
    """Right when ``answer`` is the play the hints rank higher; the words say
    by how much, and the reasons of the play chosen."""
    (best, better), (other, worse) = ranked_pair(task.position, _roll(task), task.accept)
    gap = f"{better.equity - worse.equity:.3f}"
    chosen = better if answer == best else worse
    reasons = render_reasons([r.to_json() for r in chosen.reasons])
    if answer == best:
        words = _("Right: %(play)s is better than %(other)s by %(gap)s in equity.")
        return Verdict("done", words % {"play": best, "other": other, "gap": gap}, reasons)
    if answer != other:
        return Verdict("miss", _("Pick one of the two plays shown."))
    words = _("The engine ranks %(play)s higher, by %(gap)s in equity. What %(other)s does:")
    return Verdict("miss", words % {"play": best, "other": other, "gap": gap}, reasons)


def judge_cube(task: Task, answer: str) -> Verdict:
    """Right when ``answer`` is the engine's action; the words are the cube
    hint's: the person's chances, each action's equity and the take point."""
    hint = cube_hint_json(cube_advice(task.position, task.goal))
    if answer not in dict(choices(task)):
        return Verdict("miss", _("Answer with one of the two buttons."))
    if answer == right_answer(task):
        return Verdict("done", _("Right: %(title)s") % {"title": hint["title"]}, hint["lines"])
    return Verdict("miss", _("Not this time. %(title)s") % {"title": hint["title"]}, hint["lines"])


def miss_words(task: Task, answer: str) -> str:
    position = task_position(task)
    if task.goal is Goal.COUNT:
        if not answer.isdigit():
            return _("Write the pip count as a number, such as 42.")
        return _("Not %(answer)s: add up each checker's point number (the bar counts 25).") % {
            "answer": answer
        }
    if task.goal is Goal.CAN_ENTER:
        return _(
            "Look at the two points the dice would enter on: 25 minus each die. "
            "Is either of them open?"
        )
    won = outcome(position, Side.LIGHT)
    dark_off = position.borne_off()[1]
    if won is not None and dark_off:
        return _("The computer has borne off %(n)s checkers: what does that make it?") % {
            "n": dark_off
        }
    return _(
        "The computer has borne off none: is any of its checkers still on the bar or in "
        "your home board (points 1 to 6)?"
    )


def result_label(kind: str) -> str:
    labels = {
        "single": _("a single win, 1 point"),
        "gammon": _("a gammon, 2 points"),
        "backgammon": _("a backgammon, 3 points"),
    }
    return labels[kind]
