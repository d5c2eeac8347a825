"""The brief's fixed orientation for the board, and a text board for the CLI."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.position import CHECKERS, Position


@dataclass(frozen=True, slots=True)
class Display:
    """A position read as LIGHT's: display point ``i + 1`` is ``points[i]``.

    Positive counts are LIGHT checkers, negative DARK (whose own point ``p``
    is display point ``25 - p``).

    >>> d = Display.from_position(Position.start())
    >>> d.points[0], d.points[5], d.points[23]
    (-2, 5, 2)
    >>> d.to_json()["bar"]
    {'light': 0, 'dark': 0}
    """

    points: tuple[int, ...]
    bar_light: int
    bar_dark: int
    off_light: int
    off_dark: int

    @classmethod
    def from_position(cls, position: Position) -> Display:
        light, dark = position.me, position.opp
        points = tuple(light[i] - dark[23 - i] for i in range(24))
        return cls(points, light[24], dark[24], CHECKERS - sum(light), CHECKERS - sum(dark))

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "bar": {"light": self.bar_light, "dark": self.bar_dark},
            "off": {"light": self.off_light, "dark": self.off_dark},
        }


def board_text(position: Position) -> str:
    """A plain text board from the mover's side (X = mover, O = opponent).

    >>> print(board_text(Position.start()).splitlines()[0])
    Position ID: 4HPwATDgc/ABMA
    """
    me, opp = position.me, position.opp

    def cell(point: int) -> str:
        if me[point - 1]:
            return f"{me[point - 1]}X".rjust(4)
        if opp[24 - point]:
            return f"{opp[24 - point]}O".rjust(4)
        return "   .".rjust(4)

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    pips = position.pips()
    off = position.borne_off()
    return "\n".join(
        [
            f"Position ID: {position.position_id()}",
            "".join(str(p).rjust(4) for p in top),
            "".join(cell(p) for p in top),
            "".join(cell(p) for p in bottom),
            "".join(str(p).rjust(4) for p in bottom),
            f"bar: X {me[24]} O {opp[24]}   off: X {off[0]} O {off[1]}"
            f"   pips: X {pips[0]} O {pips[1]}   (X on roll, moving 24 -> 1)",
        ]
    )
