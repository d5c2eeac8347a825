"""Fixtures for the live game: deterministic dice, hand-built positions, games.

Dice: ``dice`` replaces ``games.services.dice.roll_die`` (the site's one source of
dice) with a queue the test fills: ``dice.queue(5, 2)``; an empty queue fails
the test rather than rolling at random. Positions: ``board(light={...},
dark={...})`` (tests/boards.py, the suite's one builder) builds a position
from LIGHT's side, points in the display numbering for both colours.
``make_game`` starts a game through the services (the states no command
reaches from a chosen position are its one documented exception).
``computer_queue`` records the computer turns announced on commit
(``held_computer_turns``) instead of playing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from games import services
from games.engine import Position, Side
from games.models import Game, GameKind, Status
from tests.boards import board


class DiceQueue:
    def __init__(self) -> None:
        self.values: list[int] = []

    def queue(self, *values: int) -> None:
        self.values.extend(values)

    def __call__(self) -> int:
        if not self.values:
            raise AssertionError("the test rolled more dice than it queued")
        return self.values.pop(0)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> DiceQueue:
    """Deterministic dice: ``dice.queue(d, ...)`` feeds ``services.dice.roll_die``."""
    queue = DiceQueue()
    monkeypatch.setattr(services.dice, "roll_die", queue)
    return queue


@pytest.fixture
def hints_not_queued(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint request records itself on the game and queues no analysis job."""
    from learning import tasks

    monkeypatch.setattr(tasks, "enqueue_hint", lambda game_id, version: None)


@pytest.fixture(name="board")
def board_fixture() -> Callable[..., Position]:
    """The ``board(light=..., dark=..., light_bar=, dark_bar=)`` builder."""
    return board


@pytest.fixture
def make_game(user: Any) -> Callable[..., Game]:
    """``make_game(position, turn="light", dice=[5, 2], **fields)``.

    Started through the services: ``status="opening"`` opens a game by its
    opening roll (``start_game``, the rolls given as ``opening_rolls``);
    otherwise a game from ``position`` with ``turn`` on roll
    (``start_game_from``: single, or money by ``kind`` and ``jacoby``, whose
    side on turn first decides on the cube when ``dice`` is None).

    The one exception, and the fixtures' one writer of game rows by hand:
    any other field (a cube already held, a last turn or a result stored as
    the state's tests give them, a match's later game at a given score, a
    finished game's clock left on, the computer's dice not rolled yet as
    rows stood before migration 0003: states no command reaches from a
    chosen position, or that a display test sets directly) makes
    ``_as_given`` store the row as given.
    """

    def make(
        position: Position | None = None,
        turn: str = "light",
        dice: list[int] | None = None,
        **fields: Any,
    ) -> Game:
        owner = fields.pop("owner", user)
        if fields.get("status") == Status.OPENING and set(fields) <= OPENING_FIELDS:
            return _opened(owner, fields.get("opening_rolls") or [dice or [5, 2]], fields)
        start = {k: fields.pop(k) for k in START_FIELDS & set(fields)}
        kind = start.get("kind", GameKind.SINGLE)
        deciding = kind != GameKind.SINGLE and dice is None
        status = Status.DECIDING if deciding else Status.PLAYING
        if (
            set(fields) <= {"status"}
            and fields.get("status", status) == status
            and (dice is not None or deciding)
        ):
            tier = start.pop("tier", "casual")
            position = position or Position.start()
            return services.start_game_from(owner, tier, position, Side(turn), dice, **start)
        return _as_given(owner, position, turn, dice, {**start, **fields})

    return make


START_FIELDS = {"tier", "kind", "jacoby"}
OPENING_FIELDS = {"status", "opening_rolls", "tier"}


def _opened(owner: Any, rolls: list[list[int]], fields: dict[str, Any]) -> Game:
    """``start_game`` with its opening roll's dice: ``rolls``, ties first."""
    dice = iter([d for roll in rolls for d in roll])
    with mock.patch.object(services.dice, "roll_die", lambda: next(dice)):
        game = services.start_game(owner, fields.get("tier", "casual"))
    assert game.opening_rolls == rolls and game.status == Status.OPENING
    return game


def _as_given(
    owner: Any, position: Position | None, turn: str, dice: list[int] | None, fields: dict[str, Any]
) -> Game:
    """The row as given (see ``make_game``): a state no command reaches."""
    fields.setdefault("status", Status.PLAYING)
    fields.setdefault("opening_rolls", [[5, 2]])
    position_id = (position or Position.start()).position_id()
    return Game.objects.create(owner=owner, position_id=position_id, turn=turn, dice=dice, **fields)


@pytest.fixture
def computer_queue(
    held_computer_turns: list[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Every (game_id, version) the services announce for the computer, in order."""
    return held_computer_turns


@pytest.fixture
def auto_end(user: Any) -> Callable[[bool], None]:
    """``auto_end(False)`` turns the owner's auto-end-turn preference off."""
    from accounts.models import Preferences

    def set_auto_end(on: bool) -> None:
        Preferences.objects.update_or_create(user=user, defaults={"auto_end_turn": on})

    return set_auto_end


@pytest.fixture
def played_waiting(make_game: Callable[..., Game], user: Any, auto_end: Any) -> Game:
    """LIGHT has played 13/8 13/11 with 5-2, auto end turn off: the game at
    version 3 waits for End turn."""
    auto_end(False)
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    services.make_step(game.pk, user, 2, 13, 11)
    return game
