"""Steps and finished turns as the board's JSON, in the display numbering
(LIGHT's; DARK's bar and off written ``"bar"`` and ``"off"``: docs/interfaces.md §4).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from games.engine import BAR, OFF, Position, Side, Step
from games.engine.notation import point_name

if TYPE_CHECKING:
    from games.models import Game, Turn

DisplayPoint = int | str


def display_point(point: int, side: str) -> DisplayPoint:
    """A mover-relative point of ``side`` in the display numbering."""
    if side == Side.LIGHT.value:
        return point
    return point_name(point) if point in (BAR, OFF) else BAR - point


# A point number in gnubg notation: after the start, a space or a "/", never
# the count in "(2)".
_NOTATION_POINT = re.compile(r"(?<![(\d])\d{1,2}")


def display_notation(notation: str, side: str) -> str:
    """A play's gnubg notation, written in ``side``'s own numbering, in the
    board's (display) numbering: what the person reads everywhere.

    >>> display_notation("24/18 13/10*", "dark"), display_notation("bar/22 6/off(2)", "dark")
    ('1/7 12/15*', 'bar/3 19/off(2)')
    >>> display_notation("13/11 6/5", "light")
    '13/11 6/5'
    """
    if side == Side.LIGHT.value:
        return notation
    return _NOTATION_POINT.sub(lambda m: str(display_point(int(m.group()), side)), notation)


def stored_steps(steps: Iterable[Step]) -> list[list[int]]:
    """Steps as a Turn row and a turn in progress (``Game.steps``) store them:
    ``[src, dst, die, hit]`` in the mover's numbering, ``hit`` 1 when the
    step hit a blot (the engine's ``Step.hit``, never re-derived).

    >>> stored_steps([Step(13, 8, 5, False), Step(8, 3, 5, True)])
    [[13, 8, 5, 0], [8, 3, 5, 1]]
    """
    return [[s.src, s.dst, s.die, int(s.hit)] for s in steps]


def steps_json(steps: list[list[int]], side: str) -> list[dict[str, Any]]:
    """Stored steps (``stored_steps``) of ``side`` as the board's display dicts."""
    return [
        {
            "from": display_point(src, side),
            "to": display_point(dst, side),
            "die": die,
            "hit": bool(hit),
        }
        for src, dst, die, hit in steps
    ]


def play_arrows(position: Position, steps: Iterable[Step]) -> list[dict[str, Any]]:
    """A play of the side on roll in ``position`` as arrows on the board it
    starts from (its own numbering: LIGHT's is the display's): one arrow per
    checker moved, each from a point that holds that checker before the play;
    a checker moved on again is one arrow (24/18 18/13: 24/13).

    >>> start = Position.start()
    >>> [(a["from"], a["to"]) for a in play_arrows(start, [Step(24, 18, 6), Step(18, 13, 5)])]
    [(24, 13)]
    >>> [(a["from"], a["to"]) for a in play_arrows(start, [Step(8, 5, 3), Step(6, 5, 1)])]
    [(8, 5), (6, 5)]
    """
    left = list(position.me)  # the checkers not moved yet, by point (25: the bar)
    arrows: list[dict[str, Any]] = []
    for step in steps:
        if left[step.src - 1] > 0:
            left[step.src - 1] -= 1
            arrows.append({"from": step.src, "to": step.dst, "hit": step.hit})
            continue
        # A checker this play brought to the point moves on: its arrow goes on.
        arrow = next(a for a in reversed(arrows) if a["to"] == step.src)
        arrow["to"], arrow["hit"] = step.dst, arrow["hit"] or step.hit
    return arrows


def turn_json(turn: Turn) -> dict[str, Any]:
    """A stored Turn row as the board reads it: the state's ``last_turn``, the
    move list's entries, the review's turns (which add their boards)."""
    return {
        "number": turn.number,
        "side": turn.side,
        "dice": [turn.die1, turn.die2],
        "notation": display_notation(turn.notation, turn.side),
        "steps": steps_json(turn.steps, turn.side),
    }


def moves_json(game: Game, turns: Iterable[Turn] | None = None) -> list[dict[str, Any]]:
    """Every finished turn of ``game`` in order (``turns``: read already): the page's move list."""
    rows = turns if turns is not None else game.turns.order_by("number")
    return [turn_json(t) for t in rows]
