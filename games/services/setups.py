"""A game from a chosen position: a lesson's, an imported match's, a test's.

The same writer as ``start_game``, minus the opening roll: the position
(LIGHT's view) is stored and ``turn`` is on roll. Its first turn begins as
any turn does (``turns.pass_to``): with a cube the side that may double
first decides (no dice yet); otherwise it rolls (``dice`` when given), the
person's pass or forced play is made, the computer's task announced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.engine import Position, Side
from games.models import Game, GameKind, Status
from games.reading import cube_of, cube_refusal
from games.services import dice as dice_source
from games.services.turns import begin_first_turn
from games.tiers import Tier


def start_game_from(
    user: Any,
    tier: str,
    position: Position,
    turn: Side = Side.LIGHT,
    dice: Sequence[int] | None = None,
    *,
    kind: str = GameKind.SINGLE,
    jacoby: bool = True,
    person_seed: str | None = None,
) -> Game:
    """A game of ``user``'s at ``tier`` from ``position``, ``turn`` on roll:
    a single game, or a money game (``kind``, with ``jacoby``) whose cube is
    in the middle."""
    if GameKind(kind) == GameKind.MATCH:
        raise ValueError("a match game is started by its match")
    with transaction.atomic():
        game = Game(
            owner=user,
            tier=Tier(tier).value,
            kind=GameKind(kind).value,
            jacoby=jacoby and kind == GameKind.MONEY,
            status=Status.PLAYING,
            turn=turn.value,
            position_id=position.position_id(),
        )
        # Dice given with the position are not drawn: its first Turn has no
        # roll number, the rolls after it do.
        dice_source.seed_game(game, person_seed)
        if dice is None and cube_of(game) is not None and cube_refusal(game, turn) is None:
            game.status = Status.DECIDING  # the side on turn first decides whether to double
        else:
            game.dice = list(dice) if dice is not None else dice_source.roll_dice(game)
        game.save()  # its turns refer to it
        begin_first_turn(game)
    return game
