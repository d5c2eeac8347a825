"""Issue 13, item 3, on a real daphne: a client that sends but never reads is
dropped with the server's memory bounded, a command flood is closed, and a
frame over daphne's limit is refused before it is buffered."""

from __future__ import annotations

import json
import struct
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import ServerProcess, start_daphne, stop_process
from tests.faults.rawsocket import frame, open_raw, read_frame, rss_kib

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

# The production command line's limits (site/Procfile, site/systemd, ./dev).
DAPHNE_LIMITS = ("--websocket-max-message-size", "16384", "--websocket-max-frame-size", "16384")
UNSENT_BOUND = 64 * 1024


def cookie_for(user: Any) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def stale_step(i: int) -> bytes:
    return frame(json.dumps({"type": "step", "id": f"f{i}", "version": 999, "from": 13, "to": 8}))


def warm_up(server: ServerProcess, path: str, cookie: str, commands: int = 500) -> int:
    """The same commands from a client that reads every reply; the bytes of
    one command's replies."""
    reader = open_raw(server.url, path, cookie)
    # Generous: CI saw one 10 s stall among these 500 round trips on SQLite;
    # the bound checked below is on memory, not on speed.
    reader.settimeout(30)
    read_frame(reader)
    size = 0
    for i in range(commands):
        reader.sendall(stale_step(i))
        size = len(read_frame(reader)[1]) + len(read_frame(reader)[1])  # error, state
    reader.close()
    return size


def serve(env: dict[str, str], tmp_path: Any, **extra: str) -> ServerProcess:
    return start_daphne({**env, **extra}, tmp_path / "daphne.log", *DAPHNE_LIMITS)


@pytest.fixture
def game(transactional_db: None, make_game: Any) -> Any:
    return make_game(dice=[5, 2])


@pytest.fixture
def unlimited_rate_server(
    test_process_env: dict[str, str], tmp_path: Any
) -> Iterator[ServerProcess]:
    """A rate limit above the flooder's pace, so only the unread-replies
    bound can stop it."""
    server = serve(
        test_process_env,
        tmp_path,
        # Production's DEBUG: with it on, Django keeps every query in memory.
        DEBUG="false",
        SECRET_KEY=settings.SECRET_KEY,  # the sessions the test signs
        SECURE_SSL_REDIRECT="false",
        SOCKET_MAX_UNSENT_BYTES=str(UNSENT_BOUND),
        SOCKET_COMMAND_BURST="200",
        SOCKET_COMMANDS_PER_SECOND="200",
    )
    yield server
    stop_process(server.process)


@pytest.fixture
def default_server(test_process_env: dict[str, str], tmp_path: Any) -> Iterator[ServerProcess]:
    server = serve(test_process_env, tmp_path)
    yield server
    stop_process(server.process)


def test_a_client_that_never_reads_is_dropped_with_memory_bounded(
    unlimited_rate_server: ServerProcess, game: Any, user: Any
) -> None:
    server = unlimited_rate_server
    path = f"/ws/games/{game.pk}/"
    cookie = cookie_for(user)
    reply_bytes = warm_up(server, path, cookie)  # caches, pool threads, connections
    sock = open_raw(server.url, path, cookie, receive_buffer=4096)
    before = rss_kib(server.process.pid)
    sent, dropped, deadline = 0, False, time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            sock.sendall(stale_step(sent))
            sent += 1
            # Slower than the server answers (so its inbox stays empty), far
            # faster than the 4 KiB the client takes: the replies pile up.
            time.sleep(0.01)
    except (BrokenPipeError, ConnectionResetError):
        dropped = True
    grown = rss_kib(server.process.pid) - before
    sock.close()
    produced = sent * reply_bytes // 1024
    print(f"{sent} commands unread, {produced} KiB of replies; daphne grew {grown} KiB")
    assert dropped, f"still connected after {sent} commands"
    assert "bytes of replies unread" in server.log()
    # Dropped once about the bound was unread (plus what the client's own
    # 4 KiB buffer took), not megabytes later; the process did not grow by it.
    assert produced * 1024 < 4 * UNSENT_BOUND
    assert grown < 2 * 1024
    server.check_alive()


def test_a_command_flood_that_never_reads_is_closed_as_too_fast(
    default_server: ServerProcess, game: Any, user: Any
) -> None:
    sock = open_raw(default_server.url, f"/ws/games/{game.pk}/", cookie_for(user))
    for i in range(400):
        sock.sendall(stale_step(i))
    codes = []
    while True:  # now read what came: a few answers, one slow-down, the close
        opcode, payload = read_frame(sock)
        if opcode == 0x8:
            (close_code,) = struct.unpack("!H", payload[:2])
            break
        codes.append(json.loads(payload).get("code"))
    sock.close()
    assert close_code == 4429
    assert 1 <= codes.count("slow_down") <= 5  # once per burst refused, not per frame
    assert codes.count("stale") < 40  # the burst, and what refilled meanwhile


def test_a_frame_over_daphnes_limit_is_refused_before_it_is_buffered(
    default_server: ServerProcess, game: Any, user: Any
) -> None:
    cookie = cookie_for(user)
    path = f"/ws/games/{game.pk}/"
    medium = open_raw(default_server.url, path, cookie)
    read_frame(medium)  # the state
    medium.sendall(frame("x" * 10_000))  # under daphne's limit, over the site's
    error = json.loads(read_frame(medium)[1])
    assert error["code"] == "too_large"
    medium.close()

    huge = open_raw(default_server.url, path, cookie)
    read_frame(huge)
    before = rss_kib(default_server.process.pid)
    try:  # daphne's old default limit would have taken and buffered it all
        huge.sendall(frame("x" * (900 * 1024)))
    except OSError:
        pass  # closed while we were still sending
    answers: list[Any] = []
    try:
        while True:
            opcode, payload = read_frame(huge)
            answers.append((opcode, payload[:2] if opcode == 0x8 else json.loads(payload)))
            if opcode == 0x8:
                break
    except OSError:
        answers.append("reset")
    huge.close()
    # Refused on the frame's header ("message too big"), never handed to the site.
    assert answers in ([(0x8, struct.pack("!H", 1009))], ["reset"]), answers
    assert rss_kib(default_server.process.pid) - before < 900
    default_server.check_alive()
