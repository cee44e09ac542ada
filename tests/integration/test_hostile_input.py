# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Bad input, hostile names and interrupted runs: refused before any API call, never duplicated, never hijacked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

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


def test_connection_options_refused_or_warned_before_any_request(sim, run_playbook, tmp_path):
    """request_timeout must be a positive finite number; http off loopback and validate_certs=false warn."""
    bad_timeouts = ["-1", "nan", "inf", "0", "1e300"]
    tasks = "".join(
        f"""
    - name: timeout {value}
      runpod.cloud.pod_info: {{request_timeout: "{value}"}}
      ignore_errors: true
"""
        for value in bad_timeouts
    )
    result = run_playbook(
        tmp_path,
        f"""
- hosts: localhost
  gather_facts: false
  tasks:{tasks}
    - name: plain http off loopback
      # Fails on its own bad wait_timeout before any request, so the non-loopback URL is never contacted.
      runpod.cloud.pod_info: {{api_url: "http://api.runpod.example.test/v2", wait: true, wait_timeout: soon}}
      ignore_errors: true
    - name: unverified tls
      runpod.cloud.pod_info: {{validate_certs: false}}
""",
    )
    assert result.rc == 0, result.stdout + result.stderr
    for value in bad_timeouts:
        outcome = result.task_result(f"timeout {value}")
        assert outcome["failed"] is True and outcome["code"] == "bad_request", outcome
        assert "request_timeout must be a number of seconds above 0" in outcome["msg"]
        assert "Traceback" not in json.dumps(outcome)
    http = result.task_result("plain http off loopback")
    assert http["code"] == "bad_request"
    assert any("api_url http://api.runpod.example.test/v2 uses plain http" in w for w in http["warnings"]), http
    tls = result.task_result("unverified tls")
    assert tls.get("failed") is not True
    assert any(w.startswith("validate_certs is false") for w in tls["warnings"]), tls
    # Only the last task reached the API (its one list read).
    assert [entry["method"] for entry in sim.admin.requests()] == ["GET"]


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
    assert "request_timeout must be a number of seconds above 0" in completed.stderr
    assert sim.admin.requests() == []


def run_playbook_env(sim):
    import os

    env = dict(os.environ)
    env.update(sim.env())
    env.update({"ANSIBLE_INVENTORY_ENABLED": "runpod.cloud.runpod", "ANSIBLE_NOCOLOR": "1"})
    return env
