"""The cost of a socket command's session guard (issue 30, item 5), in the same run.

    .venv/bin/python bench/session_guard.py [--writes N]
    DATABASE_URL=postgres://... .venv/bin/python bench/session_guard.py

A socket's command writes its game row only while its session's row is
there (``games.services.under_session``: an ``EXISTS`` on the session's
primary key inside the row's own ``UPDATE``, no extra query). This times
that write, guarded, against the same write unguarded (the yardstick), in
alternating blocks (ABBA) on a fresh test database (SQLite, or PostgreSQL
with DATABASE_URL), and prints both medians, their ratio and the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

BLOCK = 200


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=4000)
    args = parser.parse_args()
    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        plain, guarded = measure(args.writes)
    finally:
        connection.close()
        getattr(connection, "close_pool", lambda: None)()  # a pool keeps its connections
        connection.creation.destroy_test_db(name, verbosity=0)
    load = os.getloadavg()
    print(f"database: {connection.vendor}; {args.writes} writes each, blocks of {BLOCK}")
    print(f"row write, unguarded (yardstick): {plain:7.1f} us median per write")
    print(f"row write, session-guarded:       {guarded:7.1f} us median per write")
    print(f"ratio guarded / unguarded: {guarded / plain:.3f}; load {load[0]:.2f} {load[1]:.2f}")


def measure(writes: int) -> tuple[float, float]:
    from accounts.models import User
    from games import services
    from games.services import store

    user = User.objects.create_user("bench", password="x")
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session.create()
    game = services.start_game(user, "casual")
    for key in (None, session.session_key):  # warm up both statements (PostgreSQL prepares)
        with store.under_session(key):
            for _ in range(BLOCK // 4):
                store.update(game, ["steps", "updated_at"])
    times: dict[bool, list[float]] = {False: [], True: []}
    order = [False, True, True, False] * (writes // (2 * BLOCK) // 2 + 1)
    for guarded in order[: 2 * (writes // BLOCK)]:
        key = session.session_key if guarded else None
        with store.under_session(key):
            for _ in range(BLOCK):
                began = time.perf_counter()
                store.update(game, ["steps", "updated_at"])
                times[guarded].append(time.perf_counter() - began)
    return statistics.median(times[False]) * 1e6, statistics.median(times[True]) * 1e6


if __name__ == "__main__":
    main()
