# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod against the simulator: real HTTP, the module's update and refusals.

Each test asserts the exact outcome (changed, code, id, fields) and, where it matters, the API calls the
simulator logged. The module's decisions run in this process (helpers.in_process); what is Ansible's part (a
module warning, a bad wait_timeout through the action plugin's hand-off) runs through ansible-playbook. The
simulator runs at time_scale 0.02 (a default boot takes 0.3 s).
"""

from __future__ import annotations

import httpx
from helpers.in_process import ModuleRuns
from helpers.playbooks import play, pod_task
from helpers.simulated import ACCOUNT_SSH_KEY

GPU = "NVIDIA GeForce RTX 4090"


def create_args(name: str = "web", **extra) -> dict:
    args = {"name": name, "image": "runpod/base:1.0", "gpu_type_ids": [GPU]}
    args.update(extra)
    return args


def live_pods(sim, name: str | None = None) -> list[dict]:
    return [p for p in sim.admin.pods() if p["status"] != "TERMINATED" and (name is None or p["name"] == name)]


# --- lifecycle ----------------------------------------------------------------------------------------------


def test_update_and_refusals_in_one_run(sim, capsys, run_playbook, tmp_path):
    """One walk, two subjects on differently named pods.

    The update (pod ``upd``): a changed image/env/ports is one PATCH; check mode reports it with a diff and sends
    nothing; the rerun sends nothing. (The create/rerun/stop/start/restart/absent walk is the pod target's:
    tests/integration/targets/pod.)

    The refusals: a missing pod for stopped/restarted/present-by-id is not_found and creates nothing; two pods
    sharing a name (``dup``) are refused (present and absent) and neither is deleted; a CPU pod on community cloud
    with wait previews (check mode) with both warnings; a bad wait_timeout is refused. None of these steps may create
    or delete anything: the test's only POST is upd's create, and it deletes nothing.

    The update and the first refusals are module calls in this process (helpers.in_process). The CPU pod's row
    checks warnings and the bad wait_timeout's row the action plugin's hand-off, both Ansible's part: they run as
    the two tasks of one playbook, after the walk."""
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
    cpu = {
        "name": "cpu",
        "image": "x",
        "compute_type": "CPU",
        "cpu_flavor_ids": ["cpu3c"],
        "cloud_type": "COMMUNITY",
        "wait": True,
    }
    wanted = create_args("upd", image="runpod/base:2.0", env={"A": "2"}, ports=["8888/http"])
    walk = ModuleRuns(sim, capsys)
    walk.run("create upd", "pod", create_args("upd", env={"A": "1"}))
    walk.run("check update", "pod", wanted, check_mode=True, diff=True)
    walk.run("update", "pod", wanted, diff=True)
    walk.run("rerun update", "pod", wanted)
    walk.run("stop", "pod", {"name": "ghost", "state": "stopped"})
    walk.run("restart", "pod", {"id": "nosuchpod", "state": "restarted"})
    walk.run("present by id", "pod", {"id": "nosuchpod", "image": "x"})
    walk.run("present", "pod", create_args("dup"))
    walk.run("absent", "pod", {"name": "dup", "state": "absent"})
    refusals = {"stop", "restart", "present by id", "present", "absent"}
    assert walk.failed() <= refusals
    tasks = [
        pod_task("cpu", cpu) + "\n  check_mode: true",
        # Bad input is refused before any request (the table of the pod's input rules is
        # tests/unit/plugins/modules/test_refused_input.py's, "pod ..." rows); this one waits, so it goes through
        # the action plugin's hand-off to the controller.
        pod_task("bad timeout", create_args(wait=True, wait_timeout="200000d"), ignore_errors=True),
    ]
    result = run_playbook(tmp_path, play(*tasks))
    assert result.rc == 0, result.stdout + result.stderr

    # -- the update
    upd_id = walk.task_result("create upd")["pod"]["id"]
    checked_update = walk.task_result("check update")
    assert checked_update["changed"] is True and checked_update["actions"] == ["update"]
    assert checked_update["updated_fields"] == ["image", "ports", "env"]
    assert checked_update["diff"]["before"]["image"] == "runpod/base:1.0"
    assert checked_update["diff"]["after"]["image"] == "runpod/base:2.0"
    # The key startSsh injected stays: replacing the environment must not cut the pod's SSH access.
    kept = {"PUBLIC_KEY": ACCOUNT_SSH_KEY}
    assert checked_update["diff"]["after"]["env"] == {"A": "2", **kept}
    updated = walk.task_result("update")
    assert updated["changed"] is True and updated["pod"]["id"] == upd_id
    assert updated["pod"]["image"] == "runpod/base:2.0"
    assert sorted(updated["pod"]["ports"]) == ["22/tcp", "8888/http"]
    assert updated["diff"]["after"]["env"] == {"A": "2", **kept}
    assert walk.task_result("rerun update")["changed"] is False
    # One create and one PATCH in the whole test: upd's create and the update's PATCH (not the check-mode one's,
    # nor the rerun's, and none from the refused steps below).
    assert sim.admin.count("POST", r"^/v2/pods$") == 1
    assert sim.admin.count("PATCH") == 1
    assert [p["id"] for p in live_pods(sim, "upd")] == [upd_id]

    # -- the refusals
    stop = walk.task_result("stop")
    assert stop["failed"] is True and stop["code"] == "not_found" and stop["changed"] is False
    assert "no pod with name 'ghost' exists" in stop["msg"] and "never creates a pod" in stop["msg"]
    restart = walk.task_result("restart")
    assert restart["failed"] is True and restart["code"] == "not_found" and restart["id"] == "nosuchpod"
    by_id = walk.task_result("present by id")
    assert by_id["failed"] is True and by_id["code"] == "not_found" and "an id never creates a pod" in by_id["msg"]

    for task in ("present", "absent"):
        outcome = walk.task_result(task)
        assert outcome["failed"] is True and outcome["code"] == "ambiguous" and outcome["changed"] is False
        assert sorted(outcome["ids"]) == sorted(ids)
        assert all(pod_id in outcome["msg"] for pod_id in ids)

    outcome = result.task_result("cpu")
    assert outcome["changed"] is True and outcome["actions"] == ["create"]
    warnings = " ".join(outcome["warnings"])
    assert "succeeds only if the image starts sshd" in warnings
    assert "Community cloud hosts do not all have a public IP" in warnings

    bad = result.task_result("bad timeout")
    assert bad["failed"] is True and bad.get("changed", False) is False
    assert "invalid wait_timeout" in bad["msg"] and "out of range" in bad["msg"], bad["msg"]

    # No refused step created or deleted anything: the test's only POST is upd's create (above), it deleted nothing.
    assert [(e["method"], e["path"]) for e in sim.admin.requests() if e["method"] == "POST"] == [("POST", "/v2/pods")]
    assert sim.admin.count("DELETE") == 0
    # The two dup pods and upd are the only pods: nothing was created for ghost, nosuchpod or cpu.
    assert sorted(p["id"] for p in live_pods(sim)) == sorted([*ids, upd_id])
