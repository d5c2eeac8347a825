"""The game state sent to the board (docs/interfaces.md §4), in the display
numbering (``games.steps``). ``describe_state`` words the ``message`` from the
state alone, so each socket can phrase it in its own page language.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy

from games import services
from games.cube_state import (
    cube_actions_json,
    cube_json,
    last_cube_action,
    match_json,
)
from games.dice_proof import dice_proof_json
from games.engine import Dice, Display, Position, Side, opening_roll
from games.engine.matchid import MatchIdFields, match_id
from games.models import Game, GameKind, Status
from games.reading import cube_of, current_turn, match_of, position_of
from games.row_checks import (
    READ_ERRORS,
    TIER_KEYS,
    checked_turns,
    damaged_turns_of,
    row_damage,
    turns_damage,
)
from games.steps import moves_json, steps_json
from games.tutor import pending_warning
from games.words.cube import score_words, word_cube

log = logging.getLogger(__name__)


def build_state(game: Game, *, moves: bool = False) -> dict[str, Any]:
    """The whole state of ``game`` (docs/interfaces.md §4; ``moves``: with the
    move lists), in the active language. A game that cannot be read, its row
    or (with ``moves``) its Turn rows (``games.row_checks``), gets
    ``damaged_state``; its damage is stored (an unfinished game stopped) and
    pushed to every open page of the game (``services.mark_damaged``)."""
    if services.is_damaged(game):
        return damaged_state(game)  # found before, and stopped
    why = row_damage(game)
    if why is None:
        try:
            return _state(game, moves)
        except READ_ERRORS as error:
            why = damaged_turns_of(error) or row_damage(game, deep=True) or turns_damage(game)
            if why is None:
                raise  # the game reads: a fault of the code, not of the rows
    log.warning("game %s: damaged row: %s", game.pk, why)
    services.mark_damaged(game.pk, why)
    return damaged_state(Game.objects.get(pk=game.pk))


def damaged_state(game: Game) -> dict[str, Any]:
    """The state of a row that cannot be read (docs/interfaces.md §4, ``damaged``)."""
    finished = game.status == Status.FINISHED
    return {
        "type": "state",
        "game": game.pk,
        "version": game.version,
        "status": Status.FINISHED.value if finished else Status.FAILED.value,
        "damaged": True,
        # What could not be read, as the damaged page says it.
        "failure": game.failure.removeprefix(services.DAMAGED),
        "resigned": bool(game.resigned) and finished,
        "turn": None,
        "tier": game.tier if game.tier in TIER_KEYS else None,
        "dice": None,
        "opening": {"rolls": [], "starter": None},
        "last_turn": None,
        "result": None,
        "hints_used": bool(game.hints_used),
        "kind": game.kind if game.kind in GameKind.values else GameKind.SINGLE.value,
        "cube": None,
        "match": None,
        "last_cube_action": None,
        "resign_offer": None,
        "resign_refused": None,
        "tutor": None,
        "no_move": False,
        "thinking": False,
        "moves": [],
        "cube_actions": [],
        **_board_json_of(Position((0,) * 25, (0,) * 25)),
        "message": damaged_words(finished, bool(game.resigned)),
    }


def damaged_words(finished: bool, resigned: bool = True) -> str:
    """What a damaged game's pages say: what can still be done with it."""
    if finished and resigned:
        return _(
            "This game's record is damaged and cannot be shown. "
            "You resigned it; the computer won it."
        )
    if finished:
        return _("This game's record is damaged and cannot be shown. You can start a new game.")
    return _("This game's record is damaged and cannot be shown. Resign it, or start a new game.")


def _state(game: Game, moves: bool) -> dict[str, Any]:
    last = game.last_turn
    rolls = [list(r) for r in game.opening_rolls]
    starter = opening_roll(*rolls[-1]) if rolls else None
    state: dict[str, Any] = {
        "type": "state",
        "game": game.pk,
        "version": game.version,
        "status": game.status,
        "damaged": False,
        "turn": game.turn,
        "tier": game.tier,
        "dice": list(game.dice) if game.dice else None,
        "opening": {"rolls": rolls, "starter": starter.value if starter else None},
        "dice_proof": dice_proof_json(game),
        "last_turn": last,
        "result": _result_json(game),
        "hints_used": game.hints_used,
        "kind": game.kind,
        "cube": cube_json(game),
        "match": match_json(game),
        "last_cube_action": last_cube_action(game),
        "resign_offer": game.resign_offer or None,
        "resign_refused": game.resign_refused or None,
        "tutor": pending_warning(game),
        **_board_json(game),
        "ids": ids_json(game),
        # The person's last turn had no legal move and play moved on to DARK.
        "no_move": (
            last is not None
            and last["side"] == Side.LIGHT.value
            and not last["steps"]
            and game.turn == Side.DARK.value
            and not game.is_over
        ),
        "thinking": not game.is_over and (game.turn == Side.DARK.value or bool(game.resign_offer)),
    }
    word_cube(state)
    state["message"] = describe_state(state)
    if moves:
        turns = list(game.turns.order_by("number"))
        checked_turns(game, turns)  # a damaged one: the whole game is (build_state)
        state["moves"] = moves_json(game, turns)
        state["cube_actions"] = cube_actions_json(game)
    return state


def _board_json(game: Game) -> dict[str, Any]:
    """Board, pips and the person's options, mid-turn steps applied."""
    if game.is_over or game.turn != Side.LIGHT.value or game.dice is None:
        remaining = list(Dice(*game.dice).values) if game.dice and not game.is_over else []
        return {**_board_json_of(position_of(game)), "remaining": remaining}
    turn = current_turn(game)
    return {
        **_board_json_of(turn.current),
        "remaining": list(turn.remaining),
        "steps": steps_json(game.steps, Side.LIGHT.value),
        "allowed": [{"from": s.src, "to": s.dst, "die": s.die} for s in turn.allowed_steps()],
        "can_undo": bool(game.steps),
        "can_end_turn": bool(turn.complete),
    }


def _board_json_of(position: Position) -> dict[str, Any]:
    """The board and pips of ``position``, nothing the person may do."""
    light, dark = position.pips()
    return {
        "board": Display.from_position(position).to_json(),
        "pips": {"light": light, "dark": dark},
        "remaining": [],
        "steps": [],
        "allowed": [],
        "can_undo": False,
        "can_end_turn": False,
    }


def ids_json(game: Game) -> dict[str, str]:
    """The state's ``ids`` (docs/interfaces.md §4a)."""
    turn = Side(game.turn)  # row_damage has checked it
    on_roll = Side(game.cube_offered) if game.cube_offered else turn
    deciding = Side.DARK if game.resign_offer else turn
    cube, match = cube_of(game), match_of(game)
    if game.status == Status.FINISHED:
        stage = "passed" if game.passed else "resigned" if game.resigned else "over"
    else:
        stage = "playing"
    rolled: list[int] = [] if game.status in (Status.DECIDING, Status.DOUBLED) else game.dice or []
    fields = MatchIdFields(
        cube=cube.value if cube else 1,
        owner=cube.owner if cube else None,
        on_roll=on_roll,
        crawford=match.crawford,
        game=stage,
        deciding=deciding,
        doubled=game.status == Status.DOUBLED,
        resigned=game.resign_offer or "",
        dice=(rolled[0], rolled[1]) if rolled else (0, 0),
        length=match.length,
        score_light=match.light,
        score_dark=match.dark,
    )
    position = position_of(game)
    seen = position if on_roll is Side.LIGHT else position.swapped()
    return {"position_id": seen.position_id(), "match_id": match_id(fields)}


def _result_json(game: Game) -> dict[str, Any] | None:
    if game.status != Status.FINISHED:
        return None
    return {
        "winner": game.winner,
        "kind": game.result_kind,
        "points": game.points,
        "resigned": game.resigned,
        "passed": game.passed,
        "cube": game.cube_value if game.has_cube else None,
    }


def describe_state(state: dict[str, Any]) -> str | None:
    """A sentence about what just happened, from the state alone (or None)."""
    if state.get("damaged"):
        return damaged_words(state["status"] == Status.FINISHED, state.get("resigned", True))
    if state["status"] == Status.FAILED:
        return _("The computer could not finish its turn; this game has stopped.")
    result = state.get("result")
    if result:
        words = _describe_result(result)
        match = state.get("match")
        if not match:
            return words
        score = score_words(match["score"]["light"], match["score"]["dark"], match["length"])
        return " ".join([words, _("Match score: %(score)s.") % {"score": score}])
    cube_words = _describe_cube(state)
    if cube_words:
        return cube_words
    last = state.get("last_turn")
    if not last:
        return None
    dice = {"d1": last["dice"][0], "d2": last["dice"][1]}  # every turn has its dice
    if state.get("no_move"):
        return _("You rolled %(d1)s-%(d2)s and have no legal move; the turn passes.") % dice
    if last["side"] == Side.DARK.value and not last["notation"]:
        return _("The computer rolled %(d1)s-%(d2)s and cannot move.") % dice
    return None


def _describe_cube(state: dict[str, Any]) -> str | None:
    """A pending double or resignation, or the computer's answer to the person's."""
    cube = state.get("cube") or {}
    if state.get("resign_offer"):
        return _("The computer is thinking about your resignation.")
    if state.get("resign_refused"):
        return _("The computer refuses your resignation: it expects to win more. Play on.")
    if state["status"] == Status.DOUBLED:
        theirs = cube.get("offered") == Side.DARK.value
        again = cube.get("owner") == cube.get("offered")  # the doubler owns the cube: a redouble
        if theirs and again:
            words = _("The computer redoubles to %(value)d: take or pass?")
        elif theirs:
            words = _("The computer doubles to %(value)d: take or pass?")
        elif again:
            words = _("You redouble to %(value)d; the computer is thinking.")
        else:
            words = _("You double to %(value)d; the computer is thinking.")
        return words % {"value": cube["value"] * 2}
    action = state.get("last_cube_action")
    if action and action["side"] == Side.DARK.value and action["action"] == "take":
        last = state.get("last_turn")
        if last is None or last["number"] < action["before_turn"]:
            return _("The computer takes; the cube is at %(value)d.") % {"value": action["value"]}
    return None


# The result's words; ngettext_lazy picks the plural by the "points" value.
RESULT_WORDS = {
    "they_passed": ngettext_lazy(
        "The computer passes; you win %(points)d point.",
        "The computer passes; you win %(points)d points.",
        "points",
    ),
    "you_passed": ngettext_lazy(
        "You pass; the computer wins %(points)d point.",
        "You pass; the computer wins %(points)d points.",
        "points",
    ),
    "you_won": ngettext_lazy(
        "You won %(kind)s: %(points)d point.", "You won %(kind)s: %(points)d points.", "points"
    ),
    "resignation_accepted": ngettext_lazy(
        "The computer accepts your resignation (%(kind)s): it wins %(points)d point.",
        "The computer accepts your resignation (%(kind)s): it wins %(points)d points.",
        "points",
    ),
    "you_resigned": ngettext_lazy(
        "You resigned; the computer wins %(points)d point.",
        "You resigned; the computer wins %(points)d points.",
        "points",
    ),
    "they_won": ngettext_lazy(
        "The computer won %(kind)s: %(points)d point.",
        "The computer won %(kind)s: %(points)d points.",
        "points",
    ),
}


def _describe_result(result: dict[str, Any]) -> str:
    kinds = {
        "single": _("a single game"),
        "gammon": _("a gammon"),
        "backgammon": _("a backgammon"),
    }
    won = result["winner"] == Side.LIGHT.value
    if result.get("passed"):
        words = "they_passed" if won else "you_passed"
    elif won:
        words = "you_won"
    elif result.get("resigned"):
        # With the cube in play a resignation is offered and accepted (of a kind).
        words = "resignation_accepted" if result.get("cube") is not None else "you_resigned"
    else:
        words = "they_won"
    values = {"kind": kinds.get(result["kind"], result["kind"]), "points": int(result["points"])}
    return str(RESULT_WORDS[words] % values)
