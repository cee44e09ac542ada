# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``playbooks/demo.yml`` and ``make demo`` (hack/demo.sh) end to end against the simulator.

The hand-off play must really run over SSH on the simulated pods: its answers (the pod id in the remote
environment, the GPU type from the pod's ``nvidia-smi``) only exist on the pod's SSH server, never on localhost.
Host-key checking stays on, so the login works only with the role's StrictHostKeyChecking=yes against the known_hosts
file of keys the wait checked against each pod's container log.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from helpers.playbooks import PlaybookResult, harness_env

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO = REPO_ROOT / "playbooks" / "demo.yml"
DEMO_SH = REPO_ROOT / "hack" / "demo.sh"
VENV_BIN = Path(sys.executable).parent
CALLBACK_DIR = REPO_ROOT / "tests" / "helpers" / "callback"
PODS = ("runpod-cloud-demo-gpu-1", "runpod-cloud-demo-gpu-2")
READY_SIGNALS = {"worker_idle", "worker_running", "health_ready"}


def run_demo(run_playbook, tmp_path: Path, **kwargs):
    wrapper = f"- name: The demo\n  ansible.builtin.import_playbook: {DEMO}\n"
    return run_playbook(tmp_path, wrapper, timeout=600, **kwargs)


def test_demo_refuses_to_run_without_an_api_key(sim, run_playbook, tmp_path):
    result = run_demo(run_playbook, tmp_path, env={"RUNPOD_API_KEY": None})
    assert result.rc != 0
    failure = result.task_result("Require an API key (the demo never picks a target on its own)")
    assert "RUNPOD_API_KEY is not set" in failure["msg"] and "make demo" in failure["msg"]
    assert sim.admin.requests() == []  # nothing was called, neither simulator nor anything else


def test_make_demo_runs_against_its_own_simulator_hands_off_over_ssh_and_leaves_nothing_behind(tmp_path):
    """One ``make demo`` run (hack/demo.sh) checked twice: its human-readable output and summary, and (through
    the sim_json_file callback beside the default output) every task result of the demo playbook it ran."""
    report_file = tmp_path / "demo-report.json"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("RUNPOD_", "ANSIBLE_"))}
    env.update(
        {
            "VENV_BIN": str(VENV_BIN),
            "TMPDIR": str(tmp_path),
            "RUNPOD_DEMO_TIME_SCALE": "0.05",
            # A key and URL from the user's shell must be ignored (the port is loopback "discard": never answers).
            "RUNPOD_API_KEY": "users-real-key-must-not-be-used",
            "RUNPOD_API_URL": "http://127.0.0.1:9/v2",
            # Host-key checking stays on (Ansible's default, stated here): the role's StrictHostKeyChecking=yes
            # against the checked keys is what makes the hand-off login work.
            "ANSIBLE_HOST_KEY_CHECKING": "True",
            "ANSIBLE_CALLBACK_PLUGINS": str(CALLBACK_DIR),
            "ANSIBLE_CALLBACKS_ENABLED": "sim_json_file",
            "SIM_JSON_FILE": str(report_file),
            **harness_env(),
        }
    )
    completed = subprocess.run(
        ["bash", str(DEMO_SH)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output[-6000:]
    assert "RUNPOD_API_KEY from your shell is NOT used" in output
    assert "users-real-key-must-not-be-used" not in output
    assert re.search(r"RUNPOD_API_URL=http://127\.0\.0\.1:\d+/v2", output)
    assert "127.0.0.1:9/" not in output
    # The hand-off output (pod id and GPU seen by the pod) is in the human-readable run.
    assert len(re.findall(r"nvidia-smi: NVIDIA RTX A4000", output)) == 2
    # Teardown: nothing left in the simulator, and the generated key pair (and its directory) is gone.
    assert "left behind: 0 pods, 0 endpoints, 0 templates in the simulator" in output
    assert "key pair:    removed (generated for the demo pods)" in output
    assert "result:      OK" in output
    # The wait verified both pods' host keys against their logs and the hand-off trusted only those keys.
    assert ("host keys:   2 pod(s) verified against RunPod's container log; hand-off with StrictHostKeyChecking=yes "
            "against those keys") in output
    # The simulator it started is stopped and its temporary directory removed.
    pid = int(re.search(r"simulator \(pid (\d+)\) stopped", output).group(1))
    assert not Path(f"/proc/{pid}").exists()
    # Nothing left in TMPDIR: no work directory, no symlink tree to the checkout (collections_path.py's).
    assert sorted(path.name for path in tmp_path.iterdir()) == [report_file.name]
    # No noise: no warning or deprecation (the hand-off reads ansible_facts[...]), no skipped twin of a role step,
    # the wait's timeout as given (15m, not what is left of it after the first read).
    noise = [line for line in output.splitlines() if re.search(r"WARNING|DEPRECAT|^skipping:", line)]
    assert noise == [], noise
    assert "waiting for ssh on 2 pods (timeout 15m; Ctrl-C keeps the pods, a rerun resumes)" in output

    report = json.loads(report_file.read_text())
    result = PlaybookResult(completed.returncode, completed.stdout, completed.stderr, report)
    # The status table came from one pod_info read showing both pods running and reachable.
    status = result.task_result("Read the pods' status (one API read for all of them)")
    pods = {pod["name"]: pod for pod in status["pods"]}
    assert set(pods) == set(PODS)
    assert all(pod["runtime_status"] == "running" and pod["ssh"] is not None for pod in pods.values())
    table = result.task_result("Show the pod status table")["msg"]
    assert table[0].split()[:3] == ["POD", "ID", "STATUS"]
    assert all(any(pod["id"] in row for row in table) for pod in pods.values())

    # Hand-off: facts and nvidia-smi came from each pod's own SSH server.
    facts = {r["_host"]: r["ansible_facts"] for r in result.task_results("Gather a few facts over SSH")}
    assert set(facts) == set(PODS)
    for name, pod_facts in facts.items():
        assert pod_facts["ansible_env"]["RUNPOD_POD_ID"] == pods[name]["id"]
    gpus = {r["_host"]: r for r in result.task_results("Ask nvidia-smi which GPUs the pod has")}
    assert set(gpus) == set(PODS)
    for name, gpu in gpus.items():
        assert gpu["rc"] == 0 and gpu["stdout"] == pods[name]["gpu"]["type"]
    assert "localhost" not in facts and "localhost" not in gpus
    shown = {r["_host"]: r["msg"][-1] for r in result.task_results("Show what the pod answered")}
    for name in PODS:
        assert shown[name].startswith("host key: verified; ssh options: -o StrictHostKeyChecking=yes "), shown
        assert f"UserKnownHostsFile={tmp_path}" in shown[name] and pods[name]["id"] in shown[name]

    # The endpoint waited for a worker and the summary says which signal ended the wait.
    endpoint = result.task_result("Wait for a ready worker on the endpoint")
    assert endpoint["ready_signal"] in READY_SIGNALS
    summary = result.task_result("Show what was created, how long each wait took and what made it ready")["msg"]
    assert any(f"ready signal: {endpoint['ready_signal']}" in line for line in summary)
    assert any("one batch wait for all pods" in line for line in summary)

    # Teardown deleted both pods (one DELETE each: the role's per-pod results), the endpoint and the template.
    deleted = [r for r in result.task_results("runpod.cloud.hosts : Delete the pods") if "results" in r]
    assert len(deleted) == 1
    removed = [item for item in deleted[0]["results"] if item["changed"]]
    assert sorted(item["item"]["name"] for item in removed) == sorted(PODS)
    assert all(item["actions"] == ["delete"] for item in removed)
    assert result.task_result("Delete the demo endpoint")["changed"] is True
    assert result.task_result("Delete the demo template")["changed"] is True
