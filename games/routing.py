from __future__ import annotations

import os

from django.urls import URLPattern, path

from games.consumers import GameConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]

# bench/live.py measures the game socket against a bare echo on the same server.
if os.environ.get("SHUANGLU_BENCH_ECHO") == "1":
    from games.bench_echo import EchoConsumer

    websocket_urlpatterns.append(path("ws/echo/", EchoConsumer.as_asgi()))
