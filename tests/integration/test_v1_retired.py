# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod retired REST v1 on 2026-11-15: every way of asking for it fails before any API call.

One ansible-playbook run with ``RUNPOD_API_VERSION=v1`` in its environment (a run costs about 2 s of CPU, and
each module task more than a second, so the play keeps to one task per way in):

* the option ``api_version: v1`` on a pod create with wait and on pod_info (the task's environment says v2, so
  the option alone refuses);
* the environment alone (a pod create with wait, without ``api_version``);
* the ``hosts`` role with ``hosts_api_version: v1``;
* the inventory plugin, with ``api_version: v1`` in its config and from the environment alone (ansible-playbook
  warns and goes on without the source);
* last, ``api_version: v2``, which still works, with a deprecation: its one list read is the only request in
  the simulator's log, so nothing before it reached the API.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers.fakes import full_backend
from helpers.playbooks import DEPRECATION, flat

RETIRED = "RunPod retired REST v1 on 2026-11-15"
GPU = "NVIDIA GeForce RTX 4090"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com"
ROLE_CREATE = "runpod.cloud.hosts : Create the pods without waiting (one batch wait follows)"
OPTION_TASKS = ("option v1, pod create with wait", "option v1, pod_info")
ENV_TASKS = ("env v1, pod create with wait",)

POD = {"name": "web", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], "wait": True, "wait_timeout": "30s"}


def playbook(work_dir) -> str:
    pod_v1 = json.dumps({**POD, "api_version": "v1"})
    return f"""
- hosts: localhost
  gather_facts: false
  tasks:
    - name: {OPTION_TASKS[0]}
      runpod.cloud.pod: {pod_v1}
      environment: {{RUNPOD_API_VERSION: v2}}
      ignore_errors: true
    - name: {OPTION_TASKS[1]}
      runpod.cloud.pod_info: {{api_version: v1, names: [web], wait: true, wait_timeout: 30s}}
      environment: {{RUNPOD_API_VERSION: v2}}
      ignore_errors: true
    - name: {ENV_TASKS[0]}
      runpod.cloud.pod: {json.dumps(POD)}
      ignore_errors: true
    - name: The role
      block:
        - name: hosts role with hosts_api_version v1
          ansible.builtin.include_role:
            name: runpod.cloud.hosts
          vars:
            hosts_state: present
            hosts_api_version: v1
            hosts_group: retired
            hosts_work_dir: {work_dir}
            hosts_ssh_public_key: "{KEY}"
            hosts_pods:
              - name: role-pod
                image: runpod/base:1.0
                gpu_type_ids: ["{GPU}"]
      rescue:
        - name: the role stopped at
          ansible.builtin.debug:
            msg: "{{{{ ansible_failed_task.name }}}}"
    - name: option v2
      runpod.cloud.pod_info: {{api_version: v2}}
"""


def inventory_failure(stderr: str, source) -> str:
    """The warning ansible-playbook printed for the inventory ``source`` it could not parse with the plugin, without
    whitespace (``flat``: ansible-core before 2.19 wraps warnings)."""
    for block in re.split(r"(?m)^\[WARNING\]: ", stderr):
        if "runpod.cloud.runpod" in block and "plugin" in block and flat(str(source)) in flat(block):
            return flat(block)
    raise AssertionError(f"no inventory warning for {source}:\n{stderr}")


def test_every_v1_request_fails_before_any_api_call(sim, run_playbook, tmp_path):
    (seeded,) = sim.admin.seed(1, name_prefix="kept")
    sim.admin.clear_requests()
    option_source = tmp_path / "option.runpod.yml"
    option_source.write_text("plugin: runpod.cloud.runpod\napi_version: v1\n")
    env_source = tmp_path / "env.runpod.yml"
    env_source.write_text("plugin: runpod.cloud.runpod\n")
    result = run_playbook(
        tmp_path,
        playbook(tmp_path / "keys"),
        env={"RUNPOD_API_VERSION": "v1", "ANSIBLE_INVENTORY_ENABLED": "runpod.cloud.runpod,ini"},
        extra_args=["-i", str(option_source), "-i", str(env_source)],
        allow_deprecations=True,  # api_version's own, the last way in; checked below
    )
    assert result.rc == 0, result.stdout[-4000:] + result.stderr[-4000:]

    # (a) the option and (b) the environment: refused as a bad request, nothing changed.
    for name in OPTION_TASKS + ENV_TASKS:
        refused = result.task_result(name)
        assert refused["failed"] is True and refused["code"] == "bad_request", (name, refused)
        assert refused["changed"] is False, name
        assert RETIRED in refused["msg"] and "api_version 'v1' is not available" in refused["msg"], refused["msg"]
        assert "wait" not in refused and not refused.get("pod") and not refused.get("pods"), (name, refused)

    # (c) the hosts role: its first API task refused the pod, and the role went no further.
    (item,) = result.task_result(ROLE_CREATE)["results"]
    assert item["failed"] is True and item["code"] == "bad_request" and RETIRED in item["msg"], item
    assert result.task_result("the role stopped at")["msg"].endswith(ROLE_CREATE.split(" : ")[1])
    assert not result.task_results("runpod.cloud.hosts : Wait once for SSH on all pods together")

    # (d) the inventory plugin, from its config and from the environment: the source fails, the run goes on.
    for source in (option_source, env_source):
        warning = inventory_failure(result.stderr, source)
        expected = f"Invalid runpod.cloud.runpod inventory option: api_version 'v1' is not available: {RETIRED}"
        assert flat(expected) in warning, warning

    # (e) api_version v2 (the option beats RUNPOD_API_VERSION): it reads the pods, with a deprecation.
    read = result.task_result("option v2")
    assert read.get("failed") is not True, read
    assert [pod["id"] for pod in read["pods"]] == [seeded]
    assert any("api_version" in entry["msg"] for entry in read["deprecations"]), read.get("deprecations")
    # The run's printed deprecations are api_version's own (one from ansible-core would fail any other run).
    printed = [line for line in (result.stdout + result.stderr).splitlines() if DEPRECATION in line]
    assert printed and all("api_version" in line for line in printed), printed
    # Its one list read is the whole request log: no v1 request of any kind reached the API.
    assert [(entry["method"], entry["path"]) for entry in sim.admin.requests()] == [("GET", "/v2/pods")]
    assert [pod["id"] for pod in sim.admin.pods()] == [seeded]  # nothing created

    assert sim.api_key not in result.stdout + result.stderr


@pytest.mark.parametrize("version", ["v1", "V1", "v3"])
def test_the_backend_refuses_anything_but_v2_before_a_client_exists(sim, version):
    options = {"api_key": sim.api_key, "api_url": sim.urls["api_v2"], "api_version": version}
    with pytest.raises(ValueError, match=RETIRED):
        full_backend(options)
    backend = full_backend({**options, "api_version": "v2"})
    try:
        assert backend.pods.list() == []
    finally:
        backend.close()
    assert [(entry["method"], entry["path"]) for entry in sim.admin.requests()] == [("GET", "/v2/pods")]
