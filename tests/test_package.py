"""The package's shape holds: honest ``__all__`` lists, a cheap top-level import, no import
cycle between groundgate modules, and no test double reached from production code."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "groundgate"


def _module_names() -> dict[str, Path]:
    """Every groundgate module by dotted name (a package by its ``__init__``)."""
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


MODULES = _module_names()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path, *, deferred: bool) -> Iterator[str]:
    """The groundgate modules ``name`` imports: at import time only, or also inside functions.

    ``from a.b import c`` counts as importing ``a.b.c`` when that is a module, else ``a.b``.
    Imports under ``if TYPE_CHECKING:`` never run, so they are not counted.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def walk(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                yield from (i for part in child.orelse for i in walk_one(part))
                continue
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and not deferred:
                continue
            yield from walk_one(child)

    def walk_one(node: ast.AST) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                yield f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module
        else:
            yield from walk(node)

    for target in walk(ast.parse(path.read_text(encoding="utf-8"))):
        if target in MODULES and target != name:
            yield target


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_between_groundgate_modules():
    graph = {name: set(_imports(name, path, deferred=False)) for name, path in MODULES.items()}
    assert _cycles(graph) == []


def test_the_cycle_check_sees_a_cycle_and_skips_what_never_runs_at_import(tmp_path):
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from groundgate.cli.common import fail\n"
        "if TYPE_CHECKING:\n    import groundgate.ask\n"
        "def later():\n    from groundgate.search import search_store\n"
    )
    assert list(_imports("groundgate.probe", probe, deferred=False)) == ["groundgate.cli.common"]
    assert list(_imports("groundgate.probe", probe, deferred=True)) == [
        "groundgate.cli.common", "groundgate.search",
    ]


def test_production_code_never_reaches_a_test_double():
    reaching = sorted(
        f"{name} -> {target}"
        for name, path in MODULES.items()
        if not name.startswith("groundgate.testing")
        for target in _imports(name, path, deferred=True)
        if target.startswith("groundgate.testing")
    )
    assert reaching == []
    assert not [p.name for p in (PACKAGE / "knowledge" / "azure").glob("*.py") if "fake" in p.name]


BACKEND_PACKAGES = ("groundgate.knowledge.embedded", "groundgate.knowledge.azure")


def _names_a_backend(name: str, path: Path, backends: set[str]) -> list[str]:
    """How ``name`` names a backend: importing a backend's package, or ``backend == "<name>"``."""
    found = [
        f"{name} imports {target}"
        for target in _imports(name, path, deferred=True)
        if target.startswith(BACKEND_PACKAGES)
    ]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        about_backend = any(
            "backend" in (side.id if isinstance(side, ast.Name) else side.attr).lower()
            for side in sides
            if isinstance(side, ast.Name | ast.Attribute)
        )
        found += [
            f"{name} compares a backend with {side.value!r}"
            for side in sides
            if about_backend and isinstance(side, ast.Constant) and side.value in backends
        ]
    return found


def test_nothing_outside_knowledge_names_a_backend(tmp_path):
    from groundgate.knowledge.backends import BACKENDS

    backends = set(BACKENDS)
    naming = [
        line
        for name, path in MODULES.items()
        if not name.startswith(("groundgate.knowledge", "groundgate.testing"))
        for line in _names_a_backend(name, path, backends)
    ]
    assert naming == []
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def open_it(settings):\n"
        "    if settings.backend == 'azure':\n"
        "        from groundgate.knowledge.azure.store import AzureStore\n"
    )
    assert _names_a_backend("groundgate.probe", probe, backends) == [
        "groundgate.probe imports groundgate.knowledge.azure.store",
        "groundgate.probe compares a backend with 'azure'",
    ]


def _importable() -> Iterator[object]:
    for name in MODULES:
        if name.endswith("__main__"):
            continue  # running it is the CLI
        try:
            yield importlib.import_module(name)
        except ImportError as exc:  # an optional extra that is not installed
            if (exc.name or "groundgate").split(".")[0] == "groundgate":
                raise


def test_every_all_names_only_what_the_module_defines():
    wrong = []
    for module in _importable():
        listed = getattr(module, "__all__", None)
        if listed is None:
            continue
        assert isinstance(listed, list | tuple) and all(isinstance(n, str) for n in listed), module
        assert len(set(listed)) == len(listed), f"{module.__name__}: __all__ lists a name twice"
        wrong += [f"{module.__name__}.{n}" for n in listed if not hasattr(module, n)]
    assert wrong == []


def test_the_names_a_user_needs_come_from_the_top_level_package():
    import groundgate

    assert sorted(groundgate.__all__) == [
        "Bounds", "PolicySet", "SQLiteStore", "build_agent", "build_pipeline", "build_router",
        "ingest", "make_chat_model",
    ]
    from groundgate import Bounds, SQLiteStore, build_agent  # noqa: F401 - importable by name
    from groundgate.graph.build import build_agent as defined

    assert build_agent is defined and Bounds().max_rounds == 8
    assert set(groundgate.__all__) <= set(dir(groundgate))
    with pytest.raises(AttributeError, match="no attribute 'Agent'"):
        groundgate.Agent  # noqa: B018


def test_importing_groundgate_imports_nothing_else():
    code = "import sys, groundgate; print(sorted(m for m in sys.modules if m.startswith('groundgate')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['groundgate']"
