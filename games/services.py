"""Every state change of a game: one function each, one writer per game.

Each function runs in ``transaction.atomic()``, locks the game row with
``select_for_update()``, checks the version the command was made on, and
broadcasts (and queues the computer's turn) only after commit. Views,
consumers and tasks call these and never repeat them. Positions are stored
from LIGHT's side; DARK plays on ``position.swapped()``.
"""

from __future__ import annotations

import copy
import importlib.util
import secrets
from collections.abc import Callable
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.preferences import board_prefs
from games import broadcast
from games.engine import (
    Dice,
    IllegalPlayError,
    IllegalStepError,
    Play,
    Position,
    Refusal,
    Side,
    legal_plays,
    opening_roll,
    outcome,
)
from games.engine import Turn as EngineTurn
from games.models import Game, ResultKind, Status, Tier, Turn
from games.signals import game_finished
from games.steps import turn_json

# Every column a transition may change (updated_at is always written).
_SAVED_FIELDS = tuple(
    f.attname
    for f in Game._meta.concrete_fields
    if not f.primary_key and f.name not in ("owner", "created_at", "updated_at")
)

# ---------------------------------------------------------------- errors


class ServiceError(Exception):
    """A command that changed nothing; the caller answers with the state."""

    code = "refused"


class StepRefused(ServiceError):
    code = "refused"

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal.code))
        self.refusal = refusal


class StaleVersion(ServiceError):
    code = "stale"

    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.pk} is at version {game.version}")
        self.game = game


class NotYourGame(ServiceError):
    code = "not_your_game"


class GameOver(ServiceError):
    code = "game_over"


class NotYourTurn(ServiceError):
    code = "not_your_turn"


class TurnIncomplete(ServiceError):
    """End turn before the steps form a whole legal play."""

    code = "turn_incomplete"


# ---------------------------------------------------------------- dice


def roll_die() -> int:
    """The one source of dice in the site (tests patch this)."""
    return secrets.randbelow(6) + 1


def roll_dice() -> list[int]:
    return [roll_die(), roll_die()]


# ---------------------------------------------------------------- helpers


def position_of(game: Game) -> Position:
    """The stored position, from LIGHT's side."""
    return _decode(game.position_id)


@lru_cache(maxsize=4096)
def _decode(position_id: str) -> Position:
    # Positions are immutable values and a move reads its game's several times.
    return Position.from_position_id(position_id)


def mover_position(game: Game) -> Position:
    """The position from the side on turn."""
    position = position_of(game)
    return position if game.turn == Side.LIGHT.value else position.swapped()


def current_turn(game: Game) -> EngineTurn:
    """The engine's view of the turn in progress, steps replayed (needs dice)."""
    assert game.dice is not None
    turn = EngineTurn(mover_position(game), Dice(*game.dice))
    for src, dst, die in game.steps:
        turn = turn.step(src, dst, die)
    return turn


def _lock(game_id: int) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    game.loaded_values = _values(game)
    return game


def _values(game: Game) -> dict[str, Any]:
    # JSON values are copied so a change made in place is still seen.
    return {name: _copy(getattr(game, name)) for name in _SAVED_FIELDS}


def _copy(value: Any) -> Any:
    return copy.deepcopy(value) if isinstance(value, (list, dict)) else value


def _changed_fields(game: Game) -> list[str]:
    """Fields that differ from what ``_lock`` read (all of them if unknown)."""
    loaded = game.loaded_values
    if loaded is None:
        return list(_SAVED_FIELDS)
    return [name for name, value in _values(game).items() if loaded[name] != value]


def _after_commit(game: Game, *, computer: bool = False) -> None:
    """Queue DARK's turn (if it is on turn), then broadcast the new state.

    The computer starts first: its reply is what the person waits for, and
    sockets order states by version whichever arrives first.
    """
    game_id, version = game.pk, game.version
    if computer:
        transaction.on_commit(lambda: _enqueue_computer_turn(game_id, version))
    transaction.on_commit(lambda: _broadcast(game))


def _broadcast(game: Game) -> None:
    # The state sent is kept on the instance: the command's own reply reuses it.
    game.sent_state = broadcast.game_changed(game)


def _enqueue_computer_turn(game_id: int, version: int) -> None:
    from ai_worker.dispatch import enqueue_computer_turn

    enqueue_computer_turn(game_id, version)


def _person_command(game_id: int, user: Any, version: int, *, needs_turn: bool = True) -> Game:
    """Lock the game and check that ``user`` may act on ``version`` now."""
    game = _lock(game_id)
    if game.owner_id != getattr(user, "pk", None):
        raise NotYourGame(f"game {game_id} is not yours")
    if game.is_over:
        raise GameOver(f"game {game_id} is over")
    if game.version != version:
        raise StaleVersion(game)
    if needs_turn and (game.turn != Side.LIGHT.value or game.dice is None):
        raise NotYourTurn(f"game {game_id}: it is not your turn")
    return game


def _save(game: Game, *, computer: bool = False) -> Game:
    # Only the changed columns: most commands touch two or three of them, and
    # building the full UPDATE was a third of a step's server time.
    game.version += 1
    game.save(update_fields=[*_changed_fields(game), "updated_at"])
    game.loaded_values = _values(game)
    _after_commit(game, computer=computer)
    return game


# ---------------------------------------------------------------- start


def start_game(user: Any, tier: str) -> Game:
    """A new game at ``tier``: opening roll (ties re-rolled), starter on turn."""
    tier = Tier(tier).value
    rolls: list[list[int]] = []
    starter: Side | None = None
    while starter is None:
        light, dark = roll_die(), roll_die()
        rolls.append([light, dark])
        starter = opening_roll(light, dark)
    with transaction.atomic():
        game = Game.objects.create(
            owner=user,
            tier=tier,
            status=Status.OPENING,
            turn=starter.value,
            position_id=Position.start().position_id(),
            opening_rolls=rolls,
            dice=list(rolls[-1]),
        )
        if starter is Side.DARK:
            game.computer_turn_started_at = timezone.now()
            game.save(update_fields=["computer_turn_started_at"])
            _after_commit(game, computer=True)
        else:
            _begin_person_turn(game)
            game.save()
            _after_commit(game, computer=game.turn == Side.DARK.value)
    return game


# ---------------------------------------------------------------- the person


def make_step(
    game_id: int, user: Any, version: int, src: int, dst: int, die: int | None = None
) -> Game:
    """One step of the person's turn (display numbering = LIGHT's: 25 bar, 0 off)."""
    with transaction.atomic():
        game = _person_command(game_id, user, version)
        try:
            turn = current_turn(game).step(src, dst, die)
        except IllegalStepError as exc:
            raise StepRefused(exc.refusal) from exc
        step = turn.steps[-1]
        game.steps = [*game.steps, [step.src, step.dst, step.die]]
        if turn.complete and _auto_end_turn(game.owner):
            _end_person_turn(game, turn)
        return _save(game, computer=game.turn == Side.DARK.value)


def undo_step(game_id: int, user: Any, version: int) -> Game:
    """Take back the last step of the person's turn."""
    with transaction.atomic():
        game = _person_command(game_id, user, version)
        try:
            current_turn(game).undo()
        except IllegalStepError as exc:
            raise StepRefused(exc.refusal) from exc
        game.steps = game.steps[:-1]
        return _save(game)


def end_turn(game_id: int, user: Any, version: int) -> Game:
    """End the person's turn once the steps form a whole legal play."""
    with transaction.atomic():
        game = _person_command(game_id, user, version)
        turn = current_turn(game)
        if not turn.complete:
            raise TurnIncomplete(f"game {game_id}: the dice are not used yet")
        _end_person_turn(game, turn)
        return _save(game, computer=game.turn == Side.DARK.value)


def resign(game_id: int, user: Any, version: int) -> Game:
    """The person gives up: the computer wins a single game (1 point)."""
    with transaction.atomic():
        game = _person_command(game_id, user, version, needs_turn=False)
        game.resigned = True
        _finish_game(game, Side.DARK, ResultKind.SINGLE, 1)
        return _save(game)


class HintUnavailable(ServiceError):
    code = "unavailable"


def request_hint(game_id: int, user: Any, version: int) -> Game:
    """Queue a hint for the person's roll; the game records that hints were used.

    Not a move: the version stays, the hint arrives as its own socket event.
    """
    if importlib.util.find_spec("learning") is None:
        raise HintUnavailable("the learning app is not installed")
    with transaction.atomic():
        game = _person_command(game_id, user, version)
        if not game.hints_used:
            game.hints_used = True
            game.save(update_fields=["hints_used", "updated_at"])
        transaction.on_commit(lambda: _enqueue_hint(game_id, version))
        return game


def _enqueue_hint(game_id: int, version: int) -> None:
    from ai_worker.dispatch import enqueue_hint

    enqueue_hint(game_id, version)


def mark_hint_used(game_id: int) -> None:
    """Record that a hint was shown; not a state change of the play itself."""
    Game.objects.filter(pk=game_id, hints_used=False).update(hints_used=True)


def _auto_end_turn(user: Any) -> bool:
    return bool(board_prefs(user).get("auto_end_turn", True))


def _end_person_turn(game: Game, turn: EngineTurn) -> None:
    play = turn.play()
    before = position_of(game)
    _record_turn(game, Side.LIGHT, play, before, play.result)
    if not _check_game_over(game, play.result, Side.LIGHT):
        _pass_to(game, Side.DARK)


def _begin_person_turn(game: Game) -> None:
    """Dice are already in ``game.dice``; with no legal play, the turn passes."""
    assert game.dice is not None
    if legal_plays(position_of(game), Dice(*game.dice)):
        return
    before = position_of(game)
    _record_turn(game, Side.LIGHT, None, before, before)
    _pass_to(game, Side.DARK)


def _pass_to(game: Game, side: Side) -> None:
    game.turn = side.value
    game.steps = []
    if game.status == Status.OPENING:
        game.status = Status.PLAYING
    # A turn begins with its roll, the computer's too: rolled here, in the
    # transaction that passes the turn, so its task has nothing to write
    # before it thinks.
    game.dice = roll_dice()
    if side is Side.DARK:
        game.computer_turn_started_at = timezone.now()
    else:
        game.computer_turn_started_at = None
        _begin_person_turn(game)


# ---------------------------------------------------------------- the computer


def begin_computer_turn(game_id: int, version: int) -> tuple[Position, Dice] | None:
    """DARK's dice and the position from DARK's side.

    The dice were rolled when the turn passed to DARK; a turn stored without
    them (an older game) has them rolled here, once. A retry of the same
    (game, version) gets the same dice; the version does not change. ``None``
    when the version moved on or it is not DARK's turn.
    """
    game = Game.objects.get(pk=game_id)  # a read: finish_computer_turn checks again under lock
    if game.dice is None:
        with transaction.atomic():
            game = _lock(game_id)
            if _computer_on_turn(game, version) and game.dice is None:
                game.dice = roll_dice()
                game.save(update_fields=["dice", "updated_at"])
    if not _computer_on_turn(game, version):
        return None
    assert game.dice is not None
    return position_of(game).swapped(), Dice(*game.dice)


def _computer_on_turn(game: Game, version: int) -> bool:
    return game.version == version and not game.is_over and game.turn == Side.DARK.value


def finish_computer_turn(game_id: int, version: int, play: Play | None) -> bool:
    """Apply DARK's ``play`` (from DARK's side), store the Turn, hand over.

    ``False`` and nothing changed on a duplicate or stale call. Raises
    ``ValueError`` for a play that is not legal here.
    """
    with transaction.atomic():
        game = _lock(game_id)
        if (
            game.version != version
            or game.is_over
            or game.turn != Side.DARK.value
            or game.dice is None
        ):
            return False
        before = position_of(game)
        play = _checked_computer_play(before.swapped(), Dice(*game.dice), play)
        dark_after = play.result if play is not None else before.swapped()
        _record_turn(game, Side.DARK, play, before, dark_after.swapped())
        if not _check_game_over(game, dark_after, Side.DARK):
            _pass_to(game, Side.LIGHT)
        _save(game, computer=game.turn == Side.DARK.value)
        return True


def _checked_computer_play(dark_position: Position, dice: Dice, play: Play | None) -> Play | None:
    """The engine's own play with ``play``'s result for these dice, or ValueError."""
    plays = legal_plays(dark_position, dice)
    if play is None:
        if plays:
            raise IllegalPlayError("the computer must play: a legal play exists")
        return None
    for legal in plays:
        if legal.result == play.result:
            return legal
    raise IllegalPlayError(f"{play.notation()} is not legal with {dice}")


def fail_computer_turn(game_id: int, version: int, reason: str) -> bool:
    """Give up on DARK's turn: the game is marked failed with a visible message."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.version != version or game.is_over or game.turn != Side.DARK.value:
            return False
        game.status = Status.FAILED
        game.failure_message = reason[:2000]
        game.finished_at = timezone.now()
        _save(game)
        return True


def stuck_games(older_than: timedelta) -> list[tuple[int, int]]:
    """(game_id, version) of games waiting on the computer for ``older_than`` or more."""
    cutoff = timezone.now() - older_than
    rows = Game.objects.unfinished().filter(
        turn=Side.DARK.value, computer_turn_started_at__lte=cutoff
    )
    return list(rows.order_by("computer_turn_started_at").values_list("pk", "version"))


# ---------------------------------------------------------------- turns and results


def _record_turn(
    game: Game, side: Side, play: Play | None, before: Position, after: Position
) -> Turn:
    assert game.dice is not None
    last = game.last_turn
    number = last["number"] + 1 if last else Turn.objects.filter(game=game).count() + 1
    steps = [[s.src, s.dst, s.die] for s in play.steps] if play is not None else []
    turn = Turn.objects.create(
        game=game,
        number=number,
        side=side.value,
        die1=game.dice[0],
        die2=game.dice[1],
        notation=play.notation() if play is not None else "",
        steps=steps,
        position_before=before.position_id(),
        position_after=after.position_id(),
    )
    game.last_turn = turn_json(turn)
    return turn


def _check_game_over(game: Game, mover_after: Position, mover: Side) -> bool:
    """Store the new position; finish the game if ``mover`` has won."""
    light_after = mover_after if mover is Side.LIGHT else mover_after.swapped()
    game.position_id = light_after.position_id()
    result = outcome(mover_after, mover)
    if result is None:
        return False
    _finish_game(game, result.winner, ResultKind(str(result.kind.value)), result.points)
    return True


def _finish_game(game: Game, winner: Side, kind: ResultKind, points: int) -> None:
    game.status = Status.FINISHED
    game.winner = winner.value
    game.result_kind = kind.value
    game.points = points
    game.dice = None
    game.steps = []
    game.finished_at = timezone.now()
    game.computer_turn_started_at = None
    game_id = game.pk
    transaction.on_commit(lambda: _send_finished(game_id))


def _send_finished(game_id: int) -> None:
    game_finished.send(sender=Game, game_id=game_id)


# Re-exported for the consumer and views: the service functions by command.
PERSON_COMMANDS: dict[str, Callable[..., Game]] = {
    "undo": undo_step,
    "end_turn": end_turn,
    "resign": resign,
}
