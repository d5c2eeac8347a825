"""Issue 13, item 4: a bounded pool of PostgreSQL connections per process.

A real daphne with DB_POOL_SIZE=4 gets 200 requests at once (100 page
states over HTTP, 100 game sockets opening); PostgreSQL never sees more than
its 4 connections, and every request is answered: callers wait their turn.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.conftest import ServerProcess, start_daphne, stop_process
from tests.faults.rawsocket import open_raw, read_frame

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

POOL = 4
APP_NAME = "shuanglu-pool-test"


@pytest.fixture
def pooled_server(
    transactional_db: None, test_process_env: dict[str, str], tmp_path: Any
) -> Iterator[ServerProcess]:
    if connection.vendor != "postgresql":
        pytest.skip("the pool is PostgreSQL's")
    env = {**test_process_env, "DB_POOL_SIZE": str(POOL), "DB_POOL_TIMEOUT": "120"}
    env["PGAPPNAME"] = APP_NAME  # libpq names the server's connections
    server = start_daphne(env, tmp_path / "daphne.log")
    yield server
    stop_process(server.process)


def server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APP_NAME]
        )
        return int(cursor.fetchone()[0])


def test_two_hundred_requests_at_once_stay_within_the_pool(
    pooled_server: ServerProcess, make_game: Any, user: Any
) -> None:
    game = make_game(dice=[5, 2])
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    url = pooled_server.url

    def page_state(_: int) -> int:
        request = urllib.request.Request(f"{url}/games/{game.pk}/state", headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=150) as response:
            return int(json.loads(response.read())["version"])

    def socket_state(_: int) -> int:
        sock = open_raw(url, f"/ws/games/{game.pk}/", cookie)
        sock.settimeout(150)
        try:
            return int(json.loads(read_frame(sock)[1])["version"])
        finally:
            sock.close()

    seen: list[int] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.append(server_connections())
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(max_workers=200) as pool:
            pages = [pool.submit(page_state, i) for i in range(100)]
            sockets = [pool.submit(socket_state, i) for i in range(100)]
            versions = [f.result() for f in pages + sockets]
    finally:
        done.set()
        watcher.join()
    print(f"200 requests answered; the server held at most {max(seen)} connections")
    assert versions == [1] * 200
    assert max(seen) >= 1  # the watch did see the server's connections
    assert max(seen) <= POOL
    pooled_server.check_alive()
