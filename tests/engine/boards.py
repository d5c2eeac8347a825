"""Build test positions by hand, in the mover's numbering for both sides."""

from __future__ import annotations

import tests.boards
from games.engine import Position


def board(
    mine: dict[int, int], theirs: dict[int, int] | None = None, their_bar: int = 0
) -> Position:
    """``mine``: mover's checkers by point (25 = bar); ``theirs``: opponent's
    checkers by the MOVER's point number. Checkers not placed are borne off.
    The suite's one builder (tests/boards.py) with the mover as LIGHT."""
    return tests.boards.board(mine, theirs, dark_bar=their_bar)


def results(position: Position, d1: int, d2: int) -> set[str]:
    from games.engine import Dice, legal_plays

    return {play.notation() for play in legal_plays(position, Dice(d1, d2))}
