"""The engine's searches in child processes, off the web process's interpreter lock.

Without a broker (zero set-up) ``ai_worker.dispatch`` runs the site's tasks on
threads of the web process, and one interpreter lock served the sockets, the
computer's turns, the tutor's rankings and the reviews: at 200 games the
rankings' searches held it 57 % of the time (py-spy, bench/README.md, "Stop
42"). A thread that runs a task names its lane (``with lane(spec)``), and a
search asks ``away()``: if so, ``run`` sends it to that lane's processes,
each an interpreter of its own, and the thread waits without the lock.

- A lane's processes start (``spawn``: no copy of the web process's threads
  and loop) at its first use and warm up (``Lane.warm``) before they take
  work: until the first is warm, the search runs on the calling thread, as
  without lanes, so the site's first turn never waits for a process to start.
- A lane's ``nice`` is its processes' priority: the reviews' lane at 19 takes
  only the CPU play leaves (autogroups on or off: a child shares its parent's
  group).
- A child that dies (a SIGKILL, the out-of-memory killer) breaks its lane:
  the searches waiting on it run on their own threads instead, and the next
  one starts the lane anew. A child whose parent died (a SIGKILL too) ends
  within ``PARENT_CHECK_SECONDS``.

Its callers pass only picklable arguments and module-level functions.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

PARENT_CHECK_SECONDS = 1.0


@dataclass(frozen=True)
class Lane:
    """A lane: its name, how many processes, their nice, what each runs once
    before its first search (a module-level function, or None), and ``gate``."""

    name: str
    processes: int
    nice: int = 0
    warm: Callable[[], None] | None = None
    # Run on the calling thread before each search: a lane that may wait
    # (the reviews') lets play go first.
    gate: Callable[[], None] | None = None


class _Running:
    def __init__(self, spec: Lane) -> None:
        self.spec = spec
        self.ready = threading.Event()
        self.executor = ProcessPoolExecutor(
            max_workers=spec.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_child_start,
            initargs=(spec.nice, os.environ.get("DJANGO_SETTINGS_MODULE", ""), spec.warm),
        )
        # One call per process starts them all; the first answer opens the lane.
        for _ in range(spec.processes):
            self.executor.submit(os.getpid).add_done_callback(self._started)

    def _started(self, future: Future[int]) -> None:
        if future.exception() is None:
            self.ready.set()
        elif not self.ready.is_set():  # it never started: the searches stay here
            log.error("engine lane %s did not start: %r", self.spec.name, future.exception())


_local = threading.local()
_lock = threading.Lock()
_running: dict[str, _Running] = {}
_in_child = False


@contextmanager
def lane(spec: Lane | None) -> Iterator[None]:
    """This thread's searches go to ``spec``'s processes for the block (None: here)."""
    previous = getattr(_local, "lane", None)
    _local.lane = spec
    try:
        yield
    finally:
        _local.lane = previous


def away() -> bool:
    """Whether this thread's searches go to a child now (a lane named and one
    of its processes warm); starts the lane at its first ask."""
    return _ready() is not None


def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a process of this thread's lane, or here if none is ready."""
    running = _ready()
    if running is None:
        return fn(*args)
    if running.spec.gate is not None:
        running.spec.gate()
    try:
        return running.executor.submit(fn, *args).result()
    except BrokenProcessPool:
        log.warning("engine lane %s lost a process: the search runs here", running.spec.name)
        _forget(running)
        return fn(*args)


def _ready() -> _Running | None:
    spec: Lane | None = getattr(_local, "lane", None)
    if spec is None or _in_child or spec.processes <= 0:
        return None
    with _lock:
        running = _running.get(spec.name)
        if running is None:
            running = _running[spec.name] = _Running(spec)
    return running if running.ready.is_set() else None


def _forget(running: _Running) -> None:
    with _lock:
        if _running.get(running.spec.name) is running:
            del _running[running.spec.name]
    running.executor.shutdown(wait=False, cancel_futures=True)


def close() -> None:
    """Stop every lane's processes (shutdown, and between tests)."""
    with _lock:
        running = list(_running.values())
        _running.clear()
    for each in running:
        each.executor.shutdown(wait=True, cancel_futures=True)


def _child_start(nice: int, settings_module: str, warm: Callable[[], None] | None) -> None:
    global _in_child
    _in_child = True
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    if nice:
        os.nice(nice)
    if settings_module:
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", settings_module)
        django.setup()
    if warm is not None:
        warm()


def _end_with(parent: int) -> None:
    # The pool's queue does not close when the web process is SIGKILLed (each
    # child holds both its ends): a child whose parent is gone ends itself.
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
