# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``runpod.cloud.endpoint`` with ``wait_for: build`` and ``endpoint_info`` with ``builds`` against the simulator,
whose GitHub builds the play scripts through the admin API (real HTTP): a failed build ends the wait at once with its
error, commit and branch and deletes nothing; a completed build's wait ends on a worker of the release it made."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.timeout(240)

GPU = "NVIDIA GeForce RTX 4090"


def build_step(name, path, body, register=None):
    lines = [f"    - name: {name}", "      ansible.builtin.uri:",
             f'        url: "{{{{ admin }}}}/endpoints/{{{{ ep.endpoint.id }}}}/{path}"',
             "        method: POST", "        body_format: json", f"        body: {json.dumps(body)}",
             "        status_code: [200, 201]"]
    if register:
        lines.append(f"      register: {register}")
    return "\n".join(lines) + "\n"


def wait_task(name, register):
    return f"""    - name: {name}
      runpod.cloud.endpoint: {{name: built, wait: true, wait_for: build, wait_interval: 200ms, wait_timeout: 60s}}
      register: {register}
      ignore_errors: true
"""


def test_a_failed_build_ends_the_wait_and_a_completed_one_waits_for_its_worker(sim, run_playbook, tmp_path):
    play = f"""- hosts: localhost
  gather_facts: false
  vars:
    admin: {sim.urls["admin"]}
  tasks:
    - name: endpoint
      runpod.cloud.endpoint: {{name: built, image: "my-org/worker:1", gpu_type_ids: ["{GPU}"], workers_min: 1}}
      register: ep
{build_step("push 1", "builds", {"commitHash": "abc1234", "branch": "feature/x"}, register="b1")}\
{build_step("build 1 fails", "builds/{{ b1.json.id }}", {"status": "FAILED", "error": "docker build: exit 1"})}\
{wait_task("wait for build 1", "failed")}\
{build_step("push 2", "builds", {"commitHash": "def5678", "branch": "main"}, register="b2")}\
{build_step("build 2 tests", "builds/{{ b2.json.id }}", {"status": "TESTING"})}\
{build_step("build 2 completes", "builds/{{ b2.json.id }}", {"status": "COMPLETED"})}\
{wait_task("wait for build 2", "built")}\
    - name: info
      runpod.cloud.endpoint_info: {{name: built, builds: 3}}
      register: info
"""
    result = run_playbook(tmp_path, play, timeout=200)
    assert result.rc == 0, result.stdout[-4000:]
    endpoint_id = result.task_result("endpoint")["endpoint"]["id"]

    failed = result.task_result("wait for build 1")
    assert failed["failed"] is True and failed["code"] == "build_failed", failed
    assert "FAILED (commit abc1234 on feature/x): docker build: exit 1" in failed["msg"]
    assert "nothing is deleted" in failed["msg"] and failed["id"] == endpoint_id
    assert failed["build"]["status"] == "FAILED" and failed["build"]["error"] == "docker build: exit 1"
    assert (failed["build"]["commit"], failed["build"]["branch"]) == ("abc1234", "feature/x")
    assert failed["wait"]["polls"] == 1  # at once, not at the deadline

    built = result.task_result("wait for build 2")
    assert built.get("failed") is not True, built
    assert built["build"]["status"] == "COMPLETED" and built["build"]["commit"] == "def5678"
    assert built["build"]["completed_at"] is not None
    assert built["release"]["source"] == "GIT_BUILD" and built["release"]["version"] == 2
    assert built["ready_signal"] in ("worker_idle", "worker_running")
    assert built["endpoint"]["image"] == f"registry.runpod.net/{endpoint_id}:def5678"  # the build's image serves

    (entry,) = result.task_result("info")["endpoints"]
    assert [(b["status"], b["commit"]) for b in entry["builds"]] == [("COMPLETED", "def5678"), ("FAILED", "abc1234")]
    assert entry["builds_error"] is None and entry["builds"][1]["error"] == "docker build: exit 1"
    # Nothing was deleted on the failed wait, and no call but reads went out after the create.
    assert sim.admin.count("DELETE") == 0
    assert sim.admin.count("PATCH") == 0 and sim.admin.count("POST", r"^/v2/serverless$") == 1
