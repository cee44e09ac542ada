"""docs/dev/architecture.md's import diagram is the real import graph of plugins/module_utils, without cycles."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_UTILS = ROOT / "plugins" / "module_utils"
PACKAGE = "ansible_collections.runpod.cloud.plugins.module_utils"
# The engine is pure Python: no Ansible, no third-party library (docs/dev/architecture.md, "Layers").
ENGINE = ("_wait", "_pollers", "_podstate", "_ssh_probe", "_duration", "_describe")


def _runtime_nodes(tree):
    """Every node except what sits under ``if TYPE_CHECKING:`` (imports for type hints only)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports_of(path):
    """``(module_utils names, other top-level packages)`` imported by ``path`` at run time (lazy imports too)."""
    local, other = set(), set()
    for node in _runtime_nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:
                local.update(alias.name for alias in node.names)
            elif node.module.startswith(PACKAGE + "."):
                local.add(node.module.rsplit(".", 1)[1])
            elif node.level == 0:
                other.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            other.update(alias.name.split(".")[0] for alias in node.names)
    return local, other


def actual_graph():
    return {path.stem: imports_of(path)[0] for path in sorted(MODULE_UTILS.glob("_*.py"))}


def documented_graph():
    text = (ROOT / "docs" / "dev" / "architecture.md").read_text()
    block = re.search(r"<!-- imports:begin -->\s*```text\n(.*?)```\s*<!-- imports:end -->", text, re.S)
    assert block, "docs/dev/architecture.md lost its import diagram markers"
    graph = {}
    for line in block.group(1).splitlines():
        if not line.strip():
            continue
        name, _arrow, targets = line.partition("->")
        targets = targets.strip()
        graph[name.strip()] = set() if targets == "(nothing)" else {t.strip() for t in targets.split(",")}
    return graph


def test_the_diagram_is_the_import_graph():
    assert documented_graph() == actual_graph()


def test_no_import_cycle_inside_module_utils():
    graph = actual_graph()
    state = {}

    def visit(name, path):
        if state.get(name) == "done":
            return
        assert state.get(name) != "open", f"import cycle: {' -> '.join([*path, name])}"
        state[name] = "open"
        for target in sorted(graph.get(name, ())):
            visit(target, [*path, name])
        state[name] = "done"

    for name in graph:
        visit(name, [])


def test_the_engine_imports_no_ansible_and_no_third_party_library():
    for name in ENGINE:
        local, other = imports_of(MODULE_UTILS / f"{name}.py")
        assert not other & {"ansible", "httpx", "pydantic"}, (name, other)
        assert local <= set(ENGINE), (name, local - set(ENGINE))


def test_module_utils_never_import_a_module():
    for path in MODULE_UTILS.glob("*.py"):
        assert "plugins.modules" not in path.read_text(), path.name
