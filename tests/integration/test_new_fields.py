# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The autumn 2026 fields against the simulator, in two rounds of the same module calls (in this process,
helpers.in_process): the exec-form command on a template (with no mounts: the answer omits ``mounts``), a pod (with
the host floors, and its GPU totals in the result), an endpoint created without a timeout (read back as 0) and a
cluster from a template id; the second round changes nothing. A create body over RunPod's limit is refused before any
call. The subject is what the modules send and read back; the targets run these modules through ansible-playbook."""

from __future__ import annotations

import httpx
import pytest
from helpers.in_process import ModuleRuns

pytestmark = pytest.mark.timeout(240)

GPU = "NVIDIA GeForce RTX 4090"
CLUSTER_GPU = "NVIDIA H100 80GB HBM3"
TASKS = {
    "template": ("template", {"name": "nf-tpl", "image": "my-org/trainer:1", "ports": ["22/tcp"],
                              "cmd": ["sleep", "infinity"], "entrypoint": []}),
    # The cheapest 24 GB types come with less host RAM and fewer vCPUs per GPU: RunPod (the simulator) refuses
    # them with the floors, and the create goes on to a type whose hosts meet them.
    "pod": ("pod", {"name": "nf-pod", "image": "my-org/app:1", "gpu_requirements": {
        "min_memory_gb": 24, "min_ram_per_gpu_gb": 60, "min_vcpus_per_gpu": 16},
        "entrypoint": ["python", "-u"], "cmd": ["-m", "http.server", "8000"]}),
    "endpoint": ("endpoint", {"name": "nf-ep", "image": "my-org/worker:1", "gpu_type_ids": [GPU],
                              "cmd": ["python", "handler.py"], "workers_min": 0}),
    # template_id: the first round's template's id (filled in by run_round).
    "cluster": ("cluster", {"name": "nf-cl", "gpu_type_id": CLUSTER_GPU, "pod_count": 2}),
}


def run_round(result: ModuleRuns, round_no: int) -> None:
    for key, (module, args) in TASKS.items():
        if key == "cluster":
            args = {**args, "template_id": result.task_result("template 1")["template"]["id"]}
        result.run(f"{key} {round_no}", module, args)


def test_new_fields_round_trip_without_a_diff_and_a_large_body_is_refused(sim, capsys):
    big_env = {f"VAR_{i}": "x" * 1000 for i in range(105)}
    big_pod = {"name": "nf-big", "image": "my-org/app:1", "gpu_type_ids": [GPU], "env": big_env}
    result = ModuleRuns(sim, capsys)
    run_round(result, 1)
    run_round(result, 2)
    result.run("too large", "pod", big_pod)
    assert result.failed() <= {"too large"}
    first = {key: result.task_result(f"{key} 1") for key in TASKS}
    second = {key: result.task_result(f"{key} 2") for key in TASKS}
    assert all(first[key]["changed"] is True for key in TASKS), first
    assert {key: second[key]["changed"] for key in TASKS} == dict.fromkeys(TASKS, False), second

    template = second["template"]["template"]
    assert (template["cmd"], template["entrypoint"]) == (["sleep", "infinity"], [])
    pod = first["pod"]["pod"]
    # The floors went with the create: the cheaper types were refused, and the pod's hosts meet them.
    assert len(first["pod"]["placement"]["attempts"]) > 1, first["pod"]["placement"]
    assert pod["gpu"]["memory_gb"] >= 60 * pod["gpu"]["count"] and pod["gpu"]["vcpu_count"] >= 16 * pod["gpu"]["count"]
    read = httpx.get(f"{sim.urls['api_v2']}/pods/{pod['id']}", headers={"Authorization": f"Bearer {sim.api_key}"},
                     timeout=10).json()
    assert (read["entrypoint"], read["cmd"]) == (["python", "-u"], ["-m", "http.server", "8000"])
    endpoint = second["endpoint"]["endpoint"]
    assert endpoint["execution_timeout_ms"] is None and endpoint["cmd"] == ["python", "handler.py"]
    # Named by templateId (not spread): the cluster keeps the link.
    assert first["cluster"]["cluster"]["template_id"] == template["id"]

    refused = result.task_result("too large")
    assert refused["failed"] is True and refused["code"] == "bad_request"
    assert "above the 102,400 RunPod accepts" in refused["msg"] and "env makes" in refused["msg"]
    assert sim.admin.count("POST", r"^/v2/pods$", status=413) == 0
    assert all(entry["name"] != "nf-big" for entry in sim.admin.pods())
