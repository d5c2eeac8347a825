"""A person's command is written only on the row it read: one moved on
elsewhere (another tab, another process, the computer) is refused as stale
and loses nothing; a hint written at the same version is seen (issue 16)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.engine import legal_plays
from games.live.state import build_state
from games.models import Game
from tests.conftest import dark_turn

pytestmark = pytest.mark.django_db


def fresh_state(game: Game) -> dict[str, Any]:
    return build_state(Game.objects.get(pk=game.pk))


def written_elsewhere(game: Game, **changes: Any) -> None:
    """The row written by another process (which this one's memory does not see)."""
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now(), **changes)


@pytest.mark.usefixtures("hints_not_queued")
def test_a_hint_another_process_wrote_at_the_same_version_is_kept(
    make_game: Any, user: Any
) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    written_elsewhere(game, hints_used=True)  # the version stays 2
    undone = services.undo_step(game.pk, user, 2)
    assert undone.hints_used and build_state(undone) == fresh_state(game)
    assert Game.objects.get(pk=game.pk).version == 3


def test_a_row_another_process_moved_on_is_refused_as_stale_and_loses_nothing(
    make_game: Any, user: Any
) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    written_elsewhere(game, steps=[], version=3)  # its undo, on the other daphne
    with pytest.raises(services.StaleVersionError) as refused:
        services.make_step(game.pk, user, 2, 24, 22)
    assert refused.value.game.version == 3
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.steps) == (3, [])
    stepped = services.make_step(game.pk, user, 3, 24, 22)
    assert build_state(stepped) == fresh_state(game)


@pytest.mark.usefixtures("hints_not_queued")
def test_a_hint_at_the_same_version_is_in_the_next_state(make_game: Any, user: Any) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    services.request_hint(game.pk, user, 2)  # does not change the version
    undone = services.undo_step(game.pk, user, 2)
    assert undone.hints_used and build_state(undone) == fresh_state(game)
    assert Game.objects.get(pk=game.pk).version == 3


def test_a_row_moved_on_elsewhere_is_refused_as_stale_and_then_played(
    make_game: Any, user: Any
) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    services.undo_step(game.pk, user, 2)  # a second tab
    with pytest.raises(services.StaleVersionError) as refused:
        services.make_step(game.pk, user, 2, 24, 22)
    assert refused.value.game.version == 3  # as a fresh read says
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.steps) == (3, [])
    stepped = services.make_step(game.pk, user, 3, 24, 22)
    assert build_state(stepped) == fresh_state(game)


def test_a_refused_command_changes_nothing(make_game: Any, user: Any) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    with pytest.raises(services.StepRefusedError):
        services.make_step(game.pk, user, 2, 13, 2)
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
    begun = dark_turn(game.pk, 3)
    assert begun is not None
    dice.queue(3, 1)
    assert services.finish_computer_turn(game.pk, 3, legal_plays(*begun)[0])
    with pytest.raises(services.StaleVersionError):
        services.make_step(game.pk, user, 3, 8, 5)  # a command sent before the computer's play
    stepped = services.make_step(game.pk, user, 4, 8, 5)
    assert build_state(stepped) == fresh_state(game)


def test_an_end_turn_stores_its_turn_and_hands_over(
    played_waiting: Game,
    user: Any,
    computer_queue: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = played_waiting
    with django_capture_on_commit_callbacks(execute=True):
        ended = services.end_turn(game.pk, user, 3)
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
    services.undo_step(game.pk, user, 3)  # a second tab
    committed = django_capture_on_commit_callbacks(execute=True)
    with committed, pytest.raises(services.StaleVersionError):
        services.end_turn(game.pk, user, 3)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.turn, len(stored.steps)) == (4, "light", 1)
    assert not stored.turns.exists() and computer_queue == []
