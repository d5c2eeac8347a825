"""Fixtures for the computer player's tests.

``dark_game(tier=..., position=None, dice=(5, 2), kind=...)`` starts a game
through the services with the computer on turn, its dice rolled as the turn
passed (or, in a money game with ``dice=None``, its cube decision first);
its turn is announced on commit, as any turn's (``held_computer_turns``
holds it).
``celery_worker_process`` starts a real
``celery -A config worker -Q moves,hints,analysis --pool prefork -c 1`` on the test
database and REDIS_URL (reusable by any test module: request the fixture;
it needs ``transactional_db`` so the worker sees committed rows). Queues and
this app's attempt counters are emptied first, so a task left over from an
earlier run cannot act on a game that reuses its id.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games import services
from games.engine import Position, Side
from games.models import Game, GameKind

ROOT = Path(__file__).resolve().parents[2]
WORKER_START_SECONDS = 60.0
QUEUES = ("moves", "hints", "analysis", "watchdog")  # taken in this order


@pytest.fixture(autouse=True)
def _fresh_attempt_counters() -> Iterator[None]:
    clear_ai_cache_keys()
    yield


def clear_ai_cache_keys() -> None:
    """Forget attempt and re-queue counters (ids repeat across test databases)."""
    from django.conf import settings
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()  # the in-memory cache of this process only
        return
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        for key in client.scan_iter(match="*ai_worker:turn-*"):
            client.delete(key)
    finally:
        client.close()


@pytest.fixture
def dark_game(user: Any) -> Callable[..., Any]:
    """``dark_game(tier="casual", position=None, dice=(5, 2), kind="single",
    jacoby=True)``: a game started with DARK (the computer) on turn,
    ``position`` from LIGHT's side (the start when None)."""
    from games import services
    from games.models import GameKind

    def make(
        tier: str = "casual",
        position: Position | None = None,
        dice: Sequence[int] | None = (5, 2),
        kind: str = GameKind.SINGLE,
        jacoby: bool = True,
    ) -> Game:
        start = position or Position.start()
        return services.start_game_from(
            user, tier, start, Side.DARK, dice, kind=kind, jacoby=jacoby
        )

    return make


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out after {seconds} s waiting for {what}", pytrace=False)


@dataclass
class WorkerProcess:
    """A running Celery worker: its main process and log."""

    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def children(self) -> list[int]:
        """Pids of the prefork pool's child processes (the ones that run tasks)."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def kill_child(self) -> int:
        """SIGKILL the pool child (as the OOM killer would); returns its pid."""
        [child] = self.children()
        os.kill(child, signal.SIGKILL)
        return child

    def wait_for_new_child(self, old: int, seconds: float = 30.0) -> None:
        wait_until(
            lambda: bool(self.children()) and old not in self.children(),
            seconds,
            "the worker to replace its killed child",
        )

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            pytest.fail(f"celery worker exited:\n{self.log()[-4000:]}", pytrace=False)


def purge_queues() -> None:
    """Drop waiting and unacknowledged messages of this app's queues."""
    from config.celery import app

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        for queue in QUEUES:
            try:
                channel.queue_purge(queue)
            except Exception:  # noqa: BLE001 - a queue that never existed
                pass
        client = getattr(channel, "client", None)
        if client is not None:  # Redis transport: unacked messages live here
            client.delete("unacked", "unacked_index", "unacked_mutex")


def spawn_worker(env: dict[str, str], directory: Path) -> WorkerProcess:
    """``celery -A config worker -Q moves,hints,analysis,watchdog --pool prefork -c 1``
    with ``env`` (its REDIS_URL the broker), logging into ``directory``; once ready."""
    log_path = directory / "celery-worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                ",".join(QUEUES),
                "--pool",
                "prefork",
                "-c",
                "1",
                "-n",
                f"ai-test-{os.getpid()}@%h",
                "-l",
                "info",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    worker = WorkerProcess(process=process, log_path=log_path)
    try:
        wait_until(
            lambda: " ready." in worker.log() or process.poll() is not None,
            WORKER_START_SECONDS,
            "the Celery worker to start",
        )
        worker.check_alive()
        wait_until(lambda: bool(worker.children()), 10, "the worker's pool child")
    except BaseException:
        stop_worker(process)
        raise
    return worker


def stop_worker(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture
def celery_worker_process(
    transactional_db: None,
    redis_url: str,
    test_process_env: dict[str, str],
    tmp_path: Path,
) -> Iterator[WorkerProcess]:
    """A real Celery worker (prefork, one child) on the test database and Redis."""
    purge_queues()
    clear_ai_cache_keys()
    worker = spawn_worker({**test_process_env, "REDIS_URL": redis_url}, tmp_path)
    process = worker.process
    try:
        yield worker
    finally:
        stop_worker(process)
        purge_queues()


def doubled(user: Any, position: Position | None = None, tier: str = "expert") -> Game:
    """A money game where the person (LIGHT, deciding at its turn's start) has
    doubled: the computer is to take or pass."""
    start = position or Position.start()
    game = services.start_game_from(user, tier, start, Side.LIGHT, kind=GameKind.MONEY)
    return services.double(game.pk, user, game.version)
