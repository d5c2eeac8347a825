"""Shuanglu's backgammon rules engine: standard library only, no Django.

>>> from games.engine import Dice, Position, legal_plays
>>> len(legal_plays(Position.start(), Dice(2, 1)))
15
"""

from __future__ import annotations

from games.engine.dice import Dice, opening_roll
from games.engine.display import Display, board_text
from games.engine.errors import IllegalPlayError, IllegalStepError, InvalidNotationError
from games.engine.outcome import Outcome, ResultKind, outcome
from games.engine.plays import Play, Step, legal_plays, parse_play
from games.engine.position import BAR, CHECKERS, OFF, Position, Side
from games.engine.turn import Refusal, RefusalCode, Turn

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "Dice",
    "Display",
    "IllegalPlayError",
    "IllegalStepError",
    "InvalidNotationError",
    "Outcome",
    "Play",
    "Position",
    "Refusal",
    "RefusalCode",
    "ResultKind",
    "Side",
    "Step",
    "Turn",
    "board_text",
    "legal_plays",
    "opening_roll",
    "outcome",
    "parse_play",
]
