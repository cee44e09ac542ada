# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The input rules checked before any API call (names, ports, env, sizes, data centers)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.endpoint_inputs import EndpointInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import (
    NamedInput,
    TemplateInput,
    check_ports,
    name_problem,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.pod_inputs import ClusterInput, PodInput
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import input_problem


@pytest.mark.parametrize("name", ["trainer-1", "web", "My PyTorch Template", "a" * 191, "ünïcode ok"])
def test_ordinary_names_pass(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("", "must not be empty"),
        ("t ", "leading or trailing whitespace"),
        (" t", "leading or trailing whitespace"),
        ("t\n", "leading or trailing whitespace"),
        ("a\tb", "control character"),
        ("a\u200bb", "invisible formatting character"),
        ("a" * 192, "at most 191 characters (it has 192)"),
    ],
)
def test_names_that_could_never_be_found_again_are_refused(name, needle):
    assert needle in name_problem(name)


@given(st.text(max_size=40))
def test_a_name_that_passes_reads_back_unchanged(name):
    # What makes a second pod: a name that passes but differs from the trimmed name a lookup compares against.
    if name_problem(name) is None:
        assert name.strip() == name and name


@given(
    st.lists(
        st.tuples(st.integers(min_value=1, max_value=65535), st.sampled_from(["http", "tcp"])),
        unique_by=lambda item: item[0],
        max_size=6,
    )
)
def test_well_formed_port_lists_pass_unchanged(entries):
    ports = [f"{number}/{protocol}" for number, protocol in entries]
    assert check_ports(ports) == ports


@given(st.text(max_size=12))
def test_any_port_entry_that_passes_is_number_slash_protocol(entry):
    try:
        (cleaned,) = check_ports([entry])
    except ValueError as error:
        assert "ports entry" in str(error)
        return
    number, protocol = cleaned.split("/")
    assert 1 <= int(number) <= 65535 and protocol in ("http", "tcp")


def test_pod_input_reports_the_first_broken_rule_and_converts_numbers_in_env():
    ok, problem = input_problem(PodInput, {"name": "t", "env": {"THREADS": 4, "RATE": 0.5}, "volume_gb": 0})
    assert problem is None and ok.env == {"THREADS": "4", "RATE": "0.5"}
    for params, needle in (
        ({"gpu_count": 0}, "gpu_count must be at least 1"),
        ({"gpu_count": 17}, "gpu_count must be at most 16"),
        ({"volume_gb": 5}, "volume_gb must be at least 10 GB"),
        ({"vcpu_count": 6}, "vcpu_count must be a power of two"),
        ({"env": {"A": None}}, "env value of A must be a string"),
        ({"env": {"A": True}}, "got bool True"),
        ({"env": {"A": float("nan")}}, "env value of A"),
        ({"env": {"1A": "x"}}, "not a valid environment variable name"),
        ({"data_center_ids": ["us-tx-3"]}, "not a RunPod data center id"),
    ):
        validated, problem = input_problem(PodInput, params)
        assert validated is None and needle in problem, params
    assert "container_disk_gb must be at least 1" in input_problem(TemplateInput, {"container_disk_gb": 0})[1]
    assert "leading or trailing" in input_problem(EndpointInput, {"name": "ep "})[1]
    # Options a module does not have are simply absent.
    assert input_problem(TemplateInput, {"name": "x"})[1] is None


@pytest.mark.parametrize(
    "option, value",
    [
        ("name", "x\n"),
        ("ports", ["8888"]),
        ("env", {"A": ["1"]}),
        ("container_disk_gb", 0),
        ("data_center_ids", ["us-tx-3"]),
        ("volume_gb", 5),
    ],
)
def test_an_option_several_input_models_take_is_refused_with_one_message(option, value):
    models = [model for model in (PodInput, TemplateInput, EndpointInput, ClusterInput, NamedInput)
              if option in model.model_fields]
    problems = {model.__name__: input_problem(model, {option: value})[1] for model in models}
    assert len(models) >= 2 and None not in problems.values(), problems
    assert len(set(problems.values())) == 1, problems


def test_the_container_fields_are_declared_once_for_every_spec_and_view():
    from ansible_collections.runpod.cloud.plugins.module_utils._api import inputs as _inputs
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import ClusterSpec
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import (
        TEMPLATE,
        TemplateView,
        container_rows,
    )
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import ENDPOINT, EndpointSpec
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD, PodSpec, PodView

    container = {row.name for row in container_rows()}
    # Every spec and view of a containerized resource has the container fields, from the one declaration.
    for model in (PodSpec, PodView, TemplateView, EndpointSpec, ENDPOINT.View):
        assert container <= set(model.model_fields), model
    assert container - {"registry_id"} <= set(ClusterSpec.model_fields)
    for table in (POD, TEMPLATE, ENDPOINT):
        assert [row.body for row in table.rows if row.name in container] == [row.body for row in container_rows()]
    for model in (PodInput, TemplateInput, ClusterInput):
        assert issubclass(model, _inputs._ContainerInput), model
    assert EndpointSpec(name="e").env is None
    assert PodSpec(name="p", image="i", gpu_type_ids=["g"]).env == {}


def _resource_modules():
    """Every module built on ResourceModule (they find their resource by id or by name), from the modules on disk."""
    import importlib
    from pathlib import Path

    from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule

    found = {}
    for path in sorted((Path(__file__).resolve().parents[4] / "plugins" / "modules").glob("*.py")):
        module = importlib.import_module(f"ansible_collections.runpod.cloud.plugins.modules.{path.stem}")
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__ and issubclass(value, ResourceModule):
                found[path.stem] = value
    return found


RESOURCE_MODULES = _resource_modules()


def test_the_modules_that_find_by_name_are_all_found():
    assert {"pod", "template", "endpoint", "cluster", "network_volume", "container_registry"} <= set(RESOURCE_MODULES)


@pytest.mark.parametrize("name", sorted(RESOURCE_MODULES))
def test_every_module_that_finds_by_name_checks_the_name_before_any_call(name):
    # A stray space would create a second resource on the rerun without it (and, for a cluster, bill its nodes).
    runner = RESOURCE_MODULES[name]
    assert runner.input_model is not None and "name" in runner.input_model.model_fields
    assert "leading or trailing whitespace" in input_problem(runner.input_model, {"name": "train "})[1]


def test_a_cluster_checks_its_nodes_containers_as_a_pods():
    for option, value in (("ports", ["22"]), ("env", {"1BAD": "x"}), ("volume_gb", 5), ("container_disk_gb", 0)):
        assert input_problem(ClusterInput, {option: value})[1] == input_problem(PodInput, {option: value})[1]
    assert input_problem(ClusterInput, {"name": "train", "ports": ["8888/http"], "volume_gb": 0})[1] is None
