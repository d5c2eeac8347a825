"""Whether a stored game can be read: the columns of its row its state is
built from, and its Turn rows (the move list, the review, the proof).

A fault (a restore gone wrong, a hand edit, an old release's bug) can leave
any column holding anything: the database checks only types, not those of
JSON columns, nor that a die is 1 to 6. ``games.live.state`` asks
``row_damage`` of every state it builds (a few comparisons; positions
decoded are cached) and ``turns_damage`` of every state with its move list,
and words a damaged game instead of failing on it (docs/interfaces.md §3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine import Cube
from games.models import Game, GameKind, ResultKind, SideChoice, Status, Turn
from games.reading import decode_position, match_of, position_of
from games.tiers import TIERS

SIDES = frozenset(SideChoice.values)
OPTIONAL_SIDES = SIDES | {""}
RESULTS = frozenset(ResultKind.values) | {""}
TIER_KEYS = frozenset(tier.value for tier in TIERS)
# What reading a damaged row raises (never a database error: an outage is
# not damage).
READ_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError)


def row_damage(game: Game, *, deep: bool = False) -> str | None:
    """What cannot be read in ``game``'s row, or None. ``deep`` adds the
    checks that read more than the row (its match), for a state that failed."""
    checks = _CHECKS + (_DEEP if deep else ())
    for name, check in checks:
        value = getattr(game, name)
        try:
            fine = check(value, game)
        except READ_ERRORS:
            fine = False
        if not fine:
            return f"{name} cannot be read: {_short(value)}"
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:120] + "…"


def _is_int(value: Any) -> bool:
    return type(value) is int


def _die(value: Any) -> bool:
    return _is_int(value) and 1 <= value <= 6


def _dice(value: Any, game: Game) -> bool:
    return value is None or (type(value) is list and len(value) == 2 and all(map(_die, value)))


def _point(value: Any) -> bool:
    return _is_int(value) and 0 <= value <= 25


def _stored_step(step: Any) -> bool:
    if type(step) is not list or len(step) != 4:
        return False
    src, dst, die, hit = step
    return _point(src) and _point(dst) and _die(die) and hit in (0, 1)


def _steps(value: Any, game: Game) -> bool:
    return type(value) is list and len(value) <= 4 and all(map(_stored_step, value))


def _shown_point(value: Any) -> bool:
    return _point(value) or value in ("bar", "off")


def _shown_step(step: Any) -> bool:
    return (
        type(step) is dict
        and _shown_point(step.get("from"))
        and _shown_point(step.get("to"))
        and _die(step.get("die"))
    )


def _last_turn(value: Any, game: Game) -> bool:
    if value is None:
        return True
    return (
        type(value) is dict
        and _is_int(value.get("number"))
        and value.get("side") in SIDES
        and _dice(value.get("dice"), game)
        and value.get("dice") is not None
        and type(value.get("notation")) is str
        and type(value.get("steps")) is list
        and all(map(_shown_step, value["steps"]))
    )


def _opening_rolls(value: Any, game: Game) -> bool:
    return type(value) is list and all(_dice(roll, game) and roll for roll in value)


def _position(value: Any, game: Game) -> bool:
    return type(value) is str and position_of(game) is not None


def _cube(value: Any, game: Game) -> bool:
    return Cube(value) is not None


def _match(value: Any, game: Game) -> bool:
    return match_of(game) is not None


def _status(value: Any, game: Game) -> bool:
    # A cube decision needs the cube: a single game has none.
    cube_moment = value in (Status.DECIDING, Status.DOUBLED)
    return value in Status.values and (game.has_cube or not cube_moment)


def _one_of(allowed: frozenset[str]) -> Callable[[Any, Game], bool]:
    return lambda value, game: value in allowed


_CHECKS: tuple[tuple[str, Callable[[Any, Game], bool]], ...] = (
    ("status", _status),
    ("turn", _one_of(SIDES)),
    ("kind", _one_of(frozenset(GameKind.values))),
    ("tier", _one_of(TIER_KEYS)),
    ("position_id", _position),
    ("dice", _dice),
    ("steps", _steps),
    ("last_turn", _last_turn),
    ("opening_rolls", _opening_rolls),
    ("cube_value", _cube),
    ("cube_owner", _one_of(OPTIONAL_SIDES)),
    ("cube_offered", _one_of(OPTIONAL_SIDES)),
    ("resign_offer", _one_of(RESULTS)),
    ("resign_refused", _one_of(RESULTS)),
    ("winner", _one_of(OPTIONAL_SIDES)),
    ("result_kind", _one_of(RESULTS)),
)
_DEEP: tuple[tuple[str, Callable[[Any, Game], bool]], ...] = (("score_light", _match),)


# What the pages read of a Turn row, and how each column is checked.
TURN_COLUMNS = ("number", "side", "die1", "die2", "steps", "position_before", "position_after")


class DamagedTurnError(ValueError):
    """A Turn row that cannot be read; ``why`` says which and what."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def checked_turns(game: Game, turns: list[Turn]) -> list[Turn]:
    """``turns`` (read already), or ``DamagedTurnError`` for the first that cannot be read."""
    why = turns_damage(game, turns)
    if why is not None:
        raise DamagedTurnError(why)
    return turns


def damaged_turns_of(error: Exception) -> str | None:
    """Why, when ``error`` is a damaged Turn row's."""
    return error.why if isinstance(error, DamagedTurnError) else None


def turns_damage(game: Game, turns: list[Turn] | None = None) -> str | None:
    """What cannot be read in ``game``'s Turn rows (``turns``: read already), or None."""
    rows = turns if turns is not None else list(game.turns.only(*TURN_COLUMNS).order_by("number"))
    for turn in rows:
        why = turn_damage(turn)
        if why is not None:
            return f"turn {turn.number}: {why}"
    return None


def turn_damage(turn: Turn) -> str | None:
    """What cannot be read in one Turn row, or None."""
    checks: tuple[tuple[str, Callable[[Any], bool]], ...] = (
        ("side", lambda value: value in SIDES),
        ("die1", _die),
        ("die2", _die),
        ("steps", _turn_steps),
        ("position_before", _readable_position),
        ("position_after", _readable_position),
    )
    for name, check in checks:
        value = getattr(turn, name)
        try:
            fine = check(value)
        except READ_ERRORS:
            fine = False
        if not fine:
            return f"{name} cannot be read: {_short(value)}"
    return None


def _turn_steps(value: Any) -> bool:
    return type(value) is list and len(value) <= 4 and all(map(_stored_step, value))


def _readable_position(value: Any) -> bool:
    return type(value) is str and decode_position(value) is not None
