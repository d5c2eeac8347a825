"""The game socket during a database outage: the same words and close everywhere.

A command on an open socket and a socket whose consumer cannot join get the
error ``unavailable`` in words, then (when opening) the close 4503, "try
again later", on which the page reconnects with its backoff.
``DatabaseOutageGuard`` wraps everything a socket's opening runs (the game
consumer reads the session, the user and the game in one trip), so a
failure there that the consumer did not answer itself is answered the same
way instead of failing the handshake without a word.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.middleware import is_database_unavailable

log = logging.getLogger(__name__)

# The database is down: come back later. Not RFC 6455's 1013 "try again
# later": daphne's autobahn lets a server close only with 1000 or 3000-4999
# (1013 raised inside daphne, and the page saw 1011).
CLOSE_TRY_AGAIN = 4503


def unavailable_reply(language: str, command_id: str | None = None) -> dict[str, Any]:
    """The error frame of an outage, in ``language``."""
    with translation.override(language):
        message = _(
            "The game is temporarily unavailable; your move is not lost. "
            "Please try again in a moment."
        )
    return {"type": "error", "id": command_id, "code": "unavailable", "message": message}


def header_language(scope: dict[str, Any]) -> str:
    """The page language from the request alone: the language cookie, Accept-Language."""
    headers = dict(scope.get("headers") or [])
    cookie = _cookie(headers.get(b"cookie", b"").decode("latin-1"), settings.LANGUAGE_COOKIE_NAME)
    if cookie and translation.check_for_language(cookie):
        return translation.get_supported_language_variant(cookie)
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for lang, _q in parse_accept_lang_header(accept):
        try:
            return translation.get_supported_language_variant(lang)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _sep, value = part.strip().partition("=")
        if key == name:
            return value
    return None


class DatabaseOutageGuard:
    """ASGI middleware: accept at once, and a set-up that fails on the database gets the words.

    Accepting first (the consumer would anyway: it accepts, then checks who
    is asking) keeps daphne's handshake timeout (5 s) from dropping a socket
    while its opening waits its ``DB_POOL_TIMEOUT`` for a connection.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        opening = await receive()
        if opening["type"] != "websocket.connect":
            return None  # gone before the handshake
        await send({"type": "websocket.accept"})
        replayed = spoke = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if replayed:
                return dict(await receive())
            replayed = True
            return dict(opening)

        async def after_accept(message: dict[str, Any]) -> None:
            nonlocal spoke
            if message["type"] != "websocket.accept":  # accepted already
                spoke = True
                await send(message)

        try:
            return await self.inner(scope, replay, after_accept)
        except Exception as exc:
            # Once the consumer has spoken, its own error paths had their say.
            if spoke or not is_database_unavailable(exc):
                raise
            log.warning("database unavailable while opening %s: %s", scope.get("path"), exc)
        reply = unavailable_reply(header_language(scope))
        await send({"type": "websocket.send", "text": json.dumps(reply, ensure_ascii=False)})
        await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
        return None
