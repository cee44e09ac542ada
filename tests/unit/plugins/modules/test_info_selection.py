"""One id/name selection for every ``_info`` module (``RunPodModule.select``, ``specs.INFO_SELECTION_SPEC``) and
hint names taken from the modules that exist (``_module.hints``)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from helpers.fakes import run_module

from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import INFO_SELECTION_SPEC

MODULES = Path(__file__).resolve().parents[4] / "plugins" / "modules"
EXISTING = {path.stem for path in MODULES.glob("*.py") if path.stem != "__init__"}
# Every _info module that selects by id or name; pod_info adds ids/names to the same rule.
SELECTING = ("cluster_info", "endpoint_info", "network_volume_info", "pod_info", "secret_info")


def _module(name):
    return importlib.import_module(f"ansible_collections.runpod.cloud.plugins.modules.{name}")


def test_every_info_module_with_id_and_name_is_in_the_list():
    with_both = {name for name in EXISTING if name.endswith("_info")
                 and {"id", "name"} <= set(_module(name).ARGUMENT_SPEC)}
    assert with_both == set(SELECTING)


@pytest.mark.parametrize("name", SELECTING)
def test_id_and_name_are_refused_together_before_any_call(capsys, monkeypatch, name):
    # backend None: building a backend (any API call) fails the test.
    result = run_module(_module(name), None, capsys, monkeypatch, id="x-1", name="x")
    assert result["failed"] is True
    assert "mutually exclusive" in result["msg"] and "id" in result["msg"] and "name" in result["msg"]


def _documented_options(name):
    """The module's options with its doc fragments merged in, as ansible-doc and validate-modules see them."""
    import yaml

    doc = yaml.safe_load(_module(name).DOCUMENTATION)
    options = dict(doc.get("options") or {})
    for fragment in doc["extends_documentation_fragment"]:
        module, _dot, var = fragment.removeprefix("runpod.cloud.").partition(".")
        text = getattr(importlib.import_module(f"ansible_collections.runpod.cloud.plugins.doc_fragments.{module}")
                       .ModuleDocFragment, var or "DOCUMENTATION")
        options = {**(yaml.safe_load(text).get("options") or {}), **options}
    return options


@pytest.mark.parametrize("name", SELECTING)
def test_id_and_name_are_documented_as_mutually_exclusive(name):
    options = _documented_options(name)
    assert options["id"]["type"] == options["name"]["type"] == "str"
    assert any("Mutually exclusive with O(name)" in line for line in options["id"]["description"])


@pytest.mark.parametrize("name", ("cluster_info", "endpoint_info", "network_volume_info", "secret_info"))
def test_the_selection_is_documented_once_in_the_fragment(name):
    # One home: the module extends the section that carries the fragment paired with INFO_SELECTION_SPEC and
    # documents neither option itself.
    assert "runpod.cloud.common.INFO_SELECTION" in _module(name).DOCUMENTATION
    assert "\n  id:\n" not in _module(name).DOCUMENTATION


@pytest.mark.parametrize("name", ("cluster_info", "endpoint_info", "network_volume_info", "secret_info"))
def test_the_selection_spec_is_the_shared_one(name):
    spec = _module(name).ARGUMENT_SPEC
    assert {key: spec[key] for key in INFO_SELECTION_SPEC} == INFO_SELECTION_SPEC


def test_every_module_a_hint_names_exists():
    for module, info in _base.INFO_MODULES.items():
        assert module in EXISTING and info in EXISTING
    # and every _info module of a resource module is in the map, so no hint falls back needlessly
    for name in EXISTING:
        if name.endswith("_info") and name[:-5] in EXISTING:
            assert _base.INFO_MODULES[name[:-5]] == name


@pytest.mark.parametrize("module", ["pod", "endpoint", "cluster", "network_volume", "template", "container_registry"])
def test_hints_name_only_modules_that_exist(module):
    for hint in (_base.info_hint(module, "id=x-1"), _base.delete_hint(module, "id=x-1")):
        named = hint.split()[0]
        assert named.startswith("runpod.cloud.") and named[len("runpod.cloud."):] in EXISTING, hint


def test_a_module_without_an_info_module_is_named_itself_in_check_mode():
    assert _base.info_hint("container_registry", "id=r-1") == "runpod.cloud.container_registry id=r-1 in check mode"
    assert _base.info_hint("template", "name=t") == "runpod.cloud.template name=t in check mode"
    assert _base.info_hint("pod", "id=p-1") == "runpod.cloud.pod_info id=p-1"
