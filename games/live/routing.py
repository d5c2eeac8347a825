from __future__ import annotations

from django.urls import URLPattern, path

from games.live.consumers import GameConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
