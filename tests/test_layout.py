"""The test suite's own layout (issue 29): helpers shared through conftest or
fixtures modules, never through another test module; every browser test under
tests/browser; no assertion that only runs when an ``if`` lets it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
BROWSER = TESTS / "browser"
# Playwright's fixtures and the suite's own page fixture (tests/conftest.py);
# not "page" or "context", names other tests give a response or a template's.
BROWSER_FIXTURES = frozenset({"browser", "browser_page", "playwright"})


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(TESTS.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def name(path: Path) -> str:
    return str(path.relative_to(TESTS.parent))


def imported_test_modules(tree: ast.Module) -> list[str]:
    """Every test_*.py module ``tree`` imports, however it is spelled."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            dotted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            joint = "" if base.endswith(".") else "."
            dotted = [base] + [f"{base}{joint}{alias.name}" for alias in node.names]
        else:
            continue
        found += [d for d in dotted if d.rstrip(".").rsplit(".", 1)[-1].startswith("test_")]
    return found


def test_no_module_imports_a_test_module() -> None:
    found = {
        name(path): imports for path, tree in modules() if (imports := imported_test_modules(tree))
    }
    assert found == {}, "shared helpers go in conftest.py or a fixtures module"


def functions_of(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
            "test_"
        ):
            yield node


def browser_marked(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == "browser"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "mark"
        for node in ast.walk(tree)
    )


def imports_playwright(tree: ast.Module) -> bool:
    return any(
        (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("playwright"))
        or (isinstance(node, ast.Import) and node.names[0].name.startswith("playwright"))
        for node in ast.walk(tree)
    )


def uses_a_browser(tree: ast.Module) -> bool:
    return (
        browser_marked(tree)
        or imports_playwright(tree)
        or any(
            arg.arg in BROWSER_FIXTURES
            for test in functions_of(tree)
            for arg in test.args.args + test.args.kwonlyargs
        )
    )


def test_every_browser_test_is_under_tests_browser() -> None:
    elsewhere = [
        name(path)
        for path, tree in modules()
        if path.name.startswith("test_") and BROWSER not in path.parents and uses_a_browser(tree)
    ]
    assert elsewhere == []


def conditional_asserts(test: ast.FunctionDef | ast.AsyncFunctionDef) -> list[int]:
    """Lines of the asserts in ``test`` that sit in an ``if``'s body or else."""
    lines = []
    for node in ast.walk(test):
        if isinstance(node, ast.If):
            for branch in (node.body, node.orelse):
                for part in branch:
                    lines += [n.lineno for n in ast.walk(part) if isinstance(n, ast.Assert)]
    return sorted(set(lines))


def test_no_assertion_sits_under_an_if() -> None:
    found = {
        f"{name(path)}::{test.name}": lines
        for path, tree in modules()
        for test in functions_of(tree)
        if (lines := conditional_asserts(test))
    }
    assert found == {}, "an assertion under an `if` may never run: assert the condition too"


def test_the_checks_see_what_they_look_for() -> None:
    """Each check finds its case in a made-up module (so none passes by seeing nothing)."""
    bad = ast.parse(
        "from tests.browser.test_play_game import sign_in\n"
        "from . import test_sanity\n"
        "import tests.ai.test_bot\n"
        "def test_x(browser_page, n):\n"
        "    if n:\n"
        "        assert n\n"
        "    else:\n"
        "        for i in range(n):\n"
        "            assert i\n"
        "    assert True\n"
    )
    assert imported_test_modules(bad) == [
        "tests.browser.test_play_game",
        ".test_sanity",
        "tests.ai.test_bot",
    ]
    assert uses_a_browser(bad)
    assert [conditional_asserts(test) for test in functions_of(bad)] == [[6, 9]]
    good = ast.parse(
        "from tests.browser.helpers import sign_in\n"
        "import pytest\n"
        "def test_y(client, n):\n"
        "    assert n if n else True\n"
    )
    assert imported_test_modules(good) == []
    assert not uses_a_browser(good)
    assert [conditional_asserts(test) for test in functions_of(good)] == [[]]
