# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The pod's own lease watchdog (issue 53), armed by the ``hosts`` role and by ``runpod.cloud.pod``'s
``wait_for: login`` in one playbook run, enforces each pod's lease after the play has ended: no controller is left.

No test waits for a lease: a pod is aged (the simulator moves its createdAt back) once the play is over, and the
test polls for the pod's state with a deadline. The idle pods' watchdogs check every half second.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from helpers.playbooks import STRICT_SSH_ENV

IMAGE = "runpod/base:0.6.2-cuda12.4.1"
GPU = "NVIDIA RTX A4000"
FAST = {"RUNPOD_CLOUD_WATCHDOG_INTERVAL": "0.5"}
LEASES = {
    "stopper": {"RUNPOD_CLOUD_STOP_AFTER": "3600"},
    "doomed": {"RUNPOD_CLOUD_STOP_AFTER": "3600", "RUNPOD_CLOUD_TERMINATE_AFTER": "7200"},
    "idle": {"RUNPOD_CLOUD_IDLE_STOP_AFTER": "2"},
    "busy": {"RUNPOD_CLOUD_IDLE_STOP_AFTER": "2"},
    "plain": {},
}
ARM = "runpod.cloud.hosts : Arm the lease watchdog in every pod"


def wait_until(condition, *, timeout: float):
    """Poll ``condition`` until it is truthy (a deadline, not a sleep for time to pass); its value."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, "condition not met before the deadline"
        time.sleep(0.1)
    return value


def pod_args(name: str, public_key: str, **extra: object) -> dict:
    env = {**LEASES.get(name, {"RUNPOD_CLOUD_STOP_AFTER": "3600"}), **FAST} if name != "plain" else {}
    return {"name": name, "image": IMAGE, "gpu_type_ids": [GPU], "env": env, "ssh_public_key": public_key, **extra}


def playbook(sim, key: Path, public_key: str, work_dir: Path) -> str:
    entries = [{k: v for k, v in pod_args(name, public_key).items() if k != "ssh_public_key"} for name in LEASES]
    busy = {**pod_args("busy", public_key), "wait": False}
    # The solo pod's lease comes from the module's option (#53's part A writes it into the pod's env), the role's
    # pods' from their env: the watchdog reads the same variables either way.
    solo = {**pod_args("solo", public_key), "env": FAST, "stop_after": "1h", "wait": True, "wait_for": "login",
            "ssh_private_key_file": str(key), "wait_timeout": "2m", "wait_interval": "1s"}
    return f"""
- name: Provision, arm, and leave
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Create the busy pod first
      runpod.cloud.pod: {json.dumps(busy)}
      register: busy
    - name: Its GPU is busy before any watchdog is armed
      ansible.builtin.uri:
        url: "{sim.urls["admin"]}/pods/{{{{ busy.pod.id }}}}/utilization"
        method: POST
        body_format: json
        body: {{gpus: [{{util: 80}}]}}
    - name: Run the hosts role
      ansible.builtin.include_role:
        name: runpod.cloud.hosts
      vars:
        hosts_group: leased
        hosts_work_dir: {work_dir}
        hosts_ssh_private_key_file: {key}
        hosts_wait_timeout: 2m
        hosts_wait_interval: 1s
        hosts_connection_timeout: 60
        hosts_pods: {json.dumps(entries)}
    - name: A pod of its own, ready when logged in
      runpod.cloud.pod: {json.dumps(solo)}
      register: solo
"""


def test_pods_enforce_their_leases_themselves_once_the_play_is_over(sim, run_playbook, tmp_path):
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    public_key = key.with_name("id_ed25519.pub").read_text().strip()
    result = run_playbook(tmp_path, playbook(sim, key, public_key, tmp_path / "work"), env=STRICT_SSH_ENV)
    assert result.rc == 0, result.stdout[-4000:] + result.stderr[-2000:]

    pods = {pod["name"]: pod["id"] for pod in sim.listed("/pods", "pods")}
    armed = {item["item"]["name"]: item for item in result.task_results(ARM)[0]["results"]}
    assert {name for name, item in armed.items() if item["changed"]} == {"stopper", "doomed", "idle", "busy"}
    assert "has no lease, nothing armed" in armed["plain"]["stdout"]
    solo = result.task_result("A pod of its own, ready when logged in")
    assert solo["watchdog"]["armed"] is True and pods["solo"] in solo["watchdog"]["detail"]

    def status(name: str) -> str:
        return sim.admin.pod(pods[name])["status"]

    # The play is over. Within their leases the pods run; past them they act on their own, with their own keys.
    assert {name: status(name) for name in ("stopper", "doomed", "solo", "plain")} == dict.fromkeys(
        ("stopper", "doomed", "solo", "plain"), "RUNNING")
    for name, seconds in (("stopper", 3600), ("doomed", 7200), ("solo", 3600)):
        sim.admin.age_pod(pods[name], seconds)
    wait_until(lambda: status("stopper") == "EXITED" and status("solo") == "EXITED", timeout=30)
    wait_until(lambda: status("doomed") == "TERMINATED", timeout=30)
    wait_until(lambda: status("idle") == "EXITED", timeout=30)
    for name, action_status in (("stopper", 200), ("solo", 200), ("doomed", 204), ("idle", 200)):
        assert sim.admin.count("POST", rf"/v2/pods/{pods[name]}/action", status=action_status) == 1, name

    # The busy pod's watchdog has checked past its idle time (2 s) since the idle one stopped, and it runs.
    state = Path(sim.admin.pod(pods["busy"])["home"]) / ".runpod-cloud" / "state"

    def checked() -> int:
        fields = dict(part.split("=", 1) for part in state.read_text().split() if "=" in part) if state.exists() else {}
        return int(fields.get("checked", 0)) if fields.get("idle_since") == "-" else -1

    since = wait_until(lambda: checked() > 0 and checked(), timeout=30)
    wait_until(lambda: checked() >= since + 3, timeout=30)
    assert status("busy") == "RUNNING" and status("plain") == "RUNNING"
    assert sim.admin.count("POST", rf"/v2/pods/{pods['busy']}/action") == 0
    assert sim.admin.count("POST", rf"/v2/pods/{pods['plain']}/action") == 0
