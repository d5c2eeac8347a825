"""Typed errors and refusals: the engine's bottom floor (imports nothing of it).

A refusal is a code and its parameters; the site words it (``games/words/refusals.py``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

Param = int | str | tuple[int, ...]


class RefusalCode(enum.StrEnum):
    """Why a single step of a turn is refused."""

    NO_CHECKER = "no_checker"
    MUST_ENTER_FIRST = "must_enter_first"
    POINT_BLOCKED = "point_blocked"
    BEAR_OFF_OUTSIDE = "bear_off_outside"
    BEAR_OFF_NOT_HIGHEST = "bear_off_not_highest"
    MUST_USE_BOTH = "must_use_both"
    MUST_USE_LARGER = "must_use_larger"
    NO_SUCH_DIE = "no_such_die"
    WRONG_DIRECTION = "wrong_direction"
    TURN_COMPLETE = "turn_complete"
    NOTHING_TO_UNDO = "nothing_to_undo"


class CubeRefusal(enum.StrEnum):
    """Why the side on turn may not double now (``cube.double_refusal``)."""

    NO_CUBE = "no_cube"  # the single game is played without the cube
    GAME_OVER = "game_over"
    CRAWFORD_GAME = "crawford_game"
    NOT_YOUR_CUBE = "not_your_cube"  # the opponent owns it
    CUBE_AT_MAX = "cube_at_max"  # 64 reached
    DEAD_CUBE = "dead_cube"  # its value already wins the match for the doubler


@dataclass(frozen=True)
class Refusal:
    """Why a step is refused: a code and its parameters (the site words it).

    >>> refusal = Refusal(RefusalCode.NO_CHECKER, {"point": 7})
    >>> refusal == Refusal(RefusalCode.NO_CHECKER, {"point": 7}), refusal.params["point"]
    (True, 7)
    """

    code: RefusalCode
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Refusal):
            return NotImplemented
        return self.code == other.code and dict(self.params) == dict(other.params)

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items()))))


class InvalidNotationError(ValueError):
    """Text that is not a well-formed move, Position ID or XGID."""


class NumberOutOfRangeError(InvalidNotationError):
    """A notation's number past what the site reads: ``field`` names it, ``limit`` is the most.

    >>> error = NumberOutOfRangeError("cube", "9" * 40, 6)
    >>> error.field, error.value, error.limit
    ('cube', '9999999999…', 6)
    """

    def __init__(self, field: str, value: str, limit: int) -> None:
        self.field = field
        self.value = value if len(value) <= 10 else value[:10] + "…"
        self.limit = limit
        super().__init__(f"the {field} is {self.value}, at most {limit}")


class IllegalPlayError(ValueError):
    """A well-formed play that the rules do not allow in this position."""


class IllegalStepError(ValueError):
    """A single step the turn refuses; ``refusal`` says why (code + params)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"{refusal.code.value}: {dict(refusal.params)}")
        self.refusal = refusal
