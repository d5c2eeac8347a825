"""psycopg_pool's reconnection after a refused connection: every second.

psycopg_pool retries a refused connection after 1, 2, 4, 8 … seconds
(``AttemptWithBackoff``), so a database back after an outage of half a
minute waited another ten seconds or more for the pool's next try, while
every command answered "unavailable" (seen in CI). Its class attribute
``DELAY_BACKOFF`` (runtime/internals.py) set to 1: the delay stays at its
first value, about a second, until the pool's reconnect timeout.
"""

from __future__ import annotations

RETRY_BACKOFF = 1.0


def retry_every_second() -> None:
    """Every psycopg pool of the process retries a refused connection about once a second."""
    from psycopg_pool.base import AttemptWithBackoff

    AttemptWithBackoff.DELAY_BACKOFF = RETRY_BACKOFF
