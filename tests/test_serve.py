"""runtime/serve.py, the web process's launcher: daphne on uvloop, or on plain
asyncio without it. Each case in a fresh process, since daphne builds its loop
when it is first imported. (The live servers of the browser and fault tests
start daphne through it too: tests/conftest.py's start_daphne.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOOP = "import daphne.server as d; print(type(d.twisted_loop).__module__)"


def python(code: list[str], blocked: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if blocked is not None:
        # A module named uvloop that fails to import, found before the real one.
        (blocked / "uvloop.py").write_text("raise ImportError('no uvloop here')\n")
        env["PYTHONPATH"] = str(blocked)
    return subprocess.run(
        [sys.executable, *code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_daphne_runs_on_uvloop() -> None:
    done = python(["-c", f"import runtime.serve as s; print(s.use_uvloop()); {LOOP}"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "uvloop"]


def test_without_uvloop_daphne_runs_on_asyncio_and_says_so(tmp_path: Path) -> None:
    done = python(["-c", f"import runtime.serve as s; print(s.use_uvloop()); {LOOP}"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "asyncio.unix_events"]
    # The launcher itself: its line, then daphne's own command line.
    done = python(["-m", "runtime.serve", "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "uvloop is not installed: daphne runs on plain asyncio" in done.stderr
    assert "--websocket-max-message-size" in done.stdout


def test_too_late_once_daphne_built_its_loop() -> None:
    done = python(["-c", "import daphne.server, runtime.serve as s; s.use_uvloop()"])
    assert done.returncode != 0
    assert "runtime.serve must run before daphne.server is imported" in done.stderr


TUNING = (
    "import gc, sys; from games.engine import memo;"
    " print(sys.getswitchinterval(), gc.get_freeze_count() > 0,"
    " memo.sizes()['games.engine.plays._legal_plays'])"
)


def launched(env: dict[str, str], code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


LAUNCH = (
    "import runtime.serve as s; s.tune(); s.launcher()().load_asgi_app('config.asgi:application');"
)


def test_the_launcher_tunes_the_interpreter_and_the_site_does_not() -> None:
    """The memo tables before the site is imported; once daphne has built
    the application, the switch interval where the jobs run on its threads
    (no broker) and ``gc.freeze``. The application alone (a domain module,
    config/asgi.py) changes none of them."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.pop("PYTHONPATH", None)
    assert launched(env, LAUNCH + TUNING) == ["0.001", "True", "1024"]
    # With a broker the jobs run in Celery's workers: Python's own interval.
    broker = {**env, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15"}
    assert launched(broker, LAUNCH + TUNING) == ["0.005", "True", "1024"]
    assert launched(env, "import config.asgi;" + TUNING) == ["0.005", "False", "8192"]
