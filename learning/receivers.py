"""What learning does on ``games.signals``: compute hints, queue the review."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished, hint_requested, person_to_decide, tutor_warned
from learning import tasks
from learning.review.game import ensure_analysis
from learning.study import queue as study_queue


@receiver(game_finished, dispatch_uid="learning.queue_review")
def queue_review(sender: Any, game_id: int, **kwargs: Any) -> None:
    # Sent after commit, so the worker sees the finished game and its turns.
    # An imported game waits its turn among its owner's (learning.study.queue).
    game = Game.objects.filter(pk=game_id).first()
    if game is None or ensure_analysis(game) is None:
        return
    if game.imported_from_id is None:
        tasks.enqueue_review(game_id)
    else:
        study_queue.feed_imports(game.owner_id, tasks.enqueue_review)


@receiver(hint_requested, dispatch_uid="learning.compute_hint")
def queue_hint(sender: Any, game_id: int, version: int, **kwargs: Any) -> None:
    tasks.enqueue_hint(game_id, version)


@receiver(person_to_decide, dispatch_uid="learning.prepare_tutor")
def queue_tutor(
    sender: Any,
    game_id: int,
    version: int,
    position_id: str = "",
    dice: list[int] | None = None,
    **kwargs: Any,
) -> None:
    tasks.enqueue_tutor(game_id, version, position_id, dice)


@receiver(tutor_warned, dispatch_uid="learning.word_warning")
def queue_warning_words(sender: Any, game_id: int, version: int, **kwargs: Any) -> None:
    tasks.enqueue_warning_words(game_id, version)
