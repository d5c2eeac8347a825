"""Judging a task of the course with the engine.

Clicks become steps (``clicks.expand``: a far click is the checker's steps)
and go through ``learning.board.steps.walk`` (the analysis board's walk
through ``games.engine.Turn``): a refused step comes back with the play
page's words for it and is not a mistake, nothing having moved. A complete
play is then held against the task's goal; one that misses it is answered
with the lesson's words and the engine's reasons about the play (only those
in words the lesson has taught). Questions are judged in ``answers``.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ai_worker import candidates
from ai_worker.explain import explain_play
from ai_worker.features import count_shots
from ai_worker.ranking import default_rank
from games.engine import Dice, Outcome, Position, Side, Turn, legal_plays, outcome, parse_play
from games.words.notation import notation_words
from learning.board import steps as board_steps
from learning.course import clicks
from learning.course.shapes import Goal, Task
from learning.course.words import right_play, taught_only
from learning.words.reasons import render_reasons


@dataclass(frozen=True)
class Verdict:
    """``state``: "refused" (a step the rules refuse: nothing moved, not a
    mistake), "partial" (steps still to play), "miss" (a legal play or an
    answer that misses the goal: a mistake) or "done"."""

    state: str
    message: str = ""
    reasons: list[str] = field(default_factory=list)
    turn: dict[str, Any] | None = None
    # Steps to draw as arrows with the verdict (the better play of a pick).
    arrows: list[dict[str, int]] = field(default_factory=list)

    @property
    def counts_as_miss(self) -> bool:
        return self.state == "miss"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"state": self.state, "message": self.message}
        data["reasons"] = self.reasons
        data["arrows"] = self.arrows
        if self.turn is not None:
            data["turn"] = self.turn
        return data


def task_position(task: Task) -> Position:
    return Position.from_position_id(task.position)


def task_dice(task: Task) -> Dice:
    if task.dice is None:
        raise ValueError("a question task has no dice")
    return Dice(*task.dice)


def walk(task: Task, targets: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """The board after the person's clicks (far clicks expanded), with the
    far points each checker can still reach."""
    position, dice = task_position(task), task_dice(task)
    steps = clicks.expand(position, dice, targets)
    turn = board_steps.walk(position, dice, "light", steps)
    done = Turn(position, dice)
    for step in turn["steps"]:
        done = done.step(step["from"], step["to"])
    return {**turn, "reach": clicks.reach(done)}


def judge_steps(
    task: Task, targets: Sequence[tuple[int, int]], known: Collection[str] = ()
) -> Verdict:
    """The verdict on the clicks made so far in a play task."""
    position, dice = task_position(task), task_dice(task)
    turn = walk(task, targets)
    if turn["refusal"]:
        return Verdict("refused", turn["refusal"], turn=turn)
    if not turn["complete"]:
        return Verdict("partial", turn=turn)
    if reaches_goal(task, position, dice, turn):
        why = [str(task.why)] if task.why else []
        return Verdict("done", done_words(turn, known), why, turn=turn)
    play = parse_play(position, dice, turn["notation"]) if turn["notation"] else None
    reasons = [] if play is None else [r.to_json() for r in explain_play(position, play)]
    lines = taught_only(render_reasons(reasons), known)
    return Verdict("miss", miss_message(task, turn), lines, turn=turn)


def done_words(turn: dict[str, Any], known: Collection[str]) -> str:
    """ "Right:" and the play, and the win when the play ends the game (its
    kind once the lesson on the kinds of win has taught them)."""
    words = right_play(turn["steps"], turn["notation"], known)
    won = outcome(Position.from_position_id(turn["result_id"]), Side.LIGHT)
    if won is None:
        return words
    if KIND_TERMS[won.kind.value] not in known:
        return _("%(right)s You have won the game.") % {"right": words}
    return _("%(right)s You have won: %(kind)s.") % {"right": words, "kind": result_label(won)}


# The glossary's term for each kind of win.
KIND_TERMS = {"single": "single-win", "gammon": "gammon", "backgammon": "backgammon"}


def result_label(won: Outcome) -> str:
    labels = {
        "single": _("a single win, 1 point"),
        "gammon": _("a gammon, 2 points"),
        "backgammon": _("a backgammon, 3 points"),
    }
    return labels[won.kind.value]


def probe(task: Task, targets: Sequence[tuple[int, int]], where: int) -> Verdict:
    """Why the checker the person tapped cannot move (nothing counted)."""
    turn = walk(task, targets)
    done = Turn(task_position(task), task_dice(task))
    for step in turn["steps"]:
        done = done.step(step["from"], step["to"])
    return Verdict("partial", clicks.why_stuck(done, where), turn=turn)


def least_shots(task: Task) -> int:
    """The fewest rolls that hit one of the person's blots after any play."""
    position, dice = task_position(task), task_dice(task)
    return min(count_shots(play.result) for play in legal_plays(position, dice))


def miss_message(task: Task, turn: dict[str, Any]) -> str:
    """Why a legal play misses the task: the lesson's words, or the plays it accepts."""
    if task.goal is Goal.SAFEST:
        shots = count_shots(Position.from_position_id(turn["result_id"]))
        words = _(
            "After this play %(shots)s rolls of 36 hit you; another play leaves only %(least)s."
        )
        return words % {"shots": shots, "least": least_shots(task)}
    if task.miss:
        return str(task.miss)
    plays = pgettext("list separator", ", ").join(notation_words(t) for t in task.accept)
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
    if task.goal is Goal.SAFEST:
        return count_shots(result) == least_shots(task)
    if task.goal is Goal.REACH:
        return result.me[task.point - 1] - position.me[task.point - 1] >= task.off
    if task.goal is Goal.HOME:
        return sum(result.me[:6]) > sum(position.me[:6])
    return task.goal is Goal.ANY


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


def play_arrows(task: Task, text: str) -> list[dict[str, int]]:
    """A play of the task as arrows on the board (display points)."""
    play = parse_play(task_position(task), task_dice(task), text)
    return [{"from": s.src, "to": s.dst} for s in play.steps]
