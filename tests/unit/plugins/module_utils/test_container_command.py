# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The autumn 2026 fields (docs/dev/api-notes.md, sections 7.3-7.5): the exec-form command on every container, the
pod's host floors and GPU totals, the 413 limit refused before the call, a cluster by ``templateId``, the build reads,
and the two quirks read without a perpetual diff."""

from __future__ import annotations

import random
from urllib.parse import parse_qs

import httpx
import payloads
import pytest
from helpers.fakes import GPU, FakeClock, full_backend, pod_view
from payloads import Router

from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import cluster_create_body
from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import endpoint_body
from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import (
    body_size_problem,
    pod_create_body,
    pod_update_body,
)
from ansible_collections.runpod.cloud.plugins.module_utils._rules import endpoint_rules, pod_rules
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import ClusterSpec
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TEMPLATE, TemplateView
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import ENDPOINT
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD, PodSpec
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod as describe
from ansible_collections.runpod.cloud.plugins.modules.pod import ARGUMENT_SPEC as POD_SPEC

API = "https://rest.example.test/v2"
H100 = "NVIDIA H100 80GB HBM3"


def backend_with(router):
    opts = {"api_key": "k-test-123456", "api_url": API, "serverless_url": "https://sls.example.test/sls"}
    return full_backend(opts, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def pod_params(**given):
    values = {option: spec.get("default") for option, spec in POD_SPEC.items()}
    values.update(name="web", image="img:1", gpu_type_ids=[GPU])
    values.update(given)
    return values


# -- bodies -----------------------------------------------------------------------------------------------------
def test_a_pod_create_sends_the_exec_form_and_the_host_floors():
    spec = PodSpec(name="web", image="img:1", cmd=["-m", "http.server"], entrypoint=["python"],
                   gpu_requirements={"min_memory_gb": 24, "min_ram_per_gpu_gb": 32, "min_vcpus_per_gpu": 8})
    body = pod_create_body(spec, GPU)
    assert (body["cmd"], body["entrypoint"]) == (["-m", "http.server"], ["python"]) and "args" not in body
    assert body["gpu"] == {"id": GPU, "count": 1, "minRamPerGpu": 32, "minVcpuCountPerGpu": 8}
    plain = pod_create_body(PodSpec(name="web", image="img:1", gpu_type_ids=[GPU], cmd=[]), GPU)
    assert "cmd" not in plain and plain["gpu"] == {"id": GPU, "count": 1}  # [] is no command on create


def test_an_update_clears_with_an_empty_list_and_sends_arrays_as_lists():
    assert pod_update_body({"cmd": [], "entrypoint": ("sh", "-c")}) == {"cmd": [], "entrypoint": ["sh", "-c"]}
    assert TEMPLATE.body({"cmd": ["a"], "entrypoint": []}, creating=False) == {"cmd": ["a"], "entrypoint": []}
    assert endpoint_body({"cmd": ["serve"], "entrypoint": []}, creating=False) == {"cmd": ["serve"], "entrypoint": []}
    created = endpoint_body({"name": "e", "gpu_pools": ["ADA_24"], "cmd": ["serve"], "entrypoint": []}, creating=True)
    assert created["cmd"] == ["serve"] and "entrypoint" not in created


def test_a_body_over_the_limit_names_the_option_that_filled_it():
    big_env = {f"K{i}": "v" * 1000 for i in range(110)}
    problem = body_size_problem(pod_create_body(PodSpec(name="web", image="img:1", gpu_type_ids=[GPU], env=big_env),
                                                GPU))
    assert problem.startswith("the create body would be 1") and "above the 102,400 RunPod accepts" in problem
    assert "; env makes 1" in problem and "nothing was created" in problem
    huge_args = pod_create_body(PodSpec(name="web", image="img:1", gpu_type_ids=[GPU], docker_args="x" * 102_400),
                                GPU)
    assert "docker_args makes 102,402 of them" in body_size_problem(huge_args)
    assert body_size_problem(pod_create_body(PodSpec(name="web", image="img:1", gpu_type_ids=[GPU]), GPU)) is None
    assert body_size_problem({"env": "x" * 10}, limit=12) is not None  # the limit is bytes of compact JSON


def test_a_create_over_the_limit_makes_no_call():
    router = Router()  # any request would fail the test: no route answers it
    backend = backend_with(router)
    spec = PodSpec(name="web", image="img:1", gpu_type_ids=[GPU], cmd=["y" * 200_000])
    with pytest.raises(ValueError, match="cmd makes"):
        backend.pods.create(spec)
    assert router.calls == []


def test_a_cluster_names_its_template_when_the_task_adds_nothing():
    template = TemplateView(id="t1", image="registry.example.com/private:1", ports=["22/tcp"], docker_args="x")
    body = cluster_create_body(ClusterSpec(name="c", gpu_type_id=H100, template_id="t1", ports=["22/tcp"]), template)
    assert body == {"name": "c", "type": "TRAINING", "compute": {"gpuTypeId": H100, "gpuCountPerPod": 1,
                                                                 "podCount": 2},
                    "templateId": "t1", "startSsh": True}
    # A setting of the task's own (here the exec form) spreads the template instead, its args left out.
    spread = cluster_create_body(ClusterSpec(name="c", gpu_type_id=H100, template_id="t1", cmd=["train.py"]), template)
    assert "templateId" not in spread and spread["image"] == template.image
    assert spread["cmd"] == ["train.py"] and "args" not in spread
    # A template without 22/tcp cannot give SSH by itself: spread, with 22/tcp added.
    bare = TemplateView(id="t2", image="img", ports=[])
    assert cluster_create_body(ClusterSpec(name="c", gpu_type_id=H100, template_id="t2"), bare)["ports"] == ["22/tcp"]


# -- reads and the quirks -----------------------------------------------------------------------------------------
def test_a_pod_reads_its_gpu_totals_and_command_arrays():
    raw = payloads.v2_pod(gpu={"id": GPU, "count": 2, "vcpuCount": 32, "memory": 124},
                          args='{"entrypoint":["python"],"cmd":["x.py"]}', entrypoint=["python"], cmd=["x.py"])
    pod = POD.read(raw)
    assert (pod.gpu_vcpu_count, pod.gpu_memory_gb, pod.cmd, pod.entrypoint) == (32, 124, ["x.py"], ["python"])
    assert describe(pod)["gpu"] == {"type": GPU, "count": 2, "vcpu_count": 32, "memory_gb": 124}
    older = POD.read(payloads.v2_pod())  # an answer without the new keys
    assert (older.gpu_vcpu_count, older.cmd, older.entrypoint) == (None, None, None)


def test_an_endpoint_created_without_timeout_reads_no_timeout_and_no_diff():
    endpoint = ENDPOINT.read(payloads.v2_endpoint(timeout=0, cmd=["serve"], entrypoint=[]))
    assert endpoint.execution_timeout_ms is None
    params = {"name": "inference", "execution_timeout_ms": None, "cmd": ["serve"], "entrypoint": []}
    wanted = endpoint_rules.wanted_fields(params, None)
    assert endpoint_rules.endpoint_changes(endpoint, wanted, params) == {}
    assert ENDPOINT.read(payloads.v2_endpoint(timeout=600000)).execution_timeout_ms == 600000
    changed = endpoint_rules.endpoint_changes(endpoint, endpoint_rules.wanted_fields(
        {**params, "cmd": ["serve", "--fast"], "execution_timeout_ms": 1000}, None), params)
    assert changed == {"cmd": ["serve", "--fast"], "execution_timeout_ms": 1000}


def test_a_template_without_mounts_reads_and_compares_clean():
    raw = payloads.v2_template(cmd=["sleep", "infinity"], entrypoint=[])
    del raw["mounts"]  # the quirk: no mounts key at all
    template = TEMPLATE.read(raw)
    wanted = TEMPLATE.wanted({"image": "runpod/pytorch:2.1.0", "serverless": False, "container_disk_gb": 40,
                              "env": {"A": "1"}, "ports": ["22/tcp"], "docker_args": None, "cmd": ["sleep", "infinity"],
                              "entrypoint": [], "registry_id": None})
    assert TEMPLATE.changes(wanted, template) == {}
    assert TEMPLATE.changes({**wanted, "cmd": ["sleep", "1"]}, template) == {"cmd": ["sleep", "1"]}


def test_pod_changes_compare_the_exec_form_as_lists():
    pod = pod_view(cmd=["a", "b"], entrypoint=[])
    assert pod_rules.pod_changes(pod_params(cmd=["a", "b"], entrypoint=[]), pod) == {}
    assert pod_rules.pod_changes(pod_params(cmd=["a"]), pod) == {"cmd": ["a"]}
    assert pod_rules.pod_changes(pod_params(entrypoint=["sh"]), pod) == {"entrypoint": ["sh"]}
    assert pod_rules.pod_changes(pod_params(cmd=[]), pod_view()) == {}  # none read back and none wanted
    assert pod_rules.pod_spec(pod_params(cmd=["x"])).cmd == ["x"]


# -- builds -------------------------------------------------------------------------------------------------------
def build(build_id, status="COMPLETED", **extra):
    return {"id": build_id, "status": status, "commitHash": "abc1234", "commitMessage": "bump", "branch": "main",
            "commitDate": "2026-06-01T12:00:00Z", "imageName": "registry.runpod.net/ep:abc1234",
            "startedAt": "2026-06-01T12:00:05Z", "completedAt": None, "error": None, **extra}


def test_the_newest_builds_walk_short_pages_until_enough():
    pages = [[build("b5", "BUILDING")], [], [build("b4", "FAILED", error="tests failed"), build("b3")], [build("b2")]]
    seen = []

    def answer(request):
        query = {key: values[-1] for key, values in parse_qs(request.url.query.decode()).items()}
        seen.append(query)
        index = int(query.get("cursor", "c0")[1:])
        more = index + 1 < len(pages)
        return httpx.Response(200, json={"builds": pages[index],
                                         "pagination": {"nextCursor": f"c{index + 1}", "hasNextPage": more}})

    router = Router().add("GET", "/v2/serverless/ep1/builds", answer)
    builds = backend_with(router).endpoints.builds("ep1", latest=2)
    assert [(b.id, b.status, b.error) for b in builds] == [("b5", "BUILDING", None), ("b4", "FAILED", "tests failed")]
    assert seen == [{"limit": "2"}, {"limit": "2", "cursor": "c1"}, {"limit": "2", "cursor": "c2"}]  # not page 4
    assert (builds[1].commit, builds[1].branch) == ("abc1234", "main")
    assert builds[1].image == "registry.runpod.net/ep:abc1234"


def test_one_build_and_the_release_it_produced():
    router = (
        Router()
        .add("GET", "/v2/serverless/ep1/builds/b%2F1", build("b/1", "TEST_FAILED", error="pytest: 2 failed"))
        .add("GET", "/v2/serverless/ep1/releases",
             {"endpointVersion": 5, "rollout": {}, "releases": [
                 {"id": "r5", "version": 5, "source": "MANUAL", "buildId": None},
                 {"id": "r4", "version": 4, "source": "GIT_BUILD", "buildId": "b3"}],
              "pagination": {"nextCursor": None, "hasNextPage": False}})
    )
    backend = backend_with(router)
    one = backend.endpoints.build("ep1", "b/1")
    assert (one.id, one.status, one.error) == ("b/1", "TEST_FAILED", "pytest: 2 failed")
    assert backend.endpoints.build_release("ep1", "b3") == 4
    assert backend.endpoints.build_release("ep1", "b9") is None
    assert backend.endpoints.release("ep1").build_id is None  # the current (v5) is a manual release
