# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``runpod.cloud.hosts`` role against the simulator: provision, hand off over real SSH, rerun, absent.

Host-key checking stays ON here (the ``run_playbook`` default turns it off and points known_hosts at
/dev/null): the connection must work with the role's own ``StrictHostKeyChecking=yes`` against the per-pod
known_hosts file of the keys its wait checked against each pod's container log, and fails against any other key.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest
from helpers.playbooks import STRICT_SSH_ENV

GPU = "NVIDIA RTX A4000"
PODS = ("role-gpu-a", "role-gpu-b")
# An entry with count beside the single pods: one create task for the fleet, its pods in the same batch wait.
FLEET = ("fleet-1", "fleet-2")
FLEET_ENTRY = """
          - name: fleet
            count: 2
            image: runpod/base:0.6.2-cuda12.4.1
            gpu_type_ids: ["NVIDIA GeForce RTX 4090"]"""
ALL = (*PODS, *FLEET)
ROLE = "runpod.cloud.hosts : "  # prefix of the role's task names in the report


def role_playbook(work_dir: Path, state: str = "present", pods: str | None = None, handoff: bool = True) -> str:
    """The role over ``pods`` (hosts_pods YAML lines; default: PODS and FLEET_ENTRY), then (present, unless
    ``handoff`` is false) the hand-off play."""
    pods = pods or "\n".join(
        f"""          - name: {name}
            image: runpod/base:0.6.2-cuda12.4.1
            gpu_type_ids: ["{GPU}"]
            gpu_count: 1
            env: {{ROLE_TEST: "yes"}}"""
        for name in PODS
    ) + FLEET_ENTRY
    handoff = (
        """
- name: Hand-off over SSH
  hosts: test_gpu_pods
  gather_facts: false
  tasks:
    - name: Read the pod id from the remote environment
      ansible.builtin.command: printenv RUNPOD_POD_ID
      register: remote_id
      changed_when: false
    - name: Show the connection settings
      ansible.builtin.debug:
        msg: "{{ ansible_ssh_common_args }}"
"""
        if state == "present" and handoff
        else ""
    )
    return f"""
- name: Provision with the role
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Run the hosts role
      ansible.builtin.include_role:
        name: runpod.cloud.hosts
      vars:
        hosts_state: {state}
        hosts_group: test_gpu_pods
        hosts_work_dir: {work_dir}
        hosts_wait_timeout: 2m
        hosts_wait_interval: 1s
        hosts_connection_timeout: 60
        hosts_pods:
{pods}
    - name: Show the role result
      ansible.builtin.debug:
        var: hosts_result
{handoff}"""


def ssh_true(private_key: Path, port: int, known_hosts: Path) -> subprocess.CompletedProcess:
    """``ssh ... true`` to 127.0.0.1:port as root, trusting only the keys in ``known_hosts``."""
    argv = ["ssh", "-F", "/dev/null", "-i", str(private_key), "-p", str(port), "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=yes", "-o", f"UserKnownHostsFile={known_hosts}", "-o", "ConnectTimeout=10",
            "-o", "GlobalKnownHostsFile=/dev/null", "root@127.0.0.1", "true"]
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)


def live(sim, kind: str) -> list[dict]:
    """What the public API lists (v2), every page: pods, endpoints or templates."""
    path, field = {"pods": ("/pods", "pods"), "endpoints": ("/serverless", "endpoints")}.get(kind, (f"/{kind}", kind))
    return [item for item in sim.listed(path, field) if item]


def changed_total(result) -> int:
    return sum(host["changed"] for host in result.stats.values())


def test_rerun_changes_nothing_then_absent_deletes_the_pods_and_the_generated_keys(sim, run_playbook, tmp_path):
    # One pod set for the whole life of a role run (create, rerun, absent, absent again): each step starts from
    # what the step before left, as a user's runs do. The set is two single pods and an entry with count: 2.
    work_dir = tmp_path / "keys"
    playbook = role_playbook(work_dir)

    first = run_playbook(tmp_path, playbook, env=STRICT_SSH_ENV)
    assert first.rc == 0, first.stdout[-4000:] + first.stderr[-2000:]
    created = first.task_results(ROLE + "Create the pods without waiting (one batch wait follows)")[0]["results"]
    assert [item["item"]["name"] for item in created] == [*PODS, "fleet"]
    assert [item["changed"] for item in created] == [True, True, True]
    # Created without a wait of their own: a pod task that waited reports its wait (ansible-core 2.22 no longer
    # returns the task's arguments as invocation).
    assert not any("wait" in item for item in created)
    # The entry with count is one fleet task creating both of its pods.
    assert len(created[2]["ids"]) == 2 and created[2]["actions"] == ["create fleet-1", "create fleet-2"]
    # Exactly one batch wait, covering every pod (the fleet's too), that ended with all of them reachable.
    waits = first.task_results(ROLE + "Wait once for SSH on all pods together")
    assert len(waits) == 1
    ready = {pod["name"]: pod for pod in waits[0]["pods"]}
    assert sorted(ready) == sorted(ALL) and all(pod["ssh"] is not None for pod in ready.values())
    assert sim.admin.count("POST", r"^/v2/pods$") == 4
    assert sorted(first.task_result("Show the role result")["hosts_result"]["created"]) == sorted(ALL)

    # The hand-off play ran on the pods (not localhost) over SSH: the remote env names each pod's own id.
    remote = {r["_host"]: r["stdout"] for r in first.task_results("Read the pod id from the remote environment")}
    assert remote == {name: ready[name]["id"] for name in ALL}
    # The wait verified each pod's host keys against its container log; the role wrote exactly those keys to the
    # pod's own known_hosts file, and the hand-off connected with StrictHostKeyChecking=yes against it.
    for name in ALL:
        pod = ready[name]
        assert pod["ssh"]["host_key_check"] == "verified", name
        known = work_dir / f"known_hosts_{pod['id']}"
        lines = known.read_text().splitlines()
        assert all(line.startswith(f"[127.0.0.1]:{pod['ssh']['port']} ") for line in lines), lines
        assert sorted(line.split(" ", 1)[1] for line in lines) == sorted(sim.admin.pod(pod["id"])["host_keys"])
        assert oct(known.stat().st_mode & 0o777) == "0o600"
    args = first.task_result("Show the connection settings", host=PODS[0])["msg"]
    assert args == f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={work_dir}/known_hosts_{ready[PODS[0]]['id']}"
    private_key = work_dir / "id_ed25519"
    # ssh with these settings trusts only the checked keys: the same login against a file that names another
    # pod's keys for this pod's address is refused before any authentication.
    a, b = ready[PODS[0]], ready[PODS[1]]
    forged = work_dir / "forged_known_hosts"
    forged.write_text("".join(line.replace(f"[127.0.0.1]:{b['ssh']['port']} ", f"[127.0.0.1]:{a['ssh']['port']} ")
                              + "\n" for line in (work_dir / f"known_hosts_{b['id']}").read_text().splitlines()))
    logins = {file: ssh_true(private_key, a["ssh"]["port"], file)
              for file in (work_dir / f"known_hosts_{a['id']}", forged)}
    assert logins[work_dir / f"known_hosts_{a['id']}"].returncode == 0, logins
    refused = logins[forged]
    assert refused.returncode == 255 and "Host key verification failed" in refused.stderr, refused.stderr
    forged.unlink()
    assert oct(private_key.stat().st_mode & 0o777) == "0o600"
    assert oct(work_dir.stat().st_mode & 0o777) == "0o700"
    key_digest = hashlib.sha256(private_key.read_bytes()).hexdigest()
    pod_keys = {pod["id"]: sim.admin.pod(pod["id"]) for pod in ready.values()}
    assert len(pod_keys) == 4

    second = run_playbook(tmp_path, playbook, env=STRICT_SSH_ENV)
    assert second.rc == 0, second.stdout[-4000:] + second.stderr[-2000:]
    assert changed_total(second) == 0, second.stats
    assert sim.admin.count("POST", r"^/v2/pods$") == 4  # nothing created twice
    assert not any(r["method"] in ("PATCH", "DELETE") for r in sim.admin.requests())  # nor updated or removed
    assert hashlib.sha256(private_key.read_bytes()).hexdigest() == key_digest  # same key, still authorized
    remote_again = {r["_host"]: r["stdout"] for r in second.task_results("Read the pod id from the remote environment")}
    assert remote_again == remote  # group filled again with the same pods
    result = second.task_result("Show the role result")["hosts_result"]
    assert result["created"] == [] and sorted(p["name"] for p in result["pods"]) == sorted(ALL)
    assert result["group"] == "test_gpu_pods"
    assert {p["id"] for p in live(sim, "pods")} == set(pod_keys)

    (work_dir / "notes.txt").write_text("not the role's file")

    # absent, then absent again in a second play of the same run: the role finds its pods through the API each
    # time, so the second play meets what a second run would.
    removed = run_playbook(tmp_path, role_playbook(work_dir, "absent") * 2, env=STRICT_SSH_ENV)
    assert removed.rc == 0, removed.stdout[-4000:] + removed.stderr[-2000:]
    deleted, deleted_again = (task["results"] for task in removed.task_results(ROLE + "Delete the pods"))
    assert [item["changed"] for item in deleted] == [True, True, True]
    assert live(sim, "pods") == []
    # Its own files are gone; a file it did not create (and so the directory) is kept.
    assert sorted(p.name for p in work_dir.iterdir()) == ["notes.txt"]
    first_result, again_result = (task["hosts_result"] for task in removed.task_results("Show the role result"))
    assert sorted(first_result["deleted"]) == sorted(ALL)

    again = [result for task in removed.report["plays"][1]["tasks"] for result in task["hosts"].values()]
    assert again and not any(result.get("changed") for result in again), again
    assert not any(item.get("changed") for item in deleted_again), deleted_again
    assert again_result["deleted"] == []
    assert sim.admin.count("DELETE", r"^/v2/pods/") == 4
    assert (work_dir / "notes.txt").is_file()


def test_duplicate_pod_names_are_refused_before_any_api_call(sim, run_playbook, tmp_path):
    playbook = role_playbook(tmp_path / "keys").replace(PODS[1], PODS[0])
    result = run_playbook(tmp_path, playbook)
    assert result.rc != 0
    failure = result.task_result(ROLE + "Check the pod list")
    assert failure["failed"] is True and "every name only once" in failure["msg"]
    assert sim.admin.requests() == []


@pytest.mark.core
def test_the_api_key_can_come_from_module_defaults_only(sim, run_playbook, tmp_path):
    # No hosts_api_key, no RUNPOD_API_KEY: the key is only in each play's module_defaults. The role omits api_key,
    # so Ansible fills it from module_defaults: per module (pod and pod_info, the modules the create and its wait
    # use) in the play that creates, for the collection's action group in the play that deletes (one run, two
    # plays; the hand-off is the other test's). (That group defaults reach every module is
    # tests/ecosystem/test_module_defaults.py's.)
    work_dir = tmp_path / "keys"
    pods = f"""          - name: role-defaults
            image: runpod/base:0.6.2-cuda12.4.1
            gpu_type_ids: ["{GPU}"]
            gpu_count: 1"""
    env = {**STRICT_SSH_ENV, "RUNPOD_API_KEY": None}

    def with_defaults(text, modules):
        head = "  gather_facts: false\n  tasks:\n"
        assert head in text
        defaults = "  module_defaults:\n" + "".join(f"    {name}:\n      api_key: {sim.api_key}\n" for name in modules)
        return text.replace(head, "  gather_facts: false\n" + defaults + "  tasks:\n", 1)

    create = with_defaults(role_playbook(work_dir, pods=pods, handoff=False),
                           ["runpod.cloud.pod", "runpod.cloud.pod_info"])
    delete = with_defaults(role_playbook(work_dir, "absent", pods=pods), ["group/runpod.cloud.all"])
    run = run_playbook(tmp_path, create + delete, env=env)
    assert run.rc == 0, run.stdout[-4000:] + run.stderr[-2000:]
    created, deleted = (entry["hosts_result"] for entry in run.task_results("Show the role result"))
    assert [pod["name"] for pod in created["pods"]] == ["role-defaults"] and created["pods"][0]["ssh"] is not None
    assert created["created"] == ["role-defaults"] and deleted["deleted"] == ["role-defaults"]
    assert sim.admin.count("POST", r"^/v2/pods$") == 1 and sim.admin.count("DELETE", r"^/v2/pods/") == 1
    assert live(sim, "pods") == []
    assert sim.api_key not in run.stdout + run.stderr
