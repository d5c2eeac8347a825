"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels import auth  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from games import dbpool  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.wsorigin import SameOriginValidator  # noqa: E402
from games.wsoutage import DatabaseOutageGuard  # noqa: E402

# The channel layer built now, before the server listens: building it imports
# channels_redis and redis-py, half a second that the first socket to connect
# waited for (after a restart, every socket of the process).
get_channel_layer()


class PooledAuthMiddleware(auth.AuthMiddleware):  # type: ignore[misc]  # channels is untyped
    """Channels' AuthMiddleware, reading the session and the user on
    ``games.dbpool``'s threads (which drop stale connections around each
    call) instead of the one thread channels runs all sync code of the
    process on: after a restart, every socket's sign-in check queued there
    behind every other's."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await dbpool.run(auth.get_user.func, scope)


def socket_auth(inner: Any) -> Any:
    """The cookie, the session and the signed-in user in the scope, as
    channels' ``AuthMiddlewareStack``."""
    return SessionMiddlewareStack(PooledAuthMiddleware(inner))


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            DatabaseOutageGuard(socket_auth(URLRouter(websocket_urlpatterns)))
        ),
    }
)
