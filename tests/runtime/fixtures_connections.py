"""Helpers shared by the tests of database connections."""

from __future__ import annotations

import time

from django.db import connection


def end_backend(backend: int) -> None:
    """The server ends that connection's session, as a restart does; back once it is gone."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [backend])
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.05)
