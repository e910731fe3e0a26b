"""The layout the code promises: private modules say so, each package names its public
surface, the layers import downwards only, and no module imports another in a circle."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import editengine

PACKAGE_ROOT = Path(editengine.__file__).parent

# Modules users may import beside the packages: the benchmarks run with ``python -m`` (all
# in ``editengine.bench``).
PUBLIC_MODULES = {
    "editengine.bench.speed",
    "editengine.bench.pathological",
    "editengine.bench.journal",
    "editengine.bench.patch",
    "editengine.bench.telemetry",
    "editengine.bench.fixer",
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    _module_name(path): path
    for path in sorted(PACKAGE_ROOT.rglob("*.py"))
    if path.name != "__main__.py"
}


def _imports(path: Path, *, type_checking: bool = False, name: str | None = None) -> set[str]:
    """The editengine modules ``path`` imports when it is loaded (not inside functions; under
    TYPE_CHECKING too when ``type_checking``: what a type checker loads is a dependency).
    ``name``: the module's name, for a file outside the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = name or _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in tree.body:
        guarded = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        if guarded and not type_checking:
            continue
        for child in [node] if not isinstance(node, ast.If) else node.body:
            if isinstance(child, ast.Import):
                found |= {alias.name for alias in child.names}
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    base = ".".join(
                        [*package.split(".")[: len(package.split(".")) - child.level + 1], base]
                    )
                for alias in child.names:
                    candidate = f"{base}.{alias.name}"
                    found.add(candidate if candidate in MODULES else base)
    return {name for name in found if name in MODULES}


def test_every_module_outside_the_public_list_is_marked_private():
    public = {
        name
        for name, path in MODULES.items()
        if path.name != "__init__.py" and not path.name.startswith("_")
    }
    assert public == PUBLIC_MODULES


def test_every_package_names_its_public_surface_and_each_name_exists():
    for name, path in MODULES.items():
        if (
            path.name != "__init__.py"
            or name == "editengine.cli"
            or name == "editengine.bench"  # modules run with python -m, no API of its own
            or name == "editengine.mcp_server"
        ):
            continue
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", None)
        assert exported, f"{name} has no __all__"
        missing = [item for item in exported if not hasattr(module, item)]
        assert missing == [], f"{name}.__all__ names what it does not hold: {missing}"


def test_the_engine_pipeline_does_not_import_the_tool_call_adapter():
    engine_modules = {name for name in MODULES if name.startswith("editengine.engine.")}
    engine_modules.discard("editengine.engine._edit_engine")  # where the adapter is added
    for name in engine_modules:
        adapter = {
            imported
            for imported in _imports(MODULES[name], type_checking=True)
            if imported == "editengine.tools" or imported.startswith("editengine.tools.")
        }
        assert adapter == set(), name


def test_the_tool_call_front_end_does_not_import_the_engine():
    # It knows an engine by its public operations (tools/_operations.py), not by its class:
    # not even a type checker follows it into the engine's modules.
    for name, path in MODULES.items():
        if name == "editengine.tools" or name.startswith("editengine.tools."):
            engine = {
                imported
                for imported in _imports(path, type_checking=True)
                if imported == "editengine.engine" or imported.startswith("editengine.engine.")
            }
            assert engine == set(), f"{name} imports {engine}"


# The pure layer: text in, text (or a verdict) out. The matcher and the fixer's verdict read
# no file, call no model and record nothing, so each rule is tested on strings alone.
PURE_PACKAGES = ("editengine.matching", "editengine.verdict")
# What the pure layer may import: the value modules every layer shares, the syntax checks
# (parsers of a string) and one another.
PURE_MAY_IMPORT = (
    "editengine._edits",
    "editengine._errors",
    "editengine._public",
    "editengine._results",
    "editengine._text",
    "editengine.diagnostics",
    *PURE_PACKAGES,
)


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


@pytest.mark.parametrize("type_checking", [False, True], ids=["loaded", "type-checked"])
def test_the_pure_layer_imports_nothing_above_it(type_checking: bool) -> None:
    for name, path in MODULES.items():
        if _within(name, PURE_PACKAGES):
            above = {
                imported
                for imported in _imports(path, type_checking=type_checking)
                if not _within(imported, PURE_MAY_IMPORT)
            }
            assert above == set(), f"{name} imports {above}: the pure layer must not"


def test_the_pure_layer_test_catches_a_module_that_reaches_up(tmp_path: Path) -> None:
    # The check above reads import statements; a module of the verdict importing the engine
    # must be seen as one.
    module = tmp_path / "_reaching.py"
    module.write_text(
        "from editengine.engine import EditEngine\nfrom ._tokens import Hunk\n", encoding="utf-8"
    )
    imported = _imports(module, name="editengine.verdict._reaching")
    assert {name for name in imported if not _within(name, PURE_MAY_IMPORT)} == {
        "editengine.engine"
    }
    assert "editengine.verdict._tokens" in imported


@pytest.mark.parametrize("type_checking", [False, True], ids=["loaded", "type-checked"])
def test_telemetry_collection_does_not_import_its_renderings(type_checking: bool) -> None:
    # The engine loads telemetry on every edit; the pages, charts and tables of the report
    # (editengine.reports) read it and are never read by it.
    for name, path in MODULES.items():
        if _within(name, ("editengine.telemetry",)):
            renderers = {
                imported
                for imported in _imports(path, type_checking=type_checking)
                if _within(imported, ("editengine.reports",))
            }
            assert renderers == set(), f"{name} imports {renderers}"


@pytest.mark.parametrize("type_checking", [False, True], ids=["loaded", "type-checked"])
def test_no_module_imports_another_in_a_circle(type_checking: bool) -> None:
    # A circle hidden behind TYPE_CHECKING is a circle all the same: the helper reaches into
    # what imports it. The engine hands its helpers its writer and plain values instead.
    graph = {
        name: _imports(path, type_checking=type_checking) - {name} for name, path in MODULES.items()
    }
    # A module importing its own package's __init__ (to reach a sibling through it) is a
    # package exporting its parts, not a circle between peers.
    for name in graph:
        graph[name] = {other for other in graph[name] if not name.startswith(other + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                raise AssertionError(
                    "import circle: " + " -> ".join([*stack[stack.index(nxt) :], nxt])
                )
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


LONG_MODULE_LINES = 450


def test_a_module_over_450_lines_says_why_it_is_one_module() -> None:
    # A newcomer reads a module in one sitting; a longer one says in its docstring why it is
    # not split ("Why one long module: ..."), so the reason is weighed again when it grows.
    unexplained = []
    for name, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > LONG_MODULE_LINES:
            docstring = ast.get_docstring(ast.parse(text)) or ""
            if "Why one long module:" not in docstring:
                unexplained.append(f"{name} ({text.count(chr(10))} lines)")
    assert unexplained == [], "split these, or say why they are one module: " + ", ".join(
        unexplained
    )


# Test folders that are not one package's: attacks on every surface, several packages
# driven together, and edits rebuilt from public bug reports.
CROSS_CUTTING_SUITES = {"adversarial", "integration", "wild"}


def test_the_tests_mirror_the_packages() -> None:
    # A package's tests live in tests/<package>/, so a newcomer finds them by the module's
    # path; the rest of tests/ is the cross-cutting suites above and the root's own tests.
    tests = Path(__file__).resolve().parent
    folders = {
        path.name
        for path in tests.iterdir()
        if path.is_dir() and not path.name.startswith((".", "__"))
    }
    packages = {
        path.parent.name
        for path in PACKAGE_ROOT.glob("*/__init__.py")
        if not path.parent.name.startswith("_")
    }
    assert folders - CROSS_CUTTING_SUITES <= packages, "a tests folder no package has"
    untested = {package for package in packages if package not in folders}
    assert untested == set(), f"packages without a tests folder: {sorted(untested)}"
