"""Luck: how much better or worse a roll was than the average roll, in the
unit of the ranking that values the rolls (``ai_worker.context``)."""

from __future__ import annotations

from ai_worker.context import CubeContext
from ai_worker.ranking import RankFn, default_rank
from games.engine import ROLLS, Dice, Position


def best_equities(
    position: Position,
    rank: RankFn = default_rank,
    ply: int = 1,
    context: CubeContext | None = None,
) -> dict[tuple[int, int], float]:
    """The best play's equity for each of the 21 rolls at ``ply``; a roll
    that cannot move (a dance) is valued as the unchanged board with the
    opponent on roll, at the same ``ply``: like every other roll's, its
    value is the board after the turn searched ``ply`` deep. With a
    ``context`` the values are in its unit (cubeful at the cube and score)."""
    values: dict[tuple[int, int], float] = {}
    dance: float | None = None
    for d1, d2, _weight in ROLLS:
        ranked = rank(position, Dice(d1, d2), ply, context=context)
        if ranked:
            values[(d1, d2)] = float(ranked[0].equity)
            continue
        if dance is None:
            dance = static_value(position, ply, context)[0]
        values[(d1, d2)] = dance
    return values


def static_value(
    position: Position, ply: int = 1, context: CubeContext | None = None
) -> tuple[float, float]:
    """(equity, win chance) for the mover when it leaves ``position`` as it is
    (a dance): the board valued at ``ply`` with the opponent on roll."""
    from ai_worker import evaluator

    equity, probs = evaluator.value_unmoved(position, ply, context)
    return equity, probs.win


def roll_luck(equities: dict[tuple[int, int], float], dice: Dice, opening: bool = False) -> float:
    """Equity of the best play with the roll made minus the average over rolls.

    The opening roll cannot be a double, so its average runs over the 15 others.
    """
    total = weight_sum = 0.0
    for d1, d2, weight in ROLLS:
        if opening and d1 == d2:
            continue
        total += weight * equities[(d1, d2)]
        weight_sum += weight
    key = (max(dice.d1, dice.d2), min(dice.d1, dice.d2))
    return equities[key] - total / weight_sum
