"""The import floors (pyproject.toml's [tool.importlinter]) hold, checked by
import-linter on the real tree, lazy imports included."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

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
    for contract in ("Floors:", "games.engine is pure", "tier table", "no ring"):
        assert contract in result.stdout


def test_a_package_importing_a_higher_floor_breaks_the_contract(tmp_path: Path) -> None:
    # The same contract on a copy of the tree where games reaches up into ai_worker.
    copy = tmp_path / "tree"
    for package in ("config", "learning", "ai_worker", "games", "accounts"):
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("locale", "*.pyc")
        )
    (copy / "games" / "upward.py").write_text("from ai_worker import dispatch  # noqa\n")
    config = (ROOT / "pyproject.toml").read_text()
    (copy / "pyproject.toml").write_text(config)
    result = lint_imports(cwd=copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "games.upward -> ai_worker.dispatch" in result.stdout
