"""The person's cube commands: roll, double, take, pass.

Each locks the row, checks the version and the moment (``CubeRefusedError``
with a code the page words, ``games.words.cube.describe_cube_refusal``),
stores the ``CubeAction`` in order with the turns and saves at the next
version. The computer's side of the same moments is in ``computer``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import Side, pass_points
from games.models import Game, ResultKind, Status
from games.reading import cube_of, cube_refusal, match_of
from games.services.cube import record_cube_action, set_cube
from games.services.errors import CubeRefusedError, NotYourTurnError
from games.services.rows import person_command, save
from games.services.turns import finish_game, pass_to, roll
from games.tutor import Decision, check


def roll_dice(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person, who might have doubled, rolls instead."""
    with transaction.atomic():
        game = _deciding(game_id, user, version, rolled="not_deciding")
        if _tutor_allows(game, "no_double", anyway):
            roll(game)
        return save(game)


def double(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person doubles: the computer is to take or pass."""
    with transaction.atomic():
        game = _deciding(game_id, user, version)
        refusal = cube_refusal(game, Side.LIGHT)
        if refusal is not None:
            raise CubeRefusedError(refusal.value)
        if _tutor_allows(game, "double", anyway):
            offer_double(game, Side.LIGHT)
        return save(game)


def take(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person takes the computer's double: the cube is theirs, the computer rolls."""
    with transaction.atomic():
        game = _answering(game_id, user, version)
        if _tutor_allows(game, "take", anyway):
            take_double(game, Side.LIGHT)
        return save(game)


def pass_double(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person passes: the computer wins the cube's value before the double."""
    with transaction.atomic():
        game = _answering(game_id, user, version)
        if _tutor_allows(game, "pass", anyway):
            refuse_double(game, Side.LIGHT)
        return save(game)


def _tutor_allows(game: Game, action: str, anyway: bool) -> bool:
    """The tutor's check of a cube action before it is taken (``games.tutor``):
    warned of, only the warning is saved and the reply carries it."""
    return check(
        game, Decision(kind="cube", position_id=game.position_id, action=action), anyway=anyway
    )


def offer_double(game: Game, doubler: Side) -> None:
    record_cube_action(game, doubler, "double")
    game.cube_offered = doubler.value
    game.status = Status.DOUBLED
    game.turn = doubler.other.value
    game.dice = None
    game.computer_turn_started_at = timezone.now() if doubler is Side.LIGHT else None


def take_double(game: Game, taker: Side) -> None:
    """The cube goes to ``taker`` at twice the value; the doubler rolls."""
    cube = cube_of(game)
    assert cube is not None
    record_cube_action(game, taker, "take")
    set_cube(game, cube.taken(taker))
    pass_to(game, taker.other)


def refuse_double(game: Game, passer: Side) -> None:
    """The doubler wins a single game at the cube before the double."""
    cube = cube_of(game)
    assert cube is not None
    record_cube_action(game, passer, "pass")
    game.passed = True
    points = pass_points(cube, match_of(game), passer.other)
    finish_game(game, passer.other, ResultKind.SINGLE, points)


def _deciding(game_id: int, user: Any, version: int, rolled: str = "already_rolled") -> Game:
    game = person_command(game_id, user, version, needs_turn=False)
    if game.status == Status.DOUBLED and game.turn == Side.LIGHT.value:
        raise CubeRefusedError("answer_first")
    if game.turn != Side.LIGHT.value:
        raise NotYourTurnError(f"game {game_id}: it is not your turn")
    if cube_of(game) is None:
        raise CubeRefusedError("no_cube")
    if game.status != Status.DECIDING:
        raise CubeRefusedError(rolled)
    return game


def _answering(game_id: int, user: Any, version: int) -> Game:
    game = person_command(game_id, user, version, needs_turn=False)
    if game.status != Status.DOUBLED or game.turn != Side.LIGHT.value:
        raise CubeRefusedError("no_double_pending")
    return game
