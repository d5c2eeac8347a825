"""What zero set-up holds in memory for one person's use: ``./dev run``'s
server and every process it starts, after one game with hints, the coach
(教练模式) and the game's review.

    .venv/bin/python bench/memory.py                 # one game, then a minute idle
    .venv/bin/python bench/memory.py --games 2 --idle 120

The server is started as ``./dev run`` starts it (``python -m
runtime.serve`` with ``config.asgi:application``, zero set-up: SQLite in a
fresh VAR_DIR, no DATABASE_URL nor REDIS_URL, whatever this shell has; DEBUG
as ``./dev run`` leaves it). One person, signed in, the coach at 可疑
(doubtful: it warns most), starts a game against ``--tier`` (Casual, the
lobby's default) through the lobby's form and plays it out over the game's
socket: each turn it asks for a hint and waits for it, then plays a
learner's play (the network's 1-ply values with the Beginner's noise: the
coach warns on some), step by step, and ends the turn; a warning is played
anyway (仍然这样走). The game's review then runs as it does for every
finished game; the person opens the review page once it is done. Then the
server is left idle for ``--idle`` seconds.

Sampled every ``SAMPLE_SECONDS``: the resident memory (RSS, from
``/proc/PID/status``) and the proportional share (PSS, from
``/proc/PID/smaps_rollup``: a page shared by n processes counts 1/n in each)
of the server and all its descendants. Printed: the peak of each, when it
came and what each process held then; the same at the end of the review and
after the idle spell; against the target (issue 48): all of them together at
most 500 MB. PSS is the figure held to it (what the processes hold together,
shared pages once); RSS beside it counts a shared page in every process.
The yardstick in the same run: the server's own RSS before the first game.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import _procs  # noqa: E402
from bench._live_site import make_players, site_env  # noqa: E402
from bench._wsclient import HOST, Socket  # noqa: E402
from bench.tutor import learner_steps, my_roll  # noqa: E402

TARGET_MB = 500.0
SAMPLE_SECONDS = 0.25
ANSWER_TIMEOUT = 120.0  # a hint or a computer's move on a loaded machine
# Between two commands: a person's pace, under the socket's 5 commands a
# second (SOCKET_COMMANDS_PER_SECOND).
PACE_SECONDS = 0.3


@dataclass
class Sample:
    at: float  # seconds since the server listened
    phase: str
    rss: dict[int, tuple[str, float]]  # pid -> (what, MB)
    pss: dict[int, float]

    @property
    def total_rss(self) -> float:
        return sum(mb for _what, mb in self.rss.values())

    @property
    def total_pss(self) -> float:
        return sum(self.pss.values())


@dataclass
class Meter:
    server: int
    started: float = field(default_factory=time.perf_counter)
    phase: str = "start"
    samples: list[Sample] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def sample(self) -> Sample:
        rss, pss = {}, {}
        for pid in [self.server, *_procs.descendants(self.server)]:
            memory = _procs.memory_mb(pid)
            if memory is not None:
                rss[pid] = (_procs.describe(pid), memory[0])
                pss[pid] = memory[1]
        taken = Sample(time.perf_counter() - self.started, self.phase, rss, pss)
        self.samples.append(taken)
        return taken

    def run(self) -> None:
        while not self.stopping.wait(SAMPLE_SECONDS):
            self.sample()


# ------------------------------------------------------------------ the person


class Person:
    """One signed-in person's browser: the session cookie, the CSRF token."""

    def __init__(self, port: int, cookie: str) -> None:
        self.port, self.cookies = port, dict([cookie.split("=", 1)])

    def header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def request(self, method: str, path: str, body: str = "") -> tuple[int, str, str]:
        connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
        headers = {"Cookie": self.header(), "Host": f"{HOST}:{self.port}"}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://{HOST}:{self.port}"
            headers["Referer"] = headers["Origin"] + "/"
        connection.request(method, path, body, headers)
        answer = connection.getresponse()
        for value in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        text = answer.read().decode(errors="replace")
        return answer.status, answer.headers.get("Location", ""), text

    def start_game(self, tier: str) -> int:
        status, _, page = self.request("GET", "/")
        assert status == 200, status
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None, "the lobby has no form to start a game"
        form = {"csrfmiddlewaretoken": token.group(1), "tier": tier, "kind": "single"}
        status, location, _ = self.request("POST", "/games/new/", urlencode(form))
        found = re.search(r"/games/(\d+)/", location)
        assert status == 302 and found is not None, (status, location)
        return int(found.group(1))


def my_turn(state: dict[str, Any]) -> bool:
    """The person is to play a roll, nothing moved yet (the opening roll too)."""
    if state["status"] == "opening":
        return my_roll({**state, "status": "playing"})
    return my_roll(state)


@dataclass
class Played:
    turns: int = 0
    hints: int = 0
    warnings: int = 0
    result: str = ""


TRACE = os.environ.get("BENCH_TRACE", "")


async def wait_for(sock: Socket, wanted: Any) -> dict[str, Any]:
    while True:
        msg = await asyncio.wait_for(sock.recv_json(), ANSWER_TIMEOUT)
        if TRACE:
            with open(TRACE, "a") as log:
                log.write(repr(msg)[:300] + "\n")
        if wanted(msg):
            return msg


async def command(sock: Socket, payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Send ``payload`` at a person's pace; its reply and the state after it."""
    await asyncio.sleep(PACE_SECONDS)
    sock.send(payload)
    reply = await wait_for(sock, lambda m: m.get("id") == payload["id"])
    if reply["type"] != "ack":
        raise RuntimeError(f"{payload['type']}: {reply}")
    state = reply.get("state")
    if state is None:
        state = await wait_for(
            sock, lambda m: m["type"] == "state" and m["version"] >= reply["version"]
        )
    return reply, state


async def play_game(port: int, game_id: int, cookie: str, rng: random.Random) -> Played:
    played = Played()
    sock = await Socket.open(port, f"/ws/games/{game_id}/", cookie)
    sock.start_reader()
    n = 0
    try:
        state = await wait_for(sock, lambda m: m["type"] == "state")
        while state["status"] not in ("finished", "failed"):
            if not my_turn(state):
                state = await wait_for(
                    sock, lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v
                )
                continue
            played.turns += 1
            n += 1
            await asyncio.sleep(PACE_SECONDS)
            sock.send({"type": "hint", "id": f"h{n}", "version": state["version"]})
            await wait_for(
                sock, lambda m: m["type"] == "hint" and m.get("state") in ("done", "failed")
            )
            played.hints += 1
            planned = learner_steps(state, rng)
            while not state["can_end_turn"] and state["allowed"]:
                n += 1
                allowed: list[dict[str, int]] = state["allowed"]
                wanted = planned.pop(0) if planned else None
                moved = wanted if wanted is not None and wanted in allowed else rng.choice(allowed)
                step = {"type": "step", "id": f"s{n}", "version": state["version"], **moved}
                _, state = await command(sock, step)
            n += 1
            reply, state = await command(
                sock, {"type": "end_turn", "id": f"e{n}", "version": state["version"]}
            )
            if "warning" in (reply.get("tutor") or {}):
                played.warnings += 1
                n += 1
                anyway = {"type": "end_turn", "id": f"a{n}", "version": state["version"]}
                _, state = await command(sock, {**anyway, "anyway": True})
        played.result = state["status"]
    finally:
        await sock.close()
    return played


def review_done(game_id: int, seconds: float) -> str:
    from learning.models import AnalysisState, GameAnalysis

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = GameAnalysis.objects.filter(game_id=game_id).first()
        if row is not None and row.state in (AnalysisState.DONE, AnalysisState.FAILED):
            return str(row.state)
        time.sleep(0.5)
    return "not done"


# ------------------------------------------------------------------ the report


def breakdown(sample: Sample) -> str:
    rows = sorted(sample.rss.items(), key=lambda kv: -kv[1][1])
    return "\n".join(
        f"      {pid:>7}  {what:<34} RSS {rss:6.1f}  PSS {sample.pss.get(pid, 0.0):6.1f} MB"
        for pid, (what, rss) in rows
    )


def show(label: str, sample: Sample) -> None:
    print(
        f"\n  {label} ({sample.at:.0f} s, {sample.phase}): {len(sample.rss)} processes,"
        f" PSS {sample.total_pss:.1f} MB, RSS {sample.total_rss:.1f} MB"
    )
    print(breakdown(sample))


def report(meter: Meter, marks: dict[str, Sample], played: list[Played], load: list[float]) -> None:
    peak_pss = max(meter.samples, key=lambda s: s.total_pss)
    peak_rss = max(meter.samples, key=lambda s: s.total_rss)
    games = ", ".join(
        f"{p.result} in {p.turns} turns, {p.hints} hints, {p.warnings} warnings" for p in played
    )
    print(f"\nzero set-up, ./dev run's server: {len(played)} game(s) ({games})")
    print(
        f"  machine: {os.cpu_count()} cores, 1-min load {min(load):.1f} to {max(load):.1f};"
        f" {len(meter.samples)} samples every {SAMPLE_SECONDS:g} s"
    )
    show("yardstick: the server before the first game", marks["listening"])
    show("peak PSS", peak_pss)
    if peak_rss is not peak_pss:
        show("peak RSS", peak_rss)
    for name in ("reviewed", "idle"):
        if name in marks:
            show(f"at the end: {name}", marks[name])
    verdict = "met" if peak_pss.total_pss <= TARGET_MB else "MISSED"
    print(
        f"\n  target (issue 48): every process together at most {TARGET_MB:.0f} MB:"
        f" peak PSS {peak_pss.total_pss:.1f} MB, {verdict}"
        f" (peak RSS {peak_rss.total_rss:.1f} MB, {peak_rss.total_rss / TARGET_MB:.2f}x the"
        f" target; {peak_pss.total_pss / marks['listening'].total_pss:.2f}x the server's"
        " own before the first game)"
    )


# ------------------------------------------------------------------ the run


def zero_setup_env(var_dir: Path) -> dict[str, str]:
    """``./dev run``'s environment: site_env's, but DEBUG as ./dev run leaves
    it and no service named."""
    env = site_env(var_dir)
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DEBUG", "LOG_LEVEL"):
        env.pop(name, None)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--tier", default="casual")
    parser.add_argument("--idle", type=float, default=60.0, help="seconds idle after the review")
    parser.add_argument("--port", type=int, default=8231)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    var_dir = Path(tempfile.mkdtemp(prefix="shuanglu-bench-memory-"))
    env = zero_setup_env(var_dir)
    os.environ.clear()
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from accounts.models import Preferences

    ((user, cookie),) = make_players(1)
    Preferences.objects.filter(user=user).update(tutor="doubtful")
    server = _procs.spawn(_procs.site_command(args.port), env, var_dir / "daphne.log")
    _procs.wait_ready(server, _procs.daphne_listening(args.port), var_dir / "daphne.log")
    meter = Meter(server.pid)
    marks = {"listening": meter.sample()}
    sampler = threading.Thread(target=meter.run, daemon=True)
    sampler.start()
    load = [os.getloadavg()[0]]
    played: list[Played] = []
    rng = random.Random(args.seed)
    person = Person(args.port, cookie)
    try:
        for number in range(args.games):
            meter.phase = f"game {number + 1}"
            game_id = person.start_game(args.tier)
            played.append(asyncio.run(play_game(args.port, game_id, person.header(), rng)))
            load.append(os.getloadavg()[0])
            meter.phase = f"review {number + 1}"
            state = review_done(game_id, 600)
            status, _, _ = person.request("GET", f"/learn/games/{game_id}/review/")
            print(f"game {game_id}: review {state}, its page {status}")
            load.append(os.getloadavg()[0])
        marks["reviewed"] = meter.sample()
        meter.phase = "idle"
        time.sleep(args.idle)
        marks["idle"] = meter.sample()
        load.append(os.getloadavg()[0])
    finally:
        meter.stopping.set()
        _procs.stop([server])
    report(meter, marks, played, load)


if __name__ == "__main__":
    main()
