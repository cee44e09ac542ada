"""The layer rules of plugins/module_utils (docs/dev/architecture.md, "Layers"), checked on the real imports.

Each package says in its ``__init__`` docstring what it may import; ``LAYERS`` is that rule as data, and the
checks below fail on the first import that breaks it. ``test_a_broken_rule_is_reported`` feeds the checker a
graph with a violation, so a checker that always passed would fail there.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULE_UTILS = ROOT / "plugins" / "module_utils"
PACKAGE = "ansible_collections.runpod.cloud.plugins.module_utils"
# layer -> the layers its files may import (each may always import itself), and whether it may import Ansible.
LAYERS: dict[str, tuple[frozenset[str], bool]] = {
    "_vocab": (frozenset(), False),
    "_engine": (frozenset({"_vocab"}), False),
    "_api": (frozenset({"_vocab"}), False),
    "_rules": (frozenset({"_api", "_vocab"}), False),
    "_backend": (frozenset({"_api", "_vocab"}), False),
    "_module": (frozenset({"_backend", "_rules", "_api", "_engine", "_vocab"}), True),
}
# Third-party libraries a layer may import (import-guarded in _api; the vocabulary and the engine stay pure Python).
LIBRARIES = {"_vocab": frozenset(), "_engine": frozenset(), "_api": frozenset({"httpx", "pydantic"})}
MAX_LINES = 400
# The whole of module_utils (issue #51 brought it from 11,806 lines to under 9,500): features pay for their lines.
MAX_TOTAL_LINES = 9500


def imports_of(path: Path) -> tuple[set[str], set[str]]:
    """``({"_layer.file", ...}, {top-level packages})`` that ``path`` imports: at run time, lazily, and for type
    hints only (under ``if TYPE_CHECKING:``), since a type that climbs a floor is a dependency that climbs."""
    return imports_in(path.read_text())


def imports_in(source: str) -> tuple[set[str], set[str]]:
    local, other = set(), set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(PACKAGE + "."):
                layer_and_file = node.module[len(PACKAGE) + 1:].split(".")
                if len(layer_and_file) == 1:  # from PACKAGE._layer import file as _file
                    local.update(f"{layer_and_file[0]}.{alias.name}" for alias in node.names)
                else:
                    local.add(".".join(layer_and_file[:2]))
            elif node.module == PACKAGE:
                local.update(alias.name for alias in node.names)
            elif node.level == 0:
                other.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            other.update(alias.name.split(".")[0] for alias in node.names)
    return local, other


def files() -> dict[str, Path]:
    """``{"_layer.file": path}`` for every module_utils file but the packages' ``__init__``."""
    return {
        f"{path.parent.name}.{path.stem}": path
        for path in sorted(MODULE_UTILS.glob("*/*.py"))
        if path.name != "__init__.py"
    }


def graph() -> dict[str, tuple[set[str], set[str]]]:
    return {name: imports_of(path) for name, path in files().items()}


def violations(import_graph: dict[str, tuple[set[str], set[str]]]) -> list[str]:
    """Every import that breaks ``LAYERS`` or ``LIBRARIES``, as ``"<file> imports <what>: <rule>"``."""
    found = []
    for name, (local, other) in sorted(import_graph.items()):
        layer = name.split(".")[0]
        allowed, ansible = LAYERS[layer]
        for target in sorted(local):
            target_layer = target.split(".")[0]
            if target_layer not in LAYERS:
                found.append(f"{name} imports {target}: not in a layer package")
            elif target_layer != layer and target_layer not in allowed:
                may = ", ".join(sorted(allowed)) or "only itself"
                found.append(f"{name} imports {target}: {layer} may import {may}")
        if "ansible" in other and not ansible:
            found.append(f"{name} imports ansible: only _module may")
        if layer in LIBRARIES:
            for library in sorted(other & {"httpx", "pydantic"} - LIBRARIES[layer]):
                found.append(f"{name} imports {library}: {layer} is pure Python")
    return found


def cycle(import_graph: dict[str, tuple[set[str], set[str]]]) -> list[str] | None:
    """One import cycle between module_utils files, or None."""
    state: dict[str, str] = {}

    def visit(name, path):
        if state.get(name) == "done":
            return None
        if state.get(name) == "open":
            return [*path, name]
        state[name] = "open"
        for target in sorted(import_graph.get(name, (set(), set()))[0]):
            found = visit(target, [*path, name])
            if found:
                return found
        state[name] = "done"
        return None

    for name in import_graph:
        found = visit(name, [])
        if found:
            return found
    return None


def test_every_file_is_in_a_layer_package_that_says_what_it_may_import():
    assert not list(MODULE_UTILS.glob("*.py")), "module_utils files belong in a layer package"
    packages = {path.name for path in MODULE_UTILS.iterdir() if path.is_dir() and not path.name.startswith("__")}
    assert packages == set(LAYERS)
    for package in packages:
        docstring = ast.get_docstring(ast.parse((MODULE_UTILS / package / "__init__.py").read_text())) or ""
        assert "May import:" in docstring, package


def test_every_import_keeps_to_the_layers():
    assert violations(graph()) == []


def test_no_import_cycle_between_files():
    assert cycle(graph()) is None


@pytest.mark.parametrize(
    ("import_graph", "expected"),
    [
        ({"_engine.poll": ({"_api.client"}, set())},
         "_engine.poll imports _api.client: _engine may import _vocab"),
        ({"_api.client": ({"_module.base"}, set())}, "_api.client imports _module.base: _api may import _vocab"),
        ({"_backend.connection": (set(), {"ansible"})}, "_backend.connection imports ansible: only _module may"),
        ({"_engine.poll": ({"_vocab.views"}, set())}, None),
        ({"_vocab.views": ({"_engine.poll"}, set())},
         "_vocab.views imports _engine.poll: _vocab may import only itself"),
        ({"_vocab.podstate": (set(), {"pydantic"})}, "_vocab.podstate imports pydantic: _vocab is pure Python"),
        ({"_rules.pod_rules": ({"_backend.pods"}, set())},
         "_rules.pod_rules imports _backend.pods: _rules may import _api, _vocab"),
    ],
)
def test_a_broken_rule_is_reported(import_graph, expected):
    assert violations(import_graph) == ([expected] if expected else [])


def test_a_type_only_import_that_climbs_is_reported():
    source = f"""
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from {PACKAGE}._api.inputs import PodInput
    from {PACKAGE}._module import base as _base
"""
    local, _other = imports_in(source)
    assert local == {"_api.inputs", "_module.base"}
    assert violations({"_vocab.views": (local, set())}) == [
        "_vocab.views imports _api.inputs: _vocab may import only itself",
        "_vocab.views imports _module.base: _vocab may import only itself",
    ]


def test_no_file_name_is_used_twice():
    # A name says what a file holds on its floor; two floors' logs.py read alike in tracebacks and imports.
    seen: dict[str, list[str]] = {}
    for name in files():
        seen.setdefault(name.split(".")[1], []).append(name)
    assert {stem: where for stem, where in seen.items() if len(where) > 1} == {}


def test_a_cycle_is_reported():
    assert cycle({"_api.a": ({"_api.b"}, set()), "_api.b": ({"_api.a"}, set())}) == ["_api.a", "_api.b", "_api.a"]


@pytest.mark.parametrize("name", sorted(files()))
def test_no_file_is_over_the_bound(name):
    lines = len(files()[name].read_text().splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines (at most {MAX_LINES}): split it by what it does"


def test_module_utils_stays_within_its_total_bound():
    total = sum(len(path.read_text().splitlines()) for path in MODULE_UTILS.rglob("*.py"))  # __init__ files too
    assert total <= MAX_TOTAL_LINES, f"plugins/module_utils has {total} lines (at most {MAX_TOTAL_LINES})"


def test_module_utils_never_import_a_module():
    for path in MODULE_UTILS.rglob("*.py"):
        assert "plugins.modules" not in path.read_text(), path
