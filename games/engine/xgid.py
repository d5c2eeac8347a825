"""XGID (eXtreme Gammon ID): position, side on roll and dice.

The position field has 26 characters seen from player X (upper case, moving
24 to 1): index 0 is O's bar, 1..24 X's points, 25 X's bar; ``-`` is empty,
``A``..``O`` are 1..15 X checkers, ``a``..``o`` O checkers. We write the
mover as X with turn ``1`` and the cube fields at their defaults (money game).
"""

from __future__ import annotations

import re

from games.engine.dice import Dice
from games.engine.errors import InvalidNotationError
from games.engine.position import Position

_XGID = re.compile(r"^(?:XGID=)?([-A-Oa-o]{26}):(-?\d+):(-?\d+):(-?1):(\w{2}):(.*)$")


def encode_xgid(position: Position, dice: Dice | None = None) -> str:
    """XGID with ``position``'s mover as X, on roll.

    >>> encode_xgid(Position.start())
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    >>> encode_xgid(Position.start(), Dice(6, 5))[-20:]
    ':0:0:1:65:0:0:0:0:10'
    """
    chars = [_char(position.opp[24], upper=False)]
    for point in range(1, 25):
        mine, theirs = position.me[point - 1], position.opp[24 - point]
        chars.append(_char(mine, upper=True) if mine else _char(theirs, upper=False))
    chars.append(_char(position.me[24], upper=True))
    rolled = f"{dice.d1}{dice.d2}" if dice else "00"
    return f"XGID={''.join(chars)}:0:0:1:{rolled}:0:0:0:0:10"


def _char(count: int, upper: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def decode_xgid(text: str) -> tuple[Position, Dice | None]:
    """The position from the side on roll, and the dice if rolled.

    >>> position, dice = decode_xgid('XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10')
    >>> position == Position.start(), str(dice)
    (True, '52')
    """
    match = _XGID.match(text.strip())
    if not match:
        raise InvalidNotationError(f"cannot read XGID {text!r}")
    field, turn, rolled = match.group(1), int(match.group(4)), match.group(5)
    x, o = [0] * 25, [0] * 25
    for index, ch in enumerate(field):
        if ch == "-":
            continue
        count = ord(ch.lower()) - ord("a") + 1
        if ch.isupper():
            x[24 if index == 25 else index - 1] = count
        else:
            o[24 if index == 0 else 24 - index] = count
        if ch.isupper() == (index == 0) and index in (0, 25):
            raise InvalidNotationError(f"XGID {text!r} puts a checker on the wrong bar")
    try:
        position = Position(tuple(x), tuple(o)) if turn == 1 else Position(tuple(o), tuple(x))
        dice = Dice(int(rolled[0]), int(rolled[1])) if rolled.isdigit() and rolled != "00" else None
    except ValueError as error:
        raise InvalidNotationError(f"XGID {text!r}: {error}") from error
    return position, dice
