# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Unit checks of the runpod inventory plugin's pure parts: host names, hostvars, file names, missing libraries."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import yaml
from ansible.errors import AnsibleError
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.inventory import runpod as plugin
from ansible_collections.runpod.cloud.plugins.module_utils._module import base
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView, SshAddress


def record(pod_id, name, **fields):
    return plugin.pod_record(PodView(id=pod_id, name=name, **fields))


def test_host_names_append_the_id_only_for_shared_names():
    records = [record("a1", "web"), record("b2", "web"), record("c3", "db"), record("d4", "")]
    assert plugin.host_names(records) == ({"a1": "web-a1", "b2": "web-b2", "c3": "db", "d4": "d4"}, [])


def test_reserved_unsafe_and_taken_names_are_renamed_with_a_note():
    records = [
        record("a1", "all"),
        record("b2", "LocalHost"),
        record("c3", "db1"),
        record("d4", "my pod*"),
        record("e5", "t\n"),
        record("f6", "runpod"),
        record("g7", "127.0.0.1"),
    ]
    names, notes = plugin.host_names(records, taken={"db1", "all", "ungrouped"})
    assert names == {
        "a1": "all-a1",
        "b2": "LocalHost-b2",
        "c3": "db1-c3",
        "d4": "my_pod_-d4",
        "e5": "t_-e5",
        "f6": "runpod-f6",
        "g7": "127.0.0.1-g7",
    }
    assert len(notes) == len(records)
    assert 'pod a1 named "all" added as host "all-a1": its name is a name Ansible reserves' in notes
    assert 'pod c3 named "db1" added as host "db1-c3": its name is already a host or group name' in notes[2]
    assert 'pod e5 named "t\\n"' in notes[4]


def test_a_pod_named_like_another_pods_derived_name_never_displaces_it():
    # "web-a1" is pod a1's derived name (shared "web"); pod c3 chose that name on purpose.
    records = [record("c3", "web-a1"), record("a1", "web"), record("b2", "web"), record("d4", "x")]
    names, notes = plugin.host_names(records, taken={"x-d4"})
    assert names["a1"] == "web-a1" and names["b2"] == "web-b2"
    assert names["c3"] == "web-a1-c3"
    assert names["d4"] == "x"
    assert any("another pod's host name" in note for note in notes)
    # An unnamed pod is named after its id; when even that is taken it is left out, with a note.
    names, notes = plugin.host_names([record("z9", "")], taken={"z9"})
    assert names == {} and notes == ['pod z9 named "" left out: its host name "z9" is already taken in the inventory']


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a1", "b2", "c3", "d4", "e5"]),
            st.sampled_from(["", "all", "localhost", "web", "web-a1", "db", "x y", "a1", "runpod", "db-b2", ".x", "-"])
            | st.text(max_size=6),
        ),
        max_size=5,
        unique_by=lambda item: item[0],
    ),
    st.sets(st.sampled_from(["db", "web", "a1", "db-b2", "web-c3", "x_y-d4"])),
)
def test_host_names_never_collide_and_never_take_reserved_or_existing_names(pods, taken):
    records = [record(pod_id, name) for pod_id, name in pods]
    names, notes = plugin.host_names(records, taken=taken)
    hosts = list(names.values())
    assert len(hosts) == len(set(hosts))
    for host in hosts:
        assert host not in taken and host != "runpod"
        assert host.lower() not in {"all", "ungrouped", "localhost", "127.0.0.1", "::1"}
        assert plugin.SAFE_HOST_NAME.match(host)
    # Every pod is either named or accounted for in a note.
    for pod_id, _name in pods:
        assert pod_id in names or any(f"pod {pod_id} " in note and "left out" in note for note in notes)


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
        "runpod_gpu": {"type": "NVIDIA A40", "count": 2, "vcpu_count": None, "memory_gb": None},
        "runpod_data_center_id": "EU-RO-1",
        "runpod_cost_per_hr": 0.8,
        "runpod_ports": ["22/tcp"],
        "runpod_image": "img:1",
        "runpod_ssh": {
            "host": "203.0.113.9",
            "port": 10022,
            "user": "root",
            "command": "ssh root@203.0.113.9 -p 10022",
        },
        "runpod_ssh_not_ready": None,
        "runpod_lease": None,
        "runpod_utilization": None,
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
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import ClusterView

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


def test_the_api_key_option_is_declared_a_secret():
    # ansible-core 2.22 registers the values of `secret: true` options for masking; older versions ignore the key.
    options = yaml.safe_load(plugin.DOCUMENTATION)["options"]
    assert options["api_key"]["secret"] is True
    assert [name for name, option in options.items() if option.get("secret")] == ["api_key"]


def test_the_key_is_registered_as_a_secret_once_templated(monkeypatch):
    # ansible-core 2.22 registers the option's value as given (a lookup's text, say); the key it gives, only this.
    hidden = []
    monkeypatch.setattr(base, "hide_secrets", hidden.extend)
    inventory = plugin.InventoryModule()
    given = {"api_key": "{{ lookup('ansible.builtin.env', 'MY_KEY') }}", "validate_certs": True}
    monkeypatch.setattr(inventory, "get_option", given.get)
    inventory.templar = SimpleNamespace(is_template=lambda value: "{{" in value, template=lambda value: "rpa_TEMPLATED")
    assert inventory._connection_options()["api_key"] == "rpa_TEMPLATED"
    assert hidden == ["rpa_TEMPLATED"]
