"""No module of the site over 400 lines (issues 29, 48): outside bench/, the
tests and migrations, a Python module or a page's script (``static/**/*.js``)
that grows past it is split by concern."""

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


def page_scripts() -> Iterator[Path]:
    """Every script the pages load: the ES modules under static/."""
    yield from sorted((ROOT / "static").rglob("*.js"))


def sizes(paths: Iterator[Path]) -> dict[str, int]:
    return {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in paths
    }


def test_no_module_of_the_site_is_over_400_lines() -> None:
    found = sizes(site_modules())
    # The check sees the site: each floor's packages, and no migration.
    assert {"games/engine/__init__.py", "runtime/serve.py", "learning/tutor.py"} <= set(found)
    assert not any("migrations" in name for name in found)
    assert {name: n for name, n in found.items() if n > LIMIT} == {}


def test_no_script_of_the_pages_is_over_400_lines() -> None:
    found = sizes(page_scripts())
    # The check sees every page's scripts, those in folders below static/ too.
    assert {"static/games/board.js", "static/learning/analysis.js"} <= set(found)
    assert found["static/games/board.js"] > 100
    assert {name: n for name, n in found.items() if n > LIMIT} == {}
