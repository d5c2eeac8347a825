"""A game whose row cannot be read (``games.row_checks``): stopped, and given
up (docs/interfaces.md §3): one point (the cube cannot be trusted), no
review (there is nothing sound to review).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import Side
from games.models import Game, ResultKind, Status
from games.row_checks import row_damage, turns_damage
from games.services.errors import GameOverError, NotYourGameError
from games.services.rows import lock, save
from games.services.turns import record_result

DAMAGED = "damaged row: "
MAX_FAILURE = 300


def is_damaged(game: Game) -> bool:
    return game.failure.startswith(DAMAGED)


def mark_damaged(game_id: int, why: str) -> bool:
    """Store why the game ``game_id`` cannot be read, and stop it if unfinished;
    its pages hear of it with the new version (``save``). False when its damage
    was known already."""
    with transaction.atomic():
        game = lock(game_id)
        if is_damaged(game):
            return False
        if not game.is_over:
            game.status = Status.FAILED
            game.finished_at = timezone.now()
            game.computer_turn_started_at = None
        game.failure = (DAMAGED + why)[:MAX_FAILURE]
        save(game)
        return True


def damage_found(game: Game) -> bool:
    """Whether ``game`` cannot be read, its row or its Turn rows; found now,
    its damage is stored and pushed (``mark_damaged``). For the pages that
    read more than the state: the review, the proof, the match file."""
    if is_damaged(game):
        return True
    why = row_damage(game) or row_damage(game, deep=True) or turns_damage(game)
    if why is None:
        return False
    mark_damaged(game.pk, why)
    return True


def give_up_damaged(game_id: int, user: Any) -> Game:
    """The person resigns the damaged game ``game_id``: the computer wins one point."""
    with transaction.atomic():
        game = lock(game_id)
        if game.owner_id != getattr(user, "pk", None):
            raise NotYourGameError(f"game {game_id} is not yours")
        if game.status != Status.FAILED or not is_damaged(game):
            raise GameOverError(f"game {game_id} is not a damaged game to give up")
        game.status = Status.FINISHED
        game.winner = Side.DARK.value
        game.result_kind = ResultKind.SINGLE.value
        game.points = 1
        game.resigned = True
        game.finished_at = timezone.now()
        if game.match_id is not None:
            try:
                with transaction.atomic():
                    record_result(game, Side.DARK, 1)
            except (ValueError, TypeError, AssertionError):
                pass  # the match's own columns are damaged too: it stays as it was
        return save(game)
