"""GNU Backgammon's 14-character Position ID.

The key is a bit string: for the opponent, then for the side on roll (the
``TanBoard`` order ``anBoard[0]``, ``anBoard[1]``), each of its 25 places
(points 1..24 from its own side, then the bar) gives one ``1`` per checker
and a closing ``0``. The 80 bits are packed little-endian into 10 bytes and
written in base64 without padding.
"""

from __future__ import annotations

import base64
import binascii
import re

from games.engine.errors import InvalidNotationError
from games.engine.position import CHECKERS, Position

_ID = re.compile(r"^[A-Za-z0-9+/]{14}$")


def encode_position_id(position: Position) -> str:
    """The Position ID with ``position``'s mover on roll.

    >>> encode_position_id(Position.start())
    '4HPwATDgc/ABMA'
    """
    key = 0
    bit = 0
    for half in (position.opp, position.me):
        for count in half:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def decode_position_id(pid: str) -> Position:
    """Read a Position ID; raises InvalidNotationError for a malformed one.

    >>> decode_position_id('4HPwATDgc/ABMA').pips()
    (167, 167)
    """
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
    try:
        return Position(tuple(halves[1]), tuple(halves[0]))
    except ValueError as error:
        raise InvalidNotationError(f"Position ID {pid!r}: {error}") from error
