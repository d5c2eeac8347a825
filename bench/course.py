"""学棋's pages on the zero set-up site: a lesson page's load against the lobby's.

    python bench/course.py --rounds 30

One daphne (``runtime.serve``, as ./dev runs it) on a fresh SQLite database
in a temporary VAR_DIR, no DATABASE_URL or REDIS_URL. A visitor's session
opens the lobby (the yardstick) and each lesson page in turn, ``--rounds``
times, interleaved so both see the same machine; then the check of one step
(the engine's walk, no job for the computer's workers) and one pick between
two plays (the hints' ranking at 1-ply, bgsage in the web process). Prints
A new visitor each round opens the lessons whose quiz is drawn with the
hints' ranking or the cube advice, to time a run's first page (the quiz drawn
then; later pages of the run reuse it). Prints
p50/p95 of each, the lesson page's ratio to the lobby, the page's HTML bytes,
and the load (``os.getloadavg()``) before and after. Target: a lesson page's
p95 <= 300 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._procs import HOST, spawn, stop, wait_ready  # noqa: E402

TARGET_MS = 300.0
LESSONS = ["board", "entering", "bearing-off", "pip-count", "habits", "openings"]


class Visitor:
    """One browser's cookies over keep-alive HTTP."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[float, bytes]:
        headers = {"Accept-Language": "zh-CN", "Cookie": self._cookie_header()}
        if body is not None:
            headers["Content-Type"] = "application/json"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://{HOST}/"
        start = time.perf_counter()
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return elapsed, data

    def _cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def line(name: str, values: list[float], yardstick: list[float] | None = None) -> str:
    p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
    text = f"{name:<28} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms"
    if yardstick:
        text += f"  ratio to the lobby (p50) {p50 / percentile(yardstick, 0.5):5.2f}"
    return text


def start_site(var_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["VAR_DIR"] = str(var_dir)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    listen = f"tcp:port={port}:interface={HOST}"
    process = spawn(
        ["runtime.serve", "-e", listen, "config.asgi:application"], env, var_dir / "daphne.log"
    )
    wait_ready(process, lambda: _answers(port), var_dir / "daphne.log")
    return process


def _answers(port: int) -> bool:
    try:
        probe = http.client.HTTPConnection(HOST, port, timeout=2)
        probe.request("GET", "/learn/")
        return probe.getresponse().status == 200
    except OSError:
        return False


# The quizzes drawn with the hints' ranking or the cube advice (the dearest).
DRAWN_BY_RANKING = ("habits", "openings", "cube")


def measure(port: int, rounds: int) -> dict[str, list[float]]:
    visitor = Visitor(port)
    times: dict[str, list[float]] = {"lobby": [], "lesson": [], "step": [], "pick": [], "new": []}
    _ms, page = visitor.request("GET", "/learn/lesson/board/")  # makes the guest
    times["bytes"] = [float(len(page))]
    for _ in range(rounds):
        for slug in LESSONS:
            times["lobby"].append(visitor.request("GET", "/")[0])
            times["lesson"].append(visitor.request("GET", f"/learn/lesson/{slug}/")[0])
        # A partial play is judged and counts nothing: it can be asked again.
        step = json.dumps({"steps": [[24, 18]]}).encode()
        times["step"].append(visitor.request("POST", "/learn/lesson/board/0/check", step)[0])
        # A new visitor's first run: its quizzes drawn for the page (the
        # lessons whose draws rank plays or ask the cube advice).
        newcomer = Visitor(port)
        newcomer.request("GET", "/learn/lesson/board/")  # makes the guest
        for slug in DRAWN_BY_RANKING:
            times["new"].append(newcomer.request("GET", f"/learn/lesson/{slug}/")[0])
    data = json.loads(
        visitor.request("GET", "/learn/lesson/habits/")[1]
        .split(b'id="lesson-data" type="application/json">')[1]
        .split(b"</script>")[0]
    )
    first = data["tasks"][0]
    for _ in range(rounds):
        # The worse play of the first pick: a miss, so the task stays where it is.
        answer = json.dumps({"answer": first["choices"][0]["key"]}).encode()
        times["pick"].append(visitor.request("POST", first["check"], answer)[0])
    return times


def lesson_data(page: str) -> dict[str, Any]:
    """The lesson's data the page hands its script (``json_script``)."""
    found = re.search(r'id="lesson-data" type="application/json">(.*?)</script>', page)
    if found is None:
        raise RuntimeError("the lesson page carries no lesson-data")
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-course-") as tmp:
        site = start_site(Path(tmp), args.port)
        try:
            times = measure(args.port, args.rounds)
        finally:
            stop([site])
    load_after = os.getloadavg()
    before, after = (f"{load[0]:.2f} {load[1]:.2f}" for load in (load_before, load_after))
    print(f"load (1 and 5 min) before {before}, after {after}")
    print(line("lobby / (yardstick)", times["lobby"]))
    print(line("lesson page", times["lesson"], times["lobby"]))
    print(line("lesson page, a new run", times["new"], times["lobby"]))
    print(line("check: one step", times["step"], times["lobby"]))
    print(line("check: a pick (1-ply)", times["pick"], times["lobby"]))
    print(f"lesson page HTML: {int(times['bytes'][0])} bytes")
    worst = percentile(times["lesson"], 0.95)
    verdict = "met" if worst <= TARGET_MS else "MISSED"
    print(f"target: a lesson page's p95 <= {TARGET_MS:.0f} ms: {verdict} ({worst:.1f} ms)")
    return 0 if worst <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
