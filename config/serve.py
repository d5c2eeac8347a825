"""daphne on uvloop: ``python -m config.serve [daphne's arguments]``.

Every place that starts the site's web process (./dev, site/Procfile,
site/systemd, bench/, the tests' live servers) goes through here. It takes
daphne's own command line unchanged.

daphne builds its event loop when ``daphne.server`` is first imported
(``asyncio.new_event_loop()``, with Twisted's asyncio reactor installed on
it), so the policy must be set before that import, which is why this is a
launcher and not a setting. uvloop's loop (libuv, in C) runs the same
callbacks as asyncio's pure-Python selector loop with less of the process's
CPU for each socket's read, write and timer; the figure is in bench/README.md
("Live play"). Without uvloop (not installed, or a platform it does not
build on) daphne runs on plain asyncio, as before, and says so.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

log = logging.getLogger(__name__)


def use_uvloop() -> bool:
    """Set uvloop's event-loop policy; False (plain asyncio) without uvloop."""
    if "daphne.server" in sys.modules:
        # Its loop exists already: a policy set now would not be used by it.
        raise RuntimeError("config.serve must run before daphne.server is imported")
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def lean_dispatch() -> None:
    """Twisted's reactor calls each socket's read or write without its log context.

    For every readiness event, Twisted's asyncio reactor wrapped the call in
    ``callWithLogger``: the socket's log prefix asked for and pushed as the
    thread's log context for the call (a dict built, a context stack pushed
    and popped), read only by Twisted's own log lines, which daphne sends
    nowhere unless run with ``-v 2``. An exception is still logged, as there.
    """
    from twisted.internet import asyncioreactor
    from twisted.python import log as twisted_log

    def call(selectable: object, method: Callable[..., object], *args: object) -> object:
        try:
            return method(*args)
        except KeyboardInterrupt:
            raise
        except BaseException:
            twisted_log.err()  # type: ignore[no-untyped-call]
            return None

    asyncioreactor.callWithLogger = call  # type: ignore[attr-defined]


def main() -> None:
    lean_dispatch()
    if not use_uvloop():
        # Before daphne configures logging: Python's last-resort handler
        # writes it to stderr, where daphne's own lines go.
        log.warning("uvloop is not installed: daphne runs on plain asyncio")
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
