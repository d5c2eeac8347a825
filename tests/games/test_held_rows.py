"""A person's step or undo starts from the row this process last wrote at that
version (``games.services.rows``, issue 16): no SELECT, and nothing answered
from a held row that a fresh read would answer otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection

from games import services
from games.engine import legal_plays
from games.live.state import build_state
from games.models import Game
from games.services import rows

pytestmark = pytest.mark.django_db


@contextmanager
def executed() -> Iterator[list[str]]:
    """Each statement's SQL as run on the connection. (Django's own query log
    has None for a statement psycopg ran prepared: rowsql's on PostgreSQL.)"""
    seen: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


def statements(queries: list[str]) -> list[str]:
    return [sql.lstrip().split()[0].upper() for sql in queries]


def writes(queries: list[str]) -> list[str]:
    return [s for s in statements(queries) if s in ("INSERT", "UPDATE", "DELETE")]


def game_row_reads(queries: list[str]) -> list[str]:
    """The statements that read a game row (not its turns' count, not the owner)."""
    table = connection.ops.quote_name(Game._meta.db_table)
    return [
        sql
        for sql in queries
        if sql.lstrip().upper().startswith("SELECT") and f"FROM {table}" in sql
    ]


def fresh_state(game: Game) -> dict[str, Any]:
    return build_state(Game.objects.get(pk=game.pk))


@contextmanager
def another_process() -> Iterator[None]:
    """Commands run as another web process's: this one's held rows out of their sight."""
    mine = rows._held
    rows._held = {}
    try:
        yield
    finally:
        rows._held = mine


def test_the_next_command_at_the_written_version_reads_no_row(make_game: Any, user: Any) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, game.version, 13, 8)
    with executed() as queries:
        undone = services.undo_step(game.pk, user, game.version + 1)
        stepped = services.make_step(game.pk, user, game.version + 2, 13, 8)
    assert statements(queries) == ["UPDATE", "UPDATE"]
    assert build_state(undone) != build_state(stepped)
    assert build_state(stepped) == fresh_state(game)


@pytest.mark.usefixtures("hints_not_queued")
def test_a_hint_at_the_same_version_is_in_the_next_state(make_game: Any, user: Any) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    # The hint does not change the version, and may come through another process.
    with another_process():
        services.request_hint(game.pk, user, 2)
    undone = services.undo_step(game.pk, user, 2)
    assert undone.hints_used and build_state(undone) == fresh_state(game)
    assert Game.objects.get(pk=game.pk).version == 3


def test_a_row_moved_on_elsewhere_is_refused_as_stale_and_then_played(
    make_game: Any, user: Any
) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    with another_process():
        services.undo_step(game.pk, user, 2)  # a second tab, on the other daphne
    with pytest.raises(services.StaleVersionError) as refused:
        services.make_step(game.pk, user, 2, 24, 22)
    assert refused.value.game.version == 3  # as a fresh read says
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.steps) == (3, [])
    # The held row was dropped with the refusal: the next command reads.
    with executed() as queries:
        stepped = services.make_step(game.pk, user, 3, 24, 22)
    assert statements(queries)[0] == "SELECT"
    assert build_state(stepped) == fresh_state(game)


def test_a_refusal_from_the_held_row_is_answered_as_from_a_fresh_read(
    make_game: Any, user: Any
) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    with executed() as queries, pytest.raises(services.StepRefusedError):
        services.make_step(game.pk, user, 2, 13, 2)
    assert statements(queries) == ["SELECT"]  # the fresh read's refusal stands
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, len(stored.steps)) == (2, 1)
    stranger = type(user).objects.create_user("stranger", password="x" * 12)
    services.make_step(game.pk, user, 2, 8, 6)
    with pytest.raises(services.NotYourGameError):
        services.undo_step(game.pk, stranger, 3)
    assert Game.objects.get(pk=game.pk).version == 3


def test_the_computer_turn_and_the_turn_after_it_build_what_a_fresh_read_builds(
    make_game: Any, user: Any, computer_queue: list[tuple[int, int]], dice: Any
) -> None:
    game = make_game(dice=[5, 2])
    first = services.make_step(game.pk, user, 1, 13, 8)
    assert build_state(first) == fresh_state(game)
    dice.queue(6, 4)
    ended = services.make_step(game.pk, user, 2, 13, 11)  # the turn ends
    assert build_state(ended) == fresh_state(game)
    begun = services.begin_computer_turn(game.pk, 3)
    assert begun is not None
    dice.queue(3, 1)
    assert services.finish_computer_turn(game.pk, 3, legal_plays(*begun)[0])
    stepped = services.make_step(game.pk, user, 4, 8, 5)
    assert build_state(stepped) == fresh_state(game)
    undone = services.undo_step(game.pk, user, 5)
    assert build_state(undone) == fresh_state(game)


def test_a_held_row_is_one_commands_alone(make_game: Any, user: Any) -> None:
    game = make_game(dice=[5, 2])
    stepped = services.make_step(game.pk, user, 1, 13, 8)
    held = rows._take_held(game.pk, 2)
    assert held is not None and held is not stepped
    assert held.steps == stepped.steps and held.steps is not stepped.steps
    assert rows._take_held(game.pk, 2) is None  # taken: no other thread gets it


def test_the_oldest_held_rows_are_dropped_past_the_cap(
    make_game: Any, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rows, "HELD_GAMES", 2)
    games = [make_game(dice=[5, 2]) for _ in range(3)]
    for game in games:
        services.make_step(game.pk, user, 1, 13, 8)
    assert rows._take_held(games[0].pk, 2) is None
    assert all(rows._take_held(game.pk, 2) is not None for game in games[1:])


def test_a_row_a_socket_opening_read_is_its_first_commands_start(make_game: Any, user: Any) -> None:
    game = make_game(dice=[5, 2])
    with another_process():  # a daphne that has written nothing of this game
        services.hold_opened(Game.objects.get(pk=game.pk))
        with executed() as queries:
            stepped = services.make_step(game.pk, user, 1, 13, 8)
        assert statements(queries) == ["UPDATE"]
        assert build_state(stepped) == fresh_state(game)


@pytest.mark.usefixtures("hints_not_queued")
def test_a_row_held_at_the_opening_that_moved_on_is_refused_or_seen_as_stored(
    make_game: Any, user: Any
) -> None:
    game = make_game(dice=[5, 2])
    services.hold_opened(Game.objects.get(pk=game.pk))
    with another_process():  # a hint on the other daphne: a new updated_at, not a version
        services.request_hint(game.pk, user, 1)
    stepped = services.make_step(game.pk, user, 1, 13, 8)
    assert stepped.hints_used and build_state(stepped) == fresh_state(game)
    services.hold_opened(Game.objects.get(pk=game.pk))
    with another_process():
        services.undo_step(game.pk, user, 2)
    with pytest.raises(services.StaleVersionError) as refused:
        services.make_step(game.pk, user, 2, 24, 22)
    assert refused.value.game.version == 3
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.steps) == (3, [])


def test_no_row_is_held_at_the_opening_unless_the_person_is_to_play(
    make_game: Any, user: Any
) -> None:
    game = make_game(dice=None)  # to roll: any command reads the row under its lock
    with another_process():
        services.hold_opened(Game.objects.get(pk=game.pk))
        assert rows._take_held(game.pk, game.version) is None


def test_an_end_turn_from_the_held_row_stores_its_turn_with_no_read_or_lock(
    played_waiting: Game,
    user: Any,
    computer_queue: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = played_waiting
    with django_capture_on_commit_callbacks(execute=True), executed() as queries:
        ended = services.end_turn(game.pk, user, 3)
    assert writes(queries) == ["INSERT", "UPDATE"]  # the Turn, then the row
    assert game_row_reads(queries) == []
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.turn, stored.steps) == (4, "dark", [])
    assert [(t.number, t.side, t.notation) for t in stored.turns.all()] == [
        (1, "light", ended.last_turn["notation"])
    ]
    assert build_state(ended) == fresh_state(game)
    assert computer_queue == [(game.pk, 4)]


def test_an_end_turn_whose_row_moved_on_stores_no_turn_and_is_refused_as_stale(
    played_waiting: Game,
    user: Any,
    computer_queue: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = played_waiting
    with another_process():
        services.undo_step(game.pk, user, 3)  # a second tab, on the other daphne
    committed = django_capture_on_commit_callbacks(execute=True)
    with committed, executed() as queries, pytest.raises(services.StaleVersionError):
        services.end_turn(game.pk, user, 3)  # from the held row, at 3: the row is at 4
    # Its Turn was inserted and rolled back with the write that found no row;
    # under the lock (the one read of the row) the command is stale.
    assert writes(queries) == ["INSERT", "UPDATE"]
    assert len(game_row_reads(queries)) == 1
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.turn, len(stored.steps)) == (4, "light", 1)
    assert not stored.turns.exists() and computer_queue == []


def test_a_step_that_ends_the_turn_stores_it_with_no_read_or_lock(
    make_game: Any,
    user: Any,
    computer_queue: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = make_game(dice=[5, 2])  # auto end turn is on
    services.make_step(game.pk, user, 1, 13, 8)
    with django_capture_on_commit_callbacks(execute=True), executed() as queries:
        ended = services.make_step(game.pk, user, 2, 13, 11)
    assert writes(queries) == ["INSERT", "UPDATE"]
    assert game_row_reads(queries) == []
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.turn, stored.turns.count()) == (3, "dark", 1)
    assert build_state(ended) == fresh_state(game)
    assert computer_queue == [(game.pk, 3)]
