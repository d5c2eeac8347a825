"""Fifty people solving puzzles at once (issue 47): the puzzle page and an
answer with its rating update, each against the lobby's page in the same
run.

    .venv/bin/python bench/puzzles_load.py [--people 50] [--rounds 8] [--think 1.0]

A real daphne (``python -m runtime.serve``, as ``./dev run``) serves a fresh
database (a temporary SQLite file, or ``DATABASE_URL``) migrated with the
shipped bank. Each person is an account with a session and a thread of its
own, with keep-alive: ``--rounds`` times, after a think of 0 to 2 x
``--think`` seconds each, it opens the lobby (the yardstick), the next puzzle
(``/puzzles/``) and answers it (the best play's steps, or the accepted cube
action: a rated first answer each time, both ratings written). Printed:
each request's median and p95 in ms, the puzzle page's and the answer's p95
as a ratio of the lobby's, the targets (50 ms and 100 ms), the errors, the
load average before and after.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _procs  # noqa: E402
from bench._live_site import make_players, site_env  # noqa: E402
from bench._wsclient import HOST  # noqa: E402

DATA = re.compile(rb'<script id="puzzle-data" type="application/json">(.*?)</script>', re.S)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Person(threading.Thread):
    def __init__(self, port: int, cookie: str, rounds: int, think: float, seed: int) -> None:
        super().__init__(daemon=True)
        self.port, self.cookie, self.rounds, self.think = port, cookie, rounds, think
        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = {"lobby": [], "puzzle": [], "answer": []}
        self.errors: list[str] = []
        self.csrf = ""

    def request(self, conn: Any, method: str, path: str, body: bytes | None = None) -> Any:
        headers = {"Cookie": self.cookie + (f"; csrftoken={self.csrf}" if self.csrf else "")}
        if body is not None:
            headers.update({"Content-Type": "application/json", "X-CSRFToken": self.csrf})
        started = time.perf_counter()
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        ms = 1000 * (time.perf_counter() - started)
        for name, value in response.getheaders():
            if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                self.csrf = value.split(";", 1)[0].split("=", 1)[1]
        return response.status, data, ms

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        for _ in range(self.rounds):
            time.sleep(self.rng.uniform(0, 2 * self.think))
            status, _data, ms = self.request(conn, "GET", "/")
            self.note("lobby", status, ms)
            status, data, ms = self.request(conn, "GET", "/puzzles/")
            self.note("puzzle", status, ms)
            found = DATA.search(data)
            if status != 200 or found is None:
                continue
            puzzle = json.loads(found.group(1))
            body = json.dumps(answer_for(puzzle["id"])).encode()
            status, _data, ms = self.request(conn, "POST", f"/puzzles/{puzzle['id']}/answer", body)
            self.note("answer", status, ms)
        conn.close()

    def note(self, what: str, status: int, ms: float) -> None:
        if status == 200:
            self.times[what].append(ms)
        else:
            self.errors.append(f"{what} {status}")


_answers: dict[int, dict[str, Any]] = {}


def answer_for(puzzle_id: int) -> dict[str, Any]:
    return _answers[puzzle_id]


def prepare_answers() -> int:
    """Every rated puzzle's right answer, made before the clock starts."""
    from games.engine import Dice, Position, parse_play
    from learning.puzzles.models import Puzzle

    for p in Puzzle.objects.filter(status="confirmed", owner__isnull=True):
        if p.kind == "cube":
            _answers[p.pk] = {"action": p.answers[0]}
            continue
        play = parse_play(
            Position.from_position_id(p.position_id), Dice(p.die1, p.die2), p.ranking[0][0]
        )
        _answers[p.pk] = {"steps": [[s.src, s.dst] for s in play.steps]}
    return len(_answers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--port", type=int, default=8731)
    args = parser.parse_args(argv)
    var_dir = Path(tempfile.mkdtemp(prefix="shuanglu-bench-puzzles-"))
    env = site_env(var_dir)
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    # DEBUG is off, as in production: the pages name their files through the manifest.
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(collect, cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    puzzles = prepare_answers()
    players = make_players(args.people)
    print(
        f"{puzzles} rated puzzles; {args.people} people, {args.rounds} rounds, think {args.think} s"
    )
    before = os.getloadavg()[0]
    daphnes = _procs.start_daphnes(env, [args.port], var_dir)
    try:
        people = [
            Person(args.port, cookie, args.rounds, args.think, n)
            for n, (_u, cookie) in enumerate(players)
        ]
        started = time.perf_counter()
        for p in people:
            p.start()
        for p in people:
            p.join()
        seconds = time.perf_counter() - started
    finally:
        _procs.stop(daphnes)
    report(people, seconds, before)
    return 0


def report(people: list[Person], seconds: float, before: float) -> None:
    times = {k: [t for p in people for t in p.times[k]] for k in ("lobby", "puzzle", "answer")}
    errors = [e for p in people for e in p.errors]
    lobby = percentile(times["lobby"], 0.95)
    print(f"{'request':<10}{'n':>6}{'median ms':>11}{'p95 ms':>9}{'p95 / lobby':>13}{'target':>9}")
    for what, target in (("lobby", None), ("puzzle", 50), ("answer", 100)):
        values = times[what]
        p95 = percentile(values, 0.95)
        ratio = "" if what == "lobby" else f"{p95 / lobby:.2f}"
        print(
            f"{what:<10}{len(values):>6}{percentile(values, 0.5):>11.1f}{p95:>9.1f}{ratio:>13}"
            f"{'' if target is None else f'{target} ms':>9}"
        )
    print(f"errors: {len(errors)} {sorted(set(errors))[:5]}")
    print(f"{seconds:.0f} s; load average before {before:.2f}, after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
