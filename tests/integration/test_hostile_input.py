# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Bad input, hostile names and interrupted runs: refused before any API call, never duplicated, never hijacked.
The refusals the modules decide run in the test's process (helpers.in_process); what Ansible adds (warnings, no_log
masking, the inventory, forks) runs through ansible-playbook."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from helpers.in_process import ModuleRuns
from helpers.playbooks import flat

ANSIBLE_INVENTORY = Path(sys.executable).parent / "ansible-inventory"
GPU = "NVIDIA GeForce RTX 4090"


def api_create_pod(sim, name, **body):
    """A pod made straight through the API (names the modules would refuse included)."""
    reply = httpx.post(
        sim.urls["api_v2"] + "/pods",
        headers={"Authorization": f"Bearer {sim.api_key}"},
        json={"name": name, "image": "x", "gpu": {"id": GPU, "count": 1}, **body},
        timeout=10,
    )
    assert reply.status_code == 201, reply.text
    return reply.json()["id"]


@pytest.mark.core
def test_inventory_host_names_never_take_over_reserved_or_other_hosts(sim, run_playbook, tmp_path):
    """Pods named all / localhost / db1 (a host of another source) / with spaces get safe host names."""
    ids = {name: api_create_pod(sim, name) for name in ("all", "localhost", "db1", "web pod*", "trainer-1")}
    (tmp_path / "inventory.ini").write_text("db1 ansible_connection=local\n")
    config = tmp_path / "pods.runpod.yml"
    config.write_text(
        """
plugin: runpod.cloud.runpod
runtime_status: [running, initializing]
include_unreachable: true
groups:
  gpus: "runpod_gpu.count > 0"
"""
    )
    result = run_playbook(
        tmp_path,
        """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: localhost is still the local machine
      ansible.builtin.debug:
        msg: >-
          {{ runpod_id | default('not a pod') }} {{ groups['all'] | sort }}
          {{ hostvars['db1'].runpod_id | default('not a pod') }}
""",
        extra_args=["-i", str(config)],
        env={"ANSIBLE_INVENTORY_ENABLED": "ini,runpod.cloud.runpod", "ANSIBLE_INVENTORY_UNPARSED_FAILED": "true"},
    )
    assert result.rc == 0, result.stdout + result.stderr
    msg = result.task_result("localhost is still the local machine")["msg"]
    expected_hosts = sorted(
        ["db1", "trainer-1", f"all-{ids['all']}", f"localhost-{ids['localhost']}", f"db1-{ids['db1']}",
         f"web_pod_-{ids['web pod*']}"]
    )
    assert msg == f"not a pod {expected_hosts} not a pod"
    for name in ("all", "localhost", "db1", "web pod*"):
        assert f"pod {ids[name]} named {json.dumps(name)} added as host" in result.stderr.replace("\n", " ")
    assert "trainer-1" not in result.stderr

    # The inventory plugin refuses a bad request_timeout with a clear message, before listing anything.
    sim.admin.clear_requests()
    config.write_text("plugin: runpod.cloud.runpod\nrequest_timeout: -1\n")
    completed = subprocess.run(
        [str(ANSIBLE_INVENTORY), "-i", str(config), "--list"],
        cwd=tmp_path,
        env={**run_playbook_env(sim), "ANSIBLE_INVENTORY_UNPARSED_FAILED": "true"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode != 0
    assert flat("request_timeout must be a number of seconds above 0") in flat(completed.stderr)
    assert sim.admin.requests() == []


def run_playbook_env(sim):
    import os

    env = dict(os.environ)
    env.update(sim.env())
    env.update({"ANSIBLE_INVENTORY_ENABLED": "runpod.cloud.runpod", "ANSIBLE_NOCOLOR": "1"})
    return env


# --- modules: refused before any API call ------------------------------------------------------------------------


# The whole table of refused input (every module, every rule) is tests/unit/plugins/modules/test_refused_input.py;
# here one case per module runs against the simulator and its request log shows that none of them reached the API.
# What a module decides runs in this process (helpers.in_process); what Ansible does with the result (a warning, the
# masking of a no_log value in the output) runs through ansible-playbook (the TASK_ rows).
POD = {"image": "runpod/base:1.0", "gpu_type_ids": [GPU]}
CLUSTER = {"type": "TRAINING", "gpu_type_id": GPU, "pod_count": 2, "image": "runpod/base:1.0"}
REFUSED = [
    ("pod", "pod duplicate port", {"name": "t", "ports": ["8080/http", "8080/http"], **POD}, "more than once"),
    ("pod", "pod yaml block newline", {"name": "t\n", **POD}, "leading or trailing whitespace"),
    ("template", "template bad port", {"name": "tpl", "image": "x", "ports": ["80"]}, "80/tcp"),
    ("cluster", "cluster bad port", {"name": "train", "ports": ["8888"], **CLUSTER}, "8888/tcp"),
    ("network_volume", "volume trailing space",
     {"name": "data ", "size_gb": 10, "data_center_id": "EU-RO-1"}, "leading or trailing whitespace"),
    ("endpoint", "endpoint three mistakes",
     {"name": "ep", "template_id": "t", "gpu_type_ids": ["NVIDIA GeForce RTX 3070"], "workers_min": 4,
      "workers_max": 2, "wait": True, "scaler_type": "REQUEST_COUNT", "idle_timeout": 5},
     "workers_min (4) must not be larger than workers_max (2)"),
    ("pod_info", "timeout nan", {"request_timeout": "nan"}, "request_timeout must be a number of seconds above 0"),
]
TASK_REFUSED = [
    # The password is no_log: Ansible masks it wherever it appears in the output, so it must not be a common word.
    ("container_registry", "registry newline",
     {"name": "hub\n", "username": "robot", "password": "s3cret-registry-pw"}, "leading or trailing whitespace"),
    # Fails on its own bad wait_timeout before any request, so the non-loopback URL is never contacted; it warns.
    ("pod_info", "plain http off loopback",
     {"api_url": "http://api.runpod.example.test/v2", "wait": True, "wait_timeout": "soon"}, "wait_timeout"),
]
# Last in the run: the only task that reaches the API (its one list read).
UNVERIFIED_TLS_TASK = """
    - name: unverified tls
      runpod.cloud.pod_info: {validate_certs: false}
"""


def assert_refused(outcome, label, needle):
    assert outcome["failed"] is True and outcome["code"] == "bad_request", (label, outcome)
    assert outcome["changed"] is False, label
    assert needle in outcome["msg"], (label, outcome["msg"])
    assert "Traceback" not in json.dumps(outcome), label


def test_bad_input_and_missing_or_wrong_keys_are_refused_before_any_request(sim, capsys, monkeypatch):
    """Bad module input (one case for each module) and a bad connection option are refused before any request; no
    key and a wrong key say where a key goes or came from (the variable or the option), never the key. Each row a
    module call in this process (helpers.in_process; the environment is this process's, as a task's
    ``environment:`` is its module's): no request but the wrong keys' list reads, one 401 each, not retried."""
    steps = ModuleRuns(sim, capsys)
    for module, label, args, _needle in REFUSED:
        steps.run(label, module, args)
    monkeypatch.setenv("RUNPOD_API_KEY", "")
    steps.run("no key", "pod_info", {"name": "web"}, with_key=False)
    monkeypatch.setenv("RUNPOD_API_KEY", "wrong-key-from-env")
    steps.run("wrong key in RUNPOD_API_KEY", "pod_info", {"name": "web"}, with_key=False)
    monkeypatch.setenv("RUNPOD_API_KEY", sim.api_key)  # a task's, from the simulator's environment
    steps.run("wrong key in api_key", "pod_info", {"name": "web", "api_key": "wrong-key-from-option"})

    for _module, label, _args, needle in REFUSED:
        assert_refused(steps.task_result(label), label, needle)
    missing = steps.task_result("no key")
    assert missing["failed"] is True and missing["code"] == "no_credentials", missing
    assert all(word in missing["msg"] for word in ("api_key", "RUNPOD_API_KEY", "module_defaults")), missing["msg"]
    for label, source in (("wrong key in RUNPOD_API_KEY", "RUNPOD_API_KEY"), ("wrong key in api_key", "api_key")):
        wrong = steps.task_result(label)
        assert wrong["failed"] is True and wrong["code"] == "unauthorized", wrong
        assert f"RunPod refused the API key from {'the api_key option' if source == 'api_key' else source}" in (
            wrong["msg"]), wrong["msg"]
    assert "wrong-key-from" not in json.dumps(steps.results)
    # Nothing reached the simulator (no read, no create, no update) but the wrong keys' list reads, each answered
    # 401 and not retried.
    assert [(entry["method"], entry["status"]) for entry in sim.admin.requests()] == [("GET", 401), ("GET", 401)]


@pytest.mark.core
def test_bad_input_and_connection_options_are_refused_or_warned_before_any_request(sim, run_playbook, tmp_path):
    """What Ansible does with a module's result, in one playbook run: a refused registry's no_log password is masked
    in the output; http off loopback (refused for its bad wait_timeout) and validate_certs=false warn. No task
    makes a request but the last (unverified tls) one list read."""
    tasks = "".join(
        f"""
    - name: {label}
      runpod.cloud.{module}: {json.dumps(args)}
      ignore_errors: true
"""
        for module, label, args, _needle in TASK_REFUSED
    )
    result = run_playbook(tmp_path, f"""
- hosts: localhost
  gather_facts: false
  tasks:{tasks}{UNVERIFIED_TLS_TASK}
""")
    assert result.rc == 0, result.stdout + result.stderr
    for _module, label, _args, needle in TASK_REFUSED:
        assert_refused(result.task_result(label), label, needle)
    http = result.task_result("plain http off loopback")
    assert any("api_url http://api.runpod.example.test/v2 uses plain http" in w for w in http["warnings"]), http
    assert "s3cret-registry-pw" not in result.stdout + result.stderr
    tls = result.task_result("unverified tls")
    assert tls.get("failed") is not True
    assert any(w.startswith("validate_certs is false") for w in tls["warnings"]), tls
    # Nothing reached the simulator but the last task's one list read: the unverified-tls task succeeded.
    assert [(entry["method"], entry["status"]) for entry in sim.admin.requests()] == [("GET", 200)]


# --- modules: never hijack, never duplicate ------------------------------------------------------------------------


def test_rename_onto_another_pod_is_refused_and_an_unparseable_201_is_adopted(sim, run_playbook, tmp_path):
    first, second = api_create_pod(sim, "a"), api_create_pod(sim, "b")
    sim.admin.clear_requests()
    # The create below goes through, but its 201 body is not JSON: the module must find the pod by name.
    sim.admin.inject_fault(r"^/v2/pods$", "malformed", method="POST")
    result = run_playbook(
        tmp_path,
        f"""
- hosts: localhost
  gather_facts: false
  tasks:
    - name: rename a onto b
      runpod.cloud.pod: {{id: {first}, name: b}}
      ignore_errors: true
    - name: create c
      runpod.cloud.pod:
        name: c
        image: runpod/base:1.0
        gpu_type_ids: ["{GPU}"]
        wait: true
        wait_for: running
        wait_interval: 100ms
        wait_timeout: 30s
""",
    )
    assert result.rc == 0, result.stdout + result.stderr
    renamed = result.task_result("rename a onto b")
    assert renamed["failed"] is True and renamed["code"] == "conflict" and renamed["changed"] is False
    assert renamed["id"] == first and renamed["ids"] == [second]
    assert f"pod {second} is already named 'b'" in renamed["msg"]
    assert sim.admin.count("PATCH") == 0
    assert sim.admin.pod(first)["name"] == "a"

    created = result.task_result("create c")
    (pod_c,) = [pod["id"] for pod in sim.admin.pods() if pod["name"] == "c"]
    assert created.get("failed") is not True, created
    assert created["changed"] is True and created["actions"] == ["adopt"]
    assert created["pod"]["id"] == pod_c and created["pod"]["runtime_status"] == "running"
    assert created["wait"]["polls"] >= 1
    assert any(f"pod {pod_c} named 'c' is listed" in warning for warning in created["warnings"])
    assert sim.admin.count("POST", r"^/v2/pods$") == 1


@pytest.mark.core
def test_forks_creating_one_name_at_once_are_reported_not_deleted(sim, run_playbook, tmp_path):
    """Four hosts each create 'trainer' at the same moment: a list read after each create reports the duplicates."""
    hosts = [f"worker{index}" for index in range(4)]
    (tmp_path / "inventory.ini").write_text(
        "".join(f"{host} ansible_connection=local ansible_python_interpreter={sys.executable}\n" for host in hosts)
    )
    # The creates are held until all four have arrived, so every fork's name lookup (made before its create) found
    # no pod and all four create, however slowly a loaded machine starts the forks. (A fixed delay was not enough:
    # a fork that started after two creates had answered found two pods, reported them without creating, and was
    # rightly changed=False.)
    sim.admin.inject_fault(r"^/v2/pods$", "hold", method="POST", parties=len(hosts), count=len(hosts))
    result = run_playbook(
        tmp_path,
        f"""
- hosts: all
  gather_facts: false
  tasks:
    - name: create trainer
      runpod.cloud.pod: {{name: trainer, image: runpod/base:1.0, gpu_type_ids: ["{GPU}"]}}
      ignore_errors: true
""",
        extra_args=["--forks", str(len(hosts))],
    )
    assert result.rc == 0, result.stdout + result.stderr
    live = sorted(pod["id"] for pod in sim.admin.pods() if pod["status"] != "TERMINATED")
    assert len(live) == len(hosts), "the creates did not overlap"
    outcomes = result.task_results("create trainer")
    reported = [outcome for outcome in outcomes if outcome.get("code") == "ambiguous"]
    assert reported, outcomes
    # The last create to answer sees every duplicate; each report names its own pod and all the others.
    assert max(len(outcome["ids"]) for outcome in reported) == len(live)
    for outcome in reported:
        assert outcome["changed"] is True and outcome["id"] in outcome["ids"]
        assert set(outcome["ids"]) <= set(live)
        assert "run_once" in outcome["msg"] and "Nothing was deleted" in outcome["msg"]
    assert sim.admin.count("DELETE") == 0
