"""Fixtures for the live game: deterministic dice, hand-built positions, games.

Dice: ``dice`` replaces ``games.services.dice.roll_die`` (the site's one source of
dice) with a queue the test fills: ``dice.queue(5, 2)``; an empty queue fails
the test rather than rolling at random. Positions: ``board(light={...},
dark={...})`` (tests/boards.py, the suite's one builder) builds a position
from LIGHT's side, points in the display numbering for both colours.
``make_game`` starts a game in play through the services (any other state
with plain ORM calls).
``computer_queue`` records the computer turns announced on commit
(``held_computer_turns``) instead of playing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services
from games.engine import Position, Side
from games.models import Game, Status
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


@pytest.fixture(name="board")
def board_fixture() -> Callable[..., Position]:
    """The ``board(light=..., dark=..., light_bar=, dark_bar=)`` builder."""
    return board


@pytest.fixture
def make_game(user: Any) -> Callable[..., Game]:
    """``make_game(position, turn="light", dice=[5, 2], **fields)``.

    A game in play is started through the services (``start_game_from``:
    the turn begun as the site begins it). Only a state no command reaches
    from a chosen position (an opening, a cube decision, a version, a clock,
    dice not rolled yet) is written as given, with plain ORM calls.
    """

    def make(
        position: Position | None = None,
        turn: str = "light",
        dice: list[int] | None = None,
        **fields: Any,
    ) -> Game:
        owner = fields.pop("owner", user)
        position = position or Position.start()
        if dice is not None and set(fields) <= {"tier"}:
            return services.start_game_from(
                owner, fields.get("tier", "casual"), position, Side(turn), dice
            )
        fields.setdefault("status", Status.PLAYING)
        fields.setdefault("opening_rolls", [[5, 2]])
        return Game.objects.create(
            owner=owner, position_id=position.position_id(), turn=turn, dice=dice, **fields
        )

    return make


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
