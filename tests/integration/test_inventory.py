# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The runpod.cloud.runpod inventory plugin against the simulator: real ansible-inventory and ansible-playbook runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.playbooks import DEPRECATION, MASKS_SECRETS, STRICT_SSH_ENV
from helpers.simulated import list_reads

pytestmark = pytest.mark.core

ANSIBLE_INVENTORY = Path(sys.executable).parent / "ansible-inventory"
ANSIBLE_PLAYBOOK = Path(sys.executable).parent / "ansible-playbook"
H100 = "NVIDIA H100 80GB HBM3"
FOREVER = 10_000_000


def inventory_env(sim, **extra):
    env = dict(os.environ)
    env.update(sim.env())
    env.update(
        {
            "ANSIBLE_INVENTORY_ENABLED": "runpod.cloud.runpod",
            "ANSIBLE_NOCOLOR": "1",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        }
    )
    env.update(extra)
    return env


def plain(value):
    """Strip ansible-core 2.19's ``{"__ansible_unsafe": ...}`` wrapping (API data is rightly never templated)."""
    if isinstance(value, dict):
        if set(value) == {"__ansible_unsafe"}:
            return value["__ansible_unsafe"]
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def ansible_inventory(sim, tmp_path, config_text, *, name="pods.runpod.yml", args=(), env=None):
    """Run ``ansible-inventory --list`` on a config file; returns (inventory dict or None, completed process)."""
    config = tmp_path / name
    config.write_text(config_text)
    output = tmp_path / "inventory.json"
    output.unlink(missing_ok=True)
    completed = subprocess.run(
        [str(ANSIBLE_INVENTORY), "-i", str(config), "--list", "--output", str(output), *args],
        cwd=tmp_path,
        env=env or inventory_env(sim),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    data = plain(json.loads(output.read_text())) if output.exists() else None
    assert DEPRECATION not in completed.stdout + completed.stderr, completed.stderr  # as run_playbook's runs
    return data, completed


def seed(sim, prefix, count=1, **options):
    options.setdefault("ports", ["22/tcp"])
    return sim.admin.seed(count, name_prefix=prefix, **options)


@pytest.fixture
def fleet(sim):
    """Two pods named alike, an H100 trainer, one without 22/tcp, one stopped and one still provisioning."""
    sim.admin.configure(provisioning_delay=FOREVER)
    ids = {
        "web": seed(sim, "web", 1) + seed(sim, "web", 1),
        "trainer": seed(sim, "trainer", 1, gpu_type=H100),
        "nossh": seed(sim, "nossh", 1, ports=["8888/http"]),
        "stopped": seed(sim, "stopped", 1, status="EXITED"),
        "booting": seed(sim, "booting", 1, status="PROVISIONING"),
    }
    for pod_id in ids["web"] + ids["trainer"]:
        sim.admin.wait_pod(pod_id, "RUNNING", listening=True)
    sim.admin.clear_requests()
    return ids


BASIC = """
plugin: runpod.cloud.runpod
keyed_groups:
  - key: runpod_gpu.type
    prefix: gpu
  - key: runpod_data_center_id
    prefix: dc
groups:
  h100: "'H100' in runpod_gpu.type"
compose:
  pod_label: runpod_name ~ '@' ~ runpod_data_center_id
"""


def test_list_gives_hosts_groups_and_keyed_groups(sim, tmp_path, fleet):
    data, completed = ansible_inventory(sim, tmp_path, BASIC, args=["-v"])
    assert completed.returncode == 0, completed.stderr + completed.stdout
    hostvars = data["_meta"]["hostvars"]
    web_a, web_b = fleet["web"]
    (trainer,) = fleet["trainer"]
    # Names collide for the two "web-00000" pods, so both carry their id; the others keep the pod name.
    assert set(hostvars) == {f"web-00000-{web_a}", f"web-00000-{web_b}", "trainer-00000"}
    assert sorted(data["runpod"]["hosts"]) == sorted(hostvars)
    assert data["h100"]["hosts"] == ["trainer-00000"]
    assert data["gpu_NVIDIA_H100_80GB_HBM3"]["hosts"] == ["trainer-00000"]
    assert sorted(data["gpu_NVIDIA_GeForce_RTX_4090"]["hosts"]) == sorted([f"web-00000-{web_a}", f"web-00000-{web_b}"])
    assert sorted(data["dc_US_TX_3"]["hosts"]) == sorted(hostvars)
    state = sim.admin.pod(trainer)
    trainer_vars = hostvars["trainer-00000"]
    assert trainer_vars["ansible_host"] == "127.0.0.1"
    assert trainer_vars["ansible_port"] == state["port_map"]["22"]
    assert trainer_vars["ansible_user"] == "root"
    assert trainer_vars["pod_label"] == "trainer-00000@US-TX-3"
    expected = {
        "runpod_id": trainer,
        "runpod_name": "trainer-00000",
        "runpod_status": "RUNNING",
        "runpod_runtime_status": "running",
        "runpod_reason": None,
        "runpod_gpu": {"type": H100, "count": 1, "vcpu_count": 20, "memory_gb": 125},  # the host share of one H100
        "runpod_data_center_id": "US-TX-3",
        "runpod_cost_per_hr": 2.99,
        "runpod_ports": ["22/tcp"],
        "runpod_ssh_not_ready": None,
    }
    assert {key: trainer_vars[key] for key in expected} == expected
    assert "runpod_public_ip" not in trainer_vars  # REST v1's public IP is gone with it
    assert trainer_vars["runpod_ssh"]["port"] == state["port_map"]["22"]
    assert trainer_vars["runpod_image"].startswith("runpod/pytorch")
    # The running pod without a public 22 is left out with a verbose line saying why.
    (nossh,) = fleet["nossh"]
    assert f"pod {nossh} (nossh-00000) left out because it has no public SSH address" in completed.stdout
    assert "does not publish 22/tcp" in completed.stdout
    # One list read (a walk of its pages) for the whole parse, and nothing else.
    assert len(list_reads(sim)) == 1
    assert {(entry["method"], entry["path"]) for entry in sim.admin.requests()} == {("GET", "/v2/pods")}
    # The key never reaches the inventory output.
    assert sim.api_key not in json.dumps(data)


def test_filters_and_include_unreachable(sim, tmp_path, fleet):
    config = """
plugin: runpod.cloud.runpod
runtime_status: [running, initializing, stopped]
name_pattern: "[nbs]*"
include_unreachable: true
"""
    data, completed = ansible_inventory(sim, tmp_path, config)
    assert completed.returncode == 0, completed.stderr + completed.stdout
    hostvars = data["_meta"]["hostvars"]
    assert set(hostvars) == {"nossh-00000", "stopped-00000", "booting-00000"}
    for host, values in hostvars.items():
        assert "ansible_host" not in values and "ansible_port" not in values, host
        assert values["runpod_ssh"] is None
        assert values["runpod_ssh_not_ready"].startswith("pod not ready"), host
    assert hostvars["stopped-00000"]["runpod_runtime_status"] == "stopped"
    assert hostvars["booting-00000"]["runpod_reason"] == "provisioning"

    config = f"""
plugin: runpod.cloud.runpod
gpu_types: ["{H100}"]
data_center_ids: [US-TX-3]
"""
    data, completed = ansible_inventory(sim, tmp_path, config, name="h100.runpod.yaml")
    assert completed.returncode == 0, completed.stderr + completed.stdout
    assert set(data["_meta"]["hostvars"]) == {"trainer-00000"}
    config = """
plugin: runpod.cloud.runpod
data_center_ids: [EU-RO-1]
"""
    data, completed = ansible_inventory(sim, tmp_path, config, name="eu.runpod.yml")
    assert data["_meta"]["hostvars"] == {}
    assert len(list_reads(sim)) == 3


def test_cache_skips_the_api_until_flushed(sim, tmp_path, fleet):
    cache_dir = tmp_path / "cache"
    config = f"""
plugin: runpod.cloud.runpod
cache: true
cache_plugin: ansible.builtin.jsonfile
cache_connection: {cache_dir}
cache_timeout: 3600
"""
    first, completed = ansible_inventory(sim, tmp_path, config)
    assert completed.returncode == 0, completed.stderr + completed.stdout
    second, completed = ansible_inventory(sim, tmp_path, config)
    assert completed.returncode == 0, completed.stderr
    assert second == first and len(first["_meta"]["hostvars"]) == 3
    assert len(list_reads(sim)) == 1
    assert sim.api_key not in "".join(path.read_text() for path in cache_dir.iterdir())
    # --flush-cache as every supported ansible-core has it: ansible-playbook's (ansible-inventory has it from 2.17).
    (tmp_path / "noop.yml").write_text("- hosts: all\n  gather_facts: false\n  tasks: []\n")
    flushed = subprocess.run(
        [str(ANSIBLE_PLAYBOOK), "-i", str(tmp_path / "pods.runpod.yml"), "--flush-cache", "--list-hosts", "noop.yml"],
        cwd=tmp_path, env=inventory_env(sim), capture_output=True, text=True, timeout=120, check=False,
    )
    assert flushed.returncode == 0 and DEPRECATION not in flushed.stderr, flushed.stderr
    assert len(list_reads(sim)) == 2


def test_templated_key_and_clear_errors(sim, tmp_path, fleet):
    config = """
plugin: runpod.cloud.runpod
api_key: "{{ lookup('ansible.builtin.env', 'MY_RUNPOD_KEY') }}"
"""
    env = inventory_env(sim, MY_RUNPOD_KEY=sim.api_key)
    env.pop("RUNPOD_API_KEY")
    data, completed = ansible_inventory(sim, tmp_path, config, env=env)
    assert completed.returncode == 0, completed.stderr + completed.stdout
    assert len(data["_meta"]["hostvars"]) == 3

    env = inventory_env(sim, RUNPOD_API_KEY="wrong-key-123", ANSIBLE_INVENTORY_UNPARSED_FAILED="true")
    data, completed = ansible_inventory(sim, tmp_path, "plugin: runpod.cloud.runpod\n", env=env)
    assert completed.returncode != 0
    said = " ".join(completed.stderr.split())  # ansible-core 2.16 wraps warnings at the terminal's width
    assert "could not list pods" in said and "(unauthorized)" in said
    assert "RunPod refused the API key from RUNPOD_API_KEY" in said
    assert "wrong-key-123" not in completed.stderr + completed.stdout


def test_play_runs_a_task_over_ssh_on_an_inventory_host_trusting_only_its_checked_key(sim, run_playbook, tmp_path):
    # host_key_checking: the parse checks each pod's presented key against its container log, writes it to the pod's
    # own known_hosts file and connects with StrictHostKeyChecking=yes (Ansible's own host key checking on: the
    # harness's /dev/null known_hosts is not used); a pod whose log shows another key is left out, named.
    # The key comes from a lookup: on ansible-core 2.22 the plugin registers the key it templated as a secret.
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    sim.admin.configure(name_overrides={"liar-00000": {"ssh_host_key_log": "wrong"}})
    env = {"PUBLIC_KEY": (tmp_path / "id_ed25519.pub").read_text()}
    (pod_id,) = sim.admin.seed(1, name_prefix="shell", ports=["22/tcp"], env=env)
    (liar,) = sim.admin.seed(1, name_prefix="liar", ports=["22/tcp"], env=env)
    for seeded in (pod_id, liar):
        sim.admin.wait_pod(seeded, "RUNNING", listening=True)
    known = tmp_path / "known"
    config = tmp_path / "pods.runpod.yml"
    config.write_text(
        f"""
plugin: runpod.cloud.runpod
api_key: "{{{{ lookup('ansible.builtin.env', 'MY_RUNPOD_KEY') }}}}"
host_key_checking: strict
known_hosts_dir: {known}
compose:
  ansible_ssh_private_key_file: "'{key}'"
  ansible_python_interpreter: "'{sys.executable}'"
"""
    )
    result = run_playbook(
        tmp_path,
        """
- hosts: runpod
  gather_facts: false
  tasks:
    - name: run a command on the pod
      ansible.builtin.command: echo "hello from {{ runpod_id }} ({{ runpod_host_key_check }})"
      register: said
      changed_when: false
    - name: show the connection settings
      ansible.builtin.debug:
        msg: "{{ ansible_ssh_common_args }}"
    - name: show the key the inventory read
      ansible.builtin.debug:
        msg: "key {{ lookup('ansible.builtin.env', 'MY_RUNPOD_KEY') }}"
""",
        extra_args=["-i", str(config)],
        env={"ANSIBLE_INVENTORY_ENABLED": "runpod.cloud.runpod,ini", "MY_RUNPOD_KEY": sim.api_key,
             "RUNPOD_API_KEY": None, **STRICT_SSH_ENV},
    )
    assert result.rc == 0, result.stdout + result.stderr
    shown = result.task_result("show the key the inventory read")["msg"]
    assert shown == ("key $REDACTED$" if MASKS_SECRETS else f"key {sim.api_key}")
    out = result.task_result("run a command on the pod", host="shell-00000")
    assert out["stdout"] == f"hello from {pod_id} (verified)"
    assert out["rc"] == 0
    path = known / f"known_hosts_{pod_id}"
    assert result.task_result("show the connection settings")["msg"] == (
        f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={path}")
    state = sim.admin.pod(pod_id)
    lines = path.read_text().splitlines()
    assert all(line.startswith(f"[127.0.0.1]:{state['port_map']['22']} ") for line in lines)
    assert sorted(line.split(" ", 1)[1] for line in lines) == sorted(state["host_keys"])
    assert oct(known.stat().st_mode & 0o777) == "0o700" and oct(path.stat().st_mode & 0o777) == "0o600"
    # The liar is left out, with both sides' fingerprints; no file trusts its key.
    said = " ".join((result.stdout + result.stderr).split())
    assert f"pod {liar} (liar-00000) left out: pod {liar} at 127.0.0.1:" in said, said[-3000:]
    assert all(fingerprint in said for fingerprint in sim.admin.pod(liar)["host_key_fingerprints"])
    assert not (known / f"known_hosts_{liar}").exists()
    assert result.task_results("run a command on the pod") == [out]
