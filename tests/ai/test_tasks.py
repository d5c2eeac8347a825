"""ai_worker.tasks, watchdog and dispatch without a broker (in-process)."""

from __future__ import annotations

import base64
import json
import threading
import time
from typing import Any

import pytest
from django.test import override_settings

from ai_worker import dispatch, tasks, turns
from games.engine import Dice, Position
from games.models import Game, Status, Turn
from tests.conftest import earlier


def advanced(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db
def test_the_computer_rolls_plays_and_hands_the_turn_over(dark_game: Any) -> None:
    game = dark_game()
    assert turns.run_computer_turn(game.pk, game.version) is True
    after = advanced(game)
    assert after.version == game.version + 1
    assert after.turn == "light"
    [turn] = Turn.objects.filter(game=game, side="dark")
    assert turn.notation and turn.position_before == Position.start().position_id()
    assert turn.position_after == after.position_id


@pytest.mark.django_db
def test_the_task_keeps_the_engines_time_for_the_turn_with_its_counts(dark_game: Any) -> None:
    from games.live.state import build_state

    game = dark_game(tier="expert")
    assert tasks.play_computer_turn(game.pk, game.version) is True
    after = advanced(game)
    # bench/live.py reads it back: the reply's time less the engine's own.
    counts = dict(after.computer_attempts)
    engine_ms = counts.pop("engine_ms")
    assert isinstance(engine_ms, float) and 0 < engine_ms < 60_000
    assert counts == {"version": game.version, "starts": 1}
    assert "engine_ms" not in json.dumps(build_state(after))  # nothing the page shows


@pytest.mark.django_db
def test_a_duplicate_task_changes_nothing(dark_game: Any) -> None:
    game = dark_game()
    turns.run_computer_turn(game.pk, game.version)
    once = advanced(game)
    assert turns.run_computer_turn(game.pk, game.version) is False
    again = advanced(game)
    assert (again.version, again.position_id, again.dice) == (
        once.version,
        once.position_id,
        once.dice,
    )
    assert Turn.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_a_stale_task_changes_nothing(dark_game: Any) -> None:
    game = dark_game()
    assert turns.run_computer_turn(game.pk, game.version - 1) is False
    after = advanced(game)
    assert (after.version, after.dice, after.turn) == (game.version, game.dice, "dark")
    assert not Turn.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_retry_reuses_the_dice_already_rolled(dark_game: Any) -> None:
    game = dark_game(dice=[6, 4])
    turns.run_computer_turn(game.pk, game.version)
    turn = Turn.objects.get(game=game, side="dark")
    assert (turn.die1, turn.die2) == (6, 4)


@pytest.mark.django_db
def test_the_same_game_and_roll_get_the_same_play(dark_game: Any) -> None:
    from ai_worker.policy import choose_play

    game = dark_game(tier="beginner", dice=[5, 2])
    turns.run_computer_turn(game.pk, game.version)
    turn = Turn.objects.get(game=game, side="dark")
    play = choose_play(Position.start(), Dice(5, 2), "beginner", turns.seed_key(game.pk))
    assert play is not None and turn.notation == play.notation()


@pytest.mark.django_db
def test_past_the_attempt_bound_the_game_fails_with_a_message(dark_game: Any) -> None:
    from django.utils import translation

    from games.live.state import build_state, describe_state

    game = dark_game()
    for _ in range(turns.MAX_ATTEMPTS):
        turns.count_attempt(game.pk, game.version)
    assert tasks.play_computer_turn(game.pk, game.version) is False
    after = advanced(game)
    assert after.status == Status.FAILED
    assert not Turn.objects.filter(game=game).exists()
    # The page's sentence, in the reader's language (not the worker's).
    with translation.override("zh-hans"):
        assert "电脑" in (describe_state(build_state(after)) or "")


def test_each_task_declares_its_queue() -> None:
    from config.celery import app
    from learning.tasks import analyse_game, compute_hint

    def routed(task: Any) -> str:
        return str(app.amqp.router.route({}, task.name, task_type=task)["queue"].name)

    assert routed(tasks.play_computer_turn) == "moves"
    assert routed(tasks.watch_computer_turns) == "watchdog"  # never behind a backlog of moves
    assert routed(analyse_game) == "analysis"
    assert routed(compute_hint) == "hints"  # a game in progress, never behind the reviews
    assert dispatch.queue_for(analyse_game) == "analysis"
    assert dispatch.queue_for(compute_hint) == "hints"
    assert dispatch.queue_for(tasks.play_computer_turn) == "moves"


@pytest.mark.django_db
def test_the_watchdog_requeues_a_stuck_turn_then_fails_it(dark_game: Any) -> None:
    with earlier(minutes=5):
        stuck = dark_game()
    fresh = dark_game()
    queued: list[tuple[Any, ...]] = []

    def record(*args: Any) -> None:
        queued.append(args)

    for _ in range(turns.MAX_REQUEUES):
        assert turns.sweep(record) == 1
    assert queued == [(stuck.pk, stuck.version)] * turns.MAX_REQUEUES
    assert turns.sweep(record) == 0
    assert advanced(stuck).status == Status.FAILED
    assert advanced(fresh).status == Status.PLAYING


@pytest.mark.django_db
def test_the_watchdog_fails_a_turn_whose_task_keeps_dying(dark_game: Any) -> None:
    with earlier(minutes=5):
        stuck = dark_game()
    for _ in range(turns.MAX_ATTEMPTS):
        turns.count_attempt(stuck.pk, stuck.version)
    assert turns.sweep(lambda *a: None) == 0
    assert advanced(stuck).status == Status.FAILED


class SlowTask:
    """Stands in for a Celery task: records the thread and can be held."""

    def __init__(
        self, name: str = "ai_worker.tasks.play_computer_turn", queue: str = "moves"
    ) -> None:
        self.name = name
        self.declared_queue = queue
        self.release = threading.Event()
        self.started = threading.Semaphore(0)
        self.threads: list[str] = []

    def __call__(self, *args: Any) -> None:
        self.threads.append(threading.current_thread().name)
        self.started.release()
        self.release.wait(10)

    def apply_async(self, args: tuple[Any, ...]) -> None:  # pragma: no cover - not sent
        raise AssertionError("no broker: nothing may be sent")


@override_settings(CELERY_BROKER_URL="")
def test_without_a_broker_tasks_run_on_the_pool_and_do_not_block_each_other() -> None:
    slow = SlowTask()
    started = time.monotonic()
    dispatch.enqueue(slow, 1, 1)
    dispatch.enqueue(slow, 2, 1)
    assert time.monotonic() - started < 5.0  # the caller never waits (a wait would be 10 s)
    # Both run at once: a long Expert turn leaves room for another game.
    assert slow.started.acquire(timeout=5) and slow.started.acquire(timeout=5)
    slow.release.set()
    assert dispatch.wait_idle(10)
    assert all(name.startswith("ai-moves") for name in slow.threads)
    assert threading.current_thread().name not in slow.threads


@override_settings(CELERY_BROKER_URL="")
def test_without_a_broker_a_burst_of_reviews_does_not_hold_up_a_move() -> None:
    from learning.tasks import analyse_game

    reviews = SlowTask(analyse_game.name, analyse_game.declared_queue)
    move = SlowTask(tasks.play_computer_turn.name, tasks.play_computer_turn.declared_queue)
    for game_id in range(1, 6):
        dispatch.enqueue(reviews, game_id)
    assert reviews.started.acquire(timeout=5)
    dispatch.enqueue(move, 9, 1)
    try:
        # The move starts while every review is still held or waiting.
        assert move.started.acquire(timeout=5)
        assert len(reviews.threads) == 1
    finally:
        move.release.set()
        reviews.release.set()
    assert dispatch.wait_idle(30)
    assert {name.split("_")[0] for name in reviews.threads} == {"ai-analysis"}
    assert {name.split("_")[0] for name in move.threads} == {"ai-moves"}


class SentTask:
    def __init__(self) -> None:
        from config.celery import app

        self.app = app  # the site's app: its connection for the broker's URL
        self.sent: list[tuple[Any, ...]] = []

    def apply_async(self, args: tuple[Any, ...], producer: Any) -> None:
        broker = producer.connection
        assert (broker.hostname, broker.virtual_host) == ("127.0.0.1", "15")
        self.sent.append(args)

    def __call__(self, *args: Any) -> None:  # pragma: no cover - must be sent
        raise AssertionError("with a broker the task must be sent, not run here")


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:6379/15")
def test_with_a_broker_the_task_is_sent() -> None:
    task = SentTask()
    dispatch.enqueue(task, 3, 9)
    assert task.sent == [(3, 9)]


def popped(client: Any, queue: str) -> dict[str, Any]:
    """The one message waiting in ``queue``, its body decoded and its ids named."""
    [raw] = client.lrange(queue, 0, -1)
    client.delete(queue)
    message = json.loads(raw)
    message["body"] = json.loads(base64.b64decode(message["body"]))
    ids = message["headers"]["id"], message["properties"]["delivery_tag"]
    assert message["headers"]["root_id"] == message["properties"]["correlation_id"] == ids[0]
    message["headers"]["id"] = message["headers"]["root_id"] = "task id"
    message["properties"]["correlation_id"] = "task id"
    message["properties"]["delivery_tag"] = "delivery tag"
    return message


@pytest.mark.redis
def test_on_redis_a_task_waits_on_the_queue_it_declares(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.delete("moves", "analysis")
    try:
        dispatch.enqueue(tasks.play_computer_turn, 0, 7)
        message = popped(client, "moves")
        assert client.llen("analysis") == 0
    finally:
        client.delete("moves", "analysis")
    assert message["headers"]["task"] == "ai_worker.tasks.play_computer_turn"
    assert message["body"][0] == [0, 7]


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_BROKER_URL="")
def test_in_process_the_announced_computer_turn_is_played_once(dark_game: Any) -> None:
    game = dark_game(tier="advanced")  # its turn announced on commit, run on the pool
    tasks.enqueue_computer_turn(game.pk, game.version)  # a duplicate changes nothing
    assert dispatch.wait_idle(60)
    assert advanced(game).version == game.version + 1
    assert Turn.objects.filter(game=game, side="dark").count() == 1


@pytest.mark.django_db(transaction=True)  # its connection closed first, as a new child's
def test_a_worker_child_warms_up_before_its_first_turn(caplog: Any) -> None:
    from django.db import connection

    from ai_worker import evaluator
    from games.tiers import TIERS

    connection.close()
    with caplog.at_level("INFO", logger="ai_worker.tasks"):
        tasks._warm_start()
    assert connection.connection is not None  # its database connection is open
    searched = {spec.ply for spec in TIERS.values() if spec.ply >= 2}
    assert evaluator._networks._one_ply is not None
    assert searched <= set(evaluator._networks._multi)  # every search depth a tier uses
    assert "worker child warmed in" in caplog.text
