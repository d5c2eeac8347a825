"""Positions: 24 points, bar and borne-off for both sides, from the mover's side.

``Position(me, opp)`` is GNU Backgammon's ``TanBoard``: ``me[i]`` counts the
mover's checkers on its own point ``i + 1`` and ``me[24]`` its bar; ``opp`` is
the same for the opponent, numbered from the opponent's own side.

The board's constants live here, once, for the whole site: 15 checkers a
side, 24 points, the bar as point 25 and borne-off as point 0 (gnubg's
numbering from the mover's side).
"""

from __future__ import annotations

import base64
import binascii
import enum
import re
from dataclasses import dataclass

from games.engine.errors import InvalidNotationError

CHECKERS = 15
BAR = 25
OFF = 0
_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
_ID = re.compile(r"^[A-Za-z0-9+/]{14}$")


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
        opp, me = _decode_position_id(pid)
        try:
            return cls(me, opp)
        except ValueError as error:
            raise InvalidNotationError(f"Position ID {pid!r}: {error}") from error

    def position_id(self) -> str:
        """GNU Backgammon's Position ID with this position's mover on roll."""
        return _encode_position_id(self.opp, self.me)

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

    def __str__(self) -> str:
        return self.position_id()


def _pips(half: tuple[int, ...]) -> int:
    return sum(count * (index + 1) for index, count in enumerate(half))


# GNU Backgammon's Position ID. The key is a bit string: for the opponent,
# then for the side on roll (``anBoard[0]``, ``anBoard[1]``), each of its 25
# places (points 1..24 from its own side, then the bar) gives one ``1`` per
# checker and a closing ``0``. The 80 bits are packed little-endian into 10
# bytes and written in base64 without padding.


def _encode_position_id(*halves: tuple[int, ...]) -> str:
    key = 0
    bit = 0
    for half in halves:
        for count in half:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def _decode_position_id(pid: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(opponent's half, mover's half); InvalidNotationError when malformed."""
    text = pid.strip()
    if not _ID.match(text):
        raise InvalidNotationError(f"a Position ID is 14 base64 characters, got {pid!r}")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as error:
        raise InvalidNotationError(f"bad Position ID {pid!r}") from error
    key = int.from_bytes(raw, "little")
    halves: list[list[int]] = [[], []]
    count = 0
    for bit in range(80):
        if len(halves[1]) == 25:
            break
        if key >> bit & 1:
            count += 1
            continue
        halves[0 if len(halves[0]) < 25 else 1].append(count)
        count = 0
    if len(halves[1]) != 25 or any(sum(h) > CHECKERS for h in halves):
        raise InvalidNotationError(f"Position ID {pid!r} does not describe a board")
    return tuple(halves[0]), tuple(halves[1])
