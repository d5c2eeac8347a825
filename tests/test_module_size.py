"""No module of the site over 400 lines (issue 29): outside bench/, the
tests and migrations, a module that grows past it is split by concern."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 400
NOT_THE_SITE = frozenset({"bench", "tests", ".venv", "node_modules"})


def site_modules() -> Iterator[Path]:
    """Every Python module of the site's packages, migrations left out."""
    for package in sorted(ROOT.iterdir()):
        if package.name in NOT_THE_SITE or not (package / "__init__.py").is_file():
            continue
        for path in sorted(package.rglob("*.py")):
            if "migrations" not in path.relative_to(ROOT).parts:
                yield path


def test_no_module_of_the_site_is_over_400_lines() -> None:
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
        for p in site_modules()
    }
    # The check sees the site: each floor's packages, and no migration.
    assert {"games/engine/__init__.py", "runtime/serve.py", "learning/tutor.py"} <= set(sizes)
    assert not any("migrations" in name for name in sizes)
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
