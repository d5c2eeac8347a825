"""The zero set-up pass of .ci/run deselects only tests marked redis or worker;
a test that needs Redis without the marker stops the collection."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.conftest import unmarked_redis_tests

ROOT = Path(__file__).resolve().parent.parent


def item(nodeid: str, fixtures: tuple[str, ...], markers: tuple[str, ...] = ()) -> Any:
    return SimpleNamespace(
        nodeid=nodeid,
        fixturenames=fixtures,
        get_closest_marker=lambda name: name if name in markers else None,
    )


def test_a_redis_fixture_without_its_marker_is_reported() -> None:
    items = [
        item("a", ("redis_url",)),
        item("b", ("redis_url",), ("redis",)),
        item("c", ("celery_worker_process", "db"), ("worker",)),
        item("d", ("celery_worker_process",)),
        item("e", ("db",)),
    ]
    assert unmarked_redis_tests(items) == ["a", "d"]


def passes_of(script: str) -> dict[str, list[str]]:
    """Each ``run_suite`` call of the script, its words as bash makes them
    (``redis_url`` and the URLs as the script defines them, REDIS_DB 0)."""
    joined = script.replace("\\\n", " ")
    calls = [line for line in joined.splitlines() if line.startswith("run_suite ")]
    define = re.search(r"^redis_url\(\) \{.*\}$", script, re.M)
    assert define, "redis_url is defined on one line"
    program = "\n".join(
        [
            define.group(0),
            "REDIS_DB=0 PG_URL=postgres://ci",
            "run_suite() { printf '%s\\037' \"$@\"; printf '\\n'; }",
            *calls,
        ]
    )
    out = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True)
    words = [line.split("\x1f")[:-1] for line in out.stdout.splitlines()]
    return {w[0]: w[1:] for w in words}


def test_ci_runs_the_three_modes_the_zero_set_up_pass_deselecting_exactly_those_markers() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "unset DATABASE_URL REDIS_URL CELERY_BROKER_URL" in script
    passes = passes_of(script)
    assert set(passes) == {"pg", "sqlite", "zero"}
    # Each pass: its label, its DATABASE_URL and REDIS_URL ("" for none),
    # then pytest's own arguments: only zero set-up's deselect.
    urls = {name: (words[1], words[2]) for name, words in passes.items()}
    assert urls["pg"][0] == "postgres://ci" and urls["sqlite"][0] == urls["zero"][0] == ""
    assert urls["zero"][1] == "" and urls["pg"][1] and urls["sqlite"][1]
    assert urls["pg"][1] != urls["sqlite"][1]  # a Redis database each
    selects = {name: words[3:] for name, words in passes.items()}
    assert "-m" not in selects["pg"] and "-m" not in selects["sqlite"]
    assert selects["zero"][selects["zero"].index("-m") + 1] == "not redis and not worker"
