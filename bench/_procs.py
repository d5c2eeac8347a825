"""bench/live.py's server processes: starting them, and their CPU and memory.

CPU is read from ``/proc/PID/stat`` (user + system time, the process and its
children such as a Celery pool), memory from ``/proc/PID/status`` (VmRSS) and
``/proc/PID/smaps_rollup`` (Pss).
PostgreSQL's share is its backends serving the bench's database (by
``pg_stat_activity``), Redis's the whole ``redis-server`` (its ``INFO``
process id): on a shared server, other clients' work is in that figure too.
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
TICK = os.sysconf("SC_CLK_TCK")
# Game commands are under 4 KB, as ./dev runs daphne.
DAPHNE_LIMITS = ["--websocket-max-message-size", "16384", "--websocket-max-frame-size", "16384"]
# Connections waiting to be accepted, as ./dev listens (its comment says why).
LISTEN_BACKLOG = 1024


def daphne_command(port: int, application: str = "bench.echo_asgi:application") -> list[str]:
    # The site plus the echo yardstick (bench/echo_asgi.py), from the repository
    # root, through the site's launcher (daphne on uvloop) as ./dev starts it.
    listen = f"tcp:port={port}:interface={HOST}:backlog={LISTEN_BACKLOG}"
    return ["runtime.serve", "-e", listen, *DAPHNE_LIMITS, application]


def site_command(port: int) -> list[str]:
    """The server exactly as ``./dev run`` starts it: the site alone."""
    return daphne_command(port, "config.asgi:application")


def daphne_listening(port: int) -> Callable[[], bool]:
    def listening() -> bool:
        try:
            # Any answer shows it listens. Not a page: with DEBUG off pages
            # need collectstatic's manifest. (setlang refuses GET: 405.)
            probe = http.client.HTTPConnection(HOST, port, timeout=2)
            probe.request("GET", "/i18n/setlang/")
            probe.getresponse()
            return True
        except OSError:
            return False

    return listening


def start_daphnes(
    env: dict[str, str], ports: list[int], log_dir: Path
) -> list[subprocess.Popen[bytes]]:
    """Every daphne started at once, returned once all listen."""
    started = [
        (spawn(daphne_command(port), env, log_dir / f"daphne-{port}.log"), daphne_listening(port))
        for port in ports
    ]
    for process, ready in started:
        wait_ready(process, ready, log_dir / "daphne.log")
    return [process for process, _ in started]


def start_worker(
    env: dict[str, str],
    log_path: Path,
    queues: str = "moves",
    concurrency: int = 2,
    nice: int = 0,
    name: str = "celery",
) -> subprocess.Popen[bytes]:
    """A Celery worker taking ``queues`` in that order (at ``nice``), once ready."""
    command = ["celery", "-A", "config", "worker", "-Q", queues, "--concurrency", str(concurrency)]
    command += ["--hostname", f"{name}@%h", "--without-gossip", "--without-mingle", "-l", "INFO"]
    process = spawn(command, env, log_path, nice)
    wait_ready(process, lambda: b" ready." in log_path.read_bytes(), log_path)
    return process


def procfile_workers(path: Path = ROOT / "site" / "Procfile") -> list[dict[str, Any]]:
    """The Celery workers ``site/Procfile`` starts, as ``start_worker`` takes
    them: ``name``, ``queues``, ``concurrency`` and ``nice`` (one fact in one
    place: a bench in production shape runs the workers the site runs).

    >>> [w["name"] for w in procfile_workers()][:1]
    ['moves']
    """
    found = []
    for line in path.read_text().splitlines():
        name, _, command = line.partition(":")
        words = command.split()
        if line.startswith("#") or "worker" not in words:
            continue
        nice = int(words[words.index("-n") + 1]) if words[0] == "nice" else 0
        found.append(
            {
                "name": name.strip(),
                "queues": words[words.index("-Q") + 1],
                "concurrency": int(words[words.index("--concurrency") + 1]),
                "nice": nice,
            }
        )
    return found


def spawn(
    command: list[str], env: dict[str, str], log_path: Path, nice: int = 0
) -> subprocess.Popen[bytes]:
    """``python -m command...`` (under ``nice -n`` when given) logging to ``log_path``."""
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    niced = ["nice", "-n", str(nice)] if nice else []
    return subprocess.Popen(
        [*niced, sys.executable, "-m", *command],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def wait_ready(process: subprocess.Popen[bytes], ready: Callable[[], bool], log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} ended; see {log_path}")
        if ready():
            return
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{process.args!r} did not start")


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


# ------------------------------------------------------------------ CPU and memory


def descendants(pid: int) -> list[int]:
    """Every descendant of ``pid``: those any of its threads started (zero
    set-up's engine processes are started by its task threads)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found + [g for c in found for g in descendants(c)]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def tree_cpu(pid: int) -> float:
    return cpu_seconds(pid) + sum(cpu_seconds(c) for c in descendants(pid))


def machine_busy() -> float:
    """CPU seconds every core of the machine has spent busy (not idle, not waiting on I/O)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    return (sum(fields) - fields[3] - fields[4]) / TICK


def autogroups_note() -> str:
    """What the bench's figures owe to the kernel's autogroups: with them on,
    each session (a terminal, a job runner's command) is a scheduling group
    of its own, and a nice orders only the processes inside one group, so
    work started elsewhere takes an equal share of the CPU whatever its
    nice (``sysctl kernel.sched_autogroup_enabled=0`` for a bench beside it)."""
    try:
        on = Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return "autogroups: none"
    if on:
        return "autogroups on: other sessions' work shares the CPU as equals"
    return "autogroups off"


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children, MB."""
    total = 0.0
    for p in [pid, *descendants(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            pass
    return total


def memory_mb(pid: int) -> tuple[float, float] | None:
    """(RSS, PSS) of ``pid`` alone, MB; None once it is gone. PSS counts a page
    shared by n processes 1/n in each (the kernel's smaps_rollup)."""
    found: dict[str, float] = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("Rss", "Pss"):
                found[name] = int(value.split()[0]) / 1024
    except OSError:
        return None
    if len(found) < 2:
        return None
    return found["Rss"], found["Pss"]


def describe(pid: int) -> str:
    """A process's command line, short: what it is."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    text = " ".join(w.decode(errors="replace") for w in words if w)
    text = text.replace(sys.executable, "python").replace(str(ROOT) + "/", "")
    return text if len(text) <= 34 else text[:31] + "..."


class CpuMeter:
    """CPU seconds spent by each group of server processes between two reads."""

    def __init__(self, groups: Callable[[], dict[str, list[int]]]) -> None:
        self.groups = groups
        self.start: dict[str, dict[int, float]] = {}

    def _read(self) -> dict[str, dict[int, float]]:
        return {name: {p: tree_cpu(p) for p in pids} for name, pids in self.groups().items()}

    def begin(self) -> None:
        self.start = self._read()

    def spent(self) -> dict[str, float]:
        """Seconds per group since ``begin`` (a process new since then counts from 0)."""
        now = self._read()
        return {
            name: sum(t - self.start.get(name, {}).get(p, 0.0) for p, t in pids.items())
            for name, pids in now.items()
        }


def postgres_backends() -> list[int]:
    """The PostgreSQL backends connected to this bench's database."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


def redis_pid(url: str) -> int | None:
    import redis

    client: Any = redis.Redis.from_url(url)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()
