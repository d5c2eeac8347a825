"""games.services: every transition and every refusal, on the database."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import reading, services
from games.engine import Dice, Position, RefusalCode, Side, legal_plays
from games.models import Game, Status, Turn
from games.signals import game_finished
from games.steps import turn_json
from tests.conftest import dark_turn, earlier
from tests.games.conftest import board

pytestmark = pytest.mark.django_db


def closed_board_for_light() -> Position:
    """LIGHT on the bar against DARK's closed home board (display 19..24)."""
    dark = {p: 2 for p in range(19, 25)}
    dark[18] = 3
    return board(light={1: 14}, light_bar=1, dark=dark)


# --------------------------------------------------------------- start


def test_start_game_rerolls_ties_and_the_higher_die_starts_with_both(
    user: Any, dice: Any, computer_queue: list, django_capture_on_commit_callbacks: Any
) -> None:
    dice.queue(3, 3, 5, 2)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(user, "casual")
    game.refresh_from_db()
    assert game.opening_rolls == [[3, 3], [5, 2]]
    assert (game.status, game.turn, game.dice, game.version) == ("opening", "light", [5, 2], 1)
    assert game.position_id == Position.start().position_id()
    assert computer_queue == []


def test_start_game_with_dark_starting_queues_the_computer_on_commit(
    user: Any, dice: Any, computer_queue: list, django_capture_on_commit_callbacks: Any
) -> None:
    dice.queue(2, 6)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = services.start_game(user, "expert")
    assert computer_queue == []  # nothing is sent before the commit
    for callback in callbacks:
        callback()
    assert computer_queue == [(game.pk, 1)]
    assert (game.turn, game.dice, game.tier) == ("dark", [2, 6], "expert")


def test_start_game_refuses_an_unknown_tier(user: Any) -> None:
    with pytest.raises(ValueError):
        services.start_game(user, "grandmaster")


# --------------------------------------------------------------- steps


def test_make_step_records_the_step_and_bumps_the_version(
    user: Any, make_game: Any, auto_end: Any
) -> None:
    game = make_game(dice=[5, 2])
    game = services.make_step(game.pk, user, 1, 13, 8)
    game.refresh_from_db()
    assert game.steps == [[13, 8, 5, 0]]
    assert game.version == 2
    assert game.turn == "light"


def test_the_turn_a_step_or_undo_keeps_on_the_game_is_its_stored_steps_replayed(
    user: Any, make_game: Any
) -> None:
    # current_turn keeps the turn it computed (and a step the turn it made)
    # on the instance, for the state built from it next.
    game = make_game(dice=[5, 2])
    stepped = services.make_step(game.pk, user, 1, 13, 8)
    kept = reading.current_turn(stepped)
    assert kept == reading.current_turn(Game.objects.get(pk=game.pk))
    assert len(kept.steps) == 1
    undone = services.undo_step(game.pk, user, 2)
    assert reading.current_turn(undone) == reading.current_turn(Game.objects.get(pk=game.pk))
    assert reading.current_turn(undone).steps == ()
    stepped.steps.clear()  # a change made in place is seen, not the kept turn
    assert reading.current_turn(stepped).steps == ()


def test_make_step_refuses_a_point_without_a_checker(user: Any, make_game: Any) -> None:
    game = make_game(dice=[5, 2])
    with pytest.raises(services.StepRefusedError) as err:
        services.make_step(game.pk, user, 1, 12, 7)
    assert err.value.refusal.code == RefusalCode.NO_CHECKER
    game.refresh_from_db()
    assert (game.version, game.steps) == (1, [])


def test_make_step_refuses_a_blocked_point(user: Any, make_game: Any) -> None:
    game = make_game(dice=[5, 2])
    # 24 - 5 = 19: DARK holds display point 19 with five checkers.
    with pytest.raises(services.StepRefusedError) as err:
        services.make_step(game.pk, user, 1, 24, 19)
    assert err.value.refusal.code == RefusalCode.POINT_BLOCKED


def test_make_step_refuses_another_checker_while_one_is_on_the_bar(
    user: Any, make_game: Any
) -> None:
    dark = {19: 5, 17: 3, 12: 5, 1: 2}
    position = board(light={6: 5, 8: 3, 13: 5, 24: 1}, light_bar=1, dark=dark)
    game = make_game(position, dice=[3, 1])
    with pytest.raises(services.StepRefusedError) as err:
        services.make_step(game.pk, user, 1, 13, 10)
    assert err.value.refusal.code == RefusalCode.MUST_ENTER_FIRST


def test_make_step_refuses_a_distance_no_die_has(user: Any, make_game: Any) -> None:
    game = make_game(dice=[5, 2])
    with pytest.raises(services.StepRefusedError) as err:
        services.make_step(game.pk, user, 1, 13, 9)
    assert err.value.refusal.code == RefusalCode.NO_SUCH_DIE


def test_a_stale_version_changes_nothing(user: Any, make_game: Any) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    with pytest.raises(services.StaleVersionError) as err:
        services.make_step(game.pk, user, 1, 13, 11)
    assert err.value.game.version == 2
    game.refresh_from_db()
    assert game.steps == [[13, 8, 5, 0]]


def test_someone_elses_game_is_refused(make_user: Any, make_game: Any) -> None:
    game = make_game(dice=[5, 2])
    other = make_user("bob")
    with pytest.raises(services.NotYourGameError):
        services.make_step(game.pk, other, 1, 13, 8)
    with pytest.raises(services.NotYourGameError):
        services.resign(game.pk, other, 1)


def test_steps_are_refused_while_the_computer_is_on_turn(user: Any, make_game: Any) -> None:
    game = make_game(turn="dark", dice=[6, 4])
    with pytest.raises(services.NotYourTurnError):
        services.make_step(game.pk, user, game.version, 13, 8)


def test_commands_on_a_finished_game_are_refused(user: Any, make_game: Any) -> None:
    game = make_game(dice=[5, 2])
    game = services.resign(game.pk, user, game.version)
    assert (game.status, game.winner, game.points) == (Status.FINISHED, "dark", 1)
    with pytest.raises(services.GameOverError):
        services.make_step(game.pk, user, game.version, 13, 8)
    with pytest.raises(services.GameOverError):
        services.resign(game.pk, user, game.version)


# --------------------------------------------------------------- undo / end turn


def test_undo_takes_back_the_last_step(user: Any, make_game: Any, auto_end: Any) -> None:
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    game = services.undo_step(game.pk, user, 2)
    game.refresh_from_db()
    assert (game.steps, game.version) == ([], 3)


def test_undo_with_nothing_to_undo_is_refused(user: Any, make_game: Any) -> None:
    game = make_game(dice=[5, 2])
    with pytest.raises(services.StepRefusedError) as err:
        services.undo_step(game.pk, user, 1)
    assert err.value.refusal.code == RefusalCode.NOTHING_TO_UNDO


def test_end_turn_before_the_dice_are_used_is_refused(
    user: Any, make_game: Any, auto_end: Any
) -> None:
    auto_end(False)
    game = make_game(dice=[5, 2])
    services.make_step(game.pk, user, 1, 13, 8)
    with pytest.raises(services.TurnIncompleteError):
        services.end_turn(game.pk, user, 2)


def test_with_auto_end_off_the_turn_waits_for_end_turn(
    user: Any,
    played_waiting: Game,
    computer_queue: list,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = played_waiting
    game.refresh_from_db()
    assert (game.turn, game.steps) == ("light", [[13, 8, 5, 0], [13, 11, 2, 0]])
    with pytest.raises(services.StepRefusedError) as err:
        services.make_step(game.pk, user, 3, 8, 6)
    assert err.value.refusal.code == RefusalCode.TURN_COMPLETE
    with django_capture_on_commit_callbacks(execute=True):
        services.end_turn(game.pk, user, 3)
    game.refresh_from_db()
    assert (game.turn, game.steps, game.version) == ("dark", [], 4)
    assert game.dice is not None, "the computer's dice are rolled as its turn begins"
    assert computer_queue == [(game.pk, 4)]
    turn = Turn.objects.get(game=game)
    assert (turn.number, turn.side, turn.dice) == (1, "light", (5, 2))
    assert sorted(turn.notation.split()) == ["13/11", "13/8"]
    assert turn.position_before == Position.start().position_id()
    assert turn.position_after == game.position_id


def test_with_auto_end_on_the_last_step_ends_the_turn(
    user: Any, make_game: Any, computer_queue: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = make_game(dice=[5, 2], status=Status.OPENING)
    services.make_step(game.pk, user, 1, 13, 8)
    with django_capture_on_commit_callbacks(execute=True):
        services.make_step(game.pk, user, 2, 13, 11)
    game.refresh_from_db()
    assert (game.turn, game.status, game.version) == ("dark", "playing", 3)
    assert computer_queue == [(game.pk, 3)]
    assert game.computer_turn_started_at is not None


# --------------------------------------------------------------- the computer


def test_the_computers_turn_reads_the_dice_rolled_as_the_turn_passed(
    make_game: Any, dice: Any
) -> None:
    game = make_game(turn="dark", dice=[6, 4])
    due = services.computer_due(game.pk, 1)  # no dice queued: no roll
    assert due is not None and (due.task, due.dice, due.mover) == ("play", Dice(6, 4), Side.DARK)
    assert due.position == Position.start()  # symmetric: DARK sees the same start
    again = services.computer_due(game.pk, 1)
    assert again is not None and again.dice == Dice(6, 4)
    game.refresh_from_db()
    assert (game.dice, game.version) == ([6, 4], 1)


def test_the_migration_rolls_the_dice_of_an_older_waiting_game(make_game: Any) -> None:
    from django.apps import apps

    module = importlib.import_module("games.migrations.0003_roll_waiting_computer_dice")
    waiting = make_game(turn="dark", dice=None)
    persons = make_game(turn="light", dice=None)
    module.roll_missing_dice(apps, None)
    waiting.refresh_from_db()
    persons.refresh_from_db()
    assert waiting.dice is not None and all(1 <= d <= 6 for d in waiting.dice)
    assert persons.dice is None
    position, rolled = dark_turn(waiting.pk, 1)
    assert rolled == Dice(*waiting.dice)


def test_the_migration_keeps_the_last_turn_of_an_older_game_on_its_row(
    make_game: Any, dice: Any
) -> None:
    from django.apps import apps

    module = importlib.import_module("games.migrations.0005_fill_last_turn")
    game = make_game(turn="dark", dice=[6, 4])
    play = next(p for p in legal_plays(Position.start(), Dice(6, 4)) if p.notation() == "24/14")
    dice.queue(3, 1)
    services.finish_computer_turn(game.pk, 1, play)
    kept = Game.objects.get(pk=game.pk).last_turn
    Game.objects.filter(pk=game.pk).update(last_turn=None)  # as stored before 0002
    module.fill_last_turn(apps, None)
    assert Game.objects.get(pk=game.pk).last_turn == kept
    assert kept is not None and (kept["side"], kept["dice"]) == ("dark", [6, 4])


def test_the_computer_has_no_turn_when_stale_or_not_its_turn(make_game: Any) -> None:
    dark = make_game(turn="dark", dice=[6, 4])
    assert services.computer_due(dark.pk, dark.version - 1) is None
    light = make_game(dice=[5, 2])
    assert services.computer_due(light.pk, 1) is None


def test_finish_computer_turn_applies_the_play_and_rolls_the_persons_dice(
    make_game: Any, dice: Any, computer_queue: list
) -> None:
    game = make_game(turn="dark", dice=[6, 4])
    dark_position, rolled = dark_turn(game.pk, 1)
    play = next(p for p in legal_plays(dark_position, rolled) if p.notation() == "24/14")
    dice.queue(3, 1)
    assert services.finish_computer_turn(game.pk, 1, play) is True
    game.refresh_from_db()
    assert (game.turn, game.dice, game.version, game.steps) == ("light", [3, 1], 2, [])
    assert game.position_id == play.result.swapped().position_id()
    turn = Turn.objects.get(game=game)
    assert (turn.side, turn.notation) == ("dark", "24/14")
    assert turn.steps == [[24, 18, 6, 0], [18, 14, 4, 0]]
    assert game.last_turn == turn_json(turn)  # kept on the row for the state
    assert computer_queue == []


def test_finish_computer_turn_twice_applies_once(make_game: Any, dice: Any) -> None:
    game = make_game(turn="dark", dice=[6, 4])
    dark_position, rolled = dark_turn(game.pk, 1)
    play = legal_plays(dark_position, rolled)[0]
    dice.queue(3, 1)
    assert services.finish_computer_turn(game.pk, 1, play) is True
    assert services.finish_computer_turn(game.pk, 1, play) is False
    assert Turn.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == 2


def test_finish_computer_turn_refuses_an_illegal_play(make_game: Any) -> None:
    game = make_game(turn="dark", dice=[6, 4])
    other_dice_play = legal_plays(Position.start(), Dice(1, 2))[0]
    with pytest.raises(ValueError):
        services.finish_computer_turn(game.pk, 1, other_dice_play)
    with pytest.raises(ValueError):
        services.finish_computer_turn(game.pk, 1, None)  # a play exists
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_person_without_a_legal_move_passes_automatically(
    make_game: Any, dice: Any, computer_queue: list, django_capture_on_commit_callbacks: Any
) -> None:
    position = closed_board_for_light()
    game = make_game(position, turn="dark", dice=[2, 1])
    dark_position, rolled = dark_turn(game.pk, 1)
    # Keep DARK's board closed: play inside its home with both dice.
    play = next(
        p for p in legal_plays(dark_position, rolled) if all(p.result.me[i] >= 2 for i in range(6))
    )
    dice.queue(4, 3, 6, 5)  # the person's roll, then the computer's again
    with django_capture_on_commit_callbacks(execute=True):
        assert services.finish_computer_turn(game.pk, 1, play) is True
    game.refresh_from_db()
    assert (game.turn, game.dice, game.version) == ("dark", [6, 5], 2)
    passed = Turn.objects.filter(game=game).order_by("number").last()
    assert (passed.side, passed.dice, passed.notation, passed.steps) == ("light", (4, 3), "", [])
    assert passed.position_before == passed.position_after
    assert computer_queue == [(game.pk, 2)]


def test_the_computer_without_a_legal_move_passes(make_game: Any, dice: Any) -> None:
    # DARK on the bar against LIGHT's closed home board.
    light = {p: 2 for p in range(1, 7)}
    light[7] = 3
    game = make_game(board(light=light, dark={24: 14}, dark_bar=1), turn="dark", dice=[6, 6])
    _position, rolled = dark_turn(game.pk, 1)
    dice.queue(2, 1)
    assert services.finish_computer_turn(game.pk, 1, None) is True
    turn = Turn.objects.get(game=game)
    assert (turn.side, turn.notation) == ("dark", "")
    assert Game.objects.get(pk=game.pk).turn == "light"


def test_fail_computer_turn_stops_the_game(make_game: Any) -> None:
    game = make_game(turn="dark", dice=[5, 2])
    assert services.fail_computer_turn(game.pk, 2) is False
    assert services.fail_computer_turn(game.pk, 1) is True
    game.refresh_from_db()
    assert (game.status, game.version) == ("failed", 2)
    assert game.finished_at is not None


def test_stuck_games_lists_computer_turns_waiting_too_long(make_game: Any) -> None:
    with earlier(minutes=5):
        stuck = make_game(turn="dark", dice=[6, 4])
    make_game(turn="dark", dice=[6, 4])
    make_game(dice=[5, 2])
    # Finished with its clock left on (no command leaves one: a row as given).
    old = timezone.now() - timedelta(minutes=5)
    make_game(turn="dark", status=Status.FINISHED, computer_turn_started_at=old)
    assert services.stuck_games(timedelta(minutes=1)) == [(stuck.pk, stuck.version)]


# --------------------------------------------------------------- game over


def test_bearing_off_the_last_checker_wins_a_gammon(
    user: Any, make_game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = make_game(board(light={1: 1}, dark={19: 15}), dice=[6, 5])
    received: list[int] = []

    def on_finished(sender: Any, game_id: int, **kwargs: Any) -> None:
        received.append(game_id)

    game_finished.connect(on_finished)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.make_step(game.pk, user, 1, 1, 0)
    finally:
        game_finished.disconnect(on_finished)
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_kind, game.points) == (
        "finished",
        "light",
        "gammon",
        2,
    )
    assert game.finished_at is not None and game.dice is None
    assert received == [game.pk]


def test_a_dark_checker_left_in_the_persons_home_makes_it_a_backgammon(
    user: Any, make_game: Any
) -> None:
    game = make_game(board(light={1: 1}, dark={19: 14, 3: 1}), dice=[6, 5])
    services.make_step(game.pk, user, 1, 1, 0)
    game.refresh_from_db()
    assert (game.result_kind, game.points) == ("backgammon", 3)


def test_the_computer_bearing_off_last_wins_a_single_game(make_game: Any) -> None:
    game = make_game(board(light={6: 10}, dark={24: 1}), turn="dark", dice=[3, 2])
    dark_position, rolled = dark_turn(game.pk, 1)
    play = legal_plays(dark_position, rolled)[0]
    assert services.finish_computer_turn(game.pk, 1, play) is True
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_kind, game.points) == (
        "finished",
        "dark",
        "single",
        1,
    )


def test_resign_gives_the_computer_a_single_game(user: Any, make_game: Any) -> None:
    game = make_game(turn="dark", dice=[6, 4])
    game = services.resign(game.pk, user, game.version)
    game.refresh_from_db()
    assert (game.status, game.winner, game.points, game.resigned) == ("finished", "dark", 1, True)
    assert dark_turn(game.pk, game.version) is None


def test_request_hint_marks_the_game_and_asks_after_commit(
    user: Any, make_game: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    asked: list[tuple[int, int]] = []
    # The real signal and learning's receiver, up to the task queue.
    monkeypatch.setattr("learning.tasks.enqueue_hint", lambda g, v: asked.append((g, v)))
    game = make_game(dice=[5, 2])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.request_hint(game.pk, user, 1)
    assert asked == [] and len(callbacks) == 1  # sent only once the transaction commits
    callbacks[0]()
    assert asked == [(game.pk, 1)]
    game.refresh_from_db()
    assert (game.hints_used, game.version) == (True, 1)
