"""A task's backend builds only the resource objects its module (and the module's waiter) list in ``uses``
(``_backend/connection.Backend``), so a module that reads ``backend.<name>`` without listing its class fails at
run time, on whatever path reads it. This check reads each module's file and every ``_module`` file its task ships,
finds each ``backend.<name>`` and ``self.account`` read there, and requires the class among the ``uses`` of those
files (the module's own and its waiters'). ``ONLY_FOR`` names the reads a file makes only for some modules, with
the reason; ``test_the_check_sees_a_read_without_its_class`` shows it fails.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from test_import_closure import MODULES, UTILS, closure, imports_of

RESOURCES = ("pods", "endpoints", "templates", "clusters", "gpus", "account", "secrets", "sshkeys", "jobs")
USES = re.compile(r"^\s+uses = \(([^)]*)\)", re.M)
# (file, backend attribute) -> the modules that can reach that read (the rest cannot, and why).
ONLY_FOR = {
    ("log_report.py", "endpoints"): ({"endpoint"}, "worker logs are read for an endpoint's wait only"),
    ("resource.py", "secrets"): ({"pod", "cluster", "endpoint", "template"},
                                 "secret_env, the one reader of the account's secrets, is an option of these only"),
}


def reads(source: str, name: str) -> set[str]:
    """The resource attributes ``source`` reads from a backend (``x.backend.pods``, ``backend.pods``,
    ``self.account``; ``base.py``'s ``account`` property itself is not a read)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Attribute) and node.attr in RESOURCES):
            continue
        owner = node.value
        if (isinstance(owner, ast.Attribute) and owner.attr == "backend") or (
                isinstance(owner, ast.Name) and owner.id == "backend"):
            if not (name == "base.py" and node.attr == "account"):
                found.add(node.attr)
        elif node.attr == "account" and isinstance(owner, ast.Name) and owner.id == "self" and name != "base.py":
            found.add("account")
    return found


def uses_of(source: str) -> set[str]:
    return {item.strip().lower() for match in USES.findall(source) for item in match.split(",") if item.strip()}


def missing(module: str, sources: dict[str, str]) -> dict[str, list[str]]:
    """``{attribute: [files reading it]}`` that ``module``'s ``uses`` (its own and its waiters') do not cover;
    ``sources`` maps the module file and the ``_module`` files it ships to their text."""
    have = set().union(*(uses_of(text) for text in sources.values()))
    found: dict[str, list[str]] = {}
    for name, text in sources.items():
        for attribute in reads(text, name) - have:
            only = ONLY_FOR.get((name, attribute))
            if only is None or module in only[0]:
                found.setdefault(attribute, []).append(name)
    return found


@pytest.mark.parametrize("module", sorted(path.stem for path in MODULES.glob("*.py") if path.stem != "__init__"))
def test_a_module_lists_every_backend_resource_its_task_reads(module):
    path = MODULES / f"{module}.py"
    shipped = closure(imports_of(path), lambda file: imports_of(UTILS / file))
    sources = {path.name: path.read_text()}
    sources.update({Path(file).name: (UTILS / file).read_text() for file in shipped if file.startswith("_module/")})
    assert missing(module, sources) == {}


def test_the_check_sees_a_read_without_its_class():
    pod = ("class M:\n    uses = (Pods,)\n    def run(self):\n        self.backend.pods.list()\n"
           "        self.account.x()\n")
    assert missing("pod", {"pod.py": pod}) == {"account": ["pod.py"]}
    waiter = "class W:\n    uses = (Account,)\n"
    assert missing("pod", {"pod.py": pod, "pod_waiter.py": waiter}) == {}
    # A read only some modules can reach counts for those only.
    logs = {"log_report.py": "def f(backend):\n    backend.endpoints.workers()\n", "pod_waiter.py": waiter}
    assert missing("pod", {"pod.py": pod, **logs}) == {}
    assert missing("endpoint", {"endpoint.py": "class M:\n    uses = (Account,)\n", **logs}) == {
        "endpoints": ["log_report.py"]}
