from __future__ import annotations

from django.apps import AppConfig


class LearningConfig(AppConfig):
    """Hints, match history, reviews, dice statistics and help pages."""

    name = "learning"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import tutor as seam
        from learning import (
            receivers,  # noqa: F401  (connects game_finished)
            tutor,
        )

        # The one judge the writer asks at commit (games.tutor), a function, not a signal.
        seam.install(tutor.verdict, tutor.ranking)
