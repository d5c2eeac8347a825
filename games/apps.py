from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # The writer sends its outward events as signals; the socket pushes them.
        from games.live import sessions  # noqa: F401  (connects its receivers)
        from games.live.broadcast import push_state
        from games.models import Game
        from games.signals import state_changed

        state_changed.connect(push_state, sender=Game, dispatch_uid="games.live.push_state")
