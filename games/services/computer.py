"""The computer's side of a game: its dice and position, its play, its failure.

``ai_worker`` calls these from its task: ``begin_computer_turn`` reads (the
dice were rolled as the turn passed), ``finish_computer_turn`` applies the
chosen play under the row lock with the version check, so a duplicate or
stale task changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.engine import (
    Dice,
    IllegalPlayError,
    Play,
    Position,
    Side,
    legal_plays,
    play_leading_to,
)
from games.models import Game, Status
from games.services.rows import lock, position_of, save
from games.services.turns import check_game_over, pass_to, record_turn


def begin_computer_turn(game_id: int, version: int) -> tuple[Position, Dice] | None:
    """DARK's dice and the position from DARK's side.

    The dice were rolled when the turn passed to DARK, so a retry of the same
    (game, version) gets the same dice; the version does not change. ``None``
    when the version moved on or it is not DARK's turn.
    """
    game = Game.objects.get(pk=game_id)  # a read: finish_computer_turn checks again under lock
    if not _computer_on_turn(game, version) or game.dice is None:
        return None
    return position_of(game).swapped(), Dice(*game.dice)


def finish_computer_turn(game_id: int, version: int, play: Play | None) -> bool:
    """Apply DARK's ``play`` (from DARK's side), store the Turn, hand over.

    ``False`` and nothing changed on a duplicate or stale call. Raises
    ``IllegalPlayError`` (a ``ValueError``) for a play that is not legal here.
    """
    with transaction.atomic():
        game = lock(game_id)
        if not _computer_on_turn(game, version) or game.dice is None:
            return False
        before = position_of(game)
        play = _checked_computer_play(before.swapped(), Dice(*game.dice), play)
        dark_after = play.result if play is not None else before.swapped()
        record_turn(game, Side.DARK, play, before, dark_after.swapped())
        if not check_game_over(game, dark_after, Side.DARK):
            pass_to(game, Side.LIGHT)
        save(game)
        return True


def fail_computer_turn(game_id: int, version: int) -> bool:
    """Give up on DARK's turn: the game is marked failed (the page says why)."""
    with transaction.atomic():
        game = lock(game_id)
        if not _computer_on_turn(game, version):
            return False
        game.status = Status.FAILED
        game.finished_at = timezone.now()
        save(game)
        return True


def stuck_games(older_than: timedelta) -> list[tuple[int, int]]:
    """(game_id, version) of games waiting on the computer for ``older_than`` or more."""
    cutoff = timezone.now() - older_than
    rows = Game.objects.unfinished().filter(
        turn=Side.DARK.value, computer_turn_started_at__lte=cutoff
    )
    return list(rows.order_by("computer_turn_started_at").values_list("pk", "version"))


def _computer_on_turn(game: Game, version: int) -> bool:
    return game.version == version and not game.is_over and game.turn == Side.DARK.value


def _checked_computer_play(dark_position: Position, dice: Dice, play: Play | None) -> Play | None:
    """The engine's own play with ``play``'s result for these dice, or IllegalPlayError."""
    if play is None:
        if legal_plays(dark_position, dice):
            raise IllegalPlayError("the computer must play: a legal play exists")
        return None
    legal = play_leading_to(dark_position, dice, play.result)
    if legal is None:
        raise IllegalPlayError(f"{play.notation()} is not legal with {dice}")
    return legal
