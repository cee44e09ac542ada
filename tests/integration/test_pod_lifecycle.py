# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod against the simulator: real ansible-playbook runs, real HTTP, real loopback SSH ports.

Each test asserts the exact outcome (changed, code, id, fields) and, where it matters, the API calls the
simulator logged. The simulator runs at time_scale 0.02 (a default boot takes 0.3 s); waits use 100 ms intervals.
"""

from __future__ import annotations

from helpers.playbooks import play, pod_task
from helpers.simulated import ACCOUNT_SSH_KEY

GPU = "NVIDIA GeForce RTX 4090"


def create_args(name: str = "web", **extra) -> dict:
    args = {"name": name, "image": "runpod/base:1.0", "gpu_type_ids": [GPU]}
    args.update(extra)
    return args


def wait_args(name: str = "web", **extra) -> dict:
    args = create_args(name, wait=True, wait_interval="100ms", wait_timeout="20s")
    args.update(extra)
    return args


def live_pods(sim, name: str | None = None) -> list[dict]:
    return [p for p in sim.admin.pods() if p["status"] != "TERMINATED" and (name is None or p["name"] == name)]


def run(run_playbook, tmp_path, *tasks, **kwargs):
    return run_playbook(tmp_path, play(*tasks), **kwargs)


# --- lifecycle ----------------------------------------------------------------------------------------------


def test_check_create_rerun_and_every_state(sim, run_playbook, tmp_path):
    """Check mode creates nothing; create; rerun unchanged; stop/start/restart/absent each once, then no-ops."""
    tasks = [
        pod_task("check create", create_args()),
    ]
    result = run(run_playbook, tmp_path, *tasks, check=True, extra_args=["--diff"])
    assert result.rc == 0, result.stdout + result.stderr
    checked = result.task_result("check create")
    assert checked["changed"] is True
    assert checked["actions"] == ["create"]
    assert checked["pod"] is None
    assert checked["diff"]["before"] == {}
    assert checked["diff"]["after"]["ports"] == ["22/tcp"]
    assert sim.admin.count("POST") == 0 and sim.admin.count("DELETE") == 0
    assert live_pods(sim) == []

    tasks = [
        pod_task("create", create_args(ports=["8888/http"]), register="created"),
        pod_task("rerun", create_args(ports=["8888/http"])),
        pod_task("stop", {"name": "web", "state": "stopped"}),
        pod_task("stop again", {"name": "web", "state": "stopped"}),
        pod_task("start", {"name": "web", "state": "running"}),
        pod_task("start again", {"name": "web", "state": "running"}),
    ]
    result = run(run_playbook, tmp_path, *tasks)
    assert result.rc == 0, result.stdout + result.stderr
    created = result.task_result("create")
    pod_id = created["pod"]["id"]
    assert created["changed"] is True and created["actions"] == ["create"]
    assert created["pod"]["name"] == "web" and created["pod"]["gpu"] == {"type": GPU, "count": 1}
    assert sorted(created["pod"]["ports"]) == ["22/tcp", "8888/http"]
    rerun = result.task_result("rerun")
    assert rerun["changed"] is False and rerun["actions"] == [] and rerun["pod"]["id"] == pod_id
    stop = result.task_result("stop")
    assert stop["changed"] is True and stop["actions"] == ["stop"]
    assert stop["pod"]["runtime_status"] == "stopped" and stop["pod"]["ssh"] is None
    assert result.task_result("stop again")["changed"] is False
    start = result.task_result("start")
    assert start["changed"] is True and start["actions"] == ["start"] and start["pod"]["id"] == pod_id
    assert result.task_result("start again")["changed"] is False
    assert sim.admin.count("POST", r"^/v2/pods$") == 1
    assert len(live_pods(sim, "web")) == 1

    sim.admin.wait_pod(pod_id, "RUNNING")
    tasks = [
        pod_task("restart", {"name": "web", "state": "restarted"}),
        pod_task("delete", {"name": "web", "state": "absent"}),
        pod_task("delete again", {"name": "web", "state": "absent"}),
    ]
    result = run(run_playbook, tmp_path, *tasks)
    assert result.rc == 0, result.stdout + result.stderr
    restart = result.task_result("restart")
    assert restart["changed"] is True and restart["actions"] == ["restart"] and restart["pod"]["id"] == pod_id
    delete = result.task_result("delete")
    assert delete["changed"] is True and delete["actions"] == ["delete"] and delete["pod"] is None
    again = result.task_result("delete again")
    assert again["changed"] is False and again["actions"] == []
    assert sim.admin.count("DELETE") == 1
    assert live_pods(sim) == []


def test_update_check_diff_then_apply(sim, run_playbook, tmp_path):
    """A changed image/env/ports is one PATCH; check mode reports it with a diff and sends nothing."""
    result = run(run_playbook, tmp_path, pod_task("create", create_args(env={"A": "1"})))
    assert result.rc == 0, result.stdout + result.stderr
    pod_id = result.task_result("create")["pod"]["id"]
    wanted = create_args(image="runpod/base:2.0", env={"A": "2"}, ports=["8888/http"])
    result = run(run_playbook, tmp_path, pod_task("update", wanted), check=True, extra_args=["--diff"])
    assert result.rc == 0, result.stdout + result.stderr
    checked = result.task_result("update")
    assert checked["changed"] is True and checked["actions"] == ["update"]
    assert checked["updated_fields"] == ["image", "ports", "env"]
    assert checked["diff"]["before"]["image"] == "runpod/base:1.0"
    assert checked["diff"]["after"]["image"] == "runpod/base:2.0"
    # The key startSsh injected stays: replacing the environment must not cut the pod's SSH access.
    kept = {"PUBLIC_KEY": ACCOUNT_SSH_KEY}
    assert checked["diff"]["after"]["env"] == {"A": "2", **kept}
    assert sim.admin.count("PATCH") == 0

    result = run(
        run_playbook, tmp_path, pod_task("update", wanted), pod_task("rerun", wanted), extra_args=["--diff"]
    )
    assert result.rc == 0, result.stdout + result.stderr
    updated = result.task_result("update")
    assert updated["changed"] is True and updated["pod"]["id"] == pod_id
    assert updated["pod"]["image"] == "runpod/base:2.0"
    assert sorted(updated["pod"]["ports"]) == ["22/tcp", "8888/http"]
    assert updated["diff"]["after"]["env"] == {"A": "2", **kept}
    assert result.task_result("rerun")["changed"] is False
    assert sim.admin.count("PATCH") == 1
    assert len(live_pods(sim)) == 1


def test_missing_pod_for_stopped_and_restarted_creates_nothing(sim, run_playbook, tmp_path):
    tasks = [
        pod_task("stop", {"name": "ghost", "state": "stopped"}, ignore_errors=True),
        pod_task("restart", {"id": "nosuchpod", "state": "restarted"}, ignore_errors=True),
        pod_task("present by id", {"id": "nosuchpod", "image": "x"}, ignore_errors=True),
    ]
    result = run(run_playbook, tmp_path, *tasks)
    stop = result.task_result("stop")
    assert stop["failed"] is True and stop["code"] == "not_found" and stop["changed"] is False
    assert "no pod with name 'ghost' exists" in stop["msg"] and "never creates a pod" in stop["msg"]
    restart = result.task_result("restart")
    assert restart["failed"] is True and restart["code"] == "not_found" and restart["id"] == "nosuchpod"
    by_id = result.task_result("present by id")
    assert by_id["failed"] is True and by_id["code"] == "not_found" and "an id never creates a pod" in by_id["msg"]
    assert sim.admin.count("POST") == 0
    assert live_pods(sim) == []


def test_duplicate_names_refused_and_nothing_deleted(sim, run_playbook, tmp_path):
    import httpx

    ids = []
    for _ignored in range(2):
        reply = httpx.post(
            sim.urls["api_v2"] + "/pods",
            headers={"Authorization": f"Bearer {sim.api_key}"},
            json={"name": "dup", "image": "x", "gpu": {"id": GPU, "count": 1}},
        )
        assert reply.status_code == 201, reply.text
        ids.append(reply.json()["id"])
    sim.admin.clear_requests()
    tasks = [
        pod_task("present", create_args("dup"), ignore_errors=True),
        pod_task("absent", {"name": "dup", "state": "absent"}, ignore_errors=True),
    ]
    result = run(run_playbook, tmp_path, *tasks)
    for task in ("present", "absent"):
        outcome = result.task_result(task)
        assert outcome["failed"] is True and outcome["code"] == "ambiguous" and outcome["changed"] is False
        assert sorted(outcome["ids"]) == sorted(ids)
        assert all(pod_id in outcome["msg"] for pod_id in ids)
    assert sim.admin.count("POST") == 0 and sim.admin.count("DELETE") == 0
    assert sorted(p["id"] for p in live_pods(sim, "dup")) == sorted(ids)


def test_refused_before_any_api_call(sim, run_playbook, tmp_path):
    """Bad input fails before a single request reaches the API (nothing billed)."""
    cases = {
        "bad timeout": (create_args(wait=True, wait_timeout="200000d"), "invalid wait_timeout", "out of range"),
        "bad interval": (create_args(wait=True, wait_interval="abc"), "invalid wait_interval", "supported formats"),
        "ssh false": (create_args(wait=True, ssh=False), "cannot be combined with ssh: false", ""),
        "unknown gpu": (create_args(gpu_type_ids=["NVIDIA RTX 4090"]), "unknown GPU type", "did you mean"),
        "unknown cloud": (create_args(cloud_type="PRIVATE"), "value of cloud_type must be one of", ""),
        # REST v1's spot option is gone with it: an unknown option like any other.
        "removed v1 option": (create_args(interruptible=True), "Unsupported parameters", "interruptible"),
        "image and template": (create_args(template_id="tpl"), "mutually exclusive", ""),
        "no image": ({"name": "web", "gpu_type_ids": [GPU]}, "needs image or template_id", ""),
    }
    tasks = [pod_task(name, args, ignore_errors=True) for name, (args, _ignored, _ignored) in cases.items()]
    result = run(run_playbook, tmp_path, *tasks)
    for name, (_ignored, text, more) in cases.items():
        outcome = result.task_result(name)
        assert outcome["failed"] is True, name
        assert outcome.get("changed", False) is False, name
        assert text in outcome["msg"] and more in outcome["msg"], (name, outcome["msg"])
    assert sim.admin.requests() == []


def test_warnings_for_cpu_ssh_wait_and_community_cloud(sim, run_playbook, tmp_path):
    args = {
        "name": "cpu",
        "image": "x",
        "compute_type": "CPU",
        "cpu_flavor_ids": ["cpu3c"],
        "cloud_type": "COMMUNITY",
        "wait": True,
    }
    result = run(run_playbook, tmp_path, pod_task("cpu", args), check=True)
    outcome = result.task_result("cpu")
    assert outcome["changed"] is True and outcome["actions"] == ["create"]
    warnings = " ".join(outcome["warnings"])
    assert "succeeds only if the image starts sshd" in warnings
    assert "Community cloud hosts do not all have a public IP" in warnings
    assert sim.admin.count("POST") == 0
