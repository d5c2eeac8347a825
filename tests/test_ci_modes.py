"""The zero set-up pass of .ci/run deselects only tests marked redis or worker;
a test that needs Redis without the marker stops the collection."""

from __future__ import annotations

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


def test_ci_runs_the_zero_set_up_pass_deselecting_exactly_those_markers() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "unset DATABASE_URL REDIS_URL CELERY_BROKER_URL" in script
    passes = {
        line.split()[1]: line for line in script.splitlines() if line.startswith("run_suite ")
    }
    assert set(passes) == {"pg", "sqlite", "zero"}
    # Each pass: its name and label, its DATABASE_URL and REDIS_URL ("" for
    # none), then pytest's own arguments: only zero set-up's deselect.
    assert passes["pg"].endswith('"$PG_URL" "$(redis_url "$REDIS_DB")"')
    assert passes["sqlite"].endswith('"" "$(redis_url "$((REDIS_DB + 1))")"')
    assert passes["zero"].endswith('"" "" -m "not redis and not worker"')
