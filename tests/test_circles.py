"""No circle of imports: no module of the site, Python or the pages' JS,
imports one that imports it back (issues 29, 48).

Python: every import a module can run, at its top level or inside a
function (an import put off into a function is still an arrow between the
two modules: it hides the circle, it does not end it); only ``if
TYPE_CHECKING:`` is left out, for it never runs. import-linter's contracts
(tests/test_floors.py) keep the floors; this keeps each floor free of
circles. JS: every static ``import … from`` and ``export … from`` of the ES
modules under static/.
"""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "games", "ai_worker", "learning", "config", "runtime")
JS_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']""", re.M | re.S)


def python_modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted name -> file, for every module of ``packages`` (migrations left out)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Every import in ``body``, however deep (functions, classes, blocks),
    but those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _type_checking(node.test):
            found += _imports(node.orelse)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    found += _imports([child])
                elif isinstance(child, ast.ExceptHandler | ast.match_case):
                    found += _imports(child.body)
    return found


def _type_checking(test: ast.expr) -> bool:
    name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
    return name == "TYPE_CHECKING"


def python_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the site modules it imports, when it is loaded or later."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in _imports(ast.parse(path.read_text()).body):
            if isinstance(node, ast.Import):
                deps |= {alias.name for alias in node.names if alias.name in modules}
            elif node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    if submodule in modules:
                        deps.add(submodule)
                    elif node.module in modules:
                        deps.add(node.module)
        graph[name] = deps - {name}
    return graph


def js_graph(static: Path) -> dict[str, set[str]]:
    """Script (path under static/) -> the scripts it imports."""
    graph: dict[str, set[str]] = {}
    for path in static.rglob("*.js"):
        name = path.relative_to(static).as_posix()
        deps = set()
        for target in JS_IMPORT.findall(path.read_text()):
            if target.startswith("."):
                deps.add((path.parent / target).resolve().relative_to(static.resolve()).as_posix())
            elif target.startswith("/static/"):
                deps.add(target.removeprefix("/static/"))
        graph[name] = deps
    return graph


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (its modules in order, the first again last), or None."""
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        found: list[str] = error.args[1]
        return found
    return None


def test_no_python_module_of_the_site_imports_one_that_imports_it_back() -> None:
    graph = python_graph(python_modules(ROOT, PACKAGES))
    assert "games.services.rows" in graph and "games.live.broadcast" in graph
    assert "runtime.serve" in graph
    # An import inside a function is an arrow too (AppConfig.ready's).
    assert "learning.receivers" in graph["learning.apps"]
    assert circle(graph) is None


def test_no_script_of_the_pages_imports_one_that_imports_it_back() -> None:
    graph = js_graph(ROOT / "static")
    assert "./cube.js" not in graph  # names are paths under static/
    assert "games/common.js" in graph["games/cube.js"]
    assert circle(graph) is None


@pytest.mark.parametrize("back", ["from pkg.a import A", "import pkg.a", "from pkg import a"])
def test_the_python_check_sees_a_circle(tmp_path: Path, back: str) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import B\nA = 1\n")
    (tmp_path / "pkg" / "b.py").write_text(f"{back}\nB = 2\n")
    found = circle(python_graph(python_modules(tmp_path, ("pkg",))))
    assert found is not None and set(found) == {"pkg.a", "pkg.b"}


def test_the_python_check_lets_a_type_only_import_be(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import B\nA = 1\n")
    (tmp_path / "pkg" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n"
        "else:\n    import json\nB = 2\n"
    )
    assert circle(python_graph(python_modules(tmp_path, ("pkg",)))) is None


@pytest.mark.parametrize(
    "late",
    [
        "def late() -> int:\n    from pkg.a import A\n    return A\n",
        "class Late:\n    def a(self) -> int:\n        import pkg.a\n        return pkg.a.A\n",
        "async def late() -> int:\n    try:\n        from pkg import a\n"
        "    except ImportError:\n        return 0\n    return a.A\n",
        "def late(x: int) -> int:\n    match x:\n        case 1:\n"
        "            from pkg.a import A\n            return A\n    return 0\n",
        "def late() -> int:\n    try:\n        return 1\n    except ValueError:\n"
        "        from pkg.a import A\n        return A\n",
    ],
)
def test_the_python_check_sees_a_circle_through_an_import_inside_a_function(
    tmp_path: Path, late: str
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import B\nA = 1\n")
    (tmp_path / "pkg" / "b.py").write_text(f"{late}B = 2\n")
    found = circle(python_graph(python_modules(tmp_path, ("pkg",))))
    assert found is not None and set(found) == {"pkg.a", "pkg.b"}


def test_the_js_check_sees_a_circle(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "games" / "b.js").write_text(
        'import {\n  a,\n} from "/static/games/a.js";\nexport const b = 2;\n'
    )
    found = circle(js_graph(tmp_path))
    assert found is not None and set(found) == {"games/a.js", "games/b.js"}
