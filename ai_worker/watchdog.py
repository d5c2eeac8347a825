"""Find computer turns that are stuck and re-queue them, or fail them.

A turn is stuck when DARK has been on turn for ``STUCK_AFTER`` with no move
(the worker died, the message was lost, the broker was down). Each sweep
re-queues it; after ``MAX_REQUEUES`` re-queues, or once its task has started
``tasks.MAX_ATTEMPTS`` times, the game is marked failed with a visible
message. Sweeps run from Celery beat (config/celery.py), once when a worker
starts, from ``python -m ai_worker.watchdog`` (a loop for the Procfile), and
on a timer thread in the web process when there is no broker.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

log = logging.getLogger(__name__)

STUCK_AFTER = timedelta(seconds=60)
SWEEP_EVERY_SECONDS = 30.0
MAX_REQUEUES = 3
REQUEUES_TTL = 3600

_timer_started = False
_timer_lock = threading.Lock()


def sweep(enqueue_fn: Callable[..., None], stuck_after: timedelta = STUCK_AFTER) -> int:
    """Deal with every stuck turn once; returns how many were re-queued."""
    from django.core.cache import cache

    from ai_worker import tasks
    from games import services

    requeued = 0
    for game_id, version in services.stuck_games(stuck_after):
        key = f"ai_worker:turn-requeues:{game_id}:{version}"
        cache.add(key, 0, REQUEUES_TTL)
        done = int(cache.get(key, 0))
        if done >= MAX_REQUEUES or tasks.attempts(game_id, version) >= tasks.MAX_ATTEMPTS:
            tasks.give_up(game_id, version)
            continue
        cache.set(key, done + 1, REQUEUES_TTL)
        log.warning("re-queueing stuck computer turn of game %s v%s", game_id, version)
        enqueue_fn(tasks.play_computer_turn, game_id, version)
        requeued += 1
    return requeued


def sweep_safely(enqueue_fn: Callable[..., None]) -> None:
    """One sweep that logs instead of raising and leaves no connection open."""
    from django.db import connections

    try:
        sweep(enqueue_fn)
    except Exception:
        log.exception("watchdog sweep failed")
    finally:
        connections.close_all()


def start_timer_thread(enqueue_fn: Callable[..., None], every: float = SWEEP_EVERY_SECONDS) -> None:
    """Sweep every ``every`` seconds on a daemon thread (once per process)."""
    global _timer_started
    with _timer_lock:
        if _timer_started or every <= 0:
            return
        _timer_started = True
    thread = threading.Thread(
        target=_loop, args=(enqueue_fn, every), name="ai-watchdog", daemon=True
    )
    thread.start()


def _loop(enqueue_fn: Callable[..., None], every: float) -> None:
    while True:
        time.sleep(every)
        sweep_safely(enqueue_fn)


def main(argv: Any = None) -> None:
    """``python -m ai_worker.watchdog``: sweep for ever (a Procfile process)."""
    import django

    django.setup()
    from ai_worker import dispatch

    while True:
        sweep_safely(dispatch.enqueue)
        time.sleep(SWEEP_EVERY_SECONDS)


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    main()
