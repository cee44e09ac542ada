# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""network_volume(_info), container_registry, ssh_key and billing_info against the simulator.

The walk of the four modules runs them in this process (helpers.in_process), the ambiguous name in a playbook run.
The plain walks (check mode, create, rerun, absent, absent again, the refusals a real account can show) are the
targets' (tests/integration/targets); these runs keep what needs the simulator: seeded state (a volume in use, a
registry in use, billing records) and the request log (a refusal or a rerun that sends nothing).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from helpers.in_process import ModuleRuns

pytestmark = pytest.mark.timeout(240)

KEY_A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ alice@example.com"
KEY_B = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFi0v3sQ7n2dJmLr1d0Hq8aW9xYpT6u5Vb4cN3eR2kZt bob@example.com"
KEY_C = (
    "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMj"
    "NuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg= carol"
)


def api(sim):
    return httpx.Client(base_url=sim.urls["api_v2"], headers={"Authorization": f"Bearer {sim.api_key}"}, timeout=10)


def failed(result, name):
    task = result.task_result(name)
    assert task.get("failed") is True, task
    return task


def test_volume_registry_ssh_key_and_billing_in_one_run(sim, capsys):
    """The network volume lifecycle with a pod mounting it, the container registry's create, replace and refusals,
    the ssh_key steps (from an account without keys) and billing_info's reports, one module call a step in this
    process (helpers.in_process: the modules' own code over real HTTP): the subject is what the modules decide and
    send; check mode, diff and no_log through Ansible are the playbook tests' (test_secrets,
    test_wait_progress_controller) and the targets'. Request counts are per route, so each part's counts are its
    own."""
    yesterday = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=1)
    charges = [
        {"kind": "pods", "resource_id": "pod1", "time": (yesterday + timedelta(hours=2)).isoformat(), "gpu": 4.5},
        {"kind": "pods", "resource_id": "pod2", "time": (yesterday + timedelta(hours=9)).isoformat(), "gpu": 1.25},
        {"kind": "pods", "resource_id": "pod1", "time": (yesterday + timedelta(hours=9)).isoformat(), "disk": 0.5},
        {"kind": "serverless", "resource_id": "ep1", "time": yesterday.isoformat(), "gpu": 2, "fee": 0.25},
        {"kind": "network_volumes", "resource_id": "vol1", "time": yesterday.isoformat(), "standard": 0.75},
        {"kind": "pods", "resource_id": "pod1", "time": (yesterday - timedelta(hours=1)).isoformat(), "gpu": 99},
    ]
    response = httpx.post(f"{sim.urls['admin']}/billing", json={"charges": charges}, timeout=10)
    assert response.status_code == 200, response.text
    day = yesterday.strftime("%Y-%m-%d")
    sim.admin.clear_requests()
    result = ModuleRuns(sim, capsys)
    run = result.run

    # The network volume, with a pod mounting it.
    volume = run("create", "network_volume",
                 {"name": "datasets", "size_gb": 20, "data_center_id": "EU-RO-1", "type": "STANDARD"})
    run("pod mounting the volume", "pod", {
        "name": "trainer", "image": "ubuntu", "gpu_type_ids": ["NVIDIA GeForce RTX 4090"],
        "data_center_ids": [volume["network_volume"]["data_center_id"]],
        "network_volume_id": volume["network_volume"]["id"], "volume_mount_path": "/workspace", "wait": False})
    run("grow", "network_volume", {"name": "datasets", "size_gb": 40}, diff=True)
    run("rename by id", "network_volume", {"id": volume["network_volume"]["id"], "name": "datasets-2"})
    run("shrink refused", "network_volume", {"name": "datasets-2", "size_gb": 30})
    run("move refused", "network_volume", {"name": "datasets-2", "data_center_id": "US-TX-3"})
    run("retype refused", "network_volume", {"name": "datasets-2", "type": "HIGH_PERFORMANCE"})
    run("too big refused", "network_volume", {"name": "other", "size_gb": 5000, "data_center_id": "EU-RO-1"})
    run("delete attached", "network_volume", {"name": "datasets-2", "state": "absent"})
    run("info", "network_volume_info", {"name": "datasets-2"})
    run("terminate the pod", "pod", {"id": result.task_result("pod mounting the volume")["pod"]["id"],
                                     "state": "absent"})
    run("delete", "network_volume", {"name": "datasets-2", "state": "absent"}, diff=True)
    run("unknown id", "network_volume", {"id": "nope", "size_gb": 10})

    # The container registry.
    run("registry create", "container_registry", {"name": "hub", "username": "me", "password": "first-secret"})
    rotate = {"name": "hub", "username": "me", "password": "second-secret", "update_password": "always"}
    run("registry preview replace", "container_registry", rotate, check_mode=True, diff=True)
    replaced_id = run("registry replace", "container_registry", rotate, diff=True)["container_registry"]["id"]
    run("registry rename refused", "container_registry", {"id": replaced_id, "name": "other"})
    private = {"name": "private", "image": "me/private:1", "gpu_type_ids": ["NVIDIA GeForce RTX 4090"],
               "registry_id": replaced_id, "wait": False}
    run("registry pod from a private image", "pod", private)
    run("registry pod rerun", "pod", private)
    run("registry delete in use", "container_registry", {"name": "hub", "state": "absent"})
    run("registry terminate the pod", "pod", {
        "id": result.task_result("registry pod from a private image")["pod"]["id"], "state": "absent"})
    run("registry delete", "container_registry", {"name": "hub", "state": "absent"})

    # The ssh_key steps start from an account without keys (conftest registered one): one PUT, counted below.
    with api(sim) as client:
        assert client.put("/account/ssh-keys", json={"keys": []}).status_code in (200, 204)
    run("add", "ssh_key", {"key": KEY_A})
    run("add two more", "ssh_key", {"key": f"{KEY_B}\n# a comment line\n{KEY_C}\n"})
    run("exclusive", "ssh_key", {"key": KEY_C, "exclusive": True}, diff=True)
    run("exclusive rerun", "ssh_key", {"key": KEY_C, "exclusive": True})
    run("absent", "ssh_key", {"key": KEY_C, "state": "absent"})

    # billing_info.
    run("spend per day", "billing_info", {"kind": "all", "bucket_size": "day", "last_n": 2})
    run("one pod", "billing_info",
        {"kind": "pods", "resource_id": "pod1", "start_time": day, "end_time": f"{day}T23:59:59Z"})
    refusals = {"shrink refused", "move refused", "retype refused", "too big refused", "delete attached",
                "unknown id", "registry rename refused", "registry delete in use"}
    assert result.failed() <= refusals

    # --- network volume

    volume = result.task_result("create")["network_volume"]
    assert volume == {
        "id": volume["id"],
        "name": "datasets",
        "size_gb": 20,
        "data_center_id": "EU-RO-1",
        "type": "STANDARD",
    }
    pod = result.task_result("pod mounting the volume")["pod"]
    with api(sim) as client:
        mounted = client.get(f"/pods/{pod['id']}").json()
    assert mounted["mounts"]["network"][0]["volumeId"] == volume["id"]
    grow = result.task_result("grow")
    assert grow["changed"] is True and grow["diff"] == {"before": {"size_gb": 20}, "after": {"size_gb": 40}}
    assert result.task_result("rename by id")["network_volume"]["name"] == "datasets-2"

    shrink = failed(result, "shrink refused")
    assert shrink["code"] == "bad_request" and "never shrink" in shrink["msg"] and "40 GB" in shrink["msg"]
    for name, option in (("move refused", "data_center_id"), ("retype refused", "type")):
        refused = failed(result, name)
        assert refused["code"] == "bad_request" and f"{option} is fixed" in refused["msg"], refused
    assert "from 10 to 4096" in failed(result, "too big refused")["msg"]
    attached = failed(result, "delete attached")
    assert attached["code"] == "bad_request" and f"attached to pod {pod['id']}" in attached["msg"]
    assert attached["changed"] is False
    assert result.task_result("info")["network_volumes"][0]["size_gb"] == 40

    deleted = result.task_result("delete")
    assert deleted["changed"] is True and deleted["diff"]["after"] == {}
    assert failed(result, "unknown id")["code"] == "not_found"
    # Refusals never reached the API: one create, one PATCH per grow/rename, no shrink/move PATCH, one POST total.
    assert sim.admin.count("POST", r"^/v2/network-volumes$") == 1
    assert sim.admin.count("PATCH", r"^/v2/network-volumes/") == 2
    assert sim.admin.count("DELETE", r"^/v2/network-volumes/") == 2  # refused while attached, then deleted

    # --- container registry
    pod_id = result.task_result("registry pod from a private image")["pod"]["id"]

    created = result.task_result("registry create")
    assert created["changed"] is True and created["actions"] == ["create"]
    old_id = created["container_registry"]["id"]
    preview = result.task_result("registry preview replace")
    assert preview["changed"] is True and preview["actions"] == ["delete", "create"]
    assert preview["diff"]["before"] == {"id": old_id, "name": "hub", "credential": "stored"}
    replaced = result.task_result("registry replace")
    new_id = replaced["container_registry"]["id"]
    assert new_id != old_id and replaced["replaced_id"] == old_id
    assert replaced["diff"]["after"] == {"id": new_id, "name": "hub", "credential": "replaced"}
    shown = json.dumps(result.results)
    assert "second-secret" not in shown and "first-secret" not in shown
    assert failed(result, "registry rename refused")["code"] == "bad_request"

    assert result.task_result("registry pod rerun")["changed"] is False
    with api(sim) as client:
        assert client.get(f"/pods/{pod_id}").json()["registry"] == new_id
    in_use = failed(result, "registry delete in use")
    assert in_use["code"] == "bad_request" and pod_id in in_use["msg"] and in_use["changed"] is False
    assert result.task_result("registry delete")["changed"] is True
    # Create, replace (delete + create): two POSTs; the password never reached the request log.
    assert sim.admin.count("POST", r"^/v2/registries$") == 2

    # --- ssh_key
    assert result.task_result("add")["ssh_keys"] == [KEY_A]
    more = result.task_result("add two more")
    assert more["ssh_keys"] == [KEY_A, KEY_B, KEY_C] and more["added"] == [KEY_B, KEY_C]
    exclusive = result.task_result("exclusive")
    assert exclusive["ssh_keys"] == [KEY_C] and exclusive["removed"] == [KEY_A, KEY_B]
    assert result.task_result("exclusive rerun")["changed"] is False
    assert result.task_result("absent")["ssh_keys"] == []
    # The reset, then one PUT per real change (add, add two, exclusive, absent); the exclusive rerun sent none.
    assert sim.admin.count("PUT", r"^/v2/account/ssh-keys$") == 5

    # --- billing_info
    first = result.task_result("spend per day")["billing"]["records"][0]
    report = f"GPU spend on {first['start_time'][:10]}: {first['pod_gpu'] + first['serverless_gpu'] + first['cluster_gpu']:.2f} USD"  # noqa: E501
    assert report == f"GPU spend on {day}: 7.75 USD"
    spend = result.task_result("spend per day")["billing"]
    assert spend["kind"] == "all" and len(spend["records"]) == 2
    assert spend["records"][0]["total"] == pytest.approx(4.5 + 1.25 + 0.5 + 2 + 0.25 + 0.75)
    pod = result.task_result("one pod")["billing"]
    assert pod["totals"] == {"total": 5.0, "gpu": 4.5, "cpu": 0.0, "disk": 0.5}
    assert {r["resource_id"] for r in pod["records"]} == {"pod1"}
    assert pod["start_time"] == f"{day}T00:00:00Z"
    assert sim.admin.count("GET", r"^/v2/billing") == 2


def test_a_name_two_volumes_share_is_ambiguous(sim, run_playbook, tmp_path):
    with api(sim) as client:
        twins = [
            client.post("/network-volumes", json={"name": "twin", "size": 10, "dataCenter": "EU-RO-1"}).json()["id"]
            for _attempt in range(2)
        ]
    result = run_playbook(
        tmp_path,
        """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: ambiguous
      runpod.cloud.network_volume: {name: twin, size_gb: 10}
      ignore_errors: true
""",
    )
    assert result.rc == 0, result.stdout + result.stderr
    ambiguous = failed(result, "ambiguous")
    assert ambiguous["code"] == "ambiguous" and sorted(ambiguous["ids"]) == sorted(twins)
    # The ambiguous task read once and created nothing (the two POSTs are the seeds).
    assert sim.admin.count("GET", r"^/v2/network-volumes$") == 1
    assert sim.admin.count("POST", r"^/v2/network-volumes$") == 2
