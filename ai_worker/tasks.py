"""Celery tasks of the computer player, on the ``moves`` queue.

Thin: the turn logic is ``ai_worker.turns``. Delivery is at least once
(acks_late, reject_on_worker_lost); a retry or redelivery of the same
(game, version) changes nothing once the turn was applied. ``shared_task``
binds to the project's Celery app (``config.celery``, loaded with the
settings); each task names its queue (``dispatch.QueuedTask``), so a worker
started with ``-Q moves`` takes exactly these.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import shared_task
from celery.signals import (
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
    worker_ready,
)
from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.utils import translation

from ai_worker import dispatch, turns
from runtime import dbthreads

log = logging.getLogger(__name__)

QUEUE = "moves"
MAX_RETRIES = turns.MAX_ATTEMPTS - 1


@shared_task(
    bind=True,
    name="ai_worker.tasks.play_computer_turn",
    base=dispatch.QueuedTask,
    declared_queue=QUEUE,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
)
def play_computer_turn(self: Any, game_id: int, version: int) -> bool:
    # The child's connection is kept from one turn to the next (the psycopg
    # pool's check of a connection taken again was a round trip a turn).
    return dbthreads.kept(_play, self, game_id, version)


def _play(self: Any, game_id: int, version: int) -> bool:
    log.info("computer turn of game %s v%s: started", game_id, version)
    started = turns.start(game_id, version)
    if started.starts > turns.MAX_ATTEMPTS:
        turns.give_up(game_id, version)
        return False
    if started.due is None:
        return False  # stale or duplicate: the version moved on
    try:
        return turns.run_computer_turn(game_id, version, started.due, started.game)
    except Exception as exc:
        if self.request.called_directly:
            raise  # in-process: the watchdog re-queues it later
        if self.request.retries >= self.max_retries:
            turns.give_up(game_id, version)
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc


def enqueue_computer_turn(game_id: int, version: int) -> None:
    """Send (or run in-process) the computer's turn of ``game_id`` at ``version``."""
    dispatch.enqueue(play_computer_turn, game_id, version)


# Its own queue, which every worker also takes: a backlog of moves must not
# hold the sweep up behind it (Redis hands out a worker's queues in turn).
WATCHDOG_QUEUE = "watchdog"


@shared_task(
    name="ai_worker.tasks.watch_computer_turns",
    base=dispatch.QueuedTask,
    declared_queue=WATCHDOG_QUEUE,
    acks_late=False,
)
def watch_computer_turns() -> int:
    """Re-queue (or fail) computer turns that have waited too long, and at
    once those whose message the broker lost (its ``moves`` queue empty)."""
    lost_after = turns.LOST_AFTER if dispatch.queue_is_empty(QUEUE) else None
    return turns.sweep(enqueue_computer_turn, lost_after=lost_after)


@task_prerun.connect
@task_postrun.connect
def _drop_stale_connections(**_: Any) -> None:
    # With CELERY_DB_REUSE_MAX set, as Django's request_started/finished do.
    close_old_connections()


@worker_init.connect
def _warm_each_child(**_: Any) -> None:
    # Connected once the worker starts, after Celery's Django fix-up has
    # connected its own handler, which closes the database connections a
    # child inherits: so each child's warm start runs after it, and keeps
    # the connection it opens.
    worker_process_init.connect(_warm_start, weak=False)


def _warm_start(**_: Any) -> None:
    # Each worker child pays now what its first computer turn would: the
    # networks, each tier's play (its evaluator and search), the translation
    # catalogues the state's words come from, a database connection and the
    # broadcast's Redis connection. A child that cannot reach the database or
    # Redis yet still starts: its first turn connects, as before.
    from ai_worker import cube
    from ai_worker.evaluator import warm_up
    from ai_worker.policy import choose_play
    from games.engine import Dice, Position
    from games.live import broadcast
    from games.tiers import TIERS

    start = time.perf_counter()
    warm_up(max(spec.ply for spec in TIERS.values()))
    cube.warm_up(1, max(spec.cube_depth for spec in TIERS.values()))  # the Expert's 3-ply cube
    for tier in TIERS:
        choose_play(Position.start(), Dice(3, 1), tier, "warm-up")
    for code, _name in settings.LANGUAGES:
        # Activating a language loads its catalogues (every app's .mo): no
        # message is looked up here, so makemessages finds none in ai_worker.
        translation.activate(code)
    translation.deactivate()
    try:
        dbthreads.kept(connection.ensure_connection)  # kept for the first turn
    except DatabaseError:
        log.warning("worker start: no database yet", exc_info=True)
    broadcast.warm_up()  # logs its own failure
    log.info("worker child warmed in %.0f ms", 1000 * (time.perf_counter() - start))


@worker_ready.connect
def _sweep_on_start(sender: Any = None, **_: Any) -> None:
    # Turns stranded while no worker ran are picked up as soon as one starts.
    watch_computer_turns.apply_async()
