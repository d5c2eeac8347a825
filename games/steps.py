"""Steps and finished turns as the board's JSON, in the display numbering.

Every point is a display point (LIGHT's numbering). LIGHT's bar and off are
``25`` and ``0``; DARK's steps are converted and its bar and off are written
``"bar"`` and ``"off"``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from games.engine import BAR, OFF, Position, Side

if TYPE_CHECKING:
    from games.models import Game, Turn

DisplayPoint = int | str


def display_point(point: int, side: str) -> DisplayPoint:
    """A mover-relative point of ``side`` in the display numbering."""
    if side == Side.LIGHT.value:
        return point
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return BAR - point


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


def steps_json(
    steps: list[list[int]], side: str, before: Position | None = None
) -> list[dict[str, Any]]:
    """Steps ``[[src, dst, die], ...]`` of ``side`` as display dicts with hits.

    ``before`` is the position from ``side``'s own view; when given, each
    step says whether it hit a blot.
    """
    out: list[dict[str, Any]] = []
    hits = _hits(steps, before) if before is not None else [False] * len(steps)
    for (src, dst, die), hit in zip(steps, hits, strict=True):
        out.append(
            {
                "from": display_point(src, side),
                "to": display_point(dst, side),
                "die": die,
                "hit": hit,
            }
        )
    return out


def _hits(steps: list[list[int]], before: Position) -> list[bool]:
    """Whether each step lands on a lone opposing checker (replayed in order)."""
    opp = list(before.opp)
    hits = []
    for _src, dst, _die in steps:
        hit = 1 <= dst <= 24 and opp[24 - dst] == 1
        if hit:
            opp[24 - dst] = 0
        hits.append(hit)
    return hits


def turn_json(turn: Turn) -> dict[str, Any]:
    """A stored Turn row as the board reads it: the state's ``last_turn``, the
    move list's entries, the review's turns (which add their boards)."""
    before = Position.from_position_id(turn.position_before)
    if turn.side == Side.DARK.value:
        before = before.swapped()
    return {
        "number": turn.number,
        "side": turn.side,
        "dice": [turn.die1, turn.die2],
        "notation": display_notation(turn.notation, turn.side),
        "steps": steps_json(turn.steps, turn.side, before),
    }


def moves_json(game: Game) -> list[dict[str, Any]]:
    """Every finished turn of ``game`` in order: the page's move list."""
    return [turn_json(t) for t in game.turns.order_by("number")]
