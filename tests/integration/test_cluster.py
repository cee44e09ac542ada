# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Instant Clusters against the simulator: ``playbooks/cluster.yml`` over real SSH, rerun, inventory groups,
a node failing during the wait, check mode and absent.

The network check must really run on the nodes: each node's answers (its pod id, a TCP connect that gets an
SSH banner from the other nodes' cluster addresses) only exist on the simulated node's SSH server and on the
overlay listeners, which are up only while that node's sshd is.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from helpers.playbooks import STRICT_SSH_ENV

REPO_ROOT = Path(__file__).resolve().parents[2]
PLAYBOOK = REPO_ROOT / "playbooks" / "cluster.yml"
VENV_BIN = Path(sys.executable).parent
NAME = "it-cluster"
GPU = "NVIDIA H100 80GB HBM3"
CREATE = "Create the cluster and wait for SSH on every node"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def live_members(sim) -> list[dict]:
    return sim.listed("/pods", "pods", includeClusterPods="true")


def run_example(run_playbook, tmp_path, work_dir, port, *extra):
    wrapper = f"- name: The cluster example\n  ansible.builtin.import_playbook: {PLAYBOOK}\n"
    args = ["-e", f"cluster_name={NAME}", "-e", f"cluster_work_dir={work_dir}", "-e", f"cluster_peer_port={port}",
            "-e", "cluster_wait_interval=1s", "-e", "cluster_wait_timeout=2m"]
    for item in extra:
        args += ["-e", item]
    return run_playbook(tmp_path, wrapper, env=STRICT_SSH_ENV, extra_args=args, timeout=300)


def adhoc(sim, tmp_path, pattern, key, *args):
    config = tmp_path / "clusters.runpod.yml"
    config.write_text("plugin: runpod.cloud.runpod\n")
    env = dict(os.environ)
    env.update(sim.env())
    env.update({"ANSIBLE_INVENTORY_ENABLED": "runpod.cloud.runpod", "ANSIBLE_HOST_KEY_CHECKING": "False",
                "ANSIBLE_NOCOLOR": "1", "ANSIBLE_PYTHON_INTERPRETER": "auto_silent",
                "ANSIBLE_SSH_ARGS": "-o UserKnownHostsFile=/dev/null",
                "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"})
    return subprocess.run(
        [str(VENV_BIN / "ansible"), pattern, "-i", str(config), "--private-key", str(key), "-o", *args],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def test_example_playbook_checks_the_network_over_ssh_reruns_clean_and_deletes(sim, run_playbook, tmp_path):
    port = free_port()
    # Nodes placed 0.5 s apart (25 simulated seconds at the test time scale): ready at different times.
    sim.admin.cluster_settings(overlay_port=port, member_stagger=25)
    work_dir = tmp_path / "cluster-keys"

    first = run_example(run_playbook, tmp_path, work_dir, port)
    assert first.rc == 0, first.stdout[-6000:] + first.stderr[-3000:]
    created = first.task_result(CREATE)
    assert created["changed"] is True and created["actions"] == ["create"]
    cluster, pods = created["cluster"], created["pods"]
    assert [pod["rank"] for pod in pods] == [0, 1, 2] and [pod["primary"] for pod in pods] == [True, False, False]
    assert all(pod["ssh"] and pod["cluster_ip"] and pod["role"] is None for pod in pods)
    assert cluster["primary"]["pod_id"] == pods[0]["id"] and cluster["network"]["cidr"]
    assert cluster["data_center_id"] and {pod["data_center_id"] for pod in pods} == {cluster["data_center_id"]}
    assert created["wait"]["ready_detail"] == "all 3 pods ready" and len(created["wait"]["last_states"]) == 3
    # One member read per interval: the wait never read the plain pod list or re-posted anything (the live system
    # line reads each member's /v2/pods/{id}/logs on the controller, which is not the list).
    assert sim.admin.count("POST", r"^/v2/clusters$") == 1 and sim.admin.count("GET", r"^/v2/pods(\?|$)") == 0

    # The play ran on the three nodes over SSH; each reached both other nodes' cluster addresses.
    ids = {r["_host"]: r["stdout"] for r in first.task_results("Ask the node which pod it is")}
    assert ids == {f"{NAME}-{pod['rank']}": pod["id"] for pod in pods}
    reached = {r["_host"]: sorted(item["item"] for item in r["results"])
               for r in first.task_results("Reach every other node's sshd on its cluster address")}
    for pod in pods:
        assert reached[f"{NAME}-{pod['rank']}"] == sorted(p["cluster_ip"] for p in pods if p is not pod)
    assert (work_dir / "hostfile").read_text().splitlines() == [f"{pod['cluster_ip']} slots=1" for pod in pods]
    # The wait checked every node's host key against its own container log; the play trusted only those keys
    # (StrictHostKeyChecking=yes against the known_hosts file the playbook wrote from them).
    assert all(pod["ssh"]["host_key_check"] == "verified" for pod in pods)
    written = sorted((work_dir / "known_hosts").read_text().splitlines())
    assert written == sorted(line for pod in pods for line in pod["ssh"]["host_keys"])
    assert sorted(line.split(" ", 1)[1] for line in written) == sorted(
        key for pod in pods for key in sim.admin.pod(pod["id"])["host_keys"])

    second = run_example(run_playbook, tmp_path, work_dir, port)
    assert second.rc == 0, second.stdout[-6000:] + second.stderr[-3000:]
    again = second.task_result(CREATE)
    assert again["changed"] is False and again["actions"] == [] and [p["id"] for p in again["pods"]] == ids_of(pods)
    assert sim.admin.count("POST", r"^/v2/clusters$") == 1
    assert not any(r["method"] in ("PATCH", "DELETE") for r in sim.admin.requests())

    # The inventory puts the members in the cluster's groups; an ad-hoc command reaches them over SSH.
    answered = adhoc(sim, tmp_path, f"runpod_cluster_{NAME.replace('-', '_')}", work_dir / "id_ed25519",
                     "-m", "command", "-a", "printenv RUNPOD_POD_ID")
    assert answered.returncode == 0, answered.stdout + answered.stderr
    assert sorted(line.rsplit(" ", 1)[-1] for line in answered.stdout.splitlines() if "rc=0" in line) == sorted(
        ids_of(pods))
    primary = adhoc(sim, tmp_path, f"runpod_cluster_{NAME.replace('-', '_')}_primary", work_dir / "id_ed25519",
                    "-m", "command", "-a", "printenv RUNPOD_POD_ID")
    assert primary.returncode == 0 and primary.stdout.count("rc=0") == 1 and pods[0]["id"] in primary.stdout

    gone = run_example(run_playbook, tmp_path, work_dir, port, "cluster_state=absent")
    assert gone.rc == 0, gone.stdout[-6000:] + gone.stderr[-3000:]
    deleted = gone.task_result(CREATE)
    assert deleted["changed"] is True and deleted["actions"] == ["delete"] and deleted["cluster"] is None
    assert sim.admin.count("DELETE", r"^/v2/clusters/") == 1 and live_members(sim) == []
    assert not work_dir.exists()


def ids_of(pods):
    return [pod["id"] for pod in pods]


FAILURE_PLAY = f"""
- hosts: localhost
  gather_facts: false
  module_defaults:
    runpod.cloud.cluster:
      name: flaky
      type: SLURM
      gpu_type_id: {GPU}
      pod_count: 3
      image: runpod/pytorch:2.8.0
      wait_interval: 1s
      wait_timeout: 2m
  tasks:
    - name: planned
      runpod.cloud.cluster: {{wait: true}}
      check_mode: true
      diff: true
    - name: create and wait
      runpod.cloud.cluster: {{wait: true}}
      ignore_errors: true
    - name: changing the node count
      runpod.cloud.cluster: {{pod_count: 4}}
      ignore_errors: true
    - name: read
      runpod.cloud.cluster_info: {{name: flaky}}
"""


def test_a_failing_node_fails_the_wait_and_nothing_is_deleted(sim, run_playbook, tmp_path):
    # The node of rank 1 errors while it starts (8 simulated seconds after the create, before anything is ready).
    sim.admin.cluster_settings(fail={"cluster_name": "flaky", "rank": 1, "after": 8, "status": "ERROR"})
    result = run_playbook(tmp_path, FAILURE_PLAY)
    assert result.report is not None, result.stdout[-4000:] + result.stderr[-2000:]

    planned = result.task_result("planned")
    assert planned["changed"] is True and planned["actions"] == ["create"] and planned["cluster"]["id"] is None
    assert planned["pods"] == [] and "wait" not in planned
    assert planned["diff"]["after"]["pod_count"] == 3

    failed = result.task_result("create and wait")
    assert failed["failed"] and failed["code"] == "conflict" and failed["changed"] is True
    cluster_id = failed["id"]
    assert [(node["rank"], node["role"], node["last_state"]) for node in failed["not_ready"]
            if node["last_state"] == "pod status error"] == [(1, "SLURM_COMPUTE", "pod status error")]
    assert "nothing is deleted" in failed["msg"] and "state=absent" in failed["msg"]
    assert failed["wait"]["last_states"] and len(failed["pods"]) == 3
    # Fail-fast: the wait ended on the read that showed the error, far before its 2 minute timeout.
    assert failed["wait"]["elapsed"] < 30

    conflict = result.task_result("changing the node count")
    assert conflict["failed"] and conflict["code"] == "conflict" and "pod_count is 3, not 4" in conflict["msg"]
    assert "Nothing was changed" in conflict["msg"]

    info = result.task_result("read")["clusters"]
    assert [c["id"] for c in info] == [cluster_id] and len(info[0]["pods"]) == 3
    assert sim.admin.count("POST", r"^/v2/clusters$") == 1
    assert not any(r["method"] in ("PATCH", "DELETE") for r in sim.admin.requests())
    assert len(live_members(sim)) == 3  # nothing deleted, the errored node included
