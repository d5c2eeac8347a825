"""Reading a stored game: its position, its turn in progress, its cube and match.

Pure reads of a ``Game`` row, for the writer, the state, the words and the
lessons alike; no function here changes a row.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.engine import Cube, CubeRefusal, Dice, Position, Side, double_refusal
from games.engine import Match as EngineMatch
from games.engine import Turn as EngineTurn
from games.models import Game, Status


def turns_so_far(game: Game) -> int:
    """How many Turn rows ``game`` has: its ``last_turn``'s number (0 for none),
    which every writer of a Turn keeps with it (and migration 0005), so no
    COUNT; the unique (game, number) constraint refuses a number taken."""
    last = game.last_turn
    return int(last["number"]) if last else 0


def position_of(game: Game) -> Position:
    """The stored position, from LIGHT's side."""
    return _decode(game.position_id)


# Positions are immutable values and a move reads its game's several times.
_decode = lru_cache(maxsize=4096)(Position.from_position_id)


def decode_position(position_id: str) -> Position:
    """A stored Position ID (a Turn's before and after), decoded once."""
    return _decode(position_id)


def current_turn(game: Game) -> EngineTurn:
    """The engine's view of the turn in progress, steps replayed (needs dice);
    kept on the instance for what it was computed from (a step's command
    replayed the same steps again to build the state it answers with)."""
    assert game.dice is not None
    key = _turn_key(game)
    known = game.__dict__.get("_engine_turn")
    if known is not None and known[0] == key:
        turn: EngineTurn = known[1]
        return turn
    position = position_of(game)
    mover = position if game.turn == Side.LIGHT.value else position.swapped()
    turn = EngineTurn(mover, Dice(*game.dice))
    for src, dst, die, _hit in game.steps:
        turn = turn.step(src, dst, die)
    game.__dict__["_engine_turn"] = (key, turn)
    return turn


def remember_turn(game: Game, turn: EngineTurn) -> None:
    """``turn`` is the game's turn in progress now (its steps just stored)."""
    game.__dict__["_engine_turn"] = (_turn_key(game), turn)


def _turn_key(game: Game) -> tuple[Any, ...]:
    # Everything current_turn reads, by value (a list changed in place is seen).
    steps = tuple(tuple(step) for step in game.steps)
    return (game.position_id, game.turn, tuple(game.dice or ()), steps)


def cube_of(game: Game) -> Cube | None:
    """The cube as the engine knows it; None for the single game (no cube)."""
    if not game.has_cube:
        return None
    owner = Side(game.cube_owner) if game.cube_owner else None
    return Cube(game.cube_value, owner)


def match_of(game: Game) -> EngineMatch:
    """What ``game`` is played for: its match's length and score at its start, or money."""
    if game.match_id is None:
        return EngineMatch(jacoby=game.jacoby and game.has_cube)
    assert game.match is not None
    return EngineMatch(game.match.length, game.score_light, game.score_dark, game.crawford)


def cube_refusal(game: Game, side: Side) -> CubeRefusal | None:
    """Why ``side`` may not double at the start of its turn, by the rules (None: it may)."""
    return double_refusal(cube_of(game), match_of(game), side, game_over=game.is_over)


def person_deciding(game: Game, *, mid_turn: bool = False) -> bool:
    """The person has a new decision: a roll not yet played from (or, with
    ``mid_turn``, being played), a double to offer or to answer."""
    if game.is_over or game.turn != Side.LIGHT.value or game.resign_offer:
        return False
    if game.status in (Status.DECIDING, Status.DOUBLED):
        return True
    return game.dice is not None and (mid_turn or not game.steps)


def computer_to_act(game: Game) -> bool:
    """The computer is to move, decide on the cube, answer a double or a resignation."""
    return not game.is_over and (game.turn == Side.DARK.value or bool(game.resign_offer))
