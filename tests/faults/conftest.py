"""Issue 13's tests use the live game's fixtures (tests/games/conftest.py)."""

import time
from typing import Any

import pytest

from tests.games.conftest import (  # noqa: F401
    board_fixture,
    computer_queue,
    dice,
    make_game,
)


@pytest.fixture(autouse=True)
async def close_socket_thread_connections(
    request: pytest.FixtureRequest, django_db_blocker: Any
) -> Any:
    """Close the connection of the thread database_sync_to_async ran on, so
    the test database can be dropped at the end (PostgreSQL).

    Only for a test with the database: in one without (a private server's),
    pytest-django refuses even the close of a connection an earlier test left
    on that thread ("Database access not allowed", seen in a whole run).
    """
    yield
    uses_db = {"db", "transactional_db"} & set(request.fixturenames)
    if not (uses_db or request.node.get_closest_marker("django_db")):
        return
    from channels.db import database_sync_to_async
    from django.db import connections

    # By now the test's database fixture is torn down and access blocked
    # again; closing what that thread holds is not a use of it (a test that
    # skipped inside its fixtures met a connection an earlier test left).
    with django_db_blocker.unblock():
        await database_sync_to_async(connections.close_all)()


class Clock:
    """``accounts.throttling``'s clock, moved on by a test instead of waited for."""

    def __init__(self) -> None:

        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    from accounts import throttling

    fake = Clock()
    monkeypatch.setattr(throttling, "_now", fake)
    return fake
