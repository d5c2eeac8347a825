"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from games.engine import memo  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from games.live.wsorigin import SameOriginValidator  # noqa: E402

WEB_MEMO_DIVISOR = 8  # 1,024 plays' lists and 2,048 step tables: a few per open game

# The channel layer built now, before the server listens: building it imports
# channels_redis and redis-py, half a second that the first socket to connect
# waited for (after a restart, every socket of the process).
get_channel_layer()

# No channels auth middleware: the game socket checks its session in its own
# opening trip to the database (games/live/consumers.py), off channels' one shared
# sync thread.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(CookieMiddleware(URLRouter(websocket_urlpatterns))),
    }
)

# Everything built so far (Django, the apps, the URL conf, the layer) lives as
# long as the process. Moved out of the collector's sight, a full collection
# scans only what the sockets made since: with 500 sockets a process, its
# pauses stalled every socket of it (bench/live.py, 1,000 games x 2 s: step
# p99 193-600 ms before, 91-187 ms after, in pairs on one quiet machine).
#
# The engine's memo tables shrink to what the steps of the games open here
# need: their entries are what the collector's full passes walk, and the
# searches run elsewhere (a Celery worker, or zero set-up's engine lanes).
memo.shrink(WEB_MEMO_DIVISOR)
gc.collect()
gc.freeze()
