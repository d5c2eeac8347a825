"""Sweep for stuck computer turns on a schedule (the sweep is ``turns.sweep``).

Sweeps run from Celery beat (``tasks.watch_computer_turns``, config/celery.py),
once when a worker starts, from ``python -m ai_worker.watchdog`` (a loop for
the Procfile), and, when there is no broker, on a timer thread in the web
process that ``receivers`` starts with the first in-process computer turn.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

SWEEP_EVERY_SECONDS = 10.0

_timer_started = False
_timer_lock = threading.Lock()


def sweep_safely() -> None:
    """One sweep that logs instead of raising and leaves no connection open."""
    # Imported here so ``python -m ai_worker.watchdog`` can set Django up first.
    from ai_worker import tasks

    try:
        tasks.watch_computer_turns()
    except Exception:
        log.exception("watchdog sweep failed")
    finally:
        connections.close_all()


def start_timer_thread(every: float | None = None) -> None:
    """Sweep every ``every`` seconds on a daemon thread (once per process).

    ``every`` defaults to ``AI_WATCHDOG_SECONDS`` (setting, else environment,
    else 30); 0 turns the timer off (the test suite does, so no background
    sweep races a test's own games).
    """
    global _timer_started
    if every is None:
        configured = getattr(settings, "AI_WATCHDOG_SECONDS", None)
        if configured is None:
            configured = os.environ.get("AI_WATCHDOG_SECONDS", SWEEP_EVERY_SECONDS)
        every = float(str(configured))
    with _timer_lock:
        if _timer_started or every <= 0:
            return
        _timer_started = True
    thread = threading.Thread(target=_loop, args=(every,), name="ai-watchdog", daemon=True)
    thread.start()


def _loop(every: float) -> None:
    while True:
        time.sleep(every)
        sweep_safely()


def main(argv: Any = None) -> None:
    """``python -m ai_worker.watchdog``: sweep for ever (a Procfile process)."""
    while True:
        sweep_safely()
        time.sleep(SWEEP_EVERY_SECONDS)


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    main()
