"""Dice, the 21 distinct rolls and the opening roll.

The engine never draws random numbers: dice are passed in.

>>> len(ROLLS), sum(weight for _d1, _d2, weight in ROLLS)
(21, 36)
>>> ROLLS[:3]
((1, 1, 1), (2, 1, 2), (2, 2, 1))
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.position import Side


@dataclass(frozen=True, slots=True)
class Dice:
    """Two dice, as rolled.

    >>> Dice(6, 5).values
    (6, 5)
    >>> Dice(3, 3).values
    (3, 3, 3, 3)
    >>> str(Dice(6, 5))
    '65'
    """

    d1: int
    d2: int

    def __post_init__(self) -> None:
        for die in (self.d1, self.d2):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise ValueError(f"a die shows 1..6, got {die!r}")

    @property
    def is_double(self) -> bool:
        return self.d1 == self.d2

    @property
    def values(self) -> tuple[int, ...]:
        """The dice to play: four values for a double."""
        if self.is_double:
            return (self.d1,) * 4
        return (self.d1, self.d2)

    @property
    def high(self) -> int:
        return max(self.d1, self.d2)

    @property
    def low(self) -> int:
        return min(self.d1, self.d2)

    def __str__(self) -> str:
        return f"{self.d1}{self.d2}"


# The 21 distinct rolls (high die first), each with how many of the 36 ordered
# rolls it stands for: 1 for a double, 2 for the others.
ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (d1, d2, 1 if d1 == d2 else 2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)
)


def opening_roll(light: int, dark: int) -> Side | None:
    """Who starts: the higher die; ``None`` on a tie (roll again).

    >>> opening_roll(5, 3)
    <Side.LIGHT: 'light'>
    >>> opening_roll(2, 6)
    <Side.DARK: 'dark'>
    >>> opening_roll(4, 4) is None
    True
    """
    Dice(light, dark)  # validates both values
    if light == dark:
        return None
    return Side.LIGHT if light > dark else Side.DARK
