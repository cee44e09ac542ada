# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Behaviour the OpenAPI document imposes, against the strict simulator (each case once failed on real RunPod).

1. an endpoint rerun sends no PATCH (a v2 Endpoint has no templateId to compare);
2. a CPU pod gets a vcpuCount, and a bad one or a pod volume is refused before any POST;
3. a change of only volume_mount_path moves the mount (no empty PATCH, no endless "changed");
4. wait_for ssh with no key that can reach the pod is refused before the create (own_sshd opts out).
"""

from __future__ import annotations

import json
import textwrap

import httpx

GPU = "NVIDIA GeForce RTX 4090"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com"


def play(*tasks: str) -> str:
    body = "\n".join(textwrap.indent(textwrap.dedent(task).strip("\n"), "    ") for task in tasks)
    return f"- hosts: localhost\n  gather_facts: false\n  tasks:\n{body}\n"


def task(name: str, module: str, args: dict, *, ignore_errors: bool = False) -> str:
    lines = [f"- name: {name}", f"  runpod.cloud.{module}: {json.dumps(args)}"]
    if ignore_errors:
        lines.append("  ignore_errors: true")
    return "\n".join(lines)


def v2_get(sim, path: str) -> dict:
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    return httpx.get(sim.urls["api_v2"] + path, headers=headers, timeout=10).json()


def test_v2_endpoint_rerun_sends_no_patch(sim, run_playbook, tmp_path):
    template = {"name": "tpl", "image": "runpod/worker:1", "serverless": True}
    endpoint = {
        "name": "ep",
        "template_id": "{{ tpl.template.id }}",
        "gpu_type_ids": ["ADA_24"],
        "workers_max": 2,
    }
    text = play(
        task("template", "template", template) + "\n  register: tpl",
        task("create", "endpoint", endpoint),
        task("rerun", "endpoint", endpoint),
    )
    result = run_playbook(tmp_path, text)
    assert result.rc == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.task_result("create")["changed"] is True
    rerun = result.task_result("rerun")
    assert rerun["changed"] is False and rerun["endpoint"]["template_id"] is None
    assert sim.admin.count("PATCH", r"^/v2/serverless/") == 0


def test_v2_cpu_pod_vcpus_and_volume_checked_before_any_post(sim, run_playbook, tmp_path):
    cpu = {"name": "cpu", "image": "runpod/base:1.0", "compute_type": "CPU", "cpu_flavor_ids": ["cpu3c"], "ssh": False}
    text = play(
        task("odd vcpus", "pod", {**cpu, "vcpu_count": 3}, ignore_errors=True),
        task("one vcpu", "pod", {**cpu, "vcpu_count": 1}, ignore_errors=True),
        task("volume", "pod", {**cpu, "volume_gb": 20}, ignore_errors=True),
        task("default vcpus", "pod", cpu),
    )
    result = run_playbook(tmp_path, text)
    assert result.rc == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for name, text_part in (("odd vcpus", "power of two"), ("one vcpu", "vcpu_count"), ("volume", "volume_gb")):
        refused = result.task_result(name)
        assert refused["failed"] is True and refused["code"] == "bad_request", name
        assert text_part in refused["msg"], refused["msg"]
    created = result.task_result("default vcpus")
    assert created["changed"] is True
    assert v2_get(sim, f"/pods/{created['pod']['id']}")["cpu"]["vcpuCount"] == 2
    assert sim.admin.count("POST", r"^/v2/pods$") == 1  # only the valid pod was posted


def test_volume_mount_path_alone_moves_the_mount_once(sim, run_playbook, tmp_path):
    pod = {"name": "vol", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], "volume_gb": 20}
    moved = {**pod, "volume_mount_path": "/data"}
    text = play(task("create", "pod", pod), task("move", "pod", moved), task("rerun", "pod", moved))
    result = run_playbook(tmp_path, text)
    assert result.rc == 0, result.stdout[-3000:] + result.stderr[-3000:]
    move = result.task_result("move")
    assert move["changed"] is True and move["updated_fields"] == ["volume_mount_path"]
    assert result.task_result("rerun")["changed"] is False
    assert sim.admin.count("PATCH", r"^/v2/pods/") == 1
    read = v2_get(sim, f"/pods/{move['pod']['id']}")
    assert read["mounts"] == {"persistent": {"size": 20, "path": "/data"}}


def test_wait_for_ssh_without_a_reachable_key_is_refused_before_the_create(sim, run_playbook, tmp_path):
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    httpx.put(sim.urls["api_v2"] + "/account/ssh-keys", json={"keys": []}, headers=headers, timeout=10)
    sim.admin.clear_requests()
    sim.admin.configure(own_sshd_images=["my/sshd:1"])
    wait = {"wait": True, "wait_interval": "100ms", "wait_timeout": "30s"}
    text = play(
        task(
            "keyless",
            "pod",
            {"name": "k", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], **wait},
            ignore_errors=True,
        ),
        task("own sshd", "pod", {"name": "o", "image": "my/sshd:1", "gpu_type_ids": [GPU], "own_sshd": True, **wait}),
    )
    result = run_playbook(tmp_path, text)
    assert result.rc == 0, result.stdout[-3000:] + result.stderr[-3000:]
    keyless = result.task_result("keyless")
    assert keyless["failed"] is True and keyless["code"] == "bad_request"
    assert "sshd that never starts" in keyless["msg"] and "own_sshd" in keyless["msg"]
    assert result.task_result("own sshd")["wait"]["ready_detail"].startswith("ssh reachable at")
    assert sim.admin.count("POST", r"^/v2/pods$") == 1  # only the own-sshd pod
    assert [p["name"] for p in sim.admin.pods()] == ["o"]


def test_v2_account_key_is_enough_for_wait_for_ssh(sim, run_playbook, tmp_path):
    # conftest registered one key on the account: ssh (startSsh) injects it, so no ssh_public_key is needed.
    pod = {"name": "acct", "image": "runpod/base:1.0", "gpu_type_ids": [GPU]}
    wait = {"wait": True, "wait_interval": "100ms", "wait_timeout": "30s"}
    result = run_playbook(tmp_path, play(task("create", "pod", {**pod, **wait})))
    assert result.rc == 0, result.stdout[-3000:] + result.stderr[-3000:]
    created = result.task_result("create")
    assert created["wait"]["ready_detail"].startswith("ssh reachable at")
    assert v2_get(sim, f"/pods/{created['pod']['id']}")["env"]["PUBLIC_KEY"] == KEY
