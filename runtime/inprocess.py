"""Zero set-up's worker runtime: the jobs' threads in the web process, and
their searches' child processes.

Without a broker ``ai_worker.dispatch`` hands each job here (``submit``): it
runs on a small thread pool of its queue, never on the event loop nor on the
game sockets' threads, so an Expert turn in one game does not delay a step
in another. The dispatcher names the job's lane; a search asks the runtime
to run it (``run``, the route ``ai_worker.evaluator`` is given at start-up)
and is sent to that lane's processes, each an interpreter of its own, while
the thread waits without the interpreter lock: at 200 games the searches
held daphne's lock 57 % of the time (py-spy, bench/README.md, "Stop 42").

The lanes:

- ``PLAY``: the computer's turns, the hints and the tutor's rankings, up to
  ``ENGINE_PROCESSES`` processes;
- ``REPLY``: what a person's command waits for on the sockets' threads (the
  tutor's check), a process of its own when play's are busy, never behind
  play's searches; the lane of every thread no job runs on;
- ``STUDY``: the reviews, a process at nice 19 that takes only the CPU play
  leaves (or play's idle one while play is quiet), and before each search
  waits while a person's command is on the sockets' threads
  (``STUDY_YIELDS_SECONDS`` at most).

How the lanes start, share and end their processes is ``runtime.children``'s:
one person's use keeps one or two, a crowd every lane's. A child loads no
Django: a search needs the engine and the networks only. A child that dies
(a SIGKILL, the out-of-memory killer) costs no search: it runs on the asking
thread, and the lane's next search starts another.

Callers pass only picklable arguments and module-level functions.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import close_old_connections

from runtime import children, dbthreads
from runtime.children import Lane

log = logging.getLogger(__name__)

T = TypeVar("T")

PLAY, REPLY, STUDY = "play", "reply", "study"
STUDY_NICE = 19
# Before each of its searches a review waits while a person's command is on
# the game sockets' threads, this long at most: its rows, its searches' answers
# and its share of the interpreter come after play's.
STUDY_YIELDS_SECONDS = 0.1


@dataclass(frozen=True)
class Wiring:
    """What the site gives the runtime at start-up (``ai_worker.dispatch.wire``):
    how many play processes now (0: no lanes, e.g. with a broker), what a
    child of each lane runs before its first search (by lane name), and
    whether the jobs run here at all."""

    processes: Callable[[], int]
    warm: Mapping[str, Callable[[], None]] = field(default_factory=dict)
    # Whether this process runs the site's jobs on its threads (no broker).
    jobs_here: Callable[[], bool] = bool


_wiring: Wiring | None = None


def wire(wiring: Wiring | None) -> None:
    """Set the lanes' wiring (None: every search runs where it is asked)."""
    global _wiring
    _wiring = wiring


def runs_jobs() -> bool:
    """Whether the jobs run on this process's threads, beside its event loop."""
    return _wiring is not None and _wiring.jobs_here()


def lane_spec(name: str) -> Lane | None:
    """The lane ``name`` as wired now; None when searches stay here."""
    processes = 0 if _wiring is None else _wiring.processes()
    if processes <= 0:
        return None
    warm = None if _wiring is None else _wiring.warm.get(name)
    if name == STUDY:
        gate = functools.partial(dbthreads.wait_quiet, STUDY_YIELDS_SECONDS)
        return Lane(STUDY, 1, STUDY_NICE, warm, gate, borrows=(PLAY, REPLY))
    if name == REPLY:
        return Lane(REPLY, 1, 0, warm, shares=(PLAY,))
    return Lane(PLAY, processes, 0, warm)


# ------------------------------------------------------------------ the jobs' threads

_lock = threading.Lock()
_pools: dict[str, tuple[ThreadPoolExecutor, int]] = {}
_pending: set[Future[None]] = set()
# The jobs not started yet, per queue, in order (their keys).
_waiting: dict[str, list[object]] = {}


def submit(queue: str, threads: int, lane: str, key: object, job: Callable[[], None]) -> None:
    """Run ``job`` on ``queue``'s pool of ``threads`` threads, its searches in
    ``lane``; ``key`` names it for ``ahead`` until it starts."""
    with _lock:
        _waiting.setdefault(queue, []).append(key)
        entry = _pools.get(queue)
        if entry is None:
            pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=f"ai-{queue}")
            entry = _pools[queue] = (pool, threads)
        future = entry[0].submit(_run_job, queue, lane, key, job)
        _pending.add(future)
    future.add_done_callback(_done)


def ahead(queue: str, key: object) -> int | None:
    """How many jobs are before ``key`` in ``queue`` (0: next); None once it
    started or if it was never there."""
    with _lock:
        waiting = list(_waiting.get(queue, ()))
    # A pool of n threads runs the first n at once: what is ahead is in line before.
    for count, each in enumerate(waiting):
        if each == key:
            return count
    return None


def _done(future: Future[None]) -> None:
    with _lock:
        _pending.discard(future)


def _run_job(queue: str, lane_name: str, key: object, job: Callable[[], None]) -> None:
    with _lock:
        waiting = _waiting.get(queue, [])
        if key in waiting:
            waiting.remove(key)
    # Each pool thread keeps its own database connection (CONN_MAX_AGE), as
    # a Celery worker does: drop stale ones before and after. Reconnecting
    # for every turn cost PostgreSQL 20-30 ms of the reply (bench/live.py).
    close_old_connections()
    try:
        with lane(lane_name):
            job()
    except Exception:
        log.exception("in-process job %r on %s failed", key, queue)
    finally:
        close_old_connections()


def wait_idle(timeout: float = 30.0) -> bool:
    """Block until every job has finished; True if all did (tests, shutdown:
    the web process itself never waits)."""
    with _lock:
        pending = set(_pending)
    if not pending:
        return True
    _finished, not_done = wait(pending, timeout=timeout)
    return not not_done


def close() -> None:
    """Finish the jobs, close the pools' connections, stop the pools and every
    lane's processes (shutdown, and between tests: a test database cannot be
    dropped while a pool thread holds a connection to it)."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool, threads in pools:
        dbthreads.shut_down(pool, threads)
    close_lanes()


# ------------------------------------------------------------------ the lanes

_local = threading.local()
_children = children.Children()


@contextmanager
def lane(name: str | None) -> Iterator[None]:
    """This thread's searches go to lane ``name`` for the block (None: here)."""
    previous = getattr(_local, "lane", REPLY)
    _local.lane = name
    try:
        yield
    finally:
        _local.lane = previous


def away() -> bool:
    """Whether this thread's lane has a warm process of its own now; starts
    the lane at its first ask."""
    spec = _spec_here()
    return spec is not None and _children.ready(spec)


def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a child process this thread's lane may use, or here
    when its lane is not wired or none is warm yet."""
    spec = _spec_here()
    if spec is None:
        return fn(*args)
    if spec.gate is not None:
        spec.gate()
    return _children.run(spec, fn, args)


def _spec_here() -> Lane | None:
    # A thread no job runs on (the sockets', a request's) is a person's reply.
    name: str | None = getattr(_local, "lane", REPLY)
    if name is None or children.in_child():
        return None
    return lane_spec(name)


def lane_pids() -> dict[str, list[int]]:
    """Each lane's child processes now (tests, benches)."""
    return _children.pids()


def close_lanes() -> None:
    """Stop every lane's processes."""
    _children.close()
