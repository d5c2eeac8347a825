"""runtime.inprocess: zero set-up's jobs and their searches in child
processes, the lane the dispatcher chose, the same answers as on the thread
that asks, and no search lost to a killed child.

The suite's own process keeps searches on the job's thread (tests/conftest.py,
``_searches_here``); these tests turn the lanes on here. The live servers the
suite starts run with them on (the site's default), so every browser test in
zero set-up plays through them too.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ai_worker import dispatch, evaluator
from games.engine import Dice, Position, legal_plays
from runtime import dbthreads, inprocess
from tests.ai.positions import playout_positions

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60  # a lane's processes start and load the networks (about 1 s here)


@pytest.fixture
def lanes(settings: Any) -> Iterator[None]:
    """Zero set-up's lanes in this process (no broker, whatever the mode)."""
    settings.CELERY_BROKER_URL = ""
    settings.ENGINE_PROCESSES = 2
    yield
    inprocess.close()


def warm(name: str) -> str:
    """Lane ``name``, once one of its processes is warm (searches before then run here)."""
    deadline = time.monotonic() + START_SECONDS
    with inprocess.lane(name):
        while not inprocess.away():
            assert time.monotonic() < deadline, f"lane {name} did not start"
            time.sleep(0.05)
    return name


def random_rolls(count: int, seed: int) -> list[tuple[Position, Dice]]:
    """Rolls of random games with a choice to make (tests/ai/positions.py)."""
    found = [(p, d) for p, d in playout_positions(4 * count, seed) if len(legal_plays(p, d)) > 1]
    return found[:count]


def play_search(seconds: float) -> None:
    """A search of play's lane that holds its process ``seconds``."""
    with inprocess.lane(inprocess.PLAY):
        inprocess.run(time.sleep, seconds)


class Job:
    """A task as the dispatcher takes it (a name, a queue, called with its
    arguments): it asks where its searches run."""

    def __init__(self, queue: str) -> None:
        self.name = f"tests.job.{queue}"
        self.declared_queue = queue
        self.answers: list[tuple[int, int]] = []

    def __call__(self, tag: int) -> None:
        self.answers.append((inprocess.run(os.getpid), inprocess.run(os.nice, 0)))


def test_without_lanes_or_with_a_broker_the_search_runs_here(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""
    assert dispatch.engine_processes() == 0  # the suite's own process: ENGINE_PROCESSES 0
    assert inprocess.lane_spec(inprocess.PLAY) is None
    settings.ENGINE_PROCESSES = 2
    assert inprocess.lane_spec(inprocess.PLAY) is not None
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    assert inprocess.lane_spec(inprocess.PLAY) is None  # a Celery worker searches on its own
    with inprocess.lane(inprocess.PLAY):
        assert not inprocess.away()
        assert inprocess.run(os.getpid) == os.getpid()


@pytest.mark.slow
def test_the_rankings_made_in_a_child_are_the_rankings_made_here(lanes: None) -> None:
    rolls = random_rolls(12, seed=42)
    with inprocess.lane(None):
        here = [evaluator.rank_plays(p, d, 2, shown=5) for p, d in rolls]
        # The plays the filter left at 1-ply, each searched at 2-ply (the tutor's check).
        shallow = [(p, r[-1]) for (p, _d), r in zip(rolls, here, strict=True) if r[-1].ply < 2]
        deepened = [evaluator.at_depth(p, play, 2) for p, play in shallow]
    with inprocess.lane(warm(inprocess.PLAY)):
        assert inprocess.run(os.getpid) != os.getpid()
        # The evaluator asks the runtime, which sends the search to the lane.
        away = [evaluator.rank_plays(p, d, 2, shown=5) for p, d in rolls]
        deepened_away = [evaluator.at_depth(p, play, 2) for p, play in shallow]
    assert away == here
    assert len(shallow) >= 5
    assert deepened_away == deepened
    assert all(play.ply == 2 for play in deepened)


def test_the_evaluator_sends_only_its_deep_searches_through_its_route(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    routed: list[str] = []

    def route(fn: Any, *args: Any) -> Any:
        routed.append(fn.__name__)
        return fn(*args)

    monkeypatch.setattr(evaluator, "_route", route)
    rolls = random_rolls(12, seed=42)
    ranked = [evaluator.rank_plays(p, d, 2, shown=5) for p, d in rolls]
    assert routed == ["_ranked"] * len(rolls)
    for (position, dice), plays in zip(rolls, ranked, strict=True):
        evaluator.rank_plays(position, dice, 1)  # 1-ply stays here, unrouted
        evaluator.at_depth(position, plays[0], 2)  # searched already: nothing to route
    assert routed == ["_ranked"] * len(rolls)
    position, plays = next(
        (p, r) for (p, _d), r in zip(rolls, ranked, strict=True) if r[-1].ply < 2
    )
    evaluator.at_depth(position, plays[-1], 2)
    assert routed[-1] == "_at_depth"
    evaluator.value_unmoved(Position.start(), 1)  # a dance valued at 1-ply: here
    assert routed[-1] == "_at_depth"
    evaluator.value_unmoved(Position.start(), 2)
    assert routed[-1] == "_unmoved_deep"


def test_a_child_loads_no_django_only_the_engine_and_its_networks(lanes: None) -> None:
    with inprocess.lane(warm(inprocess.PLAY)):
        loaded = inprocess.run(eval, "sorted(__import__('sys').modules)")
    assert "bgbot_cpp" in loaded and "ai_worker.evaluator" in loaded
    assert [name for name in loaded if name.split(".")[0] in ("django", "celery", "config")] == []


def niced(increment: int) -> int:
    """This process's nice raised by ``increment`` (a child's, when the suite
    itself runs under ``nice``)."""
    return min(19, os.nice(0) + increment)


@pytest.mark.parametrize(("queue", "nice"), [("moves", 0), ("hints", 0), ("analysis", 19)])
def test_the_dispatcher_runs_each_job_with_its_searches_in_its_queues_lane(
    lanes: None, queue: str, nice: int
) -> None:
    warm(inprocess.STUDY if queue == "analysis" else inprocess.PLAY)
    job = Job(queue)
    dispatch.enqueue(job, 1)
    assert dispatch.wait_idle(30)
    [(pid, its_nice)] = job.answers
    assert pid != os.getpid()
    assert its_nice == niced(nice)


def test_a_search_on_a_thread_no_job_runs_on_is_the_reply_lanes(lanes: None) -> None:
    """The sockets' threads: a person's command waits for it, never behind
    play: on play's idle process, or on one of its own while play's are busy."""
    with inprocess.lane(warm(inprocess.PLAY)):
        play = inprocess.run(os.getpid)
    found: list[int] = []
    asking = threading.Thread(target=lambda: found.append(inprocess.run(os.getpid)))
    asking.start()
    asking.join(30)
    assert found == [play]
    busy = threading.Thread(target=play_search, args=(3.0,))
    busy.start()
    time.sleep(0.5)
    warm(inprocess.REPLY)
    assert inprocess.run(os.getpid) not in (os.getpid(), play)
    busy.join(30)


@pytest.mark.slow
def test_the_reviews_lane_runs_at_nice_19_and_yields_to_a_command(
    lanes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with inprocess.lane(warm(inprocess.STUDY)):
        assert inprocess.run(os.nice, 0) == niced(inprocess.STUDY_NICE)
        # A person's command on the sockets' threads: the review's search waits
        # for it, at most STUDY_YIELDS_SECONDS.
        monkeypatch.setattr(dbthreads, "_in_flight", 1)
        began = time.monotonic()
        inprocess.run(os.getpid)
        assert time.monotonic() - began >= inprocess.STUDY_YIELDS_SECONDS
        monkeypatch.setattr(dbthreads, "_in_flight", 0)
    with inprocess.lane(warm(inprocess.PLAY)):
        assert inprocess.run(os.nice, 0) == niced(0)  # play's lane is not niced


WEB_PROCESS = """
import django, os, threading
django.setup()
from ai_worker import evaluator
from games.engine import Dice, Position
from runtime import inprocess
position = Position.start()
with inprocess.lane(inprocess.PLAY):
    deep = evaluator.rank_plays(position, Dice(3, 1), 2)
found = []
asking = threading.Thread(target=lambda: found.append(evaluator.value_unmoved(position, 2)))
asking.start(); asking.join()
with inprocess.lane(inprocess.STUDY):
    evaluator.rank_plays(position, Dice(6, 5), 3)
print("MULTI", sorted(evaluator._networks._multi), deep[0].ply, sorted(inprocess.lane_pids()))
inprocess.close()
"""


@pytest.mark.slow
def test_the_web_process_loads_no_deep_networks_its_lanes_search_for_it() -> None:
    """Not even while a lane's first process starts: the search waits for it
    (the networks of a 2- or 3-ply search, loaded here, stayed for good)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "ENGINE_PROCESSES": "2"}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", WEB_PROCESS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("MULTI"))
    assert line == "MULTI [] 2 ['play']"
