from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import sessions  # noqa: F401  (connects its receivers)
