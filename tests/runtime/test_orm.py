"""runtime/orm.py: Django's SQL compiler and ModelState, below the ORM's
public face (runtime/internals.py). When Django changes them, these fail:
the row read with the compiled SELECT is the row the ORM reads, every
column converted alike, and a detached copy shares no cached relation."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models.base import ModelState

from games import services
from games.engine import Dice, Position
from games.models import Game
from runtime import orm


def values(game: Game) -> dict[str, Any]:
    return {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}


@pytest.mark.django_db
@pytest.mark.parametrize("locked", [False, True])
def test_the_compiled_read_loads_the_row_the_orm_loads(user: Any, locked: bool) -> None:
    game = services.start_game_from(user, "expert", Position.start(), dice=[3, 1])
    Game.objects.filter(pk=game.pk).update(tutor_warnings=[{"turn": 1, "lost": 0.1}])
    rows = Game.objects.select_for_update() if locked else Game.objects.all()
    read = orm.compile_read(rows.filter(pk=0), connection)
    assert read.sql.count("%s") == 1  # the primary key's placeholder, nothing else
    assert ("FOR UPDATE" in read.sql) == (locked and connection.features.has_select_for_update)
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [game.pk])
        row = cursor.fetchone()
    loaded = orm.load(Game, read, row, connection)
    expected = Game.objects.get(pk=game.pk)
    assert values(loaded) == values(expected)
    # Converted as the ORM converts: a JSON column is a list, a date a datetime.
    assert loaded.tutor_warnings == [{"turn": 1, "lost": 0.1}]
    assert type(loaded.updated_at) is type(expected.updated_at)
    assert loaded._state.adding is False and loaded._state.db == connection.alias
    assert Dice(*loaded.dice) == Dice(3, 1)


@pytest.mark.django_db
def test_a_detached_copy_shares_no_cached_relation_and_saves_in_place(user: Any) -> None:
    game = Game.objects.get(pk=services.start_game(user, "expert").pk)
    assert game.owner == user  # cached on the original now
    assert "owner" in game._state.fields_cache
    copy = orm.detached(game)
    assert isinstance(copy._state, ModelState)
    assert copy._state is not game._state and copy._state.fields_cache == {}
    assert copy._state.adding is False and copy._state.db == game._state.db
    assert values(copy) == values(game)
    copy.tier = "beginner"
    copy.save(update_fields=["tier"])  # an UPDATE of the row, not an INSERT
    assert Game.objects.get(pk=game.pk).tier == "beginner"
    assert Game.objects.count() == 1
