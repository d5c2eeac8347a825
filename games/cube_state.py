"""The cube and the match in the game state (docs/interfaces.md §4), in words too.

``cube_json`` and ``match_json`` are the state's ``cube`` and ``match``;
``describe_cube_refusal`` words why a cube command changed nothing, as
``games.refusals`` words a refused step. Every sentence is in the active
language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import Cube, ResultKind, Side, result_points
from games.engine import Match as EngineMatch
from games.models import CubeAction, Game, Status
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
        # What each resignation the person may offer scores for the computer
        # now (Jacoby, the cube, the match's cap): the resign dialog's figures.
        "resign_points": {
            kind.value: result_points(kind, cube, match, Side.DARK) for kind in ResultKind
        },
    }


def word_cube(state: dict[str, Any]) -> None:
    """Put the cube's words in the active language into ``state`` (from the state alone,
    so each socket words a broadcast state in its own page language)."""
    cube = state.get("cube")
    if not cube:
        return
    code = cube.get("why_not_code")
    cube["why_not"] = describe_cube_refusal(code) if code else None
    answers = state["status"] == Status.DOUBLED and state["turn"] == Side.LIGHT.value
    cube["dialog"] = _dialog(*_engine_values(state)) if answers else None


def _engine_values(state: dict[str, Any]) -> tuple[Cube, EngineMatch]:
    cube = state["cube"]
    owner = None if cube["owner"] == "centre" else Side(cube["owner"])
    match = state.get("match")
    if match is None:
        return Cube(cube["value"], owner), EngineMatch(jacoby=bool(cube["jacoby"]))
    start = match["game_score"]
    engine_match = EngineMatch(match["length"], start["light"], start["dark"], match["crawford"])
    return Cube(cube["value"], owner), engine_match


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


def _dialog(cube: Cube, match: EngineMatch) -> dict[str, str]:
    """What a take and a pass of the computer's double mean at this cube and score."""
    taken = cube.taken(Side.LIGHT)
    lost = result_points(ResultKind.SINGLE, cube, match, Side.DARK)
    if match.is_money:
        single = result_points(ResultKind.SINGLE, taken, match, Side.LIGHT)
        take = ngettext(
            "Take: the cube goes to %(value)d on your side; play on for %(points)d point, "
            "twice that with a gammon.",
            "Take: the cube goes to %(value)d on your side; play on for %(points)d points, "
            "twice that with a gammon.",
            single,
        ) % {"value": taken.value, "points": single}
        passed = ngettext(
            "Pass: the computer wins %(points)d point.",
            "Pass: the computer wins %(points)d points.",
            lost,
        ) % {"points": lost}
        return {"take": take, "pass": passed}
    after = match.after(Side.DARK, lost)
    take = _("Take: the cube goes to %(value)d on your side; play on, %(score)s.") % {
        "value": taken.value,
        "score": score_words(match.light, match.dark, match.length),
    }
    passed = ngettext(
        "Pass: the computer wins %(points)d point; %(score)s.",
        "Pass: the computer wins %(points)d points; %(score)s.",
        lost,
    ) % {"points": lost, "score": score_words(after.light, after.dark, after.length)}
    return {"take": take, "pass": passed}


def score_words(light: int, dark: int, length: int) -> str:
    """The score as the person reads it: "you lead 3–2 in a 7-point match"."""
    values = {"light": light, "dark": dark, "length": length}
    if light >= length:
        return _("you win the %(length)d-point match %(light)d–%(dark)d") % values
    if dark >= length:
        return _("the computer wins the %(length)d-point match %(dark)d–%(light)d") % values
    if light > dark:
        return _("you lead %(light)d–%(dark)d in a %(length)d-point match") % values
    if dark > light:
        return _("you trail %(light)d–%(dark)d in a %(length)d-point match") % values
    return _("the score is %(light)d–%(dark)d in a %(length)d-point match") % values


def describe_cube_refusal(code: str) -> str:
    """Why a cube, resign or match command changed nothing, in words."""
    words = {
        "no_cube": _("This game is played without the cube."),
        "game_over": _("This game is over."),
        "crawford_game": _("No doubling in the Crawford game."),
        "not_your_cube": _("The computer owns the cube; only it may double now."),
        "cube_at_max": _("The cube is at 64, as high as it goes."),
        "dead_cube": _("Doubling gains you nothing: the cube already wins you the match."),
        "already_rolled": _("You may double only before you roll."),
        "not_deciding": _("The dice are already rolled."),
        "no_double_pending": _("No double is waiting for your answer."),
        "answer_first": _("Answer the double first: take or pass."),
        "resign_pending": _("The computer is still answering your resignation."),
        "not_finished": _("The next game starts when this one is over."),
        "match_over": _("The match is over."),
        "not_a_match": _("This game is not part of a match."),
    }
    return words.get(code, _("That cube action is not allowed now."))


def last_cube_action(game: Game) -> dict[str, Any] | None:
    """The game's latest cube action (``number``, ``side``, ``action``, ``value``,
    ``before_turn``)."""
    if not game.has_cube:
        return None
    found = game.cube_actions.order_by("-number").first()
    return None if found is None else _action_json(found)


def cube_actions_json(game: Game) -> list[dict[str, Any]]:
    """Every cube action of ``game`` in order, each shaped as ``last_cube_action``:
    the move list shows them among the turns (``before_turn``)."""
    if not game.has_cube:
        return []
    return [_action_json(a) for a in game.cube_actions.order_by("number")]


def _action_json(action: CubeAction) -> dict[str, Any]:
    return {
        "number": action.number,
        "side": action.side,
        "action": action.action,
        "value": action.value,
        "before_turn": action.before_turn,
    }
