"""A hint for a task the person has missed twice: the way to do it, drawn or
worked out, as a teacher shows it after two tries."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ai_worker.features import count_shots
from games.engine import BAR, Display, legal_plays
from learning.course import answers, check, clicks
from learning.course.shapes import Goal, Task

# Misses on one task before its hint is shown.
HINT_AFTER = 2


def hint(task: Task) -> dict[str, Any] | None:
    """``{"text", "arrows"}`` for ``task``; None when its words after a miss
    already say everything (a pick, the cube, who may double)."""
    if task.goal in (Goal.PLAY, Goal.HIT, Goal.ENTER, Goal.OFF, Goal.ANY):
        position, dice = check.task_position(task), check.task_dice(task)
        steps = [{"from": a, "to": b} for a, b in clicks.expand(position, dice, task.solution)]
        return {"text": _("A hint: the arrows show one way to do it."), "arrows": steps}
    if task.goal is Goal.SAFEST:
        return {
            "text": _("A hint: the arrows show a play that leaves the fewest shots."),
            "arrows": _safest_arrows(task),
        }
    if task.goal is Goal.COUNT:
        return {"text": _count_words(task), "arrows": []}
    if task.goal is Goal.SHOTS:
        rolls = answers.hitting_rolls(check.task_position(task), task.point)
        words = _("A hint: the rolls that hit are %(rolls)s.")
        return {"text": words % {"rolls": answers.rolls_words(rolls)}, "arrows": []}
    if task.goal is Goal.CAN_ENTER:
        return {"text": _enter_words(task), "arrows": []}
    return None


def _safest_arrows(task: Task) -> list[dict[str, int]]:
    position, dice = check.task_position(task), check.task_dice(task)
    least = check.least_shots(task)
    ranked = check.ranked_plays(task.position, (dice.d1, dice.d2))
    by_result = {p.result.position_id(): p for p in legal_plays(position, dice)}
    for candidate in ranked:
        play = by_result[candidate.result_id]
        if count_shots(play.result) == least:
            return [{"from": s.src, "to": s.dst} for s in play.steps]
    return []


def _count_words(task: Task) -> str:
    board = Display.from_position(check.task_position(task)).to_json()
    parts = [f"{n} × {p}" for p, n in reversed(list(enumerate(board["points"], 1))) if n > 0]
    if board["bar"]["light"]:
        parts.append(f"{board['bar']['light']} × 25")
    total = check.task_position(task).pips()[0]
    return _("A hint: %(sum)s = %(total)s.") % {"sum": " + ".join(parts), "total": total}


def _enter_words(task: Task) -> str:
    position, dice = check.task_position(task), check.task_dice(task)
    points = []
    for die in sorted({dice.d1, dice.d2}, reverse=True):
        point = BAR - die
        held = position.opp[24 - point] >= 2
        words = _("a %(die)s enters on point %(point)s, which the computer holds")
        if not held:
            words = _("a %(die)s enters on point %(point)s, which is open")
        points.append(words % {"die": die, "point": point})
    joined = pgettext("clauses", "; ").join(points)
    return _("A hint: %(points)s.") % {"points": joined}
