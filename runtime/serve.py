"""daphne on uvloop, with a bound on unread replies: ``python -m runtime.serve``,
daphne's own command line unchanged. Every place that starts the web process
(./dev, site/, bench/, the tests' live servers) goes through here.

uvloop's policy is set before ``daphne.server`` is imported, which builds
daphne's loop: uvloop runs the same callbacks with less CPU per socket read,
write and timer (bench/README.md, "Live play"); without it, plain asyncio.

``bound_unread`` drops a connection whose unsent bytes (Twisted's buffer and
the kernel's send queue) pass ``SOCKET_MAX_UNSENT_BYTES``: a client that never
read grew daphne's write buffer, and the process, without end (issue 13).

The web process's interpreter is tuned here, not by the site's modules:
``tune`` before the site is imported (the engine's memo tables), ``settle``
once the application is built (the switch interval, ``gc.freeze``).
"""

from __future__ import annotations

import asyncio
import fcntl
import gc
import logging
import os
import struct
import sys
import termios
from typing import Any

log = logging.getLogger(__name__)

# The private parts of Twisted's transport read by ``unsent_bytes``
# (``twisted.internet.abstract.FileDescriptor``), listed with the versions
# checked in runtime/internals.py; tests/runtime/test_private_names.py fails
# when they change.
TWISTED_BUFFER = ("dataBuffer", "offset", "_tempDataLen")


# Where the site's jobs run on threads beside the event loop (zero set-up, no
# broker), the interpreter lock changes hands every 1 ms instead of Python's
# 5: a step waits less behind a computer's turn, a ranking or a review (50
# games, tutor on: p99 435 and 274 -> 78 and 53 ms; bench/README.md, "The
# tutor", stop 41). With a broker no job runs here and Python's 5 ms stays
# (bench/live.py, production shape: daphne's CPU a command 2.47 ms at 1 ms
# against 2.22 at 5 ms, one run each on a loaded machine).
SWITCH_INTERVAL = 0.001
# The engine's memo tables (games/engine/memo.py) at an eighth in a web
# process: 1,024 plays' lists and 2,048 step tables, a few per open game. Their
# entries are what the collector's full passes walk (bench/README.md, "Stop
# 42"); the searches run elsewhere (a Celery worker, zero set-up's lanes).
MEMO_DIVISOR = "8"


def tune() -> None:
    """The web process's interpreter, before the site is imported."""
    os.environ.setdefault("ENGINE_MEMO_DIVISOR", MEMO_DIVISOR)


def settle() -> None:
    """Once the application is built (and has said where its jobs run):
    the switch interval, then everything so far (Django, the apps, the URL
    conf, the channel layer), which lives as long as the process, moved out
    of the collector's sight: a full collection scans only what the sockets
    made since. With 500 sockets a process, its pauses stalled every socket
    of it (bench/live.py, 1,000 games x 2 s: step p99 193-600 ms before,
    91-187 ms after, in pairs on one quiet machine)."""
    from runtime import inprocess

    if inprocess.runs_jobs():
        sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()


def use_uvloop() -> bool:
    """Set uvloop's event-loop policy; False (plain asyncio) without uvloop."""
    if "daphne.server" in sys.modules:
        # Its loop exists already: a policy set now would not be used by it.
        raise RuntimeError("runtime.serve must run before daphne.server is imported")
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def unsent_bytes(transport: Any) -> int:
    """Bytes a Twisted transport and its kernel send queue hold that the peer has not taken."""
    data: bytes = getattr(transport, TWISTED_BUFFER[0], b"")
    offset, pending = (int(getattr(transport, name, 0)) for name in TWISTED_BUFFER[1:])
    unsent = len(data) - offset + pending
    try:
        queued = fcntl.ioctl(transport.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except (AttributeError, OSError, ValueError):
        return unsent  # no socket: no kernel send queue
    return unsent + int(struct.unpack("i", queued)[0])


def bound_unread() -> None:
    """Wrap daphne's send once per process: drop a socket that leaves too much unread."""
    from daphne.ws_protocol import WebSocketProtocol
    from django.conf import settings

    original = WebSocketProtocol.serverSend
    if getattr(original, "bounded", False):
        return

    def server_send(self: Any, content: Any, binary: bool = False) -> None:
        unsent = unsent_bytes(self.transport)
        if unsent > settings.SOCKET_MAX_UNSENT_BYTES:
            if not getattr(self, "dropped_unread", False):
                self.dropped_unread = True
                log.warning(
                    "dropping WebSocket %s: %d bytes of replies unread", self.client_addr, unsent
                )
                self.dropConnection(abort=True)
            return
        original(self, content, binary)

    server_send.bounded = True  # type: ignore[attr-defined]
    WebSocketProtocol.serverSend = server_send


def main() -> None:
    tune()
    if not use_uvloop():
        # Before daphne configures logging: Python's last-resort handler
        # writes it to stderr, where daphne's own lines go.
        log.warning("uvloop is not installed: daphne runs on plain asyncio")
    bound_unread()
    launcher().entrypoint()


def launcher() -> Any:
    """daphne's command line, ``settle`` run once it has built the application."""
    from daphne.cli import CommandLineInterface  # builds daphne's loop: after the policy

    class Launcher(CommandLineInterface):  # type: ignore[misc]  # untyped
        def load_asgi_app(self, path: str) -> Any:
            application = super().load_asgi_app(path)
            settle()
            return application

    return Launcher


if __name__ == "__main__":
    main()
