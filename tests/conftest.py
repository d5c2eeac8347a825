"""Shared fixtures for the whole suite.

Services
    ``require_service(name, check)`` (a plain function, also the fixture of the
    same name) runs ``check()``; if it raises or returns False the test is
    skipped, or FAILS when the environment has ``CI=true``. ``redis_url`` gives
    ``REDIS_URL`` after checking the server answers.

Servers
    ``test_process_env`` (session): an environment for child processes
    (daphne, a Celery worker) that points them at the pytest-django test
    database and the same Redis; ``daphne_server`` (function, with
    ``transactional_db``): base URL of a real daphne process serving
    ``config.asgi:application`` on a free port of 127.0.0.1.

Browser
    Tests using Playwright run after all others (see
    ``pytest_collection_modifyitems``). pytest-playwright's ``browser``
    launches /usr/bin/chromium headless with the sandbox off;
    ``browser_page`` is a fresh page whose ``base_url`` is the daphne server
    (so ``page.goto("/")`` works) and whose browser asks for Simplified
    Chinese.

Games
    ``earlier(minutes)`` (a plain function): a block run with the site's clock
    that far back, so the services store a turn begun long ago.
    ``held_computer_turns``: the computer's turns are recorded, as
    (game_id, version) in order, instead of played: ``ai_worker``'s receiver
    of ``games.signals.computer_turn_due`` is disconnected for the test.

People
    ``password``, ``make_user``, ``user`` (a named account), ``guest`` (a
    guest account), ``client_logged_in`` (Django test client signed in as
    ``user``), ``guest_client`` (signed in as ``guest``).
"""

from __future__ import annotations

import functools
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import quote

import pytest
import redis

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
PASSWORD = "Shuang-lu-2026!"
SERVER_START_SECONDS = 30.0
# No background watchdog sweeps in the test process (ai_worker.dispatch):
# a sweep must not race a test's own games. Child servers inherit it too.
os.environ.setdefault("AI_WATCHDOG_SECONDS", "0")


# --- services -----------------------------------------------------------------


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def require_service(name: str, check: Callable[[], object]) -> None:
    """Skip the test when ``check()`` raises or returns False; under CI=true fail.

    >>> require_service("always", lambda: True)
    """
    try:
        ok = check()
    except Exception as exc:  # noqa: BLE001 - any failure means unreachable
        reason = f"{name} is unreachable: {exc!r}"
    else:
        if ok is not False:
            return
        reason = f"{name} is unreachable"
    if in_ci():
        pytest.fail(f"{reason} (CI=true: services must be there)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(name="require_service")
def require_service_fixture() -> Callable[[str, Callable[[], object]], None]:
    """The ``require_service(name, check)`` function, for tests that prefer fixtures."""
    return require_service


def _redis_ping(url: str) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        return bool(client.ping())
    finally:
        client.close()


@pytest.fixture(scope="session")
def redis_url() -> str:
    """``REDIS_URL`` from the environment, checked to answer PING.

    Skips (fails under CI=true) when unset or unreachable.
    """
    url = os.environ.get("REDIS_URL", "")
    require_service("Redis (REDIS_URL)", lambda: bool(url) and _redis_ping(url))
    return url


# --- child processes on the test database ---------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def database_url_for(db: dict[str, Any]) -> str:
    """A DATABASE_URL that opens the database described by a settings dict."""
    engine = db["ENGINE"]
    if engine in ("django.db.backends.sqlite3", "runtime.sqlite"):
        return f"sqlite:///{Path(str(db['NAME'])).resolve()}"
    if engine == "django.db.backends.postgresql":
        user = quote(db.get("USER") or "", safe="")
        password = quote(db.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return f"postgres://{auth}{db.get('HOST') or 'localhost'}{port}/{db['NAME']}"
    raise NotImplementedError(f"no URL for database engine {engine}")


@pytest.fixture(scope="session")
def test_process_env(django_db_setup: None) -> dict[str, str]:
    """Environment for a child process that must see the test database.

    After pytest-django created the test database, ``settings.DATABASES``
    names it, so a DATABASE_URL built from it points there. REDIS_URL (and so
    the Celery broker and channel layer) is passed through unchanged. Use it
    for daphne and for a Celery worker process alike.
    """
    from django.conf import settings

    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url_for(dict(settings.DATABASES["default"])),
        DEBUG="true",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
        # Browser tests make a guest per page from one address (0: no limit).
        GUESTS_PER_ADDRESS_HOUR="0",
    )
    # A child must not inherit a permission to run the ORM inside event loops.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


@dataclass
class ServerProcess:
    """A child server: its URL, process and log file."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    extra: dict[str, Any] = field(default_factory=dict)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            pytest.fail(f"server at {self.url} exited:\n{self.log()[-4000:]}", pytrace=False)


def wait_for_http(url: str, process: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server process exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answered, even if not with 200
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {seconds} s")


def stop_process(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def start_daphne(env: dict[str, str], log_path: Path, *options: str) -> ServerProcess:
    """Start daphne on a free port with ``env`` (and daphne ``options``, e.g.
    its WebSocket limits); wait until it answers HTTP."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "runtime.serve",  # daphne as the site starts it (on uvloop)
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                *options,
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = ServerProcess(url=url, process=process, log_path=log_path)
    try:
        wait_for_http(f"{url}/static/css/site.css", process, SERVER_START_SECONDS)
    except RuntimeError as exc:
        stop_process(process)
        pytest.fail(f"daphne did not start: {exc}\n{server.log()[-4000:]}", pytrace=False)
    return server


@pytest.fixture(scope="session")
def daphne_process(
    test_process_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One daphne process for the session (like pytest-django's live_server).

    Prefer ``daphne_server``, which also gives the test ``transactional_db`` so
    rows the test writes are committed where daphne can read them. With
    REDIS_URL set, daphne uses the Redis channel layer and Celery broker, so
    a separate Celery worker started with ``test_process_env`` serves it.
    """
    log_path = tmp_path_factory.mktemp("daphne") / "daphne.log"
    server = start_daphne(test_process_env, log_path)
    yield server
    stop_process(server.process)


# Where each server's log stood when the test began, by fixture name (a
# session's daphne logs every test; a Celery worker's log is the test's own).
LOG_STARTS = pytest.StashKey[dict[str, int]]()
SERVER_FIXTURES = ("daphne_process", "celery_worker_process")
LOG_LINES_SHOWN = 200


@pytest.fixture
def daphne_server(
    request: pytest.FixtureRequest, transactional_db: None, daphne_process: ServerProcess
) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``, no trailing slash) of a real daphne
    serving the site, WebSockets included, on the test database.

    The test's own service calls commit here, so in zero set-up the jobs they
    queue (the tutor's ranking of a game the test starts, a computer turn)
    run on this process's pools: they are waited for before the database
    closes, which they would otherwise meet ("Database access not allowed")."""
    from ai_worker import dispatch

    daphne_process.check_alive()
    size = daphne_process.log_path.stat().st_size if daphne_process.log_path.exists() else 0
    request.node.stash[LOG_STARTS] = {"daphne_process": size}
    yield daphne_process.url
    assert dispatch.wait_idle(60), "the test's in-process jobs did not finish in 60 s"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test's report carries what its servers logged meanwhile (the
    static files' lines left out): a computer turn that failed in daphne's
    in-process pool, say, shows only there."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when != "call" or not report.failed:
        return
    starts = item.stash.get(LOG_STARTS, {})
    funcargs = getattr(item, "funcargs", {})
    for name in SERVER_FIXTURES:
        server = funcargs.get(name)
        path = getattr(server, "log_path", None)
        if path is None or not path.exists():
            continue
        with open(path, "rb") as log:
            log.seek(starts.get(name, 0))
            text = log.read().decode(errors="replace")
        lines = [line for line in text.splitlines() if '"GET /static/' not in line]
        report.sections.append((f"{name} log during the test", "\n".join(lines[-LOG_LINES_SHOWN:])))


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    """The cache (Redis when REDIS_URL is set, shared with the test server)
    empty at the start and end of the test: the analysis board's burst
    counter lives there."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _searches_here(settings: Any) -> None:
    """The suite's own process keeps the engine's searches on the job's thread
    (``ENGINE_PROCESSES`` 0): its tests put their own pieces in the engine's
    place, which a child process would not see. The servers it starts keep
    the site's default (child processes), and tests/runtime/test_inprocess.py
    turns them on here."""
    settings.ENGINE_PROCESSES = 0


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Every test starts with no throttle counted (accounts.throttling): the
    suite makes many guests and logins from 127.0.0.1."""
    from accounts import throttling

    throttling.forget_all()


@pytest.fixture(autouse=True)
def _close_pool_connections() -> Iterator[None]:
    """Close the game sockets' and the in-process tasks' pool connections after
    each test, so nothing holds the test database when pytest-django drops it
    (runtime.dbthreads, ai_worker.dispatch and runtime.inprocess)."""
    yield
    from ai_worker import dispatch
    from runtime import dbthreads

    dbthreads.close()
    dispatch.close()


@contextmanager
def _held(signal: Any, uid: str, receiver: Any, held: list[Any], *names: str) -> Iterator[None]:
    """``signal``'s ``receiver`` (connected as ``uid``) replaced by a recorder
    of the named arguments of each send, for the block."""

    def hold(sender: Any, **kwargs: Any) -> None:
        values = tuple(kwargs[name] for name in names)
        held.append(values if len(values) > 1 else values[0])

    signal.disconnect(dispatch_uid=uid)
    signal.connect(hold, dispatch_uid=f"tests.held.{uid}")
    try:
        yield
    finally:
        signal.disconnect(dispatch_uid=f"tests.held.{uid}")
        signal.connect(receiver, dispatch_uid=uid)


def start_fields(client: Any, **fields: str) -> dict[str, str]:
    """A start form's fields as a page sends them: with the commitment it showed
    (docs/dice.md, "Before the game"), asked of the server as a page's script does."""
    shown = client.get("/games/next-commitment").json()["commitment"]
    return {"commitment": shown, **fields}


def dark_turn(game_id: int, version: int) -> tuple[Any, Any] | None:
    """DARK's position (from its side) and dice when it is to play its
    checkers at ``version``, as its task reads them; None otherwise."""
    from games import services

    due = services.computer_due(game_id, version)
    return None if due is None or due.task != "play" else (due.position, due.dice)


@contextmanager
def earlier(minutes: float) -> Iterator[None]:
    """The site's clock (``django.utils.timezone.now``) ``minutes`` back for
    the block: what the services store in it is stored as of then."""
    from django.utils import timezone

    then = timezone.now() - timedelta(minutes=minutes)
    with mock.patch.object(timezone, "now", lambda: then):
        yield


@pytest.fixture
def held_computer_turns() -> Iterator[list[tuple[int, int]]]:
    """Every (game_id, version) announced for the computer, instead of played."""
    from ai_worker.receivers import queue_computer_turn
    from games.signals import computer_turn_due

    held: list[tuple[int, int]] = []
    uid = "ai_worker.play_computer_turn"
    with _held(computer_turn_due, uid, queue_computer_turn, held, "game_id", "version"):
        yield held


@pytest.fixture
def held_reviews() -> Iterator[list[int]]:
    """Every game_id whose finish would queue its review, held instead: for a
    test that runs the review itself (on its own thread, at its own depth)."""
    from games.signals import game_finished
    from learning.receivers import queue_review

    held: list[int] = []
    with _held(game_finished, "learning.queue_review", queue_review, held, "game_id"):
        yield held


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove SQLite's WAL side files of this run's test database.

    pytest-django deletes the database file itself; the ``-wal``/``-shm``
    files a killed child process leaves would pile up in var/.
    """
    from django.conf import settings

    test_name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if settings.DATABASES["default"]["ENGINE"] != "runtime.sqlite" or not test_name:
        return
    for suffix in ("-wal", "-shm", "-journal"):
        Path(f"{test_name}{suffix}").unlink(missing_ok=True)


# --- browser ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments, pointed at the system Chromium."""
    require_service("Chromium", lambda: Path(CHROMIUM).exists())
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
        "headless": True,
    }


PLAYWRIGHT_FIXTURES = frozenset({"playwright", "browser", "context", "page", "browser_page"})


# Fixtures that by nature need Redis; a test using one must say so with the
# ``redis`` or ``worker`` marker, which the zero set-up pass of .ci/run
# deselects (-m "not redis and not worker") instead of letting it skip.
REDIS_FIXTURES = frozenset({"redis_url", "celery_worker_process"})
REDIS_MARKERS = ("redis", "worker")


def unmarked_redis_tests(items: list[pytest.Item]) -> list[str]:
    """Ids of tests that use a Redis fixture without a ``redis``/``worker`` marker."""
    return [
        item.nodeid
        for item in items
        if REDIS_FIXTURES & set(getattr(item, "fixturenames", ()))
        and not any(item.get_closest_marker(name) for name in REDIS_MARKERS)
    ]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Check the Redis markers, then run the Playwright tests last.

    Playwright's sync API leaves an event loop running on the main thread
    until the session ends; any async test (pytest-asyncio, Channels'
    WebsocketCommunicator) after it fails with "Runner.run() cannot be called
    from a running event loop". The order is otherwise kept.
    """
    unmarked = unmarked_redis_tests(items)
    if unmarked:
        raise pytest.UsageError(
            "tests that need Redis must be marked redis or worker: " + ", ".join(unmarked)
        )
    uses = [bool(PLAYWRIGHT_FIXTURES & set(getattr(i, "fixturenames", ()))) for i in items]
    items[:] = [i for i, u in zip(items, uses, strict=True) if not u] + [
        i for i, u in zip(items, uses, strict=True) if u
    ]


@pytest.fixture(scope="session")
def playwright(playwright: Any) -> Iterator[Any]:
    """pytest-playwright's ``playwright``, made to live with the Django ORM.

    Playwright's sync API keeps an event loop running on the main thread
    from here to the end of the session, and Django then refuses every ORM
    call (fixtures, flushes) as "async". The tests stay single-threaded, so
    DJANGO_ALLOW_ASYNC_UNSAFE is set while Playwright runs.
    """
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield playwright
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def browser_page(browser: Any, daphne_server: str) -> Iterator[Any]:
    """A Playwright page in a fresh context: base_url is the daphne server,
    Accept-Language asks for zh-CN, viewport is a desktop's; 10 s timeouts."""
    context = browser.new_context(
        base_url=daphne_server, locale="zh-CN", viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


# --- people ---------------------------------------------------------------------------


@pytest.fixture
def password() -> str:
    """The password every ``make_user`` account has."""
    return PASSWORD


@functools.cache
def password_hash() -> str:
    """``PASSWORD`` hashed once by the site's own hasher (Argon2, about 0.2 s
    of CPU a hash): every ``make_user`` account is given this hash instead of
    hashing again. Logging in still checks the password against it."""
    from django.contrib.auth.hashers import make_password

    return make_password(PASSWORD)


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """``make_user(username="ann", **fields)`` creates a named account with
    ``PASSWORD``; ``make_user(guest=True)`` creates a guest account."""
    from accounts.guests import create_guest
    from accounts.models import User

    def make(username: str = "ann", guest: bool = False, **fields: Any) -> User:
        if guest:
            return create_guest()
        fields.setdefault("email", f"{username}@example.com")
        user = User.objects.create_user(username=username, **fields)  # no hash made
        user.password = password_hash()
        user.save(update_fields=["password"])
        return user

    return make


@pytest.fixture
def user(make_user: Callable[..., Any]) -> Any:
    """A named account ``ann`` (ann@example.com) with password ``password``."""
    return make_user("ann")


@pytest.fixture
def guest(make_user: Callable[..., Any]) -> Any:
    """A guest account (``is_guest=True``, unusable password)."""
    return make_user(guest=True)


@pytest.fixture
def client_logged_in(client: Any, user: Any) -> Any:
    """Django's test client, signed in as ``user``."""
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def guest_client(client: Any, guest: Any) -> Any:
    """Django's test client, signed in as ``guest``."""
    client.force_login(guest, backend="django.contrib.auth.backends.ModelBackend")
    return client


# --- a Redis of a test's own ------------------------------------------------------


class PrivateRedis:
    """A redis-server of a test's own, on its own port, keeping nothing on disk."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("private Redis did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def kill(self) -> None:
        """SIGKILL: no save, the data gone (it keeps none on disk either)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def subscribers(self, channel: str) -> int:
        return int(dict(redis.Redis.from_url(self.url).pubsub_numsub(channel))[channel.encode()])


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    require_service("redis-server", lambda: shutil.which("redis-server") is not None)
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()
