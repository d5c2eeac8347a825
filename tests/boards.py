"""The one board builder of the test suite (engine, games, ai and learning tests).

``board(light, dark, light_bar=0, dark_bar=0)``: a position from LIGHT's side,
which is also the side on roll for the engine's tests. Both colours are
placed by display point (LIGHT's numbering, the mover's): ``light`` maps a
point to LIGHT's checkers there (25 = LIGHT's bar), ``dark`` maps a point to
DARK's checkers there. Checkers not placed are borne off.

>>> from games.engine import Position
>>> board({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}) == Position.start()
True
"""

from __future__ import annotations

from games.engine import Position


def board(
    light: dict[int, int] | None = None,
    dark: dict[int, int] | None = None,
    light_bar: int = 0,
    dark_bar: int = 0,
) -> Position:
    me = [0] * 25
    opp = [0] * 25
    for point, n in (light or {}).items():
        me[point - 1] = n
    for point, n in (dark or {}).items():
        opp[24 - point] = n  # DARK's own point is 25 - display point
    me[24] += light_bar
    opp[24] += dark_bar
    return Position(tuple(me), tuple(opp))
