"""The import floors (pyproject.toml's [tool.importlinter]) hold, checked by
import-linter on the real tree, lazy imports included."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_floor_contract_is_kept() -> None:
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" in result.stdout and " 0 broken" in result.stdout
    contracts = (
        "Floors:",
        "games.engine is pure",
        "games' rooms in floors",
        "Only the socket sees the socket",
        "only importer of Channels",
        "tier table",
        "no ring",
        "its face",
        "only the dispatcher wires",
    )
    for contract in contracts:
        assert contract in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # games reaching up into ai_worker breaks the floors,
        ("games/upward.py", "from ai_worker import dispatch", "games.upward -> ai_worker.dispatch"),
        # and learning reaching past games.services' face breaks its contract.
        (
            "learning/past_face.py",
            "from games.services.turns import record_result",
            "learning.past_face -> games.services.turns",
        ),
        # the writer reaching for the socket instead of sending a signal,
        (
            "games/services/pushes.py",
            "from games.live import broadcast",
            "games.services.pushes -> games.live.broadcast",
        ),
        # runtime/ reaching up into the site;
        (
            "runtime/upward.py",
            "from games import models",
            "runtime.upward -> games.models",
        ),
        # the evaluator choosing where its search runs (the dispatcher's job),
        (
            "ai_worker/self_routed.py",
            "from runtime import inprocess",
            "ai_worker.self_routed -> runtime.inprocess",
        ),
        # and a module of games outside games.live talking to Channels.
        (
            "games/channelled.py",
            "from channels.layers import get_channel_layer",
            "games.channelled -> channels",
        ),
    ],
)
def test_an_import_across_a_contract_breaks_it(
    tmp_path: Path, module: str, line: str, broken: str
) -> None:
    # The same contracts on a copy of the tree with one offending module added.
    copy = tmp_path / "tree"
    for package in ("config", "learning", "ai_worker", "games", "accounts", "runtime"):
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("locale", "*.pyc")
        )
    (copy / module).write_text(f"{line}  # noqa\n")
    config = (ROOT / "pyproject.toml").read_text()
    (copy / "pyproject.toml").write_text(config)
    result = lint_imports(cwd=copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert broken in result.stdout
