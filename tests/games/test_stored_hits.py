"""Hits are stored with each step (``games.steps.stored_steps``), and the rows
stored before that get theirs from the migration (``games/migrations/_hits``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services
from games.steps import turn_json
from tests.boards import board

# LIGHT's 6-1 from the 13 and 8 hits DARK's blot on 7 with the 6 (13/7*),
# then 8/7 covers it; DARK's 5 and 6 are made.
BLOT = board(light={13: 5, 8: 3, 6: 5, 24: 2}, dark={7: 1, 12: 5, 17: 3, 19: 4, 1: 2})


@pytest.mark.django_db
def test_the_person_and_the_turn_store_each_steps_hit(user: Any) -> None:
    game = services.start_game_from(user, "casual", BLOT, dice=[6, 1])
    game = services.make_step(game.pk, user, game.version, 13, 7, 6)
    assert game.steps == [[13, 7, 6, 1]]
    game = services.make_step(game.pk, user, game.version, 8, 7, 1)
    turn = game.turns.get()
    assert turn.steps == [[13, 7, 6, 1], [8, 7, 1, 0]]
    assert [s["hit"] for s in turn_json(turn)["steps"]] == [True, False]
    assert "*" in turn.notation


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_the_migration_gives_old_rows_their_hits(user: Any, held_computer_turns: Any) -> None:
    game = services.start_game_from(user, "casual", BLOT, dice=[6, 1])
    game = services.make_step(game.pk, user, game.version, 13, 7, 6)
    game = services.make_step(game.pk, user, game.version, 8, 7, 1)
    turn = game.turns.get()
    # As stored before hits were: three numbers a step, on the turn and on a
    # turn in progress.
    type(turn).objects.filter(pk=turn.pk).update(steps=[[13, 7, 6], [8, 7, 1]])
    type(game).objects.filter(pk=game.pk).update(steps=[[24, 18, 6]])
    executor = MigrationExecutor(connection)
    hits = next(
        m
        for (app, name), m in executor.loader.disk_migrations.items()
        if app == "games" and name.endswith("_steps_hits")
    )
    executor.migrate(hits.dependencies)  # before the hits
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # and back to today
    turn.refresh_from_db()
    game.refresh_from_db()
    assert turn.steps == [[13, 7, 6, 1], [8, 7, 1, 0]]
    assert game.steps == [[24, 18, 6, 0]]
