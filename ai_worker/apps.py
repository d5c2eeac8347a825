from __future__ import annotations

from django.apps import AppConfig


class AiWorkerConfig(AppConfig):
    """The computer player: its turns, the in-process pools, the watchdog."""

    name = "ai_worker"

    def ready(self) -> None:
        from ai_worker import dispatch, receivers  # noqa: F401  (connects computer_turn_due)

        dispatch.wire()
