"""The libraries' internals the site touches are the ones listed
(runtime/internals.py), each touched in its one module of runtime/ and
nowhere else, at a version it was checked with; and they are still there,
as checked: when a library changes them, this fails rather than the site
quietly losing what they gave it. (The ORM's and the broker's have test
modules of their own: test_orm.py, test_broker.py.)"""

from __future__ import annotations

import ast
import asyncio
import inspect
import re
import socket
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

from channels.layers import InMemoryChannelLayer as ChannelsLayer
from daphne.ws_protocol import WebSocketProtocol
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper
from packaging.version import Version
from twisted.internet import abstract

from runtime import pgpool, serve
from runtime.internals import INTERNALS
from runtime.layers import InMemoryChannelLayer

ROOT = Path(__file__).resolve().parents[2]
SITE = ("accounts", "games", "ai_worker", "learning", "config", "runtime")
LIST = ROOT / "runtime" / "internals.py"


def site_modules() -> list[Path]:
    return sorted(p for package in SITE for p in (ROOT / package).rglob("*.py"))


def where_written(name: str, modules: list[Path] | None = None) -> set[str]:
    """The modules (the site's but the list, unless given) whose source has
    ``name`` as a word, relative to the repository when in it."""
    word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
    return {
        str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else p.name
        for p in (site_modules() if modules is None else modules)
        if p != LIST and word.search(p.read_text())
    }


def test_each_listed_internal_is_written_in_its_runtime_module_and_nowhere_else() -> None:
    for internal in INTERNALS:
        assert internal.module.startswith("runtime/"), internal
        for name in internal.names:
            assert where_written(name) == {internal.module}, (internal.part, name)


def test_each_library_with_a_listed_internal_is_a_version_it_was_checked_with() -> None:
    for internal in INTERNALS:
        oldest, newest = (Version(v) for v in internal.checked)
        installed = Version(version(internal.library))
        assert oldest <= installed <= newest, (
            f"{internal.library} {installed} is not among the versions {internal.part} was"
            f" checked with ({oldest}-{newest}): check it again, then the range in"
            " runtime/internals.py"
        )


def test_the_list_sees_a_listed_internal_written_outside_runtime(tmp_path: Path) -> None:
    stray = tmp_path / "stray.py"
    stray.write_text("from django.db.models.base import ModelState  # noqa\n")
    assert where_written("ModelState", [*site_modules(), stray]) == {"runtime/orm.py", "stray.py"}


# Named with an underscore, documented as public: Django's Model _meta API
# (https://docs.djangoproject.com/en/5.2/ref/models/meta/).
PUBLIC_UNDERSCORED = frozenset({"_meta"})


def private_reaches(source: str) -> list[str]:
    """The private names (one leading underscore) of other packages than the
    site's and the standard library's that ``source`` imports or reads from
    what it imported: ``from lib import _x``, ``import lib._x``,
    ``lib_name._x`` where ``lib_name`` was imported from ``lib``."""
    tree = ast.parse(source)
    libraries: set[str] = set()
    found: list[str] = []

    def foreign(module: str) -> bool:
        top = module.split(".")[0]
        return top not in SITE and top not in sys.stdlib_module_names and top != "__future__"

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if foreign(alias.name):
                    libraries.add(alias.asname or alias.name.split(".")[0])
                    found += [alias.name for part in alias.name.split(".") if private(part)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if foreign(node.module):
                found += [node.module for part in node.module.split(".") if private(part)]
                for alias in node.names:
                    libraries.add(alias.asname or alias.name)
                    if private(alias.name):
                        found.append(f"{node.module}.{alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in libraries:
                found.append(f"{base.id}...{node.attr}")
    return found


def test_no_module_outside_runtime_reaches_for_a_librarys_private_name() -> None:
    reaching = {
        str(p.relative_to(ROOT)): names
        for p in site_modules()
        if p.parts[len(ROOT.parts)] != "runtime" and (names := private_reaches(p.read_text()))
    }
    assert reaching == {}


def test_the_private_name_check_sees_what_it_looks_for() -> None:
    assert private_reaches("from psycopg_pool.base import _x") == ["psycopg_pool.base._x"]
    assert private_reaches("import celery._state") == ["celery._state"]
    assert private_reaches("from psycopg_pool import base\nbase.AttemptWithBackoff._j") == [
        "base..._j"
    ]
    assert private_reaches("import os\nos._exit(0)") == []  # the standard library's
    assert private_reaches("from games import x\nx._y") == []  # the site's own
    assert (
        private_reaches("from django.contrib.sessions.models import Session\nSession._meta") == []
    )


def test_psycopg_pool_grows_its_reconnection_delay_by_the_factor_runtime_sets() -> None:
    from psycopg_pool import pool
    from psycopg_pool.base import AttemptWithBackoff

    assert "AttemptWithBackoff(" in inspect.getsource(pool)  # the pool's reconnection
    assert "self.delay *= self.DELAY_BACKOFF" in inspect.getsource(AttemptWithBackoff)
    before = AttemptWithBackoff.DELAY_BACKOFF
    try:
        pgpool.retry_every_second()
        attempt, now, delays = AttemptWithBackoff(timeout=60.0), time.monotonic(), []
        for second in range(8):
            attempt.update_delay(now + second)
            delays.append(attempt.delay)
        assert all(0.85 <= delay <= 1.15 for delay in delays), delays
    finally:
        AttemptWithBackoff.DELAY_BACKOFF = before


def test_twisted_keeps_a_transports_unsent_bytes_where_unsent_bytes_reads_them() -> None:
    assert serve.TWISTED_BUFFER == ("dataBuffer", "offset", "_tempDataLen")
    for name in ("dataBuffer", "offset"):
        assert hasattr(abstract.FileDescriptor, name)
    source = inspect.getsource(abstract.FileDescriptor)
    assert "self._tempDataLen = 0" in source
    assert "len(self.dataBuffer) - self.offset" in source


class Transport:
    """A Twisted transport's buffer as FileDescriptor keeps it, on a real socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.dataBuffer, self.offset, self._tempDataLen = b"x" * 700, 200, 50

    def fileno(self) -> int:
        return self.sock.fileno()


def test_unsent_bytes_counts_twisteds_buffer_and_the_kernels_queue() -> None:
    here, there = socket.socketpair()
    try:
        transport = Transport(here)
        assert serve.unsent_bytes(transport) == 550
        here.send(b"y" * 1000)  # the peer reads none of it
        assert serve.unsent_bytes(transport) >= 550
    finally:
        here.close()
        there.close()


def test_daphnes_command_line_loads_the_application_where_the_launcher_settles() -> None:
    from daphne.cli import CommandLineInterface

    assert list(inspect.signature(CommandLineInterface.load_asgi_app).parameters) == [
        "self",
        "asgi_app_path",
    ]
    assert "application = self.load_asgi_app(args.application)" in inspect.getsource(
        CommandLineInterface.run
    )


def test_daphnes_send_is_the_one_bound_unread_wraps() -> None:
    params = list(inspect.signature(WebSocketProtocol.serverSend).parameters)
    assert params == ["self", "content", "binary"]
    serve.bound_unread()
    serve.bound_unread()  # once per process
    assert getattr(WebSocketProtocol.serverSend, "bounded", False)


def test_channels_in_memory_layer_has_the_parts_runtime_layers_overrides() -> None:
    assert list(inspect.signature(ChannelsLayer._clean_expired).parameters) == ["self"]
    layer = ChannelsLayer()
    assert layer.channels == {} and layer.groups == {}
    assert isinstance(layer.expiry, int | float)


def test_the_in_memory_layer_delivers_to_every_member_but_the_sender() -> None:
    async def main() -> list[Any]:
        layer = InMemoryChannelLayer()
        a, b = await layer.new_channel(), await layer.new_channel()
        for name in (a, b):
            await layer.group_add("g", name)
        await layer.group_send("g", {"type": "x", "n": 1, "sender": a})
        await layer.group_send("g", {"type": "x", "n": 2})
        got_b = [await layer.receive(b), await layer.receive(b)]
        return [await layer.receive(a), *got_b]

    first_a, *for_b = asyncio.run(main())
    assert first_a["n"] == 2  # its own command's state was not queued for it
    assert [m["n"] for m in for_b] == [1, 2]


def test_djangos_sqlite_backend_has_the_transaction_steps_runtime_sqlite_overrides() -> None:
    for name in ("_start_transaction_under_autocommit", "_commit", "_rollback", "_close"):
        assert list(inspect.signature(getattr(SQLiteWrapper, name)).parameters) == ["self"], name
    assert 'f"BEGIN {self.transaction_mode}"' in inspect.getsource(
        SQLiteWrapper._start_transaction_under_autocommit
    )
    assert "execute_wrappers" in inspect.getsource(BaseDatabaseWrapper.__init__)


def test_djangos_connections_close_when_close_at_passes_as_runtime_dbthreads_extends_it() -> None:
    assert "self.close_at = " in inspect.getsource(BaseDatabaseWrapper.connect)
    assert "self.close_at" in inspect.getsource(BaseDatabaseWrapper.close_if_unusable_or_obsolete)
