"""What the computer player does on ``games.signals``: play the turn that is due."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from ai_worker import dispatch, tasks, watchdog
from games.signals import computer_turn_due


@receiver(computer_turn_due, dispatch_uid="ai_worker.play_computer_turn")
def queue_computer_turn(sender: Any, game_id: int, version: int, **kwargs: Any) -> None:
    # Sent after commit, so the task sees the turn that was handed over.
    if not dispatch.uses_broker():
        watchdog.start_timer_thread()  # no beat without a broker: sweep in-process
    tasks.enqueue_computer_turn(game_id, version)
