"""GNU Backgammon's Match ID: the cube, the score, whose turn and the dice in
12 characters, shown beside the Position ID by every analysis program.

The key is a bit string of 66 bits (the GNU Backgammon manual, "A technical
description of the Match ID"), each field written least significant bit
first, packed little-endian into 9 bytes and written in base64:

====  =====================================================================
bits  field
====  =====================================================================
1-4   the cube's value as a power of 2
5-6   its owner: 0 or 1 the player, 3 in the middle
7     the player on roll, or who rolled (the doubler while a double waits)
8     the Crawford game
9-11  the game: 0 none, 1 playing, 2 over, 3 resigned, 4 a double passed
12    the player who decides now (who answers a double or a resignation)
13    a double is waiting for its answer
14-15 a resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
16-21 the two dice, 0 before the roll
22-36 the match's length, 0 for a money game
37-66 the scores of player 0 and of player 1
====  =====================================================================

Player 0 is the computer (DARK) and player 1 the person (LIGHT), as GNU
Backgammon numbers them when a person plays it.

A money game's start, the person on roll; a 7-point match at 1-3 with the
computer's cube at 4 and the person's 5-2 rolled; the Crawford game of a
5-point match at 2-4, 3-1 rolled (each read back by GNU Backgammon 1.07's
``set matchid``, which shows the same fields and writes the same ID):

>>> match_id(MatchIdFields())
'cAkAAAAAAAAA'
>>> match_id(MatchIdFields(cube=4, owner=Side.DARK, dice=(5, 2), length=7,
...                        score_light=1, score_dark=3))
'QonqADAACAAA'
>>> match_id(MatchIdFields(crawford=True, dice=(3, 1), length=5, score_light=2, score_dark=4))
'8ImlAEAAEAAA'
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from games.engine.position import Side

GAME_STATES = {"none": 0, "playing": 1, "over": 2, "resigned": 3, "passed": 4}
RESIGNATIONS = {"": 0, "single": 1, "gammon": 2, "backgammon": 3}


def player(side: Side) -> int:
    """GNU Backgammon's number for a side: the computer 0, the person 1."""
    return 1 if side is Side.LIGHT else 0


@dataclass(frozen=True)
class MatchIdFields:
    """What a Match ID holds; the defaults are a money game's start, the person on roll."""

    cube: int = 1
    owner: Side | None = None
    on_roll: Side = Side.LIGHT
    crawford: bool = False
    game: str = "playing"
    deciding: Side = Side.LIGHT
    doubled: bool = False
    resigned: str = ""
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score_light: int = 0
    score_dark: int = 0


def match_id(f: MatchIdFields) -> str:
    """The 12-character Match ID of ``f``."""
    fields = [
        (4, f.cube.bit_length() - 1),
        (2, 3 if f.owner is None else player(f.owner)),
        (1, player(f.on_roll)),
        (1, int(f.crawford)),
        (3, GAME_STATES[f.game]),
        (1, player(f.deciding)),
        (1, int(f.doubled)),
        (2, RESIGNATIONS[f.resigned]),
        (3, f.dice[0]),
        (3, f.dice[1]),
        (15, f.length),
        (15, f.score_dark),
        (15, f.score_light),
    ]
    key = 0
    bit = 0
    for width, value in fields:
        key |= (value & ((1 << width) - 1)) << bit
        bit += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")
