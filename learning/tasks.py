"""Celery tasks on the ``analysis`` queue: the post-game review and hints.

They take ids, never model instances, and are idempotent: a redelivered
review resumes after the last stored turn; a hint is stored once per
(game, version). ``ai_worker.dispatch.enqueue_review`` / ``enqueue_hint``
send them (or run them in-process without a broker).
"""

from __future__ import annotations

from celery import shared_task

from learning import hints, review


@shared_task(name="learning.tasks.analyse_game", acks_late=True, max_retries=2)
def analyse_game(game_id: int) -> None:
    """Analyse every turn of a finished game at Expert ply."""
    review.run_analysis(game_id)


@shared_task(name="learning.tasks.compute_hint", acks_late=True, max_retries=1)
def compute_hint(game_id: int, version: int) -> None:
    """The top plays for the person's roll at ``version``."""
    hints.compute_hint(game_id, version)
