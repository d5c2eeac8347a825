"""games.engine.memo: a web process keeps an eighth of the engine's memo
tables (its launcher, runtime/serve.py, says so), a searching process keeps
them whole, and the plays are the same either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Dice, Position, legal_plays, memo

ROOT = Path(__file__).resolve().parents[1]
SIZES = "from games.engine import memo; import json; print('SIZES' + json.dumps(memo.sizes()))"


def sizes_in(setup: str) -> dict[str, int]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", f"{setup}; {SIZES}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("SIZES"))
    found: dict[str, int] = json.loads(line.removeprefix("SIZES"))
    return found


# The web process as runtime.serve builds it: tuned, then daphne loads the application.
WEB = (
    "from runtime import serve; serve.tune();"
    " serve.launcher()().load_asgi_app('config.asgi:application')"
)


@pytest.mark.slow
def test_the_web_process_keeps_an_eighth_and_a_searching_one_all() -> None:
    searching = sizes_in("import django; django.setup(); import ai_worker.evaluator")
    web = sizes_in(WEB)
    assert set(web) == set(searching) and "games.engine.plays._legal_plays" in web
    assert searching["games.engine.plays._legal_plays"] == 8192
    for table, size in searching.items():
        assert web[table] == max(64, size // 8), table


def test_the_plays_are_the_same_from_a_shrunk_table() -> None:
    rolls = [(Position.start(), Dice(d1, d2)) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
    whole = [legal_plays(p, d) for p, d in rolls]
    try:
        memo.shrink(4096)  # every table at its least, 64 entries
        assert [legal_plays(p, d) for p, d in rolls] == whole
        assert all(size == memo.LEAST for size in memo.sizes().values())
    finally:
        memo.shrink(1)
    assert memo.sizes()["games.engine.plays._legal_plays"] == 8192


def test_the_application_alone_leaves_the_tables_whole() -> None:
    """The site's modules do not size the tables: the launcher does."""
    assert sizes_in("import config.asgi")["games.engine.plays._legal_plays"] == 8192


def test_a_divisor_that_cannot_be_read_is_an_error_naming_it() -> None:
    env = {**os.environ, "ENGINE_MEMO_DIVISOR": "eight"}
    done = subprocess.run(
        [sys.executable, "-c", "import games.engine"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "ENGINE_MEMO_DIVISOR must be a whole number" in done.stderr
