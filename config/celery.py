"""The Celery app: ``celery -A config worker -Q moves`` (``-Q hints``, ``-Q analysis``).

Settings come from Django's ``CELERY_`` namespace (config/settings.py); each
task declares its queue (``shared_task(declared_queue="moves")``) and
``route_to_declared_queue`` sends it there (Celery 6 drops the ``queue`` task
attribute, so the declaration is read by a router). ``config/__init__.py``
loads this app with the project, so shared tasks bind to it. With no broker
configured the site never talks to Celery: ai_worker.dispatch runs the same
task functions on a thread pool inside the web process.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Three queues so study work never delays a game in progress: moves (the
# computer's turns), hints (a game in progress) and analysis (reviews and
# the analysis board, learning.study.queue); a worker taking several empties
# them in its -Q order (CELERY_BROKER_TRANSPORT_OPTIONS). And the watchdog's
# own, which every worker also takes (ai_worker.tasks).
app.conf.task_queues = (Queue("moves"), Queue("hints"), Queue("analysis"), Queue("watchdog"))
app.conf.task_default_queue = "analysis"


def route_to_declared_queue(
    name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **_: Any
) -> dict[str, str] | None:
    """The queue the task declares, as ``{"queue": ...}`` (None: the default)."""
    queue = getattr(task, "declared_queue", None)
    return {"queue": queue} if queue else None


app.conf.task_routes = (route_to_declared_queue,)
app.autodiscover_tasks()

# Stuck computer turns are swept every 10 s where celery beat runs; workers
# also sweep once on start (ai_worker.tasks), and without beat
# `python -m ai_worker.watchdog` does the same in a loop.
# Guests unused for GUEST_RETENTION_DAYS are deleted once a day
# (accounts.tasks.prune_guests, on the watchdog queue).
app.conf.beat_schedule = {
    "watch-computer-turns": {
        "task": "ai_worker.tasks.watch_computer_turns",
        "schedule": 10.0,  # with turns.LOST_AFTER: a lost message mended within 25 s
    },
    "feed-study-queue": {
        "task": "learning.tasks.feed_study_queue",
        "schedule": 60.0,
    },
    "prune-guests": {
        "task": "accounts.tasks.prune_guests",
        "schedule": 24 * 3600,
    },
}
