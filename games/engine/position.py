"""Positions: 24 points, bar and borne-off for both sides, from the mover's side.

``Position(me, opp)`` is GNU Backgammon's ``TanBoard``: ``me[i]`` counts the
mover's checkers on its own point ``i + 1`` and ``me[24]`` its bar; ``opp`` is
the same for the opponent, numbered from the opponent's own side.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.dice import Dice
    from games.engine.display import Display
    from games.engine.plays import Play

CHECKERS = 15
BAR = 25
OFF = 0
_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class Side(enum.Enum):
    """The two players: LIGHT is the person, DARK the computer.

    >>> Side.LIGHT.other
    <Side.DARK: 'dark'>
    """

    LIGHT = "light"
    DARK = "dark"

    @property
    def other(self) -> Side:
        return Side.DARK if self is Side.LIGHT else Side.LIGHT


def _check_half(half: tuple[int, ...], name: str) -> None:
    if len(half) != 25 or not all(type(n) is int for n in half):
        raise ValueError(f"{name} must be 25 ints, got {half!r}")
    if any(n < 0 for n in half) or sum(half) > CHECKERS:
        raise ValueError(f"{name} must hold 0..{CHECKERS} checkers, got {half}")


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable board seen from the side on roll.

    >>> p = Position.start()
    >>> p.pips()
    (167, 167)
    >>> p.position_id()
    '4HPwATDgc/ABMA'
    >>> p.swapped() == p
    True
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]

    def __post_init__(self) -> None:
        # Lists are accepted but stored as tuples so positions stay hashable.
        object.__setattr__(self, "me", tuple(self.me))
        object.__setattr__(self, "opp", tuple(self.opp))
        _check_half(self.me, "me")
        _check_half(self.opp, "opp")
        for point in range(1, 25):
            if self.me[point - 1] and self.opp[24 - point]:
                raise ValueError(f"both sides have checkers on point {point}")

    @classmethod
    def start(cls) -> Position:
        """The starting position (symmetric, so it does not matter who is on roll)."""
        return cls(_START, _START)

    @classmethod
    def from_position_id(cls, pid: str) -> Position:
        """Read GNU Backgammon's 14-character Position ID (the mover as gnubg reads it).

        >>> Position.from_position_id('4HPwATDgc/ABMA') == Position.start()
        True
        """
        from games.engine.position_id import decode_position_id

        return decode_position_id(pid)

    @classmethod
    def from_xgid(cls, text: str) -> tuple[Position, Dice | None]:
        """Read an XGID; the position comes back from the side on roll."""
        from games.engine.xgid import decode_xgid

        return decode_xgid(text)

    def position_id(self) -> str:
        """GNU Backgammon's Position ID with this position's mover on roll."""
        from games.engine.position_id import encode_position_id

        return encode_position_id(self)

    def xgid(self, dice: Dice | None = None) -> str:
        """XGID with this mover on roll (cube fields at their defaults)."""
        from games.engine.xgid import encode_xgid

        return encode_xgid(self, dice)

    def swapped(self) -> Position:
        """The same board seen by the other side."""
        return Position(self.opp, self.me)

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off by (mover, opponent).

        >>> Position.start().borne_off()
        (0, 0)
        """
        return CHECKERS - sum(self.me), CHECKERS - sum(self.opp)

    def pips(self) -> tuple[int, int]:
        """Pip counts (mover, opponent); a checker on the bar counts 25."""
        return _pips(self.me), _pips(self.opp)

    def mine(self, point: int) -> int:
        """The mover's checkers on a mover-relative point (25 = bar, 0 = off)."""
        if point == OFF:
            return self.borne_off()[0]
        return self.me[point - 1]

    def theirs(self, point: int) -> int:
        """The opponent's checkers on the mover's point ``point`` (1..24)."""
        return self.opp[24 - point]

    def apply(self, play: Play) -> Position:
        """The board after ``play``, still from the mover's side.

        Raises ``IllegalPlayError`` when the play is not one of the legal plays
        for its dice here.
        """
        from games.engine.plays import check_play

        return check_play(self, play)

    def display(self) -> Display:
        """The brief's fixed orientation, reading this position as LIGHT's."""
        from games.engine.display import Display

        return Display.from_position(self)

    def __str__(self) -> str:
        return self.position_id()


def _pips(half: tuple[int, ...]) -> int:
    return sum(count * (index + 1) for index, count in enumerate(half))
