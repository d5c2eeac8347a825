"""The computer turn's SQL built once: one locked read counts the start and
says what is due; the finish writes that row back at its version; a
finished turn's Turn row stored by a prepared INSERT."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import Dice, legal_plays
from games.models import Game, Turn
from tests.ai.conftest import dark_game  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("held_computer_turns")]


def test_a_start_counts_once_and_reads_what_computer_due_reads(
    dark_game: Any,  # noqa: F811
) -> None:
    game = dark_game(dice=(6, 4))
    first = services.start_computer_turn(game.pk, game.version)
    second = services.start_computer_turn(game.pk, game.version)
    assert (first.starts, second.starts) == (1, 2)
    assert first.due is not None and first.due == services.computer_due(game.pk, game.version)
    assert first.due.task == "play" and first.due.dice == Dice(6, 4)
    stored = Game.objects.get(pk=game.pk)
    assert stored.computer_attempts == {"version": game.version, "starts": 2}
    assert stored.version == game.version  # counting is not a move


def test_a_stale_start_counts_and_reads_nothing(dark_game: Any) -> None:  # noqa: F811
    game = dark_game()
    stale = services.start_computer_turn(game.pk, game.version - 1)
    assert (stale.starts, stale.due) == (0, None)
    assert Game.objects.get(pk=game.pk).computer_attempts == {}


def test_only_the_starts_commit_does_not_wait_for_the_disk(dark_game: Any) -> None:  # noqa: F811
    game = dark_game(dice=(6, 4))
    with CaptureQueriesContext(connection) as start:
        started = services.start_computer_turn(game.pk, game.version)
    with CaptureQueriesContext(connection) as finish:
        services.finish_computer_turn(game.pk, game.version, first_play(started), started.game)
    # PostgreSQL's setting for the start's transaction alone (SET LOCAL), as
    # the first statement of it; SQLite's commits here never wait for the disk.
    expected = ["SET LOCAL synchronous_commit TO OFF"] if connection.vendor == "postgresql" else []
    assert [q["sql"] for q in start.captured_queries if "synchronous" in q["sql"]] == expected
    assert not [q for q in finish.captured_queries if "synchronous" in q["sql"]]
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def first_play(start: services.ComputerStart) -> Any:
    assert start.due is not None and start.due.dice is not None
    return legal_plays(start.due.position, start.due.dice)[0]


def test_the_finish_writes_the_row_the_start_read_once(dark_game: Any) -> None:  # noqa: F811
    game = dark_game(dice=(6, 4))
    first = services.start_computer_turn(game.pk, game.version)
    again = services.start_computer_turn(game.pk, game.version)  # redeliveries, meanwhile
    late = services.start_computer_turn(game.pk, game.version)
    play = first_play(first)
    assert services.finish_computer_turn(game.pk, game.version, play, first.game) is True
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.turn) == (game.version + 1, "light")
    # Given no engine time to keep, its count is not written back over the
    # redeliveries' (with one, the counts it read go back with it: moot, the
    # row has moved on and counts are kept per version).
    assert stored.computer_attempts == {"version": game.version, "starts": 3}
    # A redelivered task's finish finds the row moved on: nothing changes,
    # whether its Turn's number is free (a row read as having had 4 turns)
    # or the one stored since (the row's last turn as it read it: none).
    assert late.game is not None and late.game.last_turn is None
    late.game.last_turn = {"number": 4}
    assert services.finish_computer_turn(game.pk, game.version, play, late.game) is False
    assert again.game is not None and again.game.last_turn is None
    assert services.finish_computer_turn(game.pk, game.version, play, again.game) is False
    assert Turn.objects.filter(game=game, side="dark").count() == 1
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.position_id, after.dice) == (
        stored.version,
        stored.position_id,
        stored.dice,
    )


def test_a_games_first_turn_is_numbered_without_counting_its_turns(
    dark_game: Any,  # noqa: F811
) -> None:
    game = dark_game(dice=(6, 4))
    assert game.last_turn is None and not Turn.objects.filter(game=game).exists()
    started = services.start_computer_turn(game.pk, game.version)
    with CaptureQueriesContext(connection) as finish:
        services.finish_computer_turn(game.pk, game.version, first_play(started), started.game)
    assert not [q for q in finish.captured_queries if "COUNT(" in q["sql"].upper()]
    stored = Game.objects.get(pk=game.pk)
    assert [t.number for t in Turn.objects.filter(game=game)] == [1]
    assert stored.last_turn is not None and stored.last_turn["number"] == 1
