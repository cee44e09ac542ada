# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Behaviour the OpenAPI document imposes, against the strict simulator (each case once failed on real RunPod).

1. an endpoint rerun sends no PATCH (a v2 Endpoint has no templateId to compare);
2. a CPU pod gets a vcpuCount, and a bad one or a pod volume is refused before any POST;
3. a change of only volume_mount_path moves the mount (no empty PATCH, no endless "changed");
4. wait_for ssh with no key that can reach the pod is refused before the create (own_sshd opts out).

The subject is what the modules decide and send, so the steps run in this process (helpers.in_process); a wait runs
the module-side wait, which test_wait_progress_controller.py proves the controller's gives the same results as.
"""

from __future__ import annotations

import httpx
from helpers.in_process import ModuleRuns

GPU = "NVIDIA GeForce RTX 4090"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com"


def v2_get(sim, path: str) -> dict:
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    return httpx.get(sim.urls["api_v2"] + path, headers=headers, timeout=10).json()


def test_the_documented_api_cases_in_one_run(sim, capsys):
    """One walk, one part per case above, each step a module call in this process (each part's resources have their
    own names; request counts are per route and the totals are each part's sum). The CPU pod's refused vcpu counts
    and pod volume are refused before any client is built: tests/unit/plugins/modules/test_refused_input.py
    ("cpu ..." rows)."""
    sim.admin.configure(own_sshd_images=["my/sshd:1"])
    result = ModuleRuns(sim, capsys)
    run = result.run
    template = {"name": "tpl", "image": "runpod/worker:1", "serverless": True}
    cpu = {"name": "cpu", "image": "runpod/base:1.0", "compute_type": "CPU", "cpu_flavor_ids": ["cpu3c"], "ssh": False}
    vol = {"name": "vol", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], "volume_gb": 20}
    moved = {**vol, "volume_mount_path": "/data"}
    wait = {"wait": True, "wait_interval": "100ms", "wait_timeout": "30s"}

    # 1. an endpoint rerun sends no PATCH
    endpoint = {"name": "ep", "template_id": run("template", "template", template)["template"]["id"],
                "gpu_type_ids": ["ADA_24"], "workers_max": 2}
    run("endpoint create", "endpoint", endpoint)
    run("endpoint rerun", "endpoint", endpoint)
    # 2. a CPU pod gets its default vcpuCount
    run("default vcpus", "pod", cpu)
    # 3. volume_mount_path alone moves the mount once
    run("vol create", "pod", vol)
    run("move", "pod", moved)
    run("move rerun", "pod", moved)
    # 4. the account's key (conftest registered one) is enough for wait_for ssh ...
    run("account key", "pod", {"name": "acct", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], **wait})
    # ... and without any key that can reach the pod, wait_for ssh is refused before the create
    with httpx.Client(base_url=sim.urls["api_v2"], headers={"Authorization": f"Bearer {sim.api_key}"},
                      timeout=10) as client:
        assert client.put("/account/ssh-keys", json={"keys": []}).status_code in (200, 204)
    run("keyless", "pod", {"name": "k", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], **wait})
    # ... and so is a fleet's (its members create without a wait of their own; the fleet's wait needs the key)
    run("keyless fleet", "pod", {"name": "kf", "count": 2, "image": "runpod/base:1.0", "gpu_type_ids": [GPU], **wait})
    run("own sshd", "pod", {"name": "o", "image": "my/sshd:1", "gpu_type_ids": [GPU], "own_sshd": True, **wait})
    refusals = {"keyless", "keyless fleet"}
    assert result.failed() <= refusals

    # 1.
    assert result.task_result("endpoint create")["changed"] is True
    rerun = result.task_result("endpoint rerun")
    assert rerun["changed"] is False and rerun["endpoint"]["template_id"] is None
    assert sim.admin.count("PATCH", r"^/v2/serverless/") == 0

    # 2.
    created = result.task_result("default vcpus")
    assert created["changed"] is True
    assert v2_get(sim, f"/pods/{created['pod']['id']}")["cpu"]["vcpuCount"] == 2

    # 3.
    move = result.task_result("move")
    assert move["changed"] is True and move["updated_fields"] == ["volume_mount_path"]
    assert result.task_result("move rerun")["changed"] is False
    assert sim.admin.count("PATCH", r"^/v2/pods/") == 1
    read = v2_get(sim, f"/pods/{move['pod']['id']}")
    assert read["mounts"] == {"persistent": {"size": 20, "path": "/data"}}

    # 4.
    account = result.task_result("account key")
    assert account["wait"]["ready_detail"].startswith("ssh reachable at")
    assert v2_get(sim, f"/pods/{account['pod']['id']}")["env"]["PUBLIC_KEY"] == KEY
    keyless = result.task_result("keyless")
    assert keyless["failed"] is True and keyless["code"] == "bad_request"
    assert "sshd that never starts" in keyless["msg"] and "own_sshd" in keyless["msg"]
    fleet = result.task_result("keyless fleet")
    assert fleet["failed"] is True and fleet["code"] == "bad_request" and "sshd that never starts" in fleet["msg"]
    assert result.task_result("own sshd")["wait"]["ready_detail"].startswith("ssh reachable at")

    # One POST per pod that was valid (cpu, vol, acct, o): the keyless pod and fleet were never posted.
    assert sim.admin.count("POST", r"^/v2/pods$") == 4
    assert sorted(p["name"] for p in sim.admin.pods()) == ["acct", "cpu", "o", "vol"]
