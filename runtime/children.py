"""Zero set-up's child processes, the searches' interpreters (for
``runtime.inprocess``), and how the lanes share them.

A child is ``python -m runtime.children``, started at a lane's need and
talking to the web process over a socket pair: it runs the lane's warm-up
once, says it is ready, then runs each module-level function sent to it and
sends back its result (or its exception). This module imports no Django,
nor anything a child does not need: a child holds the engine and its
networks only (83 MB warm against 153 MB with Django set up, RSS). No
``multiprocessing``: no resource tracker process, no copy of the web
process's main module. A child whose parent died (even by SIGKILL) reads
the end of its socket and ends.

How the lanes share the children (``Children.take``), so that one person's
use starts no process it does not need (bench/memory.py) while a crowd gets
every lane's processes (bench/tutor.py):

- A lane's children start one at a time: the first at its first search,
  which waits for it (about 0.6 s) rather than load the networks into the
  web process for good; another only when a search has waited
  ``GROW_AFTER_SECONDS`` with every child it may use busy, up to the lane's
  ``processes``. A lane whose process does not start runs its searches on
  the asking thread for ``FAILED_RETRY_SECONDS``, then tries again.
- A search takes an idle warm child of its lane, or of a lane it
  ``shares`` (the reply takes play's, both at nice 0; play never takes the
  reply's, which stays free for a person's command). A lane that may wait
  (the reviews') takes an idle child of a lane in its ``borrows`` only when
  that lane is quiet (no search of it running, waiting or ended in the last
  ``QUIET_SECONDS``), so it never makes play wait; it starts a child of its
  own, at its own nice, only when there is none to borrow or it has waited
  ``QUIET_SECONDS``.
- A child left idle ``IDLE_SECONDS`` ends (``Children.reap``); a lane's
  next search starts it again (about 0.6 s to start and load the networks).
"""

from __future__ import annotations

import logging
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

GROW_AFTER_SECONDS = 0.5
QUIET_SECONDS = 5.0
FAILED_RETRY_SECONDS = 30.0
WAKE_SECONDS = 0.1
IDLE_SECONDS = 60.0
REAP_EVERY_SECONDS = 5.0
READY = "ready"
ROOT = Path(__file__).resolve().parents[1]

_in_child = False


def in_child() -> bool:
    """Whether this process is a lane's child (which never sends a search on)."""
    return _in_child


class ChildLost(Exception):
    """The child ended (killed, out of memory) before it answered."""


@dataclass(frozen=True)
class Lane:
    """A lane: its name, how many processes at most, their nice, what each
    runs once before its first search (a module-level function, or None),
    ``gate`` (run on the asking thread before each search: a lane that may
    wait lets play go first), the lanes whose idle children it ``shares``,
    and those it ``borrows`` from only when they are quiet."""

    name: str
    processes: int
    nice: int = 0
    warm: Callable[[], None] | None = None
    gate: Callable[[], None] | None = None
    shares: tuple[str, ...] = ()
    borrows: tuple[str, ...] = ()


class Child:
    """One child process of ``lane`` (started now, ``ready`` once warm)."""

    def __init__(self, lane: Lane) -> None:
        self.lane, self.nice = lane.name, lane.nice
        self.ready = False
        self.busy = False
        self.idle_since = time.monotonic()
        here, there = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "runtime.children", str(there.fileno()), str(lane.nice)],
            pass_fds=[there.fileno()],
            cwd=ROOT,
        )
        there.close()
        self.connection = Connection(here.detach())
        self.connection.send_bytes(pickle.dumps(lane.warm))

    def wait_ready(self) -> bool:
        """Block until the child says it is warm; False if it ended first."""
        try:
            return bool(self.connection.recv() == READY)
        except (EOFError, OSError):
            return False

    def call(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        try:
            self.connection.send((fn, args))
            ok, value = self.connection.recv()
        except (EOFError, OSError) as exc:
            raise ChildLost(f"{self.lane} child {self.process.pid}") from exc
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def stop(self) -> None:
        self.connection.close()  # the child reads the end and ends
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class _Demand:
    running: int = 0
    waiting: int = 0
    ended: float = 0.0


@dataclass
class Children:
    """This process's children, shared by the lanes as the module says."""

    condition: threading.Condition = field(default_factory=threading.Condition)
    children: list[Child] = field(default_factory=list)
    demand: dict[str, _Demand] = field(default_factory=dict)
    failed: dict[str, float] = field(default_factory=dict)  # when a lane's start failed
    reaper: threading.Thread | None = None

    def run(self, spec: Lane, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        """``fn(*args)`` in a child ``spec`` may use (waiting for one to be
        free or warm), or here when its processes do not start."""
        child = self.take(spec)
        if child is None:
            return fn(*args)
        try:
            return child.call(fn, args)
        except ChildLost:
            log.warning("lane %s lost its process: the search runs here", spec.name)
            self.drop(child)
            return fn(*args)
        finally:
            self.give(spec, child)

    def take(self, spec: Lane) -> Child | None:
        with self.condition:
            demand = self.demand.setdefault(spec.name, _Demand())
            demand.waiting += 1
            try:
                child = self._wait_for(spec)
            finally:
                demand.waiting -= 1
            if child is not None:
                child.busy = True
                demand.running += 1
            return child

    def _wait_for(self, spec: Lane) -> Child | None:
        began = time.monotonic()
        while True:
            child = self._idle(spec)
            if child is not None:
                return child
            own = [c for c in self.children if c.lane == spec.name]
            waited = time.monotonic() - began
            if not own:
                if time.monotonic() - self.failed.get(spec.name, -FAILED_RETRY_SECONDS) < (
                    FAILED_RETRY_SECONDS
                ):
                    return None  # its processes do not start: the search runs here
                lender = any(c.lane in spec.borrows for c in self.children)
                if not lender or waited >= QUIET_SECONDS:
                    self._start(spec)
            elif (
                len(own) < spec.processes
                and waited >= GROW_AFTER_SECONDS
                and all(c.ready for c in own)
            ):
                self._start(spec)
            self.condition.wait(WAKE_SECONDS)

    def _idle(self, spec: Lane) -> Child | None:
        idle = [c for c in self.children if c.ready and not c.busy]
        for lanes in ((spec.name,), spec.shares):
            for child in idle:
                if child.lane in lanes:
                    return child
        quiet = [name for name in spec.borrows if self._quiet(name)]
        return next((c for c in idle if c.lane in quiet), None)

    def _quiet(self, name: str) -> bool:
        demand = self.demand.get(name)
        if demand is None:
            return True
        recent = time.monotonic() - demand.ended < QUIET_SECONDS
        return not (demand.running or demand.waiting or recent)

    def _start(self, spec: Lane) -> None:
        child = Child(spec)
        self.children.append(child)
        threading.Thread(target=self._warmed, args=(child,), daemon=True).start()
        if self.reaper is None:
            self.reaper = threading.Thread(target=self.reap, daemon=True, name="lanes-reaper")
            self.reaper.start()

    def _warmed(self, child: Child) -> None:
        ready = child.wait_ready()
        with self.condition:
            if ready:
                child.ready = True
                child.idle_since = time.monotonic()
            else:
                log.error("lane %s: a child did not start", child.lane)
                self.failed[child.lane] = time.monotonic()
                if child in self.children:
                    self.children.remove(child)
            self.condition.notify_all()

    def ready(self, spec: Lane) -> bool:
        """Whether ``spec`` has a warm child of its own; starts one if it has none."""
        with self.condition:
            own = [c for c in self.children if c.lane == spec.name]
            if not own:
                self._start(spec)
            return any(c.ready for c in own)

    def give(self, spec: Lane, child: Child) -> None:
        with self.condition:
            child.busy = False
            child.idle_since = time.monotonic()
            demand = self.demand[spec.name]
            demand.running -= 1
            demand.ended = child.idle_since
            self.condition.notify_all()

    def drop(self, child: Child) -> None:
        with self.condition:
            if child in self.children:
                self.children.remove(child)
        child.stop()

    def reap(self) -> None:
        """End the children idle ``IDLE_SECONDS`` (a thread of its own)."""
        while True:
            time.sleep(REAP_EVERY_SECONDS)
            with self.condition:
                now = time.monotonic()
                done = [
                    c
                    for c in self.children
                    if c.ready and not c.busy and now - c.idle_since >= IDLE_SECONDS
                ]
                for child in done:
                    self.children.remove(child)
            for child in done:
                child.stop()

    def close(self) -> None:
        """Stop every child (shutdown, and between tests)."""
        with self.condition:
            children, self.children = self.children, []
            self.demand.clear()
        for child in children:
            child.stop()

    def pids(self) -> dict[str, list[int]]:
        """Each lane's children's process ids (tests)."""
        with self.condition:
            found: dict[str, list[int]] = {}
            for child in self.children:
                found.setdefault(child.lane, []).append(child.process.pid)
            return found


# ------------------------------------------------------------------ the child's side


def main(fd: int, nice: int) -> None:
    global _in_child
    _in_child = True
    if nice:
        os.nice(nice)
    connection = Connection(fd)
    warm = pickle.loads(connection.recv_bytes())
    if warm is not None:
        warm()
    connection.send(READY)
    while True:
        try:
            fn, args = connection.recv()
        except (EOFError, OSError):
            return  # the web process is gone, or stopped this child
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as exc:  # noqa: BLE001 - handed to the asking thread
            answer = (False, exc)
        try:
            connection.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            connection.send((False, RuntimeError(f"{fn!r}: {exc!r}")))


if __name__ == "__main__":
    # Run as this module's own name, so in_child() answers for it.
    from runtime import children

    children.main(int(sys.argv[1]), int(sys.argv[2]))
