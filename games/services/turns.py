"""How a turn ends: the Turn row, the new position, the hand-over or the
result (and the match it moves on).

Shared by the person's and the computer's commands; all run under the row
lock of the command that calls them.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.preferences import board_prefs
from games.engine import Dice, Play, Position, Side, legal_plays, outcome, result_points
from games.engine import ResultKind as EngineResultKind
from games.models import Game, Match, ResultKind, Status, Turn
from games.reading import cube_of, cube_refusal, match_of, position_of, turns_so_far
from games.services import dice
from games.services.rows import after_commit
from games.signals import game_finished
from games.steps import stored_steps, turn_json


def record_turn(
    game: Game, side: Side, play: Play | None, before: Position, after: Position
) -> None:
    """Store the finished turn (a pass when ``play`` is None) as the game's last."""
    assert game.dice is not None
    turn = Turn(
        game=game,
        number=turns_so_far(game) + 1,
        side=side.value,
        die1=game.dice[0],
        die2=game.dice[1],
        notation=play.notation() if play is not None else "",
        steps=stored_steps(play.steps) if play is not None else [],
        position_before=before.position_id(),
        position_after=after.position_id(),
        roll=dice.roll_number(game),
    )
    turn.save(force_insert=True)
    game.last_turn = turn_json(turn)


def pass_to(game: Game, side: Side) -> None:
    """Hand the turn to ``side`` with its roll (a person with no play passes
    on), or to decide on the cube first (docs/interfaces.md §3)."""
    game.turn = side.value
    game.steps = []
    game.cube_offered = ""
    game.computer_turn_started_at = timezone.now() if side is Side.DARK else None
    if cube_of(game) is not None and cube_refusal(game, side) is None:
        game.status = Status.DECIDING
        game.dice = None
        return
    roll(game)


def roll(game: Game) -> None:
    """The side on turn rolls: the turn is played (a person with no play passes on)."""
    game.status = Status.PLAYING
    # A turn begins with its roll, the computer's too: rolled here, in the
    # transaction that passes the turn, so its task has nothing to write
    # before it thinks.
    game.dice = dice.roll_dice(game)
    if game.turn == Side.LIGHT.value:
        begin_person_turn(game)


def begin_first_turn(game: Game) -> None:
    """A new game (saved first: its turns refer to it) and its first turn, its
    dice in ``game.dice`` (none yet while the side on turn decides on the
    cube): DARK's announced, or LIGHT's begun (a pass or a forced play may
    follow)."""
    game.save()
    if game.turn == Side.DARK.value:
        game.computer_turn_started_at = timezone.now()
    elif game.dice is not None:
        begin_person_turn(game)
    game.save()
    after_commit(game)


def begin_person_turn(game: Game) -> None:
    """Dice are already in ``game.dice``; with no legal play, the turn passes,
    and a forced play the person's preferences leave to the site is made
    for them (the state's ``last_turn`` says ``automatic``)."""
    assert game.dice is not None
    before = position_of(game)
    plays = legal_plays(before, Dice(*game.dice))
    play = None
    if len(plays) == 1:  # the owner's preferences are read only for a forced play
        # Forced moves if the person asked; forced bear-offs if they asked for those.
        prefs = board_prefs(game.owner)
        if prefs["auto_forced"] or (prefs["auto_bear_off"] and sum(before.me[6:]) == 0):
            play = plays[0]
    if plays and play is None:
        return
    record_turn(game, Side.LIGHT, play, before, play.result if play else before)
    if play is not None:
        game.last_turn = {**(game.last_turn or {}), "automatic": True}
        if check_game_over(game, play.result, Side.LIGHT):
            return
    pass_to(game, Side.DARK)


def check_game_over(game: Game, mover_after: Position, mover: Side) -> bool:
    """Store the new position; finish the game if ``mover`` has won."""
    light_after = mover_after if mover is Side.LIGHT else mover_after.swapped()
    game.position_id = light_after.position_id()
    result = outcome(mover_after, mover)
    if result is None:
        return False
    finish_game(game, result.winner, ResultKind(str(result.kind.value)))
    return True


def finish_game(game: Game, winner: Side, kind: ResultKind, points: int | None = None) -> None:
    """The game is over: result stored, the match's score moved on, ``game_finished``
    sent after commit. ``points`` default to the kind times the cube
    (``games.engine.result_points``: Jacoby, the match length)."""
    if points is None:
        points = result_points(EngineResultKind(kind.value), cube_of(game), match_of(game), winner)
    game.status = Status.FINISHED
    game.winner = winner.value
    game.result_kind = kind.value
    game.points = points
    dice.keep_unplayed(game)  # a resignation's roll, for the dice's proof
    game.dice = None
    game.steps = []
    game.finished_at = timezone.now()
    game.computer_turn_started_at = None
    game.cube_offered = ""
    game.resign_offer = ""
    record_result(game, winner, points)
    game_id = game.pk
    transaction.on_commit(lambda: game_finished.send(sender=Game, game_id=game_id))


def record_result(game: Game, winner: Side, points: int) -> None:
    """Move the game's match on: its score, the next game's Crawford flag, its end."""
    if game.match_id is None:
        return
    match = Match.objects.select_for_update().get(pk=game.match_id)
    after = match_of(game).after(winner, points)
    match.score_light, match.score_dark, match.crawford = after.light, after.dark, after.crawford
    if after.winner is not None:
        match.winner = after.winner.value
        match.finished_at = timezone.now()
    match.save()
    game.match = match
