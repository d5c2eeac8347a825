"""The accounts' scheduled task: old guests pruned, daily in Celery beat (config.celery).

On the ``watchdog`` queue, which every worker also takes (site/Procfile), so
it never waits behind a backlog of moves or reviews; the beat schedule in
``config/celery.py`` sends it once a day. ``manage.py prune_guests`` does the
same by hand.
"""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from accounts.guests import prune_guests as prune


@shared_task(
    name="accounts.tasks.prune_guests", base=Task, declared_queue="watchdog", acks_late=False
)
def prune_guests() -> int:
    """Delete guests unused for ``GUEST_RETENTION_DAYS``; how many."""
    return prune(settings.GUEST_RETENTION_DAYS)
