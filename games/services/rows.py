"""Writing a game's row: the lock, the save, the events (reads: ``games.reading``).

Three paths, all through ``save`` or ``save_at``: a transition under the
row lock (``person_command``, ``lock``), a person's step, undo or End turn
first without it (``row_command``), the computer's finish on the row its
task's start read (``computer_command``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, cast

from django.db import IntegrityError, transaction

from games import tutor
from games.engine import Side
from games.models import Game
from games.reading import computer_to_act, person_deciding
from games.services import store
from games.services.errors import (
    CubeRefusedError,
    GameOverError,
    NotYourGameError,
    NotYourTurnError,
    ServiceError,
    StaleVersionError,
)
from games.signals import computer_turn_due, state_changed, tutor_warned
from runtime import orm

# A person's row command makes its change on the checked game and returns
# what it stores besides the row (``Rest``: a turn that ends stores its
# Turn), run with the row's write in one transaction; None: the row alone.
# A ``Rest`` returns False when the command no longer applies: nothing is written.
Rest = Callable[[], bool]
RowChange = Callable[[Game], "Rest | None"]


def lock(game_id: int) -> Game:
    """The game row, locked until the transaction ends (call inside ``atomic``)."""
    return store.game(game_id, locked=True)


def person_command(game_id: int, user: Any, version: int, *, needs_turn: bool = True) -> Game:
    """Lock the game and check that ``user`` may act on ``version`` now."""
    return _checked(lock(game_id), user, version, needs_turn)


def row_command(game_id: int, user: Any, version: int, change: RowChange) -> Game:
    """A person's command on ``version``, first tried without the row lock
    (docs/interfaces.md §3 says how). A refusal from the unlocked read
    stands: what it read was the game at some moment. A refusal from the
    held row is not answered: the command starts again from the row read,
    as without one.
    """
    game = _take_held(game_id, version)
    if game is not None:
        try:
            rest = change(_checked(game, user, version, True))
        except ServiceError:
            game = None
    if game is None:
        game = _checked(store.game(game_id), user, version, True)
        rest = change(game)
    if not save_at(game, version, rest, by_person=True):
        with transaction.atomic():
            game = person_command(game_id, user, version)
            rest = change(game)
            if rest is not None:
                rest()
            game = save(game, by_person=True)
    return _hold(game)


def computer_command(
    game_id: int, version: int, change: Callable[[Game], bool], read: Game | None = None
) -> bool:
    """The computer's ``change`` of the game at ``version``, saved at the next one
    (``read``: the row its task's start read, as docs/interfaces.md §3 says);
    False, nothing written, when the game no longer waits on the computer at
    ``version`` (a duplicate or stale task), or ``change`` says so."""

    def apply(game: Game) -> bool:
        return game.version == version and computer_to_act(game) and change(game)

    if read is not None and save_at(read, version, lambda: apply(read)):
        return True
    with transaction.atomic():
        game = lock(game_id)
        if not apply(game):
            return False
        save(game)
        return True


# The game rows this process last wrote with a person's command, or a
# socket's opening read (``hold_opened``), by id: the game's next command on
# that version starts from its copy instead of a SELECT. Safe because the
# write is conditional on the version and ``updated_at``: a row moved on or
# rewritten since (a hint) changes nothing, and the command reruns under the
# lock. Each copy is one command's alone (popped, a copy put back on success).
# Kept: without it a command's CPU in daphne rose by a third (bench/README.md,
# "c20eeef, the held row" and "issue 29").
HELD_GAMES = 2048
_held: dict[int, Game] = {}
_held_lock = threading.Lock()


def _take_held(game_id: int, version: int) -> Game | None:
    """The row as this process last wrote it, if that was at ``version``."""
    with _held_lock:
        game = _held.pop(game_id, None)
    return game if game is not None and game.version == version else None


def peek_held(game_id: int, version: int) -> Game | None:
    """The held row at ``version``, left held: to read, never to change."""
    with _held_lock:
        game = _held.get(game_id)
    return game if game is not None and game.version == version else None


def _hold(game: Game) -> Game:
    """Keep a copy of ``game``, just written (or committed), for the game's
    next command; only while it is the person's to play (any other command
    reads the row under its lock). The oldest go past ``HELD_GAMES``."""
    if game.is_over or game.turn != Side.LIGHT.value or game.dice is None or game.resign_offer:
        return game
    held = orm.detached(game)  # no related instances cached (the owner's preferences)
    held.sent_state = None
    held.loaded_values = dict(game.loaded_values or {})
    for name in store.JSON_FIELDS:  # lists and dicts of its own
        held.__dict__[name] = store.copy(game.__dict__[name])
    with _held_lock:
        _held.pop(game.pk, None)  # to the end: the oldest first out
        _held[game.pk] = held
        while len(_held) > HELD_GAMES:
            del _held[next(iter(_held))]
    return game


def hold_opened(game: Game) -> None:
    """Hold ``game`` as a socket's opening just read it: the game's first
    command on that socket starts from it (bench/README.md, "584456a").
    A decision of the person's open on it is handed to the tutor again: its
    ranking may have been lost with a restart or pushed out of the cache."""
    store.remember(game)
    _hold(game)
    if person_deciding(game, mid_turn=True) and tutor.on_for(game):
        tutor.ask(game, game.version)


def _checked(game: Game, user: Any, version: int, needs_turn: bool) -> Game:
    if game.owner_id != getattr(user, "pk", None):
        raise NotYourGameError(f"game {game.pk} is not yours")
    if game.is_over:
        raise GameOverError(f"game {game.pk} is over")
    if game.version != version:
        raise StaleVersionError(game)
    if game.resign_offer:
        raise CubeRefusedError("resign_pending")
    game.resign_refused = ""  # the page said it once; the next command clears it
    if needs_turn and (game.turn != Side.LIGHT.value or game.dice is None):
        raise NotYourTurnError(f"game {game.pk}: it is not your turn")
    return game


def save(game: Game, *, by_person: bool = False) -> Game:
    """Write the changed columns at the next version; announce it after commit
    (``by_person``: a step, undo or End turn, which bring the person no new
    decision)."""
    game.version += 1
    store.update(game)
    after_commit(game, by_person=by_person)
    return game


def save_at(game: Game, version: int, rest: Rest | None = None, *, by_person: bool = False) -> bool:
    """``save`` if the row is still at ``version``: one statement, or with
    ``rest`` (what the command stores besides the row) first, in one
    transaction; False, nothing written, if the row moved on (or ``rest``
    says the command does not apply)."""
    if rest is not None:
        try:
            with transaction.atomic():
                if rest() and save_at(game, version, by_person=by_person):
                    return True
                transaction.set_rollback(True)  # what the rest wrote is not stored
        except IntegrityError:
            pass  # its Turn's number is taken: another command stored one since
        return False
    game.version = version + 1
    if not store.update(game, at_version=version):
        return False
    after_commit(game, by_person=by_person)
    return True


def after_commit(game: Game, *, by_person: bool = False) -> None:
    """Announce DARK's turn (if it is on turn), broadcast the new state, then
    hand the person's new decision to the tutor (not after their own step or
    undo), or a warning saved to have its words made. The computer starts
    first: its reply is what the person waits for, and sockets order states
    by version whichever arrives first."""
    game_id, version = game.pk, game.version
    if computer_to_act(game):
        transaction.on_commit(
            lambda: computer_turn_due.send(sender=Game, game_id=game_id, version=version)
        )
    transaction.on_commit(lambda: _broadcast(game))
    if tutor.unworded(game):
        transaction.on_commit(
            lambda: tutor_warned.send(sender=Game, game_id=game_id, version=version)
        )
    if not by_person and person_deciding(game):
        # The tutor's ranking starts while the person thinks (learning.tutor);
        # its level is read after the new state went out, never before it.
        transaction.on_commit(lambda: _to_tutor(game, version))


def _to_tutor(game: Game, version: int) -> None:
    if tutor.on_for(game):
        tutor.ask(game, version)


def _broadcast(game: Game) -> None:
    for _receiver, sent in state_changed.send(sender=Game, game=game):
        game.sent_state = cast("dict[str, Any] | None", sent)
