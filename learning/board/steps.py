"""Moving checkers on the study boards, one step at a time, by the engine's rules.

The analysis board's variations and the practice page send every step made
so far (board targets: display points, 25 the bar and 0 the tray of the side
on roll); ``walk`` replays them through ``games.engine.Turn`` and answers
with the board, the steps the next click may make, and, at a refused step,
the reason in words while the board stays as it was before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import BAR, OFF, Dice, IllegalStepError, Position, Turn
from games.words.refusals import describe_refusal
from learning.board.errors import BoardInputError
from learning.board.input import board_facts, mover_point


def target_point(point: int, side: str) -> int:
    """A mover-relative point as the board target the page clicks."""
    if side == "light" or point in (OFF, BAR):
        return point
    return BAR - point


def read_steps(raw: Any) -> list[tuple[int, int]]:
    if not isinstance(raw, list) or len(raw) > 4:
        raise BoardInputError("malformed", {"text": "steps"})
    steps = []
    for step in raw:
        if not (isinstance(step, list) and len(step) == 2 and all(type(n) is int for n in step)):
            raise BoardInputError("malformed", {"text": "steps"})
        for point in step:
            if not OFF <= point <= BAR:
                raise BoardInputError("bad_point", {"point": point})
        steps.append((step[0], step[1]))
    return steps


def walk(
    position: Position, dice: Dice, side: str, targets: Sequence[tuple[int, int]]
) -> dict[str, Any]:
    """The turn after ``targets``' steps; stops at the first refused one."""
    turn = Turn(position, dice)
    refusal = ""
    for src, dst in targets:
        try:
            turn = turn.step(mover_point(src, side), mover_point(dst, side))
        except IllegalStepError as error:
            refusal = describe_refusal(error.refusal)
            break
    return turn_json(turn, side, refusal)


def turn_json(turn: Turn, side: str, refusal: str = "") -> dict[str, Any]:
    steps = [
        {"from": target_point(s.src, side), "to": target_point(s.dst, side), "hit": s.hit}
        for s in turn.steps
    ]
    data: dict[str, Any] = {
        **board_facts(turn.current, side),
        "steps": steps,
        "remaining": list(turn.remaining),
        "complete": turn.complete,
        "allowed": [
            {"from": target_point(s.src, side), "to": target_point(s.dst, side)}
            for s in ([] if turn.complete else turn.allowed_steps())
        ],
        "refusal": refusal,
    }
    if turn.complete:
        play = turn.play()
        data["notation"] = play.notation()
        data["result_id"] = play.result.position_id()
        # The other side is on roll after the play.
        data["next_id"] = play.result.swapped().position_id()
    return data
