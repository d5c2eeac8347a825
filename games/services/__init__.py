"""Every state change of a game, one function each, one writer per game: its
one public face is ``games.services.<name>``, never its modules
(docs/architecture.md §1; its reads are ``games.reading``'s). Each command
locks the row (or writes it only if still at the version read) and checks the
version it was made on. Outward events go through signals (``games.signals``),
sent after commit: the writer imports neither the socket (``games.live``) nor
any app above it.
"""

from __future__ import annotations

from collections.abc import Callable

from games.models import Game
from games.services.coach import ranking_awaited, word_warning
from games.services.computer import (
    ComputerDue,
    ComputerStart,
    answer_resignation,
    computer_attempts,
    computer_due,
    count_computer_attempt,
    fail_computer_turn,
    finish_computer_cube,
    finish_computer_turn,
    start_computer_turn,
    stuck_games,
)
from games.services.damage import (
    DAMAGED,
    damage_found,
    give_up_damaged,
    is_damaged,
    mark_damaged,
)
from games.services.dice import keep_next_seed, new_server_seed, next_commitment, share_token
from games.services.doubling import double, pass_double, roll_dice, take
from games.services.errors import (
    CommitmentUsedError,
    CubeRefusedError,
    GameOverError,
    NotYourGameError,
    NotYourTurnError,
    ServiceError,
    SessionEndedError,
    StaleVersionError,
    StepRefusedError,
    TurnIncompleteError,
)
from games.services.imports import AlreadyImportedError, decode_upload, import_match_file
from games.services.matches import next_game, start_match
from games.services.person import (
    end_turn,
    make_step,
    request_hint,
    resign,
    start_game,
    start_game_from,
    undo_step,
)
from games.services.rows import hold_opened
from games.services.store import under_session

# The service functions by socket command, for the consumer and views.
PERSON_COMMANDS: dict[str, Callable[..., Game]] = {
    "step": make_step,
    "hint": request_hint,
    "undo": undo_step,
    "end_turn": end_turn,
    "resign": resign,
    "roll": roll_dice,
    "double": double,
    "take": take,
    "pass": pass_double,
    "next_game": next_game,
}

__all__ = [
    "AlreadyImportedError",
    "DAMAGED",
    "PERSON_COMMANDS",
    "ComputerDue",
    "CommitmentUsedError",
    "ComputerStart",
    "CubeRefusedError",
    "GameOverError",
    "NotYourGameError",
    "NotYourTurnError",
    "ServiceError",
    "SessionEndedError",
    "StaleVersionError",
    "StepRefusedError",
    "TurnIncompleteError",
    "answer_resignation",
    "computer_attempts",
    "computer_due",
    "count_computer_attempt",
    "damage_found",
    "double",
    "end_turn",
    "decode_upload",
    "fail_computer_turn",
    "finish_computer_cube",
    "finish_computer_turn",
    "give_up_damaged",
    "hold_opened",
    "import_match_file",
    "is_damaged",
    "make_step",
    "mark_damaged",
    "keep_next_seed",
    "new_server_seed",
    "next_commitment",
    "next_game",
    "pass_double",
    "ranking_awaited",
    "request_hint",
    "resign",
    "roll_dice",
    "share_token",
    "start_game",
    "start_game_from",
    "start_match",
    "start_computer_turn",
    "stuck_games",
    "take",
    "under_session",
    "undo_step",
    "word_warning",
]
