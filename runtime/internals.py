"""The libraries' internals the site touches: the one list.

Each entry is a part of a library below its public face (a private name, an
undocumented method or attribute, a storage layout) that one module of
``runtime/`` reads, overrides or builds on, with the versions it was checked
with. tests/runtime/test_private_names.py reads this list: every name an
entry is written with appears in its module and in no other module of the
site, the installed version is one checked, and the entry's own test there
(or in the test module it names) fails when the library changes the part.
Anywhere else the site uses public APIs only; a new internal is added here
first.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Internal:
    library: str  # its distribution's name (importlib.metadata)
    checked: tuple[str, str]  # the oldest and the newest version it was checked with
    part: str  # what the site touches
    names: tuple[str, ...]  # the names it is written with in the source
    module: str  # the one module of runtime/ that touches it


INTERNALS: tuple[Internal, ...] = (
    Internal(
        "psycopg-pool",
        ("3.3.3", "3.3.3"),
        "AttemptWithBackoff.DELAY_BACKOFF, the growth of the reconnection delay",
        ("AttemptWithBackoff", "DELAY_BACKOFF"),
        "runtime/pgpool.py",
    ),
    Internal(
        "kombu",
        ("5.7.0", "5.7.0"),
        "the Redis transport's lists (one a queue, LPUSH in, BRPOP out) and each"
        " message's envelope (headers.task, body: base64 of Celery's protocol 2)",
        ("lrange", "llen"),
        "runtime/broker.py",
    ),
    Internal(
        "Django",
        ("5.2.20", "5.2.20"),
        "the SQL compiler: query.get_compiler, as_sql, select, get_converters",
        ("get_compiler", "as_sql", "get_converters"),
        "runtime/orm.py",
    ),
    Internal(
        "Django",
        ("5.2.20", "5.2.20"),
        "django.db.models.base.ModelState, an instance's state (adding, db, fields_cache)",
        ("ModelState",),
        "runtime/orm.py",
    ),
    Internal(
        "Django",
        ("5.2.20", "5.2.20"),
        "the SQLite backend's transaction steps and its execute_wrappers list",
        (
            "_start_transaction_under_autocommit",
            "_commit",
            "_rollback",
            "_close",
            "execute_wrappers",
        ),
        "runtime/sqlite/base.py",
    ),
    Internal(
        "Django",
        ("5.2.20", "5.2.20"),
        "BaseDatabaseWrapper.close_at, when a connection is closed as too old",
        ("close_at",),
        "runtime/dbthreads.py",
    ),
    Internal(
        "Twisted",
        ("24.3.0", "26.10.0"),
        "FileDescriptor's write buffer: dataBuffer, offset, _tempDataLen",
        ("dataBuffer", "_tempDataLen"),
        "runtime/serve.py",
    ),
    Internal(
        "daphne",
        ("4.2.3", "4.2.3"),
        "WebSocketProtocol.serverSend, wrapped; CommandLineInterface.load_asgi_app, overridden",
        ("serverSend", "load_asgi_app"),
        "runtime/serve.py",
    ),
    Internal(
        "channels",
        ("4.3.0", "4.3.2"),
        "InMemoryChannelLayer's _clean_expired, channels and groups",
        ("_clean_expired",),
        "runtime/layers.py",
    ),
)
