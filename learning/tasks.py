"""Celery tasks: hints on the ``hints`` queue; the review and the analysis board on ``analysis``.

They take ids, never model instances, and are idempotent: a redelivered
review resumes after the last stored turn; a hint is stored once per
(game, version). ``enqueue_review`` / ``enqueue_hint`` send them through
``ai_worker.dispatch`` (or run them in-process without a broker);
``learning.receivers`` calls them on ``games.signals``. A review runs in
slices and queues its next slice itself; imported games' reviews are fed
one per owner (``learning.study.queue``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from ai_worker import dispatch
from games.models import Game
from learning import hints, tutor
from learning.review import game as review
from learning.study import board as analysis_board
from learning.study import queue as study_queue

QUEUE = "analysis"
HINTS_QUEUE = "hints"


def analysis_task(
    name: str, max_retries: int, queue: str = QUEUE
) -> Callable[[Callable[..., None]], Any]:
    """A task of this module: on ``queue``, acknowledged once done (a worker
    lost mid-job leaves it to be redelivered)."""
    return shared_task(
        name=f"learning.tasks.{name}",
        base=dispatch.QueuedTask,
        declared_queue=queue,
        acks_late=True,
        max_retries=max_retries,
    )


@analysis_task("analyse_game", max_retries=2)
def analyse_game(game_id: int) -> None:
    """Analyse the turns of a finished game at Expert ply for one slice; the
    next slice is queued behind the work that came meanwhile."""
    finished = True
    try:
        finished = review.run_analysis(game_id, slice_seconds=settings.REVIEW_SLICE_SECONDS)
    finally:
        if finished:  # done or failed: the owner's next imported game, if any
            imported = Game.objects.filter(pk=game_id, imported_from__isnull=False)
            for owner_id in imported.values_list("owner_id", flat=True):
                study_queue.feed_imports(owner_id, enqueue_review)
    if not finished:
        enqueue_review(game_id)


@analysis_task("make_own_puzzles", max_retries=1)
def make_own_puzzles(game_id: int) -> None:
    """The game owner's reviewed errors made puzzles of their own, each
    checked by a rollout (``learning.puzzles.personal``)."""
    from learning.puzzles import personal

    personal.make_own(game_id)


def enqueue_own_puzzles(game_id: int) -> None:
    dispatch.enqueue(make_own_puzzles, game_id)


@analysis_task("feed_study_queue", max_retries=0)
def feed_study_queue() -> None:
    """Imported games' reviews going again after a lost message (beat, every minute)."""
    study_queue.feed_stalled(enqueue_review)


@analysis_task("compute_hint", max_retries=1, queue=HINTS_QUEUE)
def compute_hint(game_id: int, version: int) -> None:
    """The top plays for the person's roll at ``version``."""
    hints.compute_hint(game_id, version)


@analysis_task("prepare_tutor", max_retries=0, queue=HINTS_QUEUE)
def prepare_tutor(
    game_id: int, version: int, position_id: str = "", dice: list[int] | None = None
) -> None:
    """The tutor's ranking of the person's decision at ``version``, while they think."""
    tutor.prepare(game_id, version, position_id, dice)


@analysis_task("word_warning", max_retries=0, queue=HINTS_QUEUE)
def word_warning(game_id: int, version: int) -> None:
    """The words of the tutor's warning saved at ``version``, after its commit."""
    tutor.word_warning(game_id, version)


def enqueue_warning_words(game_id: int, version: int) -> None:
    dispatch.enqueue(word_warning, game_id, version)


# A decision is sent to be ranked once in this many seconds: asked again
# meanwhile (the socket's wait finds no ranking yet, a second tab opens), the
# job already queued answers it. At 200 games on a loaded machine every wait
# asking again filled the hints queue with the same rankings until no End
# turn found its own in time (bench/tutor.py).
ASK_SECONDS = 5


def enqueue_tutor(
    game_id: int, version: int, position_id: str = "", dice: list[int] | None = None
) -> None:
    roll = "".join(str(d) for d in dice or ())
    decision = f"{position_id}:{roll}" if position_id and roll else f"v{version}"
    if cache.add(f"tutor-asked:{game_id}:{decision}", 1, timeout=ASK_SECONDS):
        dispatch.enqueue(prepare_tutor, game_id, version, position_id, dice)


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
    """Queue an analysis-board job (``learning.models.BoardAnalysis``)."""
    dispatch.enqueue(analyse_position, job_id)


def board_job_ahead(job_id: int) -> int | None:
    """How many messages are ahead of a board job in its queue (None: not there)."""
    return dispatch.messages_ahead(analyse_position, job_id)


analysis_board.count_ahead_with(board_job_ahead)


@analysis_task("rollout_position", max_retries=0)
def rollout_position(job_id: int) -> None:
    """The analysis board's 精确分析: a rollout of one cube decision or of a
    roll's plays, at study priority (the ``analysis`` queue, after moves and hints)."""
    analysis_board.run_board_analysis(job_id)


def enqueue_board_rollout(job_id: int) -> None:
    """Queue a rollout job (``learning.study.board.request_cube_rollout``,
    ``request_play_rollout``)."""
    dispatch.enqueue(rollout_position, job_id)
