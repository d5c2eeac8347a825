"""The project package: settings, URLs, ASGI, and the Celery app.

The Celery app is loaded with the project (Celery's documented Django
set-up), so every ``shared_task`` binds to it and no module below ``config``
imports ``config.celery``.
"""

from __future__ import annotations

from config.celery import app as celery_app

__all__ = ["celery_app"]
