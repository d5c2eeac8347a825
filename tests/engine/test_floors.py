"""The engine's modules stand in floors: each imports only from the floors below.

Read from the source (every import statement, wherever it is, counts), so a
lazy import inside a function or an ``if TYPE_CHECKING:`` block cannot hide
a circle; and each module is imported first in a fresh interpreter, so none
depends on another having been loaded before it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"

# Bottom-up. A module may import modules of lower floors only.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors",),  # typed errors and refusals
    ("memo",),  # the memo tables and their size in a web process (standard library only)
    ("position",),  # the board, its constants and its Position ID
    ("dice",),  # dice, the 21 rolls, the opening roll
    ("fairdice",),  # dice derived from committed seeds (standard library only)
    ("movegen",),  # the move generator and Step
    ("notation",),  # gnubg move notation
    ("plays",),  # legal plays, applying and reading them
    ("turn",),  # step-by-step validation
    ("outcome",),  # game over: winner and kind
    ("cube",),  # the cube and the match: who may double, what a result is worth
    ("xgid",),  # the XGID codec (position, dice, cube, score)
    ("matchid",),  # GNU Backgammon's Match ID (the cube, the score, the dice)
    ("matfile",),  # match files (.mat) read and written
    ("matreplay",),  # match files replayed through the rules
    ("display",),  # the brief's orientation, the text board
    ("cli",),
    ("__main__", "__init__"),
)


def _modules() -> list[str]:
    return sorted(path.stem for path in ENGINE.glob("*.py"))


def _engine_imports(tree: ast.Module) -> list[tuple[str, ast.stmt]]:
    """(imported engine module, statement) for every import in the module."""
    found: list[tuple[str, ast.stmt]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "games.engine":
                found.extend(("__init__", node) for _alias in node.names)
            elif node.module.startswith("games.engine."):
                found.append((node.module.split(".")[2], node))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("games.engine."):
                    found.append((alias.name.split(".")[2], node))
    return found


def _parse(module: str) -> ast.Module:
    return ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))


def _graph() -> dict[str, set[str]]:
    return {m: {dep for dep, _node in _engine_imports(_parse(m))} for m in _modules()}


def test_every_engine_module_has_a_floor() -> None:
    floored = {name for floor in FLOORS for name in floor}
    assert floored == set(_modules())


def test_the_import_graph_has_no_cycle() -> None:
    graph = _graph()
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:  # pragma: no cover - the failure message
        pytest.fail(f"import cycle in games/engine: {error.args[1]}")
    assert order.index("errors") < order.index("position") < order.index("plays")


@pytest.mark.parametrize("module", _modules())
def test_each_module_imports_only_from_lower_floors(module: str) -> None:
    level = {name: index for index, floor in enumerate(FLOORS) for name in floor}
    upward = sorted(dep for dep in _graph()[module] if level[dep] >= level[module])
    assert upward == [], f"games/engine/{module}.py imports {upward} from its floor or above"


@pytest.mark.parametrize("module", _modules())
def test_no_import_is_made_inside_a_function_or_a_block(module: str) -> None:
    tree = _parse(module)
    top_level = set(map(id, tree.body))
    late = [
        f"line {node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top_level
    ]
    assert late == [], f"games/engine/{module}.py imports late at {late}"


@pytest.mark.parametrize("module", [m for m in _modules() if m not in ("__main__", "__init__")])
def test_each_module_imports_first_on_its_own(module: str) -> None:
    code = f"import games.engine.{module}"
    done = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parents[1], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def test_the_floor_checker_sees_a_lazy_import() -> None:
    tree = ast.parse("def f():\n    from games.engine.plays import legal_plays\n")
    [(module, node)] = _engine_imports(tree)
    assert module == "plays" and node not in tree.body
