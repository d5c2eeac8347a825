"""The person's commands: start a game (or set one up from a position), step,
undo, end the turn, resign, ask a hint. How each is checked and written:
``rows.person_command`` and ``rows.row_command`` (step, undo, End turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.preferences import board_prefs
from games.engine import IllegalStepError, Position, Side, opening_roll
from games.engine import Turn as EngineTurn
from games.models import Game, GameKind, Match, ResultKind, Status
from games.reading import cube_of, cube_refusal, current_turn, position_of, remember_turn
from games.services import dice as dice_source
from games.services import store
from games.services.coach import check
from games.services.errors import NotYourTurnError, StepRefusedError, TurnIncompleteError
from games.services.rows import Rest, person_command, row_command, save
from games.services.turns import (
    begin_first_turn,
    check_game_over,
    finish_game,
    pass_to,
    record_turn,
)
from games.signals import hint_requested
from games.steps import stored_steps
from games.tiers import Tier
from games.tutor import Decision


def start_game(
    user: Any,
    tier: str,
    kind: str = GameKind.SINGLE,
    *,
    jacoby: bool = True,
    match: Match | None = None,
    person_seed: str | None = None,
    commitment: str | None = None,
) -> Game:
    """A new game at ``tier``: opening roll (ties re-rolled), starter on turn;
    ``kind`` single (no cube), money (with ``jacoby``) or match: the next game
    of ``match`` (``matches`` starts them). The dice: ``dice.seed_game``
    (``commitment``: the one the page showed, checked there)."""
    if (GameKind(kind) == GameKind.MATCH) != (match is not None):
        raise ValueError("a match game belongs to a match, and only it")
    with transaction.atomic():
        game = _new_game(user, tier, kind, jacoby, person_seed, commitment, status=Status.OPENING)
        if match is not None:
            game.match, game.match_game = match, match.games.count() + 1
            game.score_light, game.score_dark = match.score_light, match.score_dark
            game.crawford = match.crawford
        # The opening rolls are the game's first rolls: the person's die
        # first, the computer's second (docs/dice.md).
        rolls: list[list[int]] = []
        starter: Side | None = None
        while starter is None:
            light, dark = dice_source.roll_dice(game)
            rolls.append([light, dark])
            starter = opening_roll(light, dark)
        game.turn = starter.value
        game.opening_rolls = rolls
        game.dice = list(rolls[-1])
        begin_first_turn(game)
    return game


def start_game_from(
    user: Any,
    tier: str,
    position: Position,
    turn: Side = Side.LIGHT,
    dice: Sequence[int] | None = None,
    *,
    kind: str = GameKind.SINGLE,
    jacoby: bool = True,
    person_seed: str | None = None,
) -> Game:
    """A game of ``user``'s at ``tier`` from ``position``, ``turn`` on roll,
    single or money: how its first turn begins is docs/interfaces.md §3's."""
    if GameKind(kind) == GameKind.MATCH:
        raise ValueError("a match game is started by its match")
    with transaction.atomic():
        game = _new_game(user, tier, kind, jacoby, person_seed, None, turn=turn.value)
        game.status, game.position_id = Status.PLAYING, position.position_id()
        if dice is None and cube_of(game) is not None and cube_refusal(game, turn) is None:
            game.status = Status.DECIDING
        else:
            game.dice = list(dice) if dice is not None else dice_source.roll_dice(game)
        begin_first_turn(game)
    return game


def _new_game(
    user: Any,
    tier: str,
    kind: str,
    jacoby: bool,
    person_seed: str | None,
    commitment: str | None,
    **fields: Any,
) -> Game:
    """A new game of ``user``'s, not yet saved, its dice seeded."""
    kind = GameKind(kind).value
    money = kind == GameKind.MONEY
    game = Game(owner=user, tier=Tier(tier).value, kind=kind, jacoby=jacoby and money, **fields)
    dice_source.seed_game(game, person_seed, commitment)
    return game


def make_step(
    game_id: int, user: Any, version: int, src: int, dst: int, die: int | None = None
) -> Game:
    """One step of the person's turn (display numbering = LIGHT's: 25 bar, 0 off)."""

    def step(game: Game) -> Rest | None:
        try:
            turn = current_turn(game).step(src, dst, die)
        except IllegalStepError as exc:
            raise StepRefusedError(exc.refusal) from exc
        game.steps = [*game.steps, *stored_steps(turn.steps[-1:])]
        remember_turn(game, turn)
        if not turn.complete or not board_prefs(game.owner).get("auto_end_turn", True):
            return None
        if not _tutor_allows(game, turn, anyway=False):
            return None  # the step stands; the turn waits on the warning
        return _ended(game, turn)

    return row_command(game_id, user, version, step)


def undo_step(game_id: int, user: Any, version: int, whole: bool = False) -> Game:
    """Take back the last step of the person's turn (``whole``: every step of
    it, the tutor's 撤销重走)."""

    def undo(game: Game) -> None:
        try:
            turn = current_turn(game).undo()
            while whole and turn.steps:
                turn = turn.undo()
        except IllegalStepError as exc:
            raise StepRefusedError(exc.refusal) from exc
        game.steps = game.steps[: len(turn.steps)]
        remember_turn(game, turn)

    return row_command(game_id, user, version, undo)


def end_turn(game_id: int, user: Any, version: int, anyway: bool = False) -> Game:
    """End the person's turn once the steps form a whole legal play; a play the
    tutor warns of waits unless ``anyway`` (仍然这样走: docs/interfaces.md §6)."""

    def end(game: Game) -> Rest | None:
        turn = current_turn(game)
        if not turn.complete:
            raise TurnIncompleteError(f"game {game_id}: the dice are not used yet")
        if not _tutor_allows(game, turn, anyway=anyway):
            return None  # only the warning is written
        return _ended(game, turn)

    return row_command(game_id, user, version, end)


def resign(game_id: int, user: Any, version: int, kind: str = ResultKind.SINGLE) -> Game:
    """The person gives up ``kind`` (single, gammon, backgammon): accepted at
    once in a single game, else offered to the computer (docs/interfaces.md
    §3; ``computer.answer_resignation``)."""
    kind = ResultKind(kind)
    with transaction.atomic():
        game = person_command(game_id, user, version, needs_turn=False)
        if game.has_cube:
            game.resign_offer = kind.value
            game.computer_turn_started_at = timezone.now()
        else:
            accept_resignation(game, kind)
        return save(game)


def accept_resignation(game: Game, kind: ResultKind) -> None:
    game.resigned = True
    finish_game(game, Side.DARK, kind)


def request_hint(game_id: int, user: Any, version: int) -> Game:
    """Ask for a hint on the person's roll (docs/interfaces.md §3): ``hints_used``
    set, the version unchanged, the hint its own socket event."""
    with transaction.atomic():
        game = person_command(game_id, user, version, needs_turn=False)
        # A cube decision (to double, or to answer a double) has no dice yet.
        cube = game.status in (Status.DECIDING, Status.DOUBLED)
        if game.turn != Side.LIGHT.value or (game.dice is None and not cube):
            raise NotYourTurnError(f"game {game_id}: it is not your turn")
        if not game.hints_used:
            game.hints_used = True
            store.update(game, ["hints_used", "updated_at"])
        transaction.on_commit(
            lambda: hint_requested.send(sender=Game, game_id=game_id, version=version)
        )
        return game


def _tutor_allows(game: Game, turn: EngineTurn, *, anyway: bool) -> bool:
    """The tutor's check of the play about to be committed (``games.services.coach``)."""
    play = turn.play()
    decision = Decision(
        kind="play",
        position_id=game.position_id,
        dice=(int(game.dice[0]), int(game.dice[1])) if game.dice else None,
        result_id=play.result.position_id(),
        notation=play.notation(),
    )
    return check(game, decision, anyway=anyway)


def _ended(game: Game, turn: EngineTurn) -> Rest:
    """The person's turn ends: what ``row_command`` stores with the row."""

    def end_turn() -> bool:
        play = turn.play()
        record_turn(game, Side.LIGHT, play, position_of(game), play.result)
        if not check_game_over(game, play.result, Side.LIGHT):
            pass_to(game, Side.DARK)
        return True

    return end_turn
