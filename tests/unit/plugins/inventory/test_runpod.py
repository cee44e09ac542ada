# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Unit checks of the runpod inventory plugin's pure parts: host names, hostvars, file names, missing libraries."""

from __future__ import annotations

import json

import pytest
from ansible.errors import AnsibleError

from ansible_collections.runpod.cloud.plugins.inventory import runpod as plugin
from ansible_collections.runpod.cloud.plugins.module_utils._models import PodView, SshAddress


def record(pod_id, name, **fields):
    return plugin.pod_record(PodView(id=pod_id, name=name, **fields))


def test_host_names_append_the_id_only_for_shared_names():
    records = [record("a1", "web"), record("b2", "web"), record("c3", "db"), record("d4", "")]
    assert plugin.host_names(records) == {"a1": "web-a1", "b2": "web-b2", "c3": "db", "d4": "d4"}


def test_hostvars_are_prefixed_json_safe_and_complete():
    pod = PodView(
        id="p1",
        name="trainer",
        status="RUNNING",
        runtime_reported=True,
        uptime_seconds=12,
        gpu_type="NVIDIA A40",
        gpu_count=2,
        data_center_id="EU-RO-1",
        cost_per_hr=0.8,
        ports=["22/tcp"],
        image="img:1",
        ssh_direct=SshAddress(host="203.0.113.9", port=10022, user="root", command=""),
    )
    hostvars = plugin.hostvars_for(plugin.pod_record(pod))
    assert hostvars == {
        "runpod_id": "p1",
        "runpod_name": "trainer",
        "runpod_status": "RUNNING",
        "runpod_runtime_status": "running",
        "runpod_reason": None,
        "runpod_gpu": {"type": "NVIDIA A40", "count": 2},
        "runpod_data_center_id": "EU-RO-1",
        "runpod_cost_per_hr": 0.8,
        "runpod_ports": ["22/tcp"],
        "runpod_image": "img:1",
        "runpod_public_ip": None,
        "runpod_ssh": {
            "host": "203.0.113.9",
            "port": 10022,
            "user": "root",
            "command": "ssh root@203.0.113.9 -p 10022",
        },
        "runpod_ssh_not_ready": None,
    }
    json.dumps(hostvars)


def test_a_stopped_pod_never_gets_an_address_even_with_stale_ports():
    pod = PodView(id="s1", name="old", status="EXITED",
                  ssh_direct=SshAddress(host="203.0.113.9", port=10022))
    hostvars = plugin.hostvars_for(plugin.pod_record(pod))
    assert hostvars["runpod_ssh"] is None
    assert hostvars["runpod_runtime_status"] == "stopped"
    assert hostvars["runpod_ssh_not_ready"].startswith("pod not ready: pod is stopped")


@pytest.mark.parametrize(
    ("path", "accepted"),
    [("inv/pods.runpod.yml", True), ("inv/runpod.yaml", True), ("inv/pods.yml", False), ("inv/runpod.json", False)],
)
def test_only_runpod_yml_files_are_claimed(tmp_path, path, accepted):
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("plugin: runpod.cloud.runpod\n")
    assert plugin.InventoryModule().verify_file(str(target)) is accepted


def test_missing_httpx_raises_ansible_error(monkeypatch):
    monkeypatch.setattr(plugin, "HAS_HTTPX", False)
    monkeypatch.setattr(plugin, "HTTPX_IMPORT_ERROR", "No module named 'httpx'")
    with pytest.raises(AnsibleError, match=r"requires the Python library httpx"):
        plugin.InventoryModule()._fetch()


def test_cluster_members_get_cluster_hostvars_and_groups_per_cluster_primary_and_role():
    from ansible_collections.runpod.cloud.plugins.module_utils._models import ClusterView

    clusters = {"c1": ClusterView(id="c1", name="llm-train", type="SLURM", primary_pod_id="p0")}
    primary = plugin.pod_record(
        PodView(id="p0", name="n0", cluster_id="c1", cluster_rank=0, cluster_role="SLURM_CONTROLLER",
                cluster_ip="10.65.0.2"), clusters)
    worker = plugin.pod_record(PodView(id="p1", name="n1", cluster_id="c1", cluster_rank=None), clusters)
    assert {k: v for k, v in plugin.hostvars_for(primary).items() if k.startswith("runpod_cluster")} == {
        "runpod_cluster_id": "c1", "runpod_cluster_name": "llm-train", "runpod_cluster_type": "SLURM",
        "runpod_cluster_role": "SLURM_CONTROLLER", "runpod_cluster_rank": 0, "runpod_cluster_ip": "10.65.0.2",
        "runpod_cluster_primary": True,
    }
    assert plugin.hostvars_for(worker)["runpod_cluster_ip"] is None
    assert plugin.hostvars_for(worker)["runpod_cluster_primary"] is False
    assert plugin.cluster_groups(primary["cluster"]) == [
        "runpod_cluster_llm_train", "runpod_cluster_llm_train_primary", "runpod_cluster_llm_train_slurm_controller"]
    assert plugin.cluster_groups(worker["cluster"]) == ["runpod_cluster_llm_train"]
    # A standalone pod has no cluster hostvars and no cluster groups.
    assert not any(key.startswith("runpod_cluster") for key in plugin.hostvars_for(record("s", "solo")))
    assert json.loads(json.dumps(primary)) == primary  # the cache stores it as JSON
