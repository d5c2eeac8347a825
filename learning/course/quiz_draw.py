"""What the quiz makers draw with: boards set up or played into at random,
dice, and a play's steps, dice and words as a task holds them."""

from __future__ import annotations

import random
from typing import Any, cast

from django.utils.functional import Promise, lazy

from games.engine import Dice, Play, Position, RefusalCode, Turn, legal_plays


def _position(light: dict[int, int], dark: dict[int, int], light_bar: int = 0) -> Position:
    """A position from LIGHT's side; ``dark`` by display point (LIGHT's numbering)."""
    me, opp = [0] * 25, [0] * 25
    for point, n in light.items():
        me[point - 1] = n
    for point, n in dark.items():
        opp[24 - point] = n
    me[24] = light_bar
    return Position(tuple(me), tuple(opp))


def _scatter(rng: random.Random, count: int, points: list[int]) -> dict[int, int]:
    placed: dict[int, int] = {}
    for _n in range(count):
        point = rng.choice(points)
        placed[point] = placed.get(point, 0) + 1
    return placed


def _roll(rng: random.Random) -> Dice:
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def _steps(play: Play) -> tuple[tuple[int, int], ...]:
    return tuple((s.src, s.dst) for s in play.steps)


def _dice(dice: Dice) -> tuple[int, int]:
    return dice.d1, dice.d2


def _words(text: Promise, **params: Any) -> Promise:
    """``text`` with ``params`` filled in, in the language of the moment it is shown."""
    filled = lazy(lambda: str(text) % params, str)()
    return cast(Promise, filled)  # a lazy proxy, typed as its result


def _refused(
    position: Position, dice: Dice, steps: tuple[tuple[int, int], ...]
) -> RefusalCode | None:
    """The code the engine refuses the last of ``steps`` with (None if it takes them all)."""
    turn = Turn(position, dice)
    for src, dst in steps:
        refusal = turn.refusal(src, dst)
        if refusal is not None:
            return refusal.code
        turn = turn.step(src, dst)
    return None


def _varied(rng: random.Random, turns: int, hits: bool = False) -> Position:
    """The start after ``turns`` random plays of each side, that hit nothing
    unless ``hits`` (light, the person, on roll)."""
    position = Position.start()
    for _turn in range(2 * turns):
        plays = [
            p for p in legal_plays(position, _roll(rng)) if hits or not any(s.hit for s in p.steps)
        ]
        if plays:
            position = rng.choice(plays).result
        position = position.swapped()
    return position


def _pick_rolls(rng: random.Random, doubles: bool = False) -> Dice:
    while True:
        dice = _roll(rng)
        if (dice.d1 == dice.d2) == doubles:
            return dice
