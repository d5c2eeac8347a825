"""runtime.children: the lanes' child processes, how the lanes share them,
and how they start and end. Real processes, simple functions (the searches'
own tests are in test_inprocess.py)."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from runtime import children
from runtime.children import Children, Lane
from tests.runtime.fixtures_children import pid_then_sleep, refuse, sleep_then_pid

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30

PLAY = Lane("play", 2)
REPLY = Lane("reply", 1, shares=("play",))
STUDY = Lane("study", 1, nice=19, borrows=("play", "reply"))


@pytest.fixture
def pool() -> Iterator[Children]:
    pool = Children()
    yield pool
    pool.close()


def warm(pool: Children, spec: Lane) -> int:
    """The pid of ``spec``'s first child, once it is warm."""
    deadline = time.monotonic() + START_SECONDS
    while not pool.ready(spec):
        assert time.monotonic() < deadline, f"lane {spec.name} did not start"
        time.sleep(0.05)
    return pool.pids()[spec.name][0]


def in_thread(pool: Children, spec: Lane, seconds: float) -> tuple[threading.Thread, list[int]]:
    """A search of ``spec`` that holds its process ``seconds``, begun."""
    found: list[int] = []
    search = threading.Thread(
        target=lambda: found.append(pool.run(spec, sleep_then_pid, (seconds,)))
    )
    search.start()
    return search, found


def test_a_lanes_first_search_waits_for_its_process_and_runs_there(pool: Children) -> None:
    """Not here: a search here would load the networks into the web process
    for good."""
    began = time.monotonic()
    child = pool.run(PLAY, os.getpid, ())
    assert child != os.getpid()
    assert pool.pids() == {"play": [child]}
    assert time.monotonic() - began < START_SECONDS


def test_a_lane_whose_process_does_not_start_searches_here(pool: Children) -> None:
    broken = Lane("play", 1, warm=functools.partial(refuse, "no networks here"))
    assert pool.run(broken, os.getpid, ()) == os.getpid()
    assert pool.run(broken, os.getpid, ()) == os.getpid()  # not started again at once
    assert pool.pids() == {}


def test_searches_one_after_another_keep_one_process(pool: Children) -> None:
    child = warm(pool, PLAY)
    assert {pool.run(PLAY, os.getpid, ()) for _ in range(20)} == {child}
    assert pool.pids() == {"play": [child]}


@pytest.mark.slow
def test_a_lane_grows_a_process_when_a_search_waits_on_a_busy_one(pool: Children) -> None:
    first = warm(pool, PLAY)
    busy, found = in_thread(pool, PLAY, 4.0)
    time.sleep(0.5)  # it holds the lane's only process
    began = time.monotonic()
    second = pool.run(PLAY, os.getpid, ())
    waited = time.monotonic() - began
    busy.join(30)
    assert found == [first]
    # It waited GROW_AFTER_SECONDS, then a second process started and took it
    # (before it was warm, the search waited for whichever came first).
    assert second not in (first, os.getpid())
    assert children.GROW_AFTER_SECONDS <= waited < 4.0
    assert sorted(pool.pids()["play"]) == sorted([first, second])
    # Never more than the lane's processes.
    searches = [in_thread(pool, PLAY, 1.0) for _ in range(4)]
    for search, _found in searches:
        search.join(30)
    assert len(pool.pids()["play"]) == PLAY.processes


@pytest.mark.slow
def test_the_reply_takes_plays_idle_process_and_its_own_when_plays_are_busy(
    pool: Children,
) -> None:
    play = warm(pool, PLAY)
    assert pool.run(REPLY, os.getpid, ()) == play  # no process of its own
    assert pool.pids() == {"play": [play]}
    busy, _found = in_thread(pool, PLAY, 4.0)
    time.sleep(0.5)
    # Play's process busy: the reply never waits behind it; its own starts.
    began = time.monotonic()
    reply = pool.run(REPLY, os.getpid, ())
    assert reply not in (play, os.getpid())
    assert time.monotonic() - began < 3.5
    assert pool.pids() == {"play": [play], "reply": [reply]}
    busy.join(30)
    # Play never takes the reply's process: the reply's stays free for it.
    searches = [in_thread(pool, PLAY, 1.0) for _ in range(3)]
    for search, found in searches:
        search.join(30)
        assert found[0] != reply


def test_the_reviews_borrow_plays_idle_process_once_play_is_quiet(
    pool: Children, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(children, "QUIET_SECONDS", 1.0)
    play = warm(pool, PLAY)
    pool.run(PLAY, os.getpid, ())
    # Play searched just now: the review waits until play is quiet, then
    # takes its idle process; no process of its own.
    began = time.monotonic()
    assert pool.run(STUDY, os.getpid, ()) == play
    assert time.monotonic() - began >= 0.9
    assert pool.pids() == {"play": [play]}


@pytest.mark.slow
def test_the_reviews_start_their_own_process_at_their_nice_when_play_stays_busy(
    pool: Children, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(children, "QUIET_SECONDS", 1.0)
    play = warm(pool, PLAY)
    busy, _found = in_thread(pool, PLAY, 5.0)
    time.sleep(0.3)
    study = pool.run(STUDY, os.getpid, ())
    assert study not in (play, os.getpid())
    assert pool.run(STUDY, os.nice, (0,)) == min(19, os.nice(0) + 19)
    busy.join(30)


@pytest.mark.slow
def test_a_child_idle_long_enough_ends_and_the_lane_starts_again(
    pool: Children, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(children, "IDLE_SECONDS", 0.5)
    monkeypatch.setattr(children, "REAP_EVERY_SECONDS", 0.1)
    first = warm(pool, PLAY)
    deadline = time.monotonic() + 15
    while pool.pids() or _alive(first):
        assert time.monotonic() < deadline, "an idle child did not end"
        time.sleep(0.1)
    again = warm(pool, PLAY)
    assert again != first


def test_an_exception_in_a_child_reaches_the_asking_thread_and_the_child_goes_on(
    pool: Children,
) -> None:
    child = warm(pool, PLAY)
    with pytest.raises(ValueError, match="no such play"):
        pool.run(PLAY, refuse, ("no such play",))
    assert pool.run(PLAY, os.getpid, ()) == child


@pytest.mark.slow
def test_a_child_killed_mid_search_costs_no_search_and_the_lane_starts_again(
    pool: Children, tmp_path: Path
) -> None:
    warm(pool, PLAY)
    pid_file = tmp_path / "pid"
    answers: list[str] = []
    asking = threading.Thread(
        target=lambda: answers.append(pool.run(PLAY, pid_then_sleep, (str(pid_file), 1.0)))
    )
    asking.start()
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the search never started in a child"
        time.sleep(0.01)
    killed = int(pid_file.read_text())
    assert killed != os.getpid()
    pid_file.write_text("")
    os.kill(killed, signal.SIGKILL)
    asking.join(30)
    # The search ran again on the asking thread: its answer is there.
    assert answers == ["slept"]
    assert pid_file.read_text() == str(os.getpid())
    started_again = pool.run(PLAY, os.getpid, ())
    assert started_again not in (killed, os.getpid())


SERVER = textwrap.dedent(
    """
    import os, sys, time
    sys.path.insert(0, {root!r})
    from runtime.children import Children, Lane
    pool, lane = Children(), Lane("play", 1)
    while not pool.ready(lane):
        time.sleep(0.05)
    print(pool.run(lane, os.getpid, ()), flush=True)
    time.sleep(600)
    """
)


def test_the_children_end_when_their_server_is_killed() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER.format(root=str(ROOT))], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        assert child != server.pid
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 20
        while _alive(child):
            assert time.monotonic() < deadline, "a lane's process outlived its server"
            time.sleep(0.1)
    finally:
        server.kill()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
