"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from games.live.routing import websocket_urlpatterns  # noqa: E402
from games.live.wsorigin import SameOriginValidator  # noqa: E402

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
