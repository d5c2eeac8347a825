"""The game row's read and write, the one storage seam of every command.

``locked_game`` and ``game`` read the row; ``update`` writes the changed
columns, optionally only if the row is still at the version (and
``updated_at``) the caller read, and, inside ``under_session``, only while
the command's session is there: all in the write's one statement.
On PostgreSQL the statements are bound and prepared by the server
(``server_side_binding`` and ``prepare_threshold`` in config/settings.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.contrib.sessions.models import Session
from django.db import DatabaseError
from django.db.models import Exists, Field
from django.utils import timezone

from games.models import Game
from games.services.errors import SessionEndedError

# The session a socket's command runs under (``under_session``): its write
# holds only while that session's row does, checked in the write's own
# statement, so a log-out that commits before it refuses the command
# whatever the push's timing, at no extra query.
# The row's columns by attribute name (``match_id``).
_COLUMNS: dict[str, Field[Any, Any]] = {f.attname: f for f in Game._meta.concrete_fields}

_session: ContextVar[str | None] = ContextVar("games_command_session", default=None)


@contextmanager
def under_session(session_key: str | None) -> Iterator[None]:
    """Every game row write inside is made only if ``session_key``'s row is
    there and unexpired (None: no condition); ``SessionEndedError`` if not."""
    token = _session.set(session_key)
    try:
        yield
    finally:
        _session.reset(token)


def locked_game(game_id: int) -> Game:
    """The game row, locked until the transaction ends (call inside ``atomic``)."""
    return Game.objects.select_for_update().get(pk=game_id)


def game(game_id: int) -> Game:
    """The game row as it is now."""
    return Game.objects.get(pk=game_id)


def update(game: Game, attnames: list[str], *, at_version: int | None = None) -> bool:
    """``game.save(update_fields=attnames)``; with ``at_version``, only if the
    stored row is still at that version and was last written when ``game``
    says (its ``updated_at``; False if not).

    Without ``at_version`` the row must exist (its lock is held).
    """
    rows = Game.objects.filter(pk=game.pk)
    if at_version is not None:
        # Read before pre_save below sets it anew. A row at the same version
        # written since is a hint's (hints_used, which does not change the
        # version): the instance no longer shows the row as stored.
        rows = rows.filter(version=at_version, updated_at=game.updated_at)
    session = _session.get()
    if session is not None:
        live = Session.objects.filter(session_key=session, expire_date__gt=timezone.now())
        rows = rows.filter(Exists(live))
    values: dict[str, Any] = {name: _COLUMNS[name].pre_save(game, False) for name in attnames}
    changed = rows.update(**values)
    if at_version is None and changed != 1:
        if session is not None:  # the row is locked and there: the session is gone
            raise SessionEndedError(f"game {game.pk}: session ended before the write")
        raise DatabaseError(f"game {game.pk}: the update changed {changed} rows")
    return changed == 1
