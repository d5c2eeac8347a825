"""runtime.engine_pool: zero set-up's searches in child processes, the same
answers as on the thread that asks, and no search lost to a killed child.

The suite's own process keeps searches on the job's thread (tests/conftest.py,
``_searches_here``); these tests turn the lanes on here. The live servers the
suite starts run with them on (the site's default), so every browser test in
zero set-up plays through them too.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from ai_worker import dispatch, evaluator
from ai_worker.grading import classify
from games.engine import Dice, Position, legal_plays
from learning import tutor
from runtime import dbthreads, engine_pool
from tests.ai.positions import playout_positions

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60  # a lane's processes start and load the networks (about 1 s here)


@pytest.fixture
def lanes(settings: Any) -> Iterator[None]:
    """Zero set-up's lanes in this process (no broker, whatever the mode)."""
    settings.CELERY_BROKER_URL = ""
    settings.ENGINE_PROCESSES = 2
    yield
    engine_pool.close()


def warm(spec: engine_pool.Lane | None) -> engine_pool.Lane:
    """``spec``, once one of its processes is warm (searches before then run here)."""
    assert spec is not None
    deadline = time.monotonic() + START_SECONDS
    with engine_pool.lane(spec):
        while not engine_pool.away():
            assert time.monotonic() < deadline, f"lane {spec.name} did not start"
            time.sleep(0.05)
    return spec


def random_rolls(count: int, seed: int) -> list[tuple[Position, Dice]]:
    """Rolls of random games with a choice to make (tests/ai/positions.py)."""
    found = [(p, d) for p, d in playout_positions(4 * count, seed) if len(legal_plays(p, d)) > 1]
    return found[:count]


def pid_then_sleep(path: str, seconds: float) -> str:
    """Write this process's pid to ``path``, sleep, say where it ran."""
    Path(path).write_text(str(os.getpid()))
    time.sleep(seconds)
    return "slept"


def test_without_a_lane_or_with_a_broker_the_search_runs_here(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""
    assert dispatch.play_lane() is None  # the suite's own process: ENGINE_PROCESSES 0
    settings.ENGINE_PROCESSES = 2
    assert dispatch.play_lane() is not None
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    assert dispatch.play_lane() is None  # a Celery worker searches on its own
    with engine_pool.lane(None):
        assert not engine_pool.away()
        assert engine_pool.run(os.getpid) == os.getpid()


@pytest.mark.slow
def test_the_rankings_made_in_a_child_are_the_rankings_made_here(lanes: None) -> None:
    spec = warm(dispatch.play_lane())
    rolls = random_rolls(12, seed=42)
    here = [evaluator.rank_plays(p, d, 2, shown=5) for p, d in rolls]
    # The plays the filter left at 1-ply, each searched at 2-ply (the tutor's check).
    shallow = [(p, r[-1]) for (p, _d), r in zip(rolls, here, strict=True) if r[-1].ply < 2]
    deepened = [evaluator.at_depth(p, play, 2) for p, play in shallow]
    with engine_pool.lane(spec):
        assert engine_pool.run(os.getpid) != os.getpid()
        away = [evaluator.rank_plays(p, d, 2, shown=5) for p, d in rolls]
        deepened_away = [evaluator.at_depth(p, play, 2) for p, play in shallow]
    assert away == here
    assert len(shallow) >= 5
    assert deepened_away == deepened
    assert all(play.ply == 2 for play in deepened)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.slow
def test_the_tutors_words_made_in_a_child_are_the_words_made_here(
    lanes: None, language: str
) -> None:
    warm(dispatch.reply_lane())
    judged = 0
    for position, dice in random_rolls(30, seed=7):
        ranked = evaluator.rank_plays(position, dice, 2, shown=5)
        best, worst = ranked[0], ranked[-1]
        lost = best.equity - worst.equity
        error = classify(lost).value
        if error == "none":
            continue
        with translation.override(language):
            here = tutor._words_in(language, position, dice, best, worst, error, lost)
            away = tutor._words_away(position, dice, best, worst, error, lost)
        assert away == here
        judged += 1
    assert judged >= 5


@pytest.mark.slow
def test_the_reviews_lane_runs_at_nice_19_and_yields_to_a_command(
    lanes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = warm(dispatch.lane_of("analysis"))
    with engine_pool.lane(spec):
        assert engine_pool.run(os.nice, 0) == dispatch.STUDY_NICE
        # A person's command on the sockets' threads: the review's search waits
        # for it, at most STUDY_YIELDS_SECONDS.
        monkeypatch.setattr(dbthreads, "_in_flight", 1)
        began = time.monotonic()
        engine_pool.run(os.getpid)
        assert time.monotonic() - began >= dispatch.STUDY_YIELDS_SECONDS
        monkeypatch.setattr(dbthreads, "_in_flight", 0)
    with engine_pool.lane(warm(dispatch.play_lane())):
        assert engine_pool.run(os.nice, 0) == 0  # play's lane is not niced


@pytest.mark.slow
def test_a_child_killed_mid_search_costs_no_search_and_the_lane_starts_again(
    lanes: None, tmp_path: Path
) -> None:
    spec = warm(dispatch.play_lane())
    pid_file = tmp_path / "pid"
    answers: list[str] = []

    def ask() -> None:
        with engine_pool.lane(spec):
            answers.append(engine_pool.run(pid_then_sleep, str(pid_file), 1.0))

    asking = threading.Thread(target=ask)
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
    with engine_pool.lane(warm(spec)):
        started_again = engine_pool.run(os.getpid)
    assert started_again not in (killed, os.getpid())


CHILD_SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    sys.path.insert(0, {root!r})
    from runtime import engine_pool
    spec = engine_pool.Lane("play", 1)
    with engine_pool.lane(spec):
        while not engine_pool.away():
            time.sleep(0.05)
        print(engine_pool.run(os.getpid), flush=True)
    time.sleep(600)
    """
)


def test_the_children_end_when_their_server_is_killed() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", CHILD_SCRIPT.format(root=str(ROOT))],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": ""},
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
