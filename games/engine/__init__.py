"""Shuanglu's backgammon rules engine: standard library only, no Django.

>>> from games.engine import Dice, Position, legal_plays
>>> len(legal_plays(Position.start(), Dice(2, 1)))
15
"""

from __future__ import annotations

from games.engine.cube import (
    MAX_CUBE,
    MAX_MATCH_LENGTH,
    Cube,
    Match,
    double_refusal,
    pass_points,
    result_points,
)
from games.engine.dice import ROLLS, Dice, opening_roll
from games.engine.display import Display, board_text
from games.engine.errors import (
    CubeRefusal,
    IllegalPlayError,
    IllegalStepError,
    InvalidNotationError,
    NumberOutOfRangeError,
    Refusal,
    RefusalCode,
)
from games.engine.movegen import Step
from games.engine.outcome import Outcome, ResultKind, outcome
from games.engine.plays import Play, apply_play, legal_plays, parse_play, play_leading_to
from games.engine.position import BAR, CHECKERS, OFF, Position, Side
from games.engine.turn import Turn
from games.engine.xgid import Xgid, decode_xgid, encode_xgid

__all__ = [
    "BAR",
    "CHECKERS",
    "MAX_CUBE",
    "MAX_MATCH_LENGTH",
    "Match",
    "OFF",
    "ROLLS",
    "Cube",
    "CubeRefusal",
    "Dice",
    "Display",
    "IllegalPlayError",
    "IllegalStepError",
    "InvalidNotationError",
    "NumberOutOfRangeError",
    "Outcome",
    "Play",
    "Position",
    "Refusal",
    "RefusalCode",
    "ResultKind",
    "Side",
    "Step",
    "Turn",
    "Xgid",
    "apply_play",
    "board_text",
    "decode_xgid",
    "double_refusal",
    "encode_xgid",
    "legal_plays",
    "opening_roll",
    "outcome",
    "parse_play",
    "play_leading_to",
    "pass_points",
    "result_points",
]
