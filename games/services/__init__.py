"""Every state change of a game: one function each, one writer per game.

This package is the writer's one public face: views, consumers, tasks and
tests call ``games.services.<name>`` and never the modules below, which are
split by concept:

- ``errors``: why a command changed nothing (``ServiceError`` and kin);
- ``dice``: the one source of dice (tests replace ``dice.roll_die``);
- ``rows``: the position of a stored game, the row lock, the save, and what
  is sent after commit (the broadcast, ``signals.computer_turn_due``);
- ``turns``: how a turn ends (Turn row, hand-over, result);
- ``imports``: a match file stored as the owner's games;
- ``person``: the person's commands; ``computer``: the computer's turn;
- ``setups``: a game from a chosen position (no opening roll).

Each command runs in ``transaction.atomic()``, locks the game row, checks the
version the command was made on, and broadcasts and sends its signals only
after commit. Positions are stored from LIGHT's side; DARK plays on
``position.swapped()``.
"""

from __future__ import annotations

from games.services.computer import (
    begin_computer_turn,
    fail_computer_turn,
    finish_computer_turn,
    stuck_games,
)
from games.services.cube import cube_of, match_of
from games.services.errors import (
    GameOverError,
    NotYourGameError,
    NotYourTurnError,
    ServiceError,
    StaleVersionError,
    StepRefusedError,
    TurnIncompleteError,
)
from games.services.imports import decode_upload, import_match_file
from games.services.person import (
    PERSON_COMMANDS,
    end_turn,
    make_step,
    request_hint,
    resign,
    start_game,
    undo_step,
)
from games.services.rows import current_turn, position_of
from games.services.setups import start_game_from

__all__ = [
    "PERSON_COMMANDS",
    "GameOverError",
    "NotYourGameError",
    "NotYourTurnError",
    "ServiceError",
    "StaleVersionError",
    "StepRefusedError",
    "TurnIncompleteError",
    "begin_computer_turn",
    "cube_of",
    "current_turn",
    "end_turn",
    "decode_upload",
    "fail_computer_turn",
    "finish_computer_turn",
    "import_match_file",
    "make_step",
    "match_of",
    "position_of",
    "request_hint",
    "resign",
    "start_game",
    "start_game_from",
    "stuck_games",
    "undo_step",
]
