"""XGID (eXtreme Gammon ID): the position, the side on turn, the dice, the cube and the score.

``XGID=position:cube:owner:turn:dice:score_x:score_o:crawford_jacoby:length:max_cube``

- position: 26 characters seen from player X (upper case, moving 24 to 1):
  index 0 is O's bar, 1..24 X's points, 25 X's bar; ``-`` is empty,
  ``A``..``O`` are 1..15 X checkers, ``a``..``o`` O checkers;
- cube: the cube's power of two (0 for 1, 6 for 64); owner: 1 X, -1 O, 0 the
  centre; turn: 1 X, -1 O;
- dice: ``00`` the side on turn is to roll or double, ``D`` it has doubled
  and the other side answers, two digits the dice rolled (``B`` and ``R``,
  beavers and raccoons, are refused: the site plays without them);
- score_x, score_o; crawford_jacoby: in a match 1 for the Crawford game, in
  a money game bit 1 the Jacoby rule (bit 2, beavers, is read and dropped);
  length: 0 for a money game; max_cube: the highest cube's power of two.

X is LIGHT and O is DARK, as GNU Backgammon's ``set xgid`` reads X as the
person and O as the program.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games.engine.cube import MAX_CUBE, MAX_MATCH_LENGTH, Cube, Match
from games.engine.dice import Dice
from games.engine.errors import InvalidNotationError, NumberOutOfRangeError
from games.engine.position import Position, Side

_XGID = re.compile(
    r"^(?:XGID=)?([-A-Oa-o]{26}):(\d+):(-?[01]):(-?1):(\d\d|[DBR])"
    r":(\d+):(\d+):(\d):(\d+)(?::(\d+))?$",
    re.ASCII,
)
# The most each number field may hold: the cube's power of two in play
# (64), a score and a length (MAX_MATCH_LENGTH), and the highest cube the
# file allows (2^15, as in a match file). Checked on the digits before
# ``int`` so no field costs more than its few characters.
_LIMITS = {
    "cube": Cube(MAX_CUBE).level,
    "score": MAX_MATCH_LENGTH,
    "length": MAX_MATCH_LENGTH,
    "max_cube": 15,
}
_LONGEST = 120  # characters: an XGID is about 50
_SIGN = {Side.LIGHT: 1, Side.DARK: -1}


@dataclass(frozen=True, slots=True)
class Xgid:
    """A decision point: the board from the side on turn, with cube and score.

    >>> Xgid(Position.start()).text()
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:6'
    >>> xgid = Xgid.parse('XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10')
    >>> xgid.turn, xgid.cube, xgid.doubled, xgid.match.dark
    (<Side.DARK: 'dark'>, Cube(value=2, owner=<Side.DARK: 'dark'>), True, 4)
    >>> Xgid.parse(xgid.text()) == xgid
    True
    """

    position: Position
    turn: Side = Side.LIGHT
    dice: Dice | None = None
    cube: Cube = field(default_factory=Cube)
    match: Match = field(default_factory=Match)
    doubled: bool = False  # ``D``: the side on turn has doubled

    def __post_init__(self) -> None:
        if self.doubled and self.dice is not None:
            raise ValueError("a side that has doubled has not rolled yet")

    @classmethod
    def parse(cls, text: str) -> Xgid:
        """Read an XGID; InvalidNotationError when it is malformed or breaks the site's rules."""
        found = _XGID.match(text.strip()) if len(text) <= _LONGEST else None
        if not found:
            raise InvalidNotationError(f"cannot read XGID {text[:_LONGEST]!r}")
        fields = tuple(found.group(index) or "" for index in range(1, 10))
        _bounded("max_cube", found.group(10) or "0")
        try:
            return cls._from_fields(fields)
        except NumberOutOfRangeError:
            raise
        except ValueError as error:
            raise InvalidNotationError(f"XGID {text!r}: {error}") from error

    @classmethod
    def _from_fields(cls, fields: tuple[str, ...]) -> Xgid:
        board, level, owner, turn_sign, rolled, score_x, score_o, flags, length = fields
        if rolled in ("B", "R"):
            raise ValueError("beavers and raccoons are not played here")
        x, o = _read_board(board)
        turn = Side.LIGHT if turn_sign == "1" else Side.DARK
        position = Position(x, o) if turn is Side.LIGHT else Position(o, x)
        dice = Dice(int(rolled[0]), int(rolled[1])) if rolled.isdigit() and rolled != "00" else None
        owners = {"1": Side.LIGHT, "-1": Side.DARK, "0": None, "-0": None}
        cube = Cube(1 << _bounded("cube", level), owners[owner])
        match_length = _bounded("length", length)
        crawford = bool(match_length) and int(flags) & 1 == 1
        jacoby = not match_length and int(flags) & 1 == 1
        scores = _bounded("score", score_x), _bounded("score", score_o)
        match = Match(match_length, *scores, crawford, jacoby)
        return cls(position, turn, dice, cube, match, rolled == "D")

    def text(self) -> str:
        """The XGID, written as eXtreme Gammon writes it."""
        me, opp = self.position.me, self.position.opp
        x, o = (me, opp) if self.turn is Side.LIGHT else (opp, me)
        chars = [_char(o[24], upper=False)]
        for point in range(1, 25):
            mine, theirs = x[point - 1], o[24 - point]
            chars.append(_char(mine, upper=True) if mine else _char(theirs, upper=False))
        chars.append(_char(x[24], upper=True))
        if self.doubled:
            rolled = "D"
        else:
            rolled = f"{self.dice.d1}{self.dice.d2}" if self.dice else "00"
        owner = 0 if self.cube.owner is None else _SIGN[self.cube.owner]
        match = self.match
        flag = int(match.crawford if match.length else match.jacoby)
        fields = (
            self.cube.level,
            owner,
            _SIGN[self.turn],
            rolled,
            match.light,
            match.dark,
            flag,
            match.length,
            Cube(MAX_CUBE).level,
        )
        return "XGID=" + "".join(chars) + "".join(f":{value}" for value in fields)

    def __str__(self) -> str:
        return self.text()


def _bounded(name: str, digits: str) -> int:
    """The field's number; NumberOutOfRangeError past its limit (read on few digits only)."""
    limit = _LIMITS[name]
    if len(digits) > len(str(limit)) or int(digits) > limit:
        raise NumberOutOfRangeError(name, digits, limit)
    return int(digits)


def _read_board(board: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(X's half, O's half), each from its own side."""
    x, o = [0] * 25, [0] * 25
    for index, ch in enumerate(board):
        if ch == "-":
            continue
        if ch.isupper() == (index == 0) and index in (0, 25):
            raise ValueError("a checker on the wrong bar")
        count = ord(ch.lower()) - ord("a") + 1
        if ch.isupper():
            x[24 if index == 25 else index - 1] = count
        else:
            o[24 if index == 0 else 24 - index] = count
    return tuple(x), tuple(o)


def _char(count: int, upper: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def encode_xgid(position: Position, dice: Dice | None = None) -> str:
    """XGID of a money game with the cube in the centre, ``position``'s mover (X) on turn.

    >>> encode_xgid(Position.start(), Dice(6, 5))[-19:]
    ':0:0:1:65:0:0:0:0:6'
    """
    return Xgid(position, Side.LIGHT, dice).text()


def decode_xgid(text: str) -> tuple[Position, Dice | None]:
    """The position from the side on turn, and the dice if rolled (see ``Xgid.parse``).

    >>> position, dice = decode_xgid('XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10')
    >>> position == Position.start(), str(dice)
    (True, '52')
    """
    xgid = Xgid.parse(text)
    return xgid.position, xgid.dice
