# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Unit tests for runpod.cloud.endpoint, endpoint_info and template: decisions, with a scripted fake backend."""

from __future__ import annotations

import json
import re
import threading

import pytest
from helpers.fakes import FakeBackend, run_module

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.endpoint_inputs import EndpointInput, endpoint_problems
from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import endpoint_body
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import input_problem
from ansible_collections.runpod.cloud.plugins.module_utils._rules import endpoint_rules as _endpoints
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TemplateView
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import EndpointView, Health
from ansible_collections.runpod.cloud.plugins.modules import endpoint as endpoint_module
from ansible_collections.runpod.cloud.plugins.modules import endpoint_info as info_module
from ansible_collections.runpod.cloud.plugins.modules import template as template_module

run = run_module


def endpoint_view(**fields):
    base = dict(id="ep-1", name="ep", template_id="tpl-1", gpu_pools=["ADA_24"], gpu_count=1, workers_min=1,
                workers_max=3, idle_timeout=5, scaler_type="QUEUE_DELAY", scaler_value=4.0, flashboot=False,
                execution_timeout_ms=300000)
    base.update(fields)
    return EndpointView(**base)


# -- pure decisions ------------------------------------------------------------------------------------------


def test_gpu_types_map_to_deduplicated_pools_and_pool_ids_pass():
    field, pools = _endpoints.gpu_selection(["NVIDIA GeForce RTX 4090", "NVIDIA L4", "AMPERE_80", "NVIDIA RTX A4000"])
    assert field == "gpu_pools"
    assert pools == ["ADA_24", "AMPERE_80", "AMPERE_16"]


def test_unknown_gpu_types_are_refused_with_a_suggestion():
    # The rule's home is EndpointInput, checked before gpu_selection ever runs.
    problem = input_problem(EndpointInput, {"gpu_type_ids": ["NVIDIA GeForce RTX 4091"]})[1]
    assert re.search(r"unknown GPU type\(s\) 'NVIDIA GeForce RTX 4091'.*did you mean", problem)


def test_gpu_types_without_a_serverless_pool_are_refused():
    problem = input_problem(EndpointInput, {"gpu_type_ids": ["NVIDIA GeForce RTX 3070"]})[1]
    assert "not offered to serverless endpoints" in problem


def test_pool_ids_alone_are_the_selection():
    assert _endpoints.gpu_selection(["ADA_24", "AMPERE_16", "ADA_24"]) == ("gpu_pools", ["ADA_24", "AMPERE_16"])


@pytest.mark.parametrize(
    ("value", "scaler_type", "expected"),
    [(4, "QUEUE_DELAY", 4.0), (2.5, "QUEUE_DELAY", 2.5), (3.0, "REQUEST_COUNT", 3), (2.9, "request_count", 2),
     (2.5, None, 2.5), (None, "QUEUE_DELAY", None)],
)
def test_scaler_number_matches_what_the_api_stores(value, scaler_type, expected):
    result = _endpoints.scaler_number(value, scaler_type)
    assert result == expected and type(result) is type(expected)


def test_create_needs_a_name_a_container_and_workers():
    assert EndpointInput.create_needs == ("name", ("image", "template_id"), ("gpu_type_ids", "cpu_flavor_ids"))


def test_validate_params_reports_every_problem():
    problems = endpoint_problems(
        {"gpu_count": 0, "workers_min": 4, "workers_max": 2, "idle_timeout": 4000, "scaler_value": 0,
         "execution_timeout_ms": None})
    assert problems == [
        "gpu_count must be at least 1, got 0",
        "idle_timeout must be between 1 and 3600, got 4000",
        "scaler_value must be positive, got 0",
        "workers_min (4) must not be larger than workers_max (2)",
    ]


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({"scaler_type": "REQUEST_COUNT", "idle_timeout": 5}, "idle_timeout cannot be set beside scaler_type"),
        ({"allowed_cuda_versions": ["12.8"], "min_cuda_version": "12.1"}, "mutually exclusive"),
        ({"allowed_cuda_versions": ["12"]}, "major.minor"),
        ({"cpu_flavor_ids": ["cpu3c"], "min_cuda_version": "12.1"}, "GPU endpoints only"),
        ({"vcpu_count": 3}, "power of two"),
        ({"type": "LOAD_BALANCER", "scaler_type": "QUEUE_DELAY"}, "REQUEST_COUNT only"),
    ],
)
def test_validate_params_refuses_what_the_api_would(params, fragment):
    problems = endpoint_problems(params)
    assert len(problems) == 1 and fragment in problems[0]


def test_validate_params_takes_container_settings_and_a_rollout_wait():
    params = {"image": "x:1", "env": {"A": "1"}, "docker_args": "serve", "ports": ["8000/http"],
              "container_disk_gb": 20, "wait_for": "rollout"}
    assert endpoint_problems(params) == []


def changes(current, **params):
    return _endpoints.endpoint_changes(current, _endpoints.wanted_fields(params, None), params)


def test_changes_compare_container_settings_as_the_api_returns_them():
    current = endpoint_view(image="img:1", env={"A": "1"}, ports=["8000/http", "22/tcp"], docker_args=None,
                            container_disk_gb=20)
    same = dict(image="img:1", env={"A": 1}, ports=["22/tcp", "8000/http"], docker_args="", container_disk_gb=20)
    assert changes(current, **same) == {}  # env values as strings, ports as a set, "" args as none
    changed = {**same, "image": "img:2", "env": {}}
    assert changes(current, **changed) == {"image": "img:2", "env": {}}
    assert changes(current, template_id="other") == {}  # v2 keeps no template: nothing to compare


def test_changes_send_the_whole_cpu_selection_and_refuse_a_family_change():
    cpu = endpoint_view(gpu_pools=[], cpu_flavor_ids=["cpu3c"], vcpu_count=2)
    assert changes(cpu, vcpu_count=4) == {"vcpu_count": 4, "cpu_flavor_ids": ["cpu3c"]}
    with pytest.raises(_endpoints.RefusedError, match="CPU endpoint"):
        _endpoints.endpoint_changes(cpu, {"gpu_pools": ["ADA_24"]}, {})
    with pytest.raises(_endpoints.RefusedError, match="GPU endpoint"):
        changes(endpoint_view(), cpu_flavor_ids=["cpu3c"])


@pytest.mark.parametrize(
    ("current", "params", "fragment"),
    [
        ({"type": "QUEUE"}, {"type": "LOAD_BALANCER"}, "cannot change the type"),
        ({"scaler_type": "REQUEST_COUNT", "idle_timeout": None}, {"idle_timeout": 7}, "refuses idle_timeout"),
        ({"min_cuda_version": "12.1"}, {"allowed_cuda_versions": ["12.8"]}, "min_cuda_version: ''"),
        ({"allowed_cuda_versions": ["12.8"]}, {"min_cuda_version": "12.1"}, "allowed_cuda_versions: []"),
    ],
)
def test_changes_refuse_what_the_patch_would_be_refused_for(current, params, fragment):
    with pytest.raises(_endpoints.RefusedError, match=re.escape(fragment)):
        changes(endpoint_view(**current), **params)


def test_changes_clearing_the_floor_with_a_new_set_is_allowed():
    current = endpoint_view(min_cuda_version="12.1")
    cleared = changes(current, allowed_cuda_versions=["12.8"], min_cuda_version="")
    assert cleared == {"allowed_cuda_versions": ["12.8"], "min_cuda_version": ""}
    # The PATCH carries the explicit "" that clears the floor on v2.
    body = endpoint_body(cleared, creating=False)
    assert body["gpu"] == {"allowedCudaVersions": ["12.8"], "minCudaVersion": ""}


# -- endpoint module ----------------------------------------------------------------------------------------


def test_bad_input_fails_before_any_backend_call(capsys, monkeypatch):
    backend = FakeBackend()
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", gpu_type_ids=["NVIDIA GeForce RTX 3070"],
                 workers_min=5, workers_max=1)
    assert result["failed"] is True and result["code"] == "bad_request"
    assert "not offered to serverless endpoints" in result["msg"]
    assert backend.calls == []


def test_create_needs_template_and_gpus_and_makes_no_mutation(capsys, monkeypatch):
    backend = FakeBackend()
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep")
    assert result["code"] == "bad_request"
    assert "creating one needs image or template_id and gpu_type_ids" in result["msg"]
    assert backend.mutations() == []


def test_create_sends_pools_on_v2_and_builds_urls(capsys, monkeypatch):
    backend = FakeBackend()
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", template_id="tpl-1",
                 gpu_type_ids=["NVIDIA GeForce RTX 4090"], scaler_type="REQUEST_COUNT", scaler_value=2.0)
    assert result["changed"] is True
    created = backend.calls[-1]
    assert created[0] == "create_endpoint"
    assert created[1]["gpu_pools"] == ["ADA_24"] and created[1]["gpu_type_ids"] == []
    assert created[1]["scaler_value"] == 2
    assert result["endpoint"]["urls"]["runsync"] == "https://invoke.example.test/v2/ep-new/runsync"
    assert result["endpoint"]["health"] is None
    assert "ready_signal" not in result


def test_check_mode_create_plans_without_mutating(capsys, monkeypatch):
    backend = FakeBackend()
    result = run(endpoint_module, backend, capsys, monkeypatch, check_mode=True, diff=True, name="ep",
                 template_id="tpl-1", gpu_type_ids=["NVIDIA L4"], wait=True)
    assert result["changed"] is True
    assert result["endpoint"]["id"] is None and result["endpoint"]["gpu_pools"] == ["ADA_24"]
    assert result["diff"]["before"] == {}
    assert backend.mutations() == [] and not any(call[0] == "endpoint_health" for call in backend.calls)


def test_v2_scaler_value_change_carries_the_kept_scaler_type(capsys, monkeypatch):
    backend = FakeBackend(endpoints=[endpoint_view()])
    result = run(endpoint_module, backend, capsys, monkeypatch, diff=True, name="ep", scaler_value=6)
    assert result["changed"] is True
    assert backend.calls[-1] == ("update_endpoint", "ep-1", {"scaler_value": 6.0, "scaler_type": "QUEUE_DELAY"})
    assert result["diff"]["before"] == {"scaler_value": 4.0, "scaler_type": "QUEUE_DELAY"}


def test_unchanged_fields_in_any_order_make_no_update(capsys, monkeypatch):
    backend = FakeBackend(endpoints=[endpoint_view(data_center_ids=["EU-RO-1", "US-TX-3"])])
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", template_id="tpl-1",
                 gpu_type_ids=["NVIDIA L4", "NVIDIA GeForce RTX 4090"], data_center_ids=["US-TX-3", "EU-RO-1"],
                 scaler_value=4, workers_min=1, flashboot=False, network_volume_id="")
    assert result["changed"] is False
    assert backend.mutations() == []


def test_flashboot_and_a_fractional_queue_delay_are_compared(capsys, monkeypatch):
    backend = FakeBackend(endpoints=[endpoint_view(flashboot=False, scaler_value=4.0)])
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", flashboot=True, scaler_value=4.4)
    assert result["changed"] is True  # a QUEUE_DELAY keeps its fraction: 4.4 is not 4
    assert backend.mutations() == [
        ("update_endpoint", "ep-1", {"scaler_value": 4.4, "flashboot": True, "scaler_type": "QUEUE_DELAY"})]


def test_v2_request_count_ignores_idle_timeout(capsys, monkeypatch):
    backend = FakeBackend(endpoints=[endpoint_view(scaler_type="REQUEST_COUNT", scaler_value=1.0)])
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", idle_timeout=30)
    assert result["changed"] is False


def test_unknown_id_is_not_created(capsys, monkeypatch):
    backend = FakeBackend()
    result = run(endpoint_module, backend, capsys, monkeypatch, id="ep-x", name="ep", template_id="t",
                 gpu_type_ids=["NVIDIA L4"])
    assert result["code"] == "not_found" and result["id"] == "ep-x"
    assert "to create an endpoint, give name (and no id)" in result["msg"]
    assert backend.mutations() == []


def test_duplicate_names_fail_listing_ids(capsys, monkeypatch):
    backend = FakeBackend(endpoints=[endpoint_view(id="b"), endpoint_view(id="a")])
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", state="absent")
    assert result["code"] == "ambiguous" and result["ids"] == ["a", "b"]
    assert backend.mutations() == []


def test_absent_deletes_once_and_is_idempotent(capsys, monkeypatch):
    backend = FakeBackend(endpoints=[endpoint_view()])
    first = run(endpoint_module, backend, capsys, monkeypatch, name="ep", state="absent")
    second = run(endpoint_module, backend, capsys, monkeypatch, name="ep", state="absent")
    assert first["changed"] is True and first["endpoint"]["id"] == "ep-1"
    assert second["changed"] is False and second["endpoint"] is None
    assert backend.mutations() == [("delete_endpoint", "ep-1")]


def test_wait_success_reports_signal_and_counts(capsys, monkeypatch):
    health = [Health(ready=1, running=2, initializing=1)]
    backend = FakeBackend(endpoints=[endpoint_view()], health=health)
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", wait=True, wait_interval="10ms")
    assert result["changed"] is False
    assert result["ready_signal"] == "health_ready"  # no worker listed, none stale: /health's ready decides
    assert result["endpoint"]["health"] == {"ready": 1, "running": 2, "idle": 0, "initializing": 1,
                                            "throttled": 0, "unhealthy": 0}
    assert result["wait"]["polls"] == 1
    assert [call[0] for call in backend.calls if call[0].startswith("endpoint_")] == [
        "endpoint_health", "endpoint_workers"]
    assert "warnings" not in result


def test_wait_does_not_take_running_workers_on_health_alone(capsys, monkeypatch):
    health = [Health(ready=0, running=2, initializing=1)]
    backend = FakeBackend(endpoints=[endpoint_view()], health=health)
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", wait=True, wait_interval="10ms",
                 wait_timeout="50ms")
    assert result["failed"] is True and result["code"] == "wait_timeout"
    assert "ready_signal" not in result


def test_wait_forbidden_fails_at_once_with_the_endpoint_and_remedy(capsys, monkeypatch):
    health = [RunPodError("forbidden", 403, "access denied")]
    backend = FakeBackend(endpoints=[endpoint_view(workers_min=0)], health=health)
    result = run(endpoint_module, backend, capsys, monkeypatch, name="ep", wait=True, wait_interval="1h",
                 wait_timeout="2h")
    assert result["failed"] is True and result["code"] == "forbidden" and result["status"] == 403
    assert result["id"] == "ep-1" and result["endpoint"]["id"] == "ep-1"
    assert result["wait"]["polls"] == 1
    assert "runpod.cloud.endpoint id=ep-1 state=absent" in result["msg"]
    assert "endpoint ep-1 has workers_min 0" in json.dumps(result["warnings"])  # raw 2.19 warning events


# -- endpoint_info --------------------------------------------------------------------------------------------


class GatedHealthBackend(FakeBackend):
    """Health reads block until ``parties`` of them run at once (proves concurrency without sleeping)."""

    def __init__(self, endpoints, parties):
        super().__init__(endpoints=endpoints, health=[Health(ready=1)])
        self.barrier = threading.Barrier(parties, timeout=10)
        self.lock = threading.Lock()
        self.active = 0
        self.peak = 0
        self.endpoints.health = self.gated_health

    def gated_health(self, endpoint_id, attempts=1):
        with self.lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            self.barrier.wait()
            if endpoint_id == "e2":
                raise RunPodError("not_found", 404, "endpoint not found")
            return Health(ready=1, jobs={"inQueue": 2})
        finally:
            with self.lock:
                self.active -= 1


def test_info_reads_health_concurrently_and_keeps_failed_reads():
    endpoints = [endpoint_view(id=f"e{i}") for i in range(4)]
    backend = GatedHealthBackend(endpoints, parties=2)
    health = info_module.read_all_health(backend, [e.id for e in endpoints], max_workers=2)
    assert backend.peak == 2  # two at once (a serial loop would break the barrier), never more than the bound
    assert health["e2"] == (None, None, "endpoint not found (not_found)", (None, None))  # builds: none asked
    assert health["e0"][0].ready == 1


def test_info_module_lists_with_health(capsys, monkeypatch):
    backend = FakeBackend(endpoints=[endpoint_view(id="a"), endpoint_view(id="b", name="other")],
                          health=[Health(ready=1, jobs={"inQueue": 2})])
    result = run(info_module, backend, capsys, monkeypatch, check_mode=True)
    assert result["changed"] is False
    assert [entry["id"] for entry in result["endpoints"]] == ["a", "b"]
    assert result["endpoints"][0]["health"]["ready"] == 1 and result["endpoints"][0]["jobs"] == {"inQueue": 2}
    assert sum(1 for call in backend.calls if call[0] == "endpoint_health") == 2
    by_name = run(info_module, backend, capsys, monkeypatch, name="other")
    assert [entry["id"] for entry in by_name["endpoints"]] == ["b"]


# -- template ------------------------------------------------------------------------------------------------


def template_view(**fields):
    base = dict(id="t1", name="tpl", image="img:1", serverless=True, container_disk_gb=10, env={"A": "1"},
                ports=["8000/http", "22/tcp"], docker_args="python -u handler.py")
    base.update(fields)
    return TemplateView(**base)


def test_template_compares_ports_unordered_env_as_strings_and_args_by_tokens(capsys, monkeypatch):
    backend = FakeBackend(templates=[template_view()])
    result = run(template_module, backend, capsys, monkeypatch, name="tpl", image="img:1", env={"A": 1},
                 ports=["22/tcp", "8000/http"], docker_args="python  -u 'handler.py'")
    assert result["changed"] is False
    assert backend.mutations() == []


def test_template_update_sends_only_changed_fields(capsys, monkeypatch):
    backend = FakeBackend(templates=[template_view()])
    result = run(template_module, backend, capsys, monkeypatch, diff=True, name="tpl", image="img:2",
                 container_disk_gb=10)
    assert backend.mutations() == [("update_template", "t1", {"image": "img:2"})]
    assert result["diff"] == {"before": {"image": "img:1"}, "after": {"image": "img:2"}}


def test_template_serverless_flag_is_updated_in_place(capsys, monkeypatch):
    backend = FakeBackend(templates=[template_view()])
    result = run(template_module, backend, capsys, monkeypatch, name="tpl", image="img:1", serverless=False)
    assert result["changed"] is True and result.get("failed") is not True
    assert backend.mutations() == [("update_template", "t1", {"serverless": False})]


def test_template_present_needs_image_before_any_call(capsys, monkeypatch):
    backend = FakeBackend()
    result = run(template_module, backend, capsys, monkeypatch, name="tpl")
    assert result["failed"] is True and "image" in result["msg"]
    assert backend.calls == []


def test_template_create_defaults_serverless_false(capsys, monkeypatch):
    backend = FakeBackend()
    result = run(template_module, backend, capsys, monkeypatch, name="tpl", image="img:1")
    assert result["changed"] is True and result["template"]["id"] == "tpl-new"
    assert backend.calls[-1][1]["serverless"] is False
