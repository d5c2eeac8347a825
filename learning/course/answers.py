"""Judging the questions of the course with the engine: a number (the pip
count, the rolls that hit a blot), a choice (can it enter, the kind of win,
may you double, the better of two plays, the cube action), or a play
shown, read and gone on from.

A number may come as the person's input method types it (full-width
"２１", spaces around it): it is read as the number. The right answer is
always the engine's (``right_answer``), never stored.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Collection
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ai_worker.cube import CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, advise
from ai_worker.features import count_shots
from games.engine import (
    ROLLS,
    Cube,
    Dice,
    Match,
    Position,
    Side,
    double_refusal,
    legal_plays,
    outcome,
    parse_play,
)
from games.words.notation import notation_words
from learning.course import check
from learning.course.check import PICK_PLY, Verdict, task_dice, task_position
from learning.course.shapes import CHOICES, NUMBERS, Goal, Task
from learning.course.words import percent, taught_only
from learning.words.reasons import render_reasons


def read_answer(answer: str) -> str:
    """The answer as the engine's answers are written: full-width digits and
    letters to their ASCII forms (NFKC), spaces around it dropped."""
    return unicodedata.normalize("NFKC", answer).strip()


def choices(task: Task) -> list[tuple[str, str]]:
    """The answers a question task offers: (key, label)."""
    if task.goal is Goal.PICK:
        return [(text, notation_words(text)) for text in task.accept]
    return [(key, str(label)) for key, label in CHOICES.get(task.goal, ())]


def hitting_rolls(position: Position, point: int) -> list[tuple[int, int, int]]:
    """The rolls (high, low, weight) with which the computer can hit the
    person's blot on ``point``, by the rules: some legal play of the roll
    lands on it."""
    theirs = position.swapped()
    target = 25 - point  # the blot's point in the computer's numbering
    return [
        (d1, d2, weight)
        for d1, d2, weight in ROLLS
        if any(
            s.hit and s.dst == target for p in legal_plays(theirs, Dice(d1, d2)) for s in p.steps
        )
    ]


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
    """The cube as games/board.js draws it: offered by the computer in a take
    task, where ``cube`` puts it in a question about who may double."""
    if task.goal is Goal.MAY_DOUBLE and task.cube is not None:
        value, owner = task.cube
        return {"value": value, "owner": owner, "offered": ""}
    if task.goal not in (Goal.DOUBLE, Goal.TAKE):
        return None
    return {"value": 1, "owner": "", "offered": "dark" if task.goal is Goal.TAKE else ""}


def may_double(task: Task) -> bool:
    value, owner = task.cube or (1, "")
    cube = Cube(value, Side(owner) if owner else None)
    return double_refusal(cube, Match(), Side.LIGHT) is None


def right_answer(task: Task) -> str:
    """The engine's answer to a question task."""
    position = task_position(task)
    if task.goal in (Goal.DOUBLE, Goal.TAKE):
        best = str(cube_advice(task.position, task.goal)["best"])
        return "no_double" if best == "too_good" else best
    if task.goal is Goal.PICK:
        return str(check.ranked_pair(task.position, _roll(task), task.accept)[0][0])
    if task.goal is Goal.COUNT:
        return str(position.pips()[0])
    if task.goal is Goal.SHOTS:
        return str(count_shots(position, target=task.point))
    if task.goal is Goal.MAY_DOUBLE:
        return "yes" if may_double(task) else "no"
    if task.goal is Goal.SHOW:
        return "seen"
    if task.goal is Goal.CAN_ENTER:
        plays = legal_plays(position, task_dice(task))
        return "yes" if any(play.steps for play in plays) else "no"
    if task.goal is Goal.RESULT:
        won = outcome(position, Side.LIGHT)
        if won is None:
            raise ValueError("the task's game is not over")
        return won.kind.value
    raise ValueError(f"{task.goal} is not a question")


def _roll(task: Task) -> tuple[int, int]:
    dice = task_dice(task)
    return dice.d1, dice.d2


def judge_answer(task: Task, answer: str, known: Collection[str] = ()) -> Verdict:
    answer = read_answer(answer)
    if task.goal is Goal.PICK:
        return judge_pick(task, answer, known)
    if task.goal in (Goal.DOUBLE, Goal.TAKE):
        return judge_cube(task, answer)
    if task.goal is Goal.SHOW:
        if answer == "seen":
            return Verdict("done", "")
        return Verdict("refused", _("Answer with one of the buttons."))
    if task.goal is Goal.MAY_DOUBLE:
        if answer == right_answer(task):
            return Verdict("done", _("Right: %(why)s") % {"why": cube_place_words(task)})
        return Verdict("miss", cube_place_words(task))
    if answer == right_answer(task):
        return Verdict("done", _("Right."))
    if task.goal in NUMBERS and not answer.isdigit():
        return Verdict("miss", _("Write the answer as a number, such as 12."))
    return Verdict("miss", miss_words(task, answer))


def cube_place_words(task: Task) -> str:
    owner = (task.cube or (1, ""))[1]
    if owner == "light":
        return _("The cube is on your side: only you may double.")
    if owner == "dark":
        return _("The cube is on the computer's side: only the computer may double, not you.")
    return _("The cube is in the middle: either side may double before its own roll.")


def judge_pick(task: Task, answer: str, known: Collection[str]) -> Verdict:
    """Right when ``answer`` is the play the hints rank higher; the words say
    by how much, how many rolls hit each, and why the better one is better;
    the better one is drawn on the board."""
    (best, better), (other, worse) = check.ranked_pair(task.position, _roll(task), task.accept)
    if answer not in (best, other):
        return Verdict("miss", _("Pick one of the two plays shown."))
    names = {"play": notation_words(best), "other": notation_words(other)}
    gap = f"{better.equity - worse.equity:.3f}"
    if answer == best:
        words = _(
            "Right: %(play)s is better than %(other)s: its [[equity]] ([[cubeless]]) is %(gap)s "
            "higher."
        )
    else:
        words = _(
            "The computer ranks %(play)s higher than %(other)s: its [[equity]] ([[cubeless]]) "
            "is %(gap)s higher."
        )
    lines = [
        *_shots_line(task, best, other),
        *render_reasons([r.to_json() for r in better.reasons]),
    ]
    state = "done" if answer == best else "miss"
    arrows = check.play_arrows(task, best)
    return Verdict(state, words % {**names, "gap": gap}, taught_only(lines, known), arrows=arrows)


def _shots_words(shots: int) -> str:
    if shots == 0:
        return _("no roll hits you")
    return _("%(shots)s rolls of 36 hit you") % {"shots": shots}


def _shots_line(task: Task, best: str, other: str) -> list[str]:
    position, dice = task_position(task), task_dice(task)
    shots = [count_shots(parse_play(position, dice, text).result) for text in (best, other)]
    if shots == [0, 0]:
        return []
    words = _("After %(play)s %(best)s; after %(other)s %(worse)s.")
    return [
        words
        % {
            "play": notation_words(best),
            "best": _shots_words(shots[0]),
            "other": notation_words(other),
            "worse": _shots_words(shots[1]),
        }
    ]


def judge_cube(task: Task, answer: str) -> Verdict:
    """Right when ``answer`` is the engine's action. The words give the
    person's chances, the take point and each action's equity, every chance
    written the same way on the one screen."""
    if answer not in dict(choices(task)):
        return Verdict("miss", _("Answer with one of the two buttons."))
    advice = cube_advice(task.position, task.goal)
    right = right_answer(task)
    label = dict(choices(task))[right]
    if answer == right:
        return Verdict(
            "done", _("Right: %(action)s.") % {"action": label}, cube_lines(task, advice)
        )
    words = _("Not this time: the right answer is %(action)s.") % {"action": label}
    return Verdict("miss", words, cube_lines(task, advice))


def cube_lines(task: Task, advice: dict[str, Any]) -> list[str]:
    probs, values = advice["probs"], advice["values"]
    doubler_wins = float(probs["win"])
    mine = doubler_wins if task.goal is Goal.DOUBLE else 1 - doubler_wins
    take_point = percent(float(advice["take_point"]))
    gammons = float(probs["win_gammon"]) + float(probs["lose_gammon"])
    if gammons:
        words = _("Your chance to win: %(win)s; a gammon, either way: %(gammons)s.")
    else:
        words = _("Your chance to win: %(win)s; no one can lose a gammon in this race.")
    lines = [words % {"win": percent(mine), "gammons": percent(gammons)}]
    if task.goal is Goal.DOUBLE:
        lines.append(
            _("The computer's chance: %(chance)s, against its take point of about %(point)s.")
            % {"chance": percent(1 - doubler_wins), "point": take_point}
        )
        lines.append(
            _("[[equity|Equity]] at the stakes before the double: no double %(nd)s, double %(d)s.")
            % {"nd": f"{values['no_double']:+.3f}", "d": f"{values['double']:+.3f}"}
        )
    else:
        lines.append(_("Your take point here: about %(point)s.") % {"point": take_point})
        lines.append(
            _("[[equity|Equity]] at the stakes before the double: take %(take)s, pass %(pass)s.")
            % {"take": f"{values['take']:+.3f}", "pass": f"{values['pass']:+.3f}"}
        )
    return lines


def miss_words(task: Task, answer: str) -> str:
    position = task_position(task)
    if task.goal is Goal.COUNT:
        return _("Not %(answer)s: add up each checker's point number (the bar counts 25).") % {
            "answer": answer
        }
    if task.goal is Goal.SHOTS:
        return _(
            "Not %(answer)s. Count the rolls with a die that reaches the blot, then the rolls "
            "whose two dice together reach it; a double counts once."
        ) % {"answer": answer}
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


def rolls_words(rolls: list[tuple[int, int, int]]) -> str:
    """The rolls as a person lists them: 6-1, 1-6 … (a double once)."""
    names = []
    for d1, d2, weight in rolls:
        names.append(f"{d1}-{d2}")
        if weight == 2:
            names.append(f"{d2}-{d1}")
    return pgettext("list separator", ", ").join(names)
