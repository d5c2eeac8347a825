"""Zero set-up's child processes, the searches' interpreters (for
``runtime.inprocess``). This module imports no Django, nor anything a child
does not need: a child imports it to start, and holds only the engine and
its networks besides.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

log = logging.getLogger(__name__)

PARENT_CHECK_SECONDS = 1.0

_in_child = False


def in_child() -> bool:
    """Whether this process is a lane's child (which never sends a search on)."""
    return _in_child


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


class Running:
    """A lane's processes, started; ``ready`` once one is warm."""

    def __init__(self, spec: Lane) -> None:
        self.spec = spec
        self.ready = threading.Event()
        self.executor = ProcessPoolExecutor(
            max_workers=spec.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_child_start,
            initargs=(spec.nice, spec.warm),
        )
        # One call per process starts them all; the first answer opens the lane.
        for _ in range(spec.processes):
            self.executor.submit(os.getpid).add_done_callback(self._started)

    def _started(self, future: Future[int]) -> None:
        if future.exception() is None:
            self.ready.set()
        elif not self.ready.is_set():  # it never started: the searches stay here
            log.error("engine lane %s did not start: %r", self.spec.name, future.exception())


def _child_start(nice: int, warm: Callable[[], None] | None) -> None:
    global _in_child
    _in_child = True
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    if nice:
        os.nice(nice)
    if warm is not None:
        warm()


def _end_with(parent: int) -> None:
    # The pool's queue does not close when the web process is SIGKILLed (each
    # child holds both its ends): a child whose parent is gone ends itself.
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
