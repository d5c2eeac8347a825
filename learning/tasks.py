"""Celery tasks on the ``analysis`` queue: the post-game review, hints, the analysis board.

They take ids, never model instances, and are idempotent: a redelivered
review resumes after the last stored turn; a hint is stored once per
(game, version). ``enqueue_review`` / ``enqueue_hint`` send them through
``ai_worker.dispatch`` (or run them in-process without a broker);
``learning.receivers`` calls them on ``games.signals``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task

from ai_worker import dispatch
from learning import analysis_board, hints, review

QUEUE = "analysis"


def analysis_task(name: str, max_retries: int) -> Callable[[Callable[..., None]], Any]:
    """A task of this module: on the ``analysis`` queue, acknowledged once done
    (a worker lost mid-job leaves it to be redelivered)."""
    return shared_task(
        name=f"learning.tasks.{name}",
        base=dispatch.QueuedTask,
        declared_queue=QUEUE,
        acks_late=True,
        max_retries=max_retries,
    )


@analysis_task("analyse_game", max_retries=2)
def analyse_game(game_id: int) -> None:
    """Analyse every turn of a finished game at Expert ply."""
    review.run_analysis(game_id)


@analysis_task("compute_hint", max_retries=1)
def compute_hint(game_id: int, version: int) -> None:
    """The top plays for the person's roll at ``version``."""
    hints.compute_hint(game_id, version)


def enqueue_review(game_id: int) -> None:
    """Queue the post-game review of ``game_id``."""
    dispatch.enqueue(analyse_game, game_id)


def enqueue_hint(game_id: int, version: int) -> None:
    """Queue a hint for the person's roll at ``version``."""
    dispatch.enqueue(compute_hint, game_id, version)


@analysis_task("analyse_position", max_retries=1)
def analyse_position(job_id: int) -> None:
    """The analysis board: ranked plays for one position and roll (or all 21)."""
    analysis_board.run_board_analysis(job_id)


def enqueue_board_analysis(job_id: int) -> None:
    """Queue an analysis-board job (``learning.study_models.BoardAnalysis``)."""
    dispatch.enqueue(analyse_position, job_id)
