"""What a module process imports (docs/dev/architecture.md, "Import cost").

A read-only task pays for what its module imports in every process Ansible starts, so the read-only ``_info``
modules import neither pydantic (the input rules' library) nor the code of what they do not do unless asked:
creates (placement), waits (the poll engine) and log reads. Each module is imported in a fresh interpreter,
as Ansible's module process is, and its ``sys.modules`` checked; ``test_the_check_sees_a_heavy_import`` shows the
check fails when a module does import one of them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers.paths import COLLECTIONS_ROOT

PACKAGE = "ansible_collections.runpod.cloud.plugins"
UTILS = PACKAGE + ".module_utils."
READ_ONLY = ("pod_info", "endpoint_info", "cluster_info", "network_volume_info", "billing_info", "secret_info")
# Loaded only by a task that needs them.
HEAVY = (
    "pydantic",
    UTILS + "_api.inputs",
    UTILS + "_api.account_inputs",
    UTILS + "_module.log_report",
    UTILS + "_backend.log_reads",
    UTILS + "_engine.poll",
    UTILS + "_engine.pod_pollers",
    UTILS + "_backend.placement",
    UTILS + "_backend.account",
    UTILS + "_module.fleet",
)


def heavy_imports_of(module: str) -> list[str]:
    """The ``HEAVY`` names in ``sys.modules`` after importing ``module`` in a fresh interpreter."""
    code = (
        "import json, sys\n"
        f"import {module}\n"
        f"print(json.dumps(sorted(name for name in {HEAVY!r} if name in sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env={"PYTHONPATH": str(COLLECTIONS_ROOT)}, capture_output=True, text=True,
        check=True, timeout=60,
    )
    return json.loads(done.stdout)


# The account API is what these read: a module imports the backend classes it uses (``RunPodModule.uses``).
OWN = {name: [UTILS + "_backend.account"] for name in ("network_volume_info", "billing_info")}


@pytest.mark.parametrize("name", READ_ONLY)
def test_a_read_only_module_imports_nothing_it_does_not_use(name):
    assert heavy_imports_of(f"{PACKAGE}.modules.{name}") == OWN.get(name, [])


# The wait engine's pollers and the log reads load where a wait runs (the waiter's ``wait_for``): most module runs
# hand their wait to the action plugin, and a pod task's process costs about 50 ms less CPU without them.
WAIT_ONLY = {UTILS + "_engine.pod_pollers", UTILS + "_module.log_report", UTILS + "_backend.log_reads"}


def test_the_pod_module_loads_its_input_rules_but_not_the_fleet_the_account_api_or_the_wait_machinery():
    # This also shows the check sees a heavy import: the module that creates pods loads the input rules (pydantic).
    loaded = set(heavy_imports_of(f"{PACKAGE}.modules.pod"))
    assert {"pydantic", UTILS + "_api.inputs"} <= loaded
    assert not loaded & {UTILS + "_module.fleet", UTILS + "_backend.account", UTILS + "_backend.placement"}
    assert not loaded & WAIT_ONLY, loaded & WAIT_ONLY


def test_the_endpoint_module_loads_no_log_reads_before_a_wait():
    assert not set(heavy_imports_of(f"{PACKAGE}.modules.endpoint")) & WAIT_ONLY


def test_pydantic_is_required_exactly_when_the_process_imported_its_guard(monkeypatch):
    # RunPodModule fails with missing_required_lib("pydantic") only where an import needed pydantic (_api.inputs,
    # the input rules); a read-only module process never imports it, so it never asks for it.
    from ansible_collections.runpod.cloud.plugins.module_utils._api import inputs
    from ansible_collections.runpod.cloud.plugins.module_utils._module import base

    monkeypatch.setattr(inputs, "HAS_PYDANTIC", False)
    monkeypatch.setattr(inputs, "PYDANTIC_IMPORT_ERROR", "Traceback: no pydantic")
    assert ("pydantic", "Traceback: no pydantic") in base.missing_libraries()
    monkeypatch.delitem(sys.modules, inputs.__name__)
    assert all(missing[0] != "pydantic" for missing in base.missing_libraries())
