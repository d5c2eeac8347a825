"""The cube's and the match's rows: a cube action stored, a result moving the match on."""

from __future__ import annotations

from django.utils import timezone

from games.engine import Side
from games.models import CubeAction, Game, Match
from games.reading import match_of, position_of, turns_so_far


def record_cube_action(game: Game, side: Side, action: str) -> None:
    """Store one cube action, in order with the turns (``CubeAction.before_turn``)."""
    number = CubeAction.objects.filter(game=game).count() + 1
    CubeAction.objects.create(
        game=game,
        number=number,
        before_turn=turns_so_far(game) + 1,
        side=side.value,
        action=action,
        value=game.cube_value * 2,
        position_id=position_of(game).position_id(),
    )


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
