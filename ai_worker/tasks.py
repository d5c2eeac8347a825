"""Celery tasks of the computer player (queue ``moves``).

``play_computer_turn(game_id, version)``: services.begin_computer_turn gives
DARK's dice, rolled and stored as the turn passed (a retry reuses them), the
policy chooses a play for the game's tier with noise seeded by the game, and
services.finish_computer_turn applies it with the version check. A duplicate
or stale task changes nothing. Delivery is at least once (acks_late,
reject_on_worker_lost); attempts per (game, version) are counted in the
cache, and past ``MAX_ATTEMPTS`` the turn is failed with a visible message
rather than retried for ever.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready
from django.core.cache import cache
from django.db import close_old_connections
from django.utils.translation import gettext

from config.celery import app

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 4  # task starts per (game, version), redeliveries included
MAX_RETRIES = MAX_ATTEMPTS - 1
ATTEMPTS_TTL = 3600


def failure_message() -> str:
    """What the person reads when the computer gives up on a turn."""
    return gettext("The computer could not finish its turn, so this game was stopped.")


def seed_key(game_id: int) -> str:
    """The noise seed: the same position in the same game gets the same play."""
    return f"game:{game_id}"


def run_computer_turn(game_id: int, version: int) -> bool:
    """Play DARK's turn of ``game_id`` made on ``version``; True if applied."""
    from ai_worker.policy import choose_play
    from games import services
    from games.models import Game

    begun = services.begin_computer_turn(game_id, version)
    if begun is None:
        return False  # stale or duplicate: the version moved on
    position, dice = begun
    tier = Game.objects.values_list("tier", flat=True).get(pk=game_id)
    play = choose_play(position, dice, tier, seed_key(game_id))
    return services.finish_computer_turn(game_id, version, play)


def count_attempt(game_id: int, version: int) -> int:
    """Record one more start of this turn's task; returns the count so far."""
    key = attempts_key(game_id, version)
    cache.add(key, 0, ATTEMPTS_TTL)
    try:
        return int(cache.incr(key))
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, ATTEMPTS_TTL)
        return 1


def attempts(game_id: int, version: int) -> int:
    return int(cache.get(attempts_key(game_id, version), 0))


def attempts_key(game_id: int, version: int) -> str:
    return f"ai_worker:turn-attempts:{game_id}:{version}"


def give_up(game_id: int, version: int) -> bool:
    """Mark the game failed (only if still waiting on this very turn)."""
    from games import services

    failed = services.fail_computer_turn(game_id, version, failure_message())
    if failed:
        log.error("computer turn of game %s v%s failed for good", game_id, version)
    return failed


@app.task(
    bind=True,
    name="ai_worker.tasks.play_computer_turn",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
)
def play_computer_turn(self: Any, game_id: int, version: int) -> bool:
    if count_attempt(game_id, version) > MAX_ATTEMPTS:
        give_up(game_id, version)
        return False
    try:
        return run_computer_turn(game_id, version)
    except Exception as exc:
        if self.request.called_directly:
            raise  # in-process: the watchdog re-queues it later
        if self.request.retries >= self.max_retries:
            give_up(game_id, version)
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc


@app.task(name="ai_worker.tasks.watch_computer_turns", acks_late=False)
def watch_computer_turns() -> int:
    """Re-queue (or fail) computer turns that have waited too long."""
    from ai_worker import dispatch, watchdog

    return watchdog.sweep(enqueue_fn=dispatch.enqueue)


@task_prerun.connect
@task_postrun.connect
def _drop_stale_connections(**_: Any) -> None:
    # With CELERY_DB_REUSE_MAX set, as Django's request_started/finished do.
    close_old_connections()


@worker_process_init.connect
def _load_networks(**_: Any) -> None:
    # Each worker child loads the networks once, before its first move.
    from ai_worker.evaluator import warm_up
    from ai_worker.tiers import TIERS

    warm_up(max(spec.ply for spec in TIERS.values()))


@worker_ready.connect
def _sweep_on_start(sender: Any = None, **_: Any) -> None:
    # Turns stranded while no worker ran are picked up as soon as one starts.
    watch_computer_turns.apply_async()
