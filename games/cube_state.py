"""The cube and the match in the game state (docs/interfaces.md §4a)."""

from __future__ import annotations

from typing import Any

from games.engine import ResultKind, Side, result_points
from games.models import Game, Status
from games.reading import cube_of, cube_refusal, match_of


def cube_json(game: Game) -> dict[str, Any] | None:
    """The state's ``cube``: None for the single game; worded by ``word_cube``."""
    cube = cube_of(game)
    if cube is None:
        return None
    refusal = cube_refusal(game, Side.LIGHT)
    match = match_of(game)
    deciding = game.status == Status.DECIDING and game.turn == Side.LIGHT.value
    return {
        "value": cube.value,
        "owner": cube.owner.value if cube.owner else "centre",
        "offered": game.cube_offered or None,
        "may_double": deciding and refusal is None and not game.resign_offer,
        "why_not": None,
        "why_not_code": refusal.value if refusal else None,
        "jacoby": match.jacoby,
        "dialog": None,
        "resign_points": {
            kind.value: result_points(kind, cube, match, Side.DARK) for kind in ResultKind
        },
    }


def match_json(game: Game) -> dict[str, Any] | None:
    """The state's ``match``: None outside a match."""
    match = game.match
    if match is None:
        return None
    next_game = match.games.filter(match_game=(game.match_game or 0) + 1).first()
    return {
        "id": match.pk,
        "length": match.length,
        "game": game.match_game,
        "score": {"light": match.score_light, "dark": match.score_dark},
        "game_score": {"light": game.score_light, "dark": game.score_dark},
        "crawford": game.crawford,
        "post_crawford": match_of(game).post_crawford,
        "over": match.is_over,
        "winner": match.winner or None,
        "next_game": next_game.pk if next_game else None,
    }


# A cube action as the state and the move list show it.
ACTION_FIELDS = ("number", "side", "action", "value", "before_turn")


def last_cube_action(game: Game) -> dict[str, Any] | None:
    """The game's latest cube action (``ACTION_FIELDS``)."""
    if not game.has_cube:
        return None
    actions = game.cube_actions.order_by("-number").values(*ACTION_FIELDS)
    latest: dict[str, Any] | None = actions.first()
    return latest


def cube_actions_json(game: Game) -> list[dict[str, Any]]:
    """Every cube action of ``game`` in order, each shaped as ``last_cube_action``:
    the move list shows them among the turns (``before_turn``)."""
    if not game.has_cube:
        return []
    return list(game.cube_actions.order_by("number").values(*ACTION_FIELDS))
