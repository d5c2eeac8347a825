"""Issue 13, item 5: a database outage is answered in words, and everything
recovers without a restart.

A PostgreSQL of the test's own (initdb in a temporary directory, its own
port) serves a real daphne; it is stopped mid-game and started again.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, free_port, require_service, start_daphne, stop_process
from tests.faults.rawsocket import frame, open_raw, read_frame

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def as_server_user() -> list[str]:
    """PostgreSQL refuses to run as root: then run it as ``postgres``."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


class PrivatePostgres:
    def __init__(self, directory: Path) -> None:
        self.data = directory / "data"
        self.port = free_port()
        self.url = f"postgres://shuanglu@127.0.0.1:{self.port}/outage"
        self.options = f"-p {self.port} -k {directory} -c listen_addresses=127.0.0.1"
        self.log = directory / "postgres.log"

    def pg_ctl(self, *args: str, check: bool = True) -> None:
        command = [
            *as_server_user(),
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            *args,
        ]
        subprocess.run(command, check=check, capture_output=True, timeout=60)

    def create(self) -> None:
        subprocess.run(
            [*as_server_user(), "initdb", "-D", str(self.data), "-U", "shuanglu", "--auth=trust"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        self.start()
        subprocess.run(
            ["createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "shuanglu", "outage"],
            check=True,
            timeout=60,
        )

    def start(self) -> None:
        self.pg_ctl("-o", self.options, "start")

    def stop(self, check: bool = True) -> None:
        self.pg_ctl("-m", "fast", "stop", check=check)


@pytest.fixture
def outage_server(tmp_path: Path) -> Iterator[tuple[Any, PrivatePostgres]]:
    tools = ["initdb", "pg_ctl", *as_server_user()[:1]]  # as root, runuser too
    require_service(" and ".join(tools), lambda: all(shutil.which(tool) for tool in tools))
    directory = Path(tempfile.mkdtemp(prefix="shuanglu-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    database = PrivatePostgres(directory)
    database.create()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DATABASE_URL=database.url, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="true")
    env["DB_POOL_TIMEOUT"] = "5"  # how long a caller waits for a connection that cannot come
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=240,
    )
    server = start_daphne(env, tmp_path / "daphne.log")
    try:
        yield server, database
    finally:
        stop_process(server.process)
        database.stop(check=False)  # the test may have left it stopped
        shutil.rmtree(directory, ignore_errors=True)


def fetch(opener: Any, url: str, data: bytes | None = None) -> tuple[int, str, str]:
    try:
        with opener.open(url, data=data, timeout=60) as response:
            return response.status, response.geturl(), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, url, error.read().decode()


def stale(socket: Any, n: int) -> dict[str, Any]:
    """The answer to a step at a version that cannot be current.

    Game states may come before it: the computer may have won the opening
    roll, and its turn is pushed to the socket whenever it is played.
    """
    command_id = f"s{n}"
    socket.sendall(
        frame(json.dumps({"type": "step", "id": command_id, "version": 999, "from": 13, "to": 8}))
    )
    while True:
        message = json.loads(read_frame(socket)[1])
        if message.get("id") == command_id:
            return message
        assert message["type"] == "state", message


def opened_during_the_outage(url: str, path: str, cookie: str) -> tuple[dict[str, Any], int]:
    """A new socket while the database is down: its one message and its close code.

    The consumer accepts, then reads the session, the user and the game;
    the socket must still get the outage's words, not a bare failed handshake.
    """
    socket = open_raw(url, path, cookie)
    socket.settimeout(30)
    opcode, payload = read_frame(socket)
    assert opcode == 0x1, (opcode, payload)  # a text frame first
    closing, code = read_frame(socket)
    socket.close()
    assert closing == 0x8
    return json.loads(payload), int.from_bytes(code[:2], "big")


def test_an_outage_is_answered_in_words_and_recovers_without_a_restart(
    outage_server: tuple[Any, PrivatePostgres],
) -> None:
    server, database = outage_server
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    _, _, lobby = fetch(opener, f"{server.url}/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', lobby)
    assert token is not None
    shown = re.search(r'name="commitment"[^>]* value="([0-9a-f]{64})"', lobby)
    assert shown is not None  # the commitment the lobby showed goes with the start
    form = f"tier=beginner&commitment={shown.group(1)}&csrfmiddlewaretoken={token.group(1)}"
    form = form.encode()
    status, page_url, _ = fetch(opener, f"{server.url}/games/new/", form)
    game = re.search(r"/games/(\d+)/$", page_url)
    assert status == 200 and game is not None, page_url
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    socket = open_raw(server.url, f"/ws/games/{game.group(1)}/", cookie)
    socket.settimeout(30)
    assert json.loads(read_frame(socket)[1])["type"] == "state"
    assert stale(socket, 1)["code"] == "stale"  # then its state, which the next one passes by

    database.stop()
    error = stale(socket, 2)  # answered under its own id
    assert error["code"] == "unavailable"
    assert "不会丢失" in error["message"]  # "your move is not lost", in the page's language
    status, _, body = fetch(opener, page_url)
    assert status == 503
    assert "暂时无法使用" in body
    opened = opened_during_the_outage(server.url, f"/ws/games/{game.group(1)}/", cookie)
    assert opened[0]["code"] == "unavailable" and "不会丢失" in opened[0]["message"]
    assert opened[1] == 4503  # try again later: the page reconnects with its backoff

    database.start()
    assert stale(socket, 3)["code"] == "stale"  # the same socket, served again
    status, _, body = fetch(opener, page_url)
    assert status == 200
    socket.close()
    server.check_alive()
