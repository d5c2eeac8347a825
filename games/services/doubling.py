"""The person's cube commands: roll, double, take, pass, each through
``_cube_command``; the computer's side of the same moments is in ``computer``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import Side, pass_points
from games.models import CubeAction, Game, ResultKind, Status
from games.reading import cube_of, cube_refusal, match_of, position_of, turns_so_far
from games.services.coach import check
from games.services.errors import CubeRefusedError, NotYourTurnError
from games.services.rows import person_command, save
from games.services.turns import finish_game, pass_to, roll
from games.tutor import Decision

# A side's move at the cube: offer_double, take_double, refuse_double (or roll).
CubeMove = Callable[[Game, Side], None]


def roll_dice(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person, who might have doubled, rolls instead."""
    return _cube_command(game_id, user, version, "no_double", anyway, lambda game, _: roll(game))


def double(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person doubles: the computer is to take or pass."""
    return _cube_command(game_id, user, version, "double", anyway, offer_double)


def take(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person takes the computer's double: the cube is theirs, the computer rolls."""
    return _cube_command(game_id, user, version, "take", anyway, take_double)


def pass_double(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """The person passes: the computer wins the cube's value before the double."""
    return _cube_command(game_id, user, version, "pass", anyway, refuse_double)


def _cube_command(
    game_id: int, user: Any, version: int, action: str, anyway: bool, apply: CubeMove
) -> Game:
    """Check that ``action`` fits the moment, and ``apply`` it (for LIGHT) unless the
    tutor warns of it (``games.services.coach``): then only the warning is saved,
    and every state at its version carries it."""
    with transaction.atomic():
        game = person_command(game_id, user, version, needs_turn=False)
        _check_moment(game, action)
        decision = Decision(kind="cube", position_id=game.position_id, action=action)
        if check(game, decision, anyway=anyway):
            apply(game, Side.LIGHT)
        return save(game)


def _check_moment(game: Game, action: str) -> None:
    light = game.turn == Side.LIGHT.value
    if action in ("take", "pass"):
        if game.status != Status.DOUBLED or not light:
            raise CubeRefusedError("no_double_pending")
        return
    if game.status == Status.DOUBLED and light:
        raise CubeRefusedError("answer_first")
    if not light:
        raise NotYourTurnError(f"game {game.pk}: it is not your turn")
    if cube_of(game) is None:
        raise CubeRefusedError("no_cube")
    if game.status != Status.DECIDING:
        raise CubeRefusedError("not_deciding" if action == "no_double" else "already_rolled")
    refusal = cube_refusal(game, Side.LIGHT) if action == "double" else None
    if refusal is not None:
        raise CubeRefusedError(refusal.value)


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
    game.cube_value, game.cube_owner = cube.taken(taker).value, taker.value
    pass_to(game, taker.other)


def refuse_double(game: Game, passer: Side) -> None:
    """The doubler wins a single game at the cube before the double."""
    cube = cube_of(game)
    assert cube is not None
    record_cube_action(game, passer, "pass")
    game.passed = True
    points = pass_points(cube, match_of(game), passer.other)
    finish_game(game, passer.other, ResultKind.SINGLE, points)
