"""runtime.dbthreads: each thread keeps its connection from one call to the next,
and drops it when it is old or the server has ended it (issue 16)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from runtime import dbthreads
from tests.runtime.fixtures_connections import end_backend

pytestmark = pytest.mark.django_db(transaction=True)


def on_pool(fn: Callable[[], Any]) -> Any:
    return asyncio.run(dbthreads.run(fn))


def fresh_then_query() -> tuple[int, bool, Any]:
    """(this thread, whether it started the call without a connection, a backend's id)."""
    fresh = connection.connection is None
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        else:
            cursor.execute("SELECT 1")
            backend = connection.connection
    return threading.get_ident(), fresh, backend


def postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the pool and its server-side connections are PostgreSQL's")


def test_a_thread_keeps_its_connection_between_calls() -> None:
    calls = [on_pool(fresh_then_query) for _ in range(6)]
    by_thread: dict[int, list[tuple[bool, Any]]] = {}
    for thread, fresh, backend in calls:
        by_thread.setdefault(thread, []).append((fresh, backend))
    assert max(len(seen) for seen in by_thread.values()) >= 2  # a thread served twice
    for seen in by_thread.values():
        assert [fresh for fresh, _ in seen] == [True] + [False] * (len(seen) - 1)
        assert all(backend is seen[0][1] or backend == seen[0][1] for _, backend in seen)


def test_a_connection_the_server_ended_is_replaced_before_the_next_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    postgres_only()
    monkeypatch.setattr(dbthreads, "POSTGRES_THREADS", 1)
    _, _, backend = on_pool(fresh_then_query)
    end_backend(backend)
    _, fresh, again = on_pool(fresh_then_query)  # answered, not "server closed the connection"
    assert fresh and again != backend


def test_an_old_connection_goes_back_to_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    postgres_only()
    monkeypatch.setattr(dbthreads, "POSTGRES_THREADS", 1)
    monkeypatch.setattr(dbthreads, "HOLD_SECONDS", 0)
    assert [on_pool(fresh_then_query)[1] for _ in range(3)] == [True, True, True]


def test_the_threads_hold_at_most_half_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    postgres_only()
    pool = settings.DATABASES["default"]["OPTIONS"]["pool"]
    for size, threads in [(8, 4), (4, 2), (3, 1), (1, 1), (40, dbthreads.POSTGRES_THREADS)]:
        monkeypatch.setitem(pool, "max_size", size)
        assert dbthreads.threads() == threads


# --------------------------------------------------------------- the hop to a thread


def test_a_calls_error_is_raised_in_its_caller() -> None:
    def fails() -> None:
        raise ValueError("from the pool")

    with pytest.raises(ValueError, match="from the pool"):
        on_pool(fails)


def test_a_call_given_up_on_before_it_starts_is_not_run() -> None:
    ran: list[int] = []
    threads = dbthreads.threads()
    release = threading.Event()

    async def main() -> None:
        # Every thread held, so the next call waits in the queue.
        held = [asyncio.ensure_future(dbthreads.run(release.wait, 5)) for _ in range(threads)]
        await asyncio.sleep(0.05)
        waiting = asyncio.ensure_future(dbthreads.run(ran.append, 1))
        await asyncio.sleep(0.05)
        waiting.cancel()
        await asyncio.sleep(0.05)  # the cancel reaches the executor on the loop's next turn
        release.set()
        assert all(await asyncio.gather(*held))
        assert await dbthreads.run(ran.append, 2) is None

    asyncio.run(main())
    assert ran == [2]
