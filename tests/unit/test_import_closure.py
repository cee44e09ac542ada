"""How many module_utils files each module's task ships (docs/dev/architecture.md, "Import cost").

AnsiballZ zips every module_utils file a module reaches through its imports, function-level (lazy) imports
included, and each task compiles what it imports from that zip: so a module's cost is its static import closure.
The closure here follows every ``from ansible_collections.runpod.cloud.plugins.module_utils...`` import found
anywhere in a file (top level or inside a function), and counts files, not package ``__init__.py`` files.
``BUDGET`` caps each module; ``test_the_check_fails_on_a_closure_over_budget`` feeds the checker a made-up graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers.paths import REPO_ROOT

PACKAGE = "ansible_collections.runpod.cloud.plugins.module_utils"
UTILS = REPO_ROOT / "plugins" / "module_utils"
MODULES = REPO_ROOT / "plugins" / "modules"
# What each module ships after issue #51 (its goals were secret <= 25, pod <= 45): a budget only goes down.
BUDGET = {
    "billing_info": 14, "cluster": 39, "cluster_info": 19, "container_registry": 19, "endpoint": 32,
    "endpoint_info": 20, "endpoint_job": 22, "gpu_type_info": 12, "network_volume": 19, "network_volume_info": 14,
    "pod": 39, "pod_info": 32, "secret": 19, "secret_info": 13, "ssh_key": 13, "template": 19,
}
# Not there yet, and what keeps it above (none: every module is within its budget).
NOT_YET: dict[str, str] = {}


def imports_of(path: Path) -> set[str]:
    """The module_utils files (``_pkg/name.py``) that ``path`` imports anywhere in its body."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE)):
            continue
        parts = [part for part in node.module[len(PACKAGE):].split(".") if part]
        if len(parts) >= 2:
            found.add(f"{parts[0]}/{parts[1]}.py")
        elif len(parts) == 1:  # from ..._module import base as _base
            found.update(f"{parts[0]}/{alias.name}.py" for alias in node.names
                         if (UTILS / parts[0] / f"{alias.name}.py").exists())
    return found


def closure(start: set[str], graph) -> set[str]:
    """Every file reachable from ``start`` in ``graph`` (a file -> the files it imports)."""
    seen, todo = set(), list(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph(name))
    return seen


def over_budget(name: str, start: set[str], graph, budget: int) -> str | None:
    files = closure(start, graph)
    if len(files) <= budget:
        return None
    return f"{name} ships {len(files)} module_utils files (budget {budget}): {', '.join(sorted(files))}"


def test_every_module_has_a_budget():
    assert sorted(BUDGET) == sorted(path.stem for path in MODULES.glob("*.py") if path.stem != "__init__")


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(reason=NOT_YET[name], strict=True)) if name in NOT_YET else name
    for name in sorted(BUDGET)
])
def test_a_module_ships_no_more_than_its_budget(name):
    problem = over_budget(name, imports_of(MODULES / f"{name}.py"), lambda file: imports_of(UTILS / file),
                          BUDGET[name])
    assert problem is None, problem


def test_the_check_fails_on_a_closure_over_budget():
    graph = {"_module/base.py": {"_backend/connection.py"}, "_backend/connection.py": {"_backend/pods.py"},
             "_backend/pods.py": {"_module/base.py"}}
    assert over_budget("toy", {"_module/base.py"}, graph.__getitem__, 3) is None
    problem = over_budget("toy", {"_module/base.py"}, graph.__getitem__, 2)
    assert problem == ("toy ships 3 module_utils files (budget 2): _backend/connection.py, _backend/pods.py, "
                       "_module/base.py")


def test_a_lazy_import_counts(tmp_path):
    module = tmp_path / "toy.py"
    module.write_text(f"def run():\n    from {PACKAGE}._module import base as _base\n"
                      f"    from {PACKAGE}._api.client import Client\n")
    assert imports_of(module) == {"_module/base.py", "_api/client.py"}
