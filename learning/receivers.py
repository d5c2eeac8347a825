"""Queue the review when a game ends (``games.signals.game_finished``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.signals import game_finished


@receiver(game_finished, dispatch_uid="learning.queue_review")
def queue_review(sender: Any, game_id: int, **kwargs: Any) -> None:
    # Sent after commit, so the worker sees the finished game and its turns.
    from ai_worker.dispatch import enqueue_review
    from games.models import Game
    from learning.review import ensure_analysis

    game = Game.objects.filter(pk=game_id).first()
    if game is not None and ensure_analysis(game) is not None:
        enqueue_review(game_id)
