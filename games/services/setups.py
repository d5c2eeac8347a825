"""A game from a chosen position: a lesson's, an imported match's, a test's.

The same writer as ``start_game``, minus the opening roll: the position
(LIGHT's view) is stored, ``turn`` is on roll with ``dice`` (rolled from
``dice.roll_dice`` when not given), and the first turn begins as any turn
does (the person's pass or forced play, the computer's task announced).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.engine import Position, Side
from games.models import Game, Status
from games.services import dice as dice_source
from games.services.turns import begin_first_turn
from games.tiers import Tier


def start_game_from(
    user: Any,
    tier: str,
    position: Position,
    turn: Side = Side.LIGHT,
    dice: Sequence[int] | None = None,
) -> Game:
    """A game of ``user``'s at ``tier`` from ``position``, ``turn`` on roll."""
    rolled = list(dice) if dice is not None else dice_source.roll_dice()
    with transaction.atomic():
        game = Game.objects.create(
            owner=user,
            tier=Tier(tier).value,
            status=Status.PLAYING,
            turn=turn.value,
            position_id=position.position_id(),
            dice=rolled,
        )
        begin_first_turn(game)
    return game
