# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.endpoint and endpoint_info against the simulator: the lifecycle and a rename, scripted health and
waits that fail (one endpoint per case), and shipping a new image (it slows the simulator's workers and rollout).

The steps are the modules' decisions (results, diffs, check mode, the request log, the engine's waits), so they run
as module calls in the test's process (helpers.in_process); a step whose check is a warning (or its absence) runs as
a task in an ansible-playbook run. Check mode, diff, the create's wait and the rerun through Ansible are the endpoint
target's (tests/integration/targets/endpoint); the wait on the controller and the module giving the same results,
test_wait_progress_services'."""

from __future__ import annotations

import json

import httpx
import pytest
from helpers.in_process import ModuleRuns
from helpers.playbooks import module_task, play

pytestmark = pytest.mark.timeout(180)

PREFIX = "/v2/serverless"
GPUS = ["NVIDIA GeForce RTX 4090", "NVIDIA L4"]


TEMPLATE = {"name": "worker-tpl", "image": "runpod/serverless-hello-world:latest", "serverless": True}


def health_gets(sim, endpoint_id):
    return sim.admin.count("GET", rf"^/invoke/v2/{endpoint_id}/health$")


def test_lifecycle_create_wait_rerun_update_info_delete_and_rename(sim, run_playbook, capsys, tmp_path):
    """Endpoint ep's lifecycle (check mode, create and wait, rerun, update, info, delete), then a rename by id on
    two endpoints of their own, never onto another endpoint's name. Each step is a module call in this process
    (helpers.in_process: the module's own code over real HTTP) but the create, a task of its own: its check that
    the wait warns of nothing is a warning's (one in this process could go to a display). The endpoint target walks
    check mode, diff, the create's wait and the rerun through ansible-playbook (tests/integration/targets/endpoint),
    test_wait_progress_services the wait on both paths."""
    result = ModuleRuns(sim, capsys)
    run = result.run
    template_id = run("template", "template", TEMPLATE)["template"]["id"]
    ep = {"name": "ep", "template_id": template_id, "gpu_type_ids": GPUS, "workers_min": 1, "workers_max": 3,
          "idle_timeout": 5, "scaler_type": "QUEUE_DELAY", "scaler_value": 4, "execution_timeout_ms": 600000,
          "data_center_ids": ["EU-RO-1"], "wait": True}
    run("preview", "endpoint", ep, check_mode=True, diff=True)
    create = {**ep, "wait_interval": "100ms", "wait_timeout": "30s"}
    played = run_playbook(tmp_path, play(module_task("endpoint", "create", create)))
    assert played.rc == 0, played.stdout + played.stderr
    run("rerun", "endpoint", ep)
    updated = {**ep, "wait": False, "workers_max": 5, "idle_timeout": 7}
    run("update", "endpoint", updated, diff=True)
    run("rerun update", "endpoint", updated)
    run("info", "endpoint_info", {"name": "ep"})
    run("info all", "endpoint_info", {})
    run("info unknown id", "endpoint_info", {"id": "nope-nope"})
    run("delete", "endpoint", {"name": "ep", "state": "absent"})
    run("delete again", "endpoint", {"name": "ep", "state": "absent"})
    # After the lifecycle's delete, on endpoints of their own (named, other): a rename by id, refused onto a name
    # taken.
    named = {"name": "named", "template_id": template_id, "gpu_type_ids": GPUS}
    run("first", "endpoint", named)
    second = run("second", "endpoint", {**named, "name": "other"})["endpoint"]["id"]
    run("onto named", "endpoint", {"id": second, "name": "named"})
    run("rename", "endpoint", {"id": second, "name": "other-2"}, diff=True)
    assert result.failed() <= {"onto named"}
    prefix = PREFIX

    preview = result.task_result("preview")
    assert preview["changed"] is True
    assert preview["endpoint"]["id"] is None
    assert preview["diff"]["before"] == {}
    assert preview["diff"]["after"]["workers_min"] == 1
    assert "ready_signal" not in preview  # check mode never waits

    created = played.task_result("create")
    endpoint = created["endpoint"]
    assert created["changed"] is True
    assert endpoint["id"] and endpoint["name"] == "ep"
    # An endpoint keeps no link to its template (applied once at create), so it reports none.
    assert result.task_result("template")["template"]["id"]
    assert endpoint["template_id"] is None
    assert endpoint["gpu_pools"] == ["ADA_24"]  # both GPU types map to one pool
    assert created["ready_signal"] == "worker_idle"
    assert created["ready_worker_id"]
    assert endpoint["workers_min"] == 1 and endpoint["workers_max"] == 3
    assert endpoint["idle_timeout"] == 5 and endpoint["scaler_type"] == "QUEUE_DELAY"
    assert endpoint["scaler_value"] == 4
    assert endpoint["execution_timeout_ms"] == 600000
    assert endpoint["data_center_ids"] == ["EU-RO-1"]
    assert endpoint["health"]["ready"] >= 1
    serverless = sim.urls["serverless"]
    assert endpoint["urls"] == {
        "run": f"{serverless}/{endpoint['id']}/run",
        "runsync": f"{serverless}/{endpoint['id']}/runsync",
        "status": f"{serverless}/{endpoint['id']}/status",
        "health": f"{serverless}/{endpoint['id']}/health",
    }
    assert created["wait"]["polls"] >= 1
    assert not created.get("warnings")

    rerun = result.task_result("rerun")
    assert rerun["changed"] is False
    assert rerun["endpoint"]["id"] == endpoint["id"]

    update = result.task_result("update")
    assert update["changed"] is True
    assert update["endpoint"]["id"] == endpoint["id"]
    assert update["endpoint"]["workers_max"] == 5 and update["endpoint"]["idle_timeout"] == 7
    assert update["diff"] == {"before": {"workers_max": 3, "idle_timeout": 5},
                              "after": {"workers_max": 5, "idle_timeout": 7}}
    assert result.task_result("rerun update")["changed"] is False

    info = result.task_result("info")
    assert info["changed"] is False
    assert [entry["id"] for entry in info["endpoints"]] == [endpoint["id"]]
    assert info["endpoints"][0]["health"]["ready"] >= 1
    assert info["endpoints"][0]["health_error"] is None
    assert info["endpoints"][0]["workers_max"] == 5
    assert [entry["id"] for entry in result.task_result("info all")["endpoints"]] == [endpoint["id"]]
    assert result.task_result("info unknown id")["endpoints"] == []

    deleted = result.task_result("delete")
    assert deleted["changed"] is True and deleted["endpoint"]["id"] == endpoint["id"]
    assert result.task_result("delete again")["changed"] is False

    # One create, one update, one delete of ep: check mode and reruns never mutate (the two creates after it are the
    # rename's, whose one PATCH is its own).
    assert sim.admin.count("POST", rf"^{prefix}$") == 1 + 2
    assert sim.admin.count("PATCH", rf"^{prefix}/{endpoint['id']}$") == 1
    assert sim.admin.count("DELETE", rf"^{prefix}/") == 1
    # Health reads: the waits' polls (the rerun waits too, ready at once) plus one per endpoint_info hit.
    assert rerun["wait"]["polls"] == 1 and rerun["ready_signal"] == created["ready_signal"]
    assert health_gets(sim, endpoint["id"]) == created["wait"]["polls"] + 1 + 2

    # A rename by id, never onto another endpoint's name.
    first = result.task_result("first")["endpoint"]["id"]
    # Two endpoints named alike would make every later task using the name fail as ambiguous: refused.
    refused = result.task_result("onto named")
    assert refused["failed"] is True and refused["code"] == "conflict" and refused["changed"] is False
    assert refused["id"] == second and refused["ids"] == [first]
    assert f"endpoint {first} is already named 'named'" in refused["msg"]
    renamed = result.task_result("rename")
    assert renamed["changed"] is True
    assert renamed["endpoint"]["id"] == second and renamed["endpoint"]["name"] == "other-2"
    assert renamed["diff"] == {"before": {"name": "other"}, "after": {"name": "other-2"}}
    assert sim.admin.count("PATCH", rf"^{PREFIX}/") == 1 + 1  # ep's update and this rename
    assert sim.admin.count("PATCH", rf"^{PREFIX}/{second}$") == 1
    assert sim.admin.count("DELETE", rf"^{PREFIX}/({first}|{second})$") == 0


def test_scripted_health_and_a_never_propagating_endpoint_in_one_run(sim, run_playbook, capsys, tmp_path):
    """One endpoint per case (health reads are counted per endpoint): workers_min 0 warns and rides out the
    /health 404 lag; an endpoint deleted mid-wait is not_found after two misses; a 401 mid-wait fails at once;
    throttled and unhealthy workers are never ready; and, last (the lag applies to endpoints created after it is
    set), an endpoint that never propagates is not_found on the 12th read. The waits are the engine's decisions:
    module calls in this process (helpers.in_process; test_wait_progress_services proves both paths give the same
    results), but the wait that warns, a task in an ansible-playbook run (in this process a warning can go to a
    display instead of the result)."""
    lag = [{"status": 404}, {"status": 404}, {"workers": {"ready": 1, "idle": 1}}]
    deleted = [{"workers": {"initializing": 1}}, {"status": 404}]
    denied = [{"workers": {"initializing": 1}}, {"status": 401, "error": "invalid api key"}]
    result = ModuleRuns(sim, capsys)
    run = result.run
    template_id = run("template", "template", TEMPLATE)["template"]["id"]

    def endpoint(ep, **wait):
        return {"name": ep, "template_id": template_id, "gpu_type_ids": GPUS, "workers_min": 0, **wait}

    def waiting(ep, interval="100ms", timeout="30s"):
        return endpoint(ep, wait=True, wait_interval=interval, wait_timeout=timeout)

    def setup(ep):
        """Endpoint ``ep`` created without waiting (its result kept as ``setup_<ep>``) and known to the invoke
        service at once (the wait that follows starts sooner than a task would, so the simulator's propagation lag
        is ended by its admin hook, never by waiting it out): its id."""
        endpoint_id = run(f"setup_{ep}", "endpoint", endpoint(ep))["endpoint"]["id"]
        sim.admin.propagate(endpoint_id)
        return endpoint_id

    sim.admin.health_sequence(setup("zero"), lag)
    played = run_playbook(tmp_path, play(module_task("endpoint", "wait zero", waiting("zero"))))
    assert played.rc == 0, played.stdout + played.stderr
    sim.admin.health_sequence(setup("gone"), deleted)
    run("wait gone", "endpoint", waiting("gone"))
    sim.admin.health_sequence(setup("denied"), denied)
    run("wait denied", "endpoint", waiting("denied", interval="500ms", timeout="60s"))
    sim.admin.set_worker_statuses(setup("sick"), ["THROTTLED", "UNHEALTHY"])
    run("wait sick", "endpoint", waiting("sick", interval="200ms", timeout="1s"))
    # Endpoints never propagate from now on.
    sim.admin.configure(propagation_lag=1000000)
    run("wait lost", "endpoint", waiting("lost", timeout="60s"))
    refusals = {"wait gone", "wait denied", "wait sick", "wait lost"}
    assert result.failed() <= refusals

    # workers_min 0 warns, and the wait rides out the health 404 lag.
    waited = played.task_result("wait zero")
    endpoint_id = result.task_result("setup_zero")["endpoint"]["id"]
    assert waited.get("failed") is not True, waited
    assert waited["changed"] is False
    assert waited["endpoint"]["id"] == endpoint_id
    assert waited["ready_signal"] == "health_ready"
    assert waited["endpoint"]["health"] == {"ready": 1, "running": 0, "idle": 1, "initializing": 0,
                                            "throttled": 0, "unhealthy": 0}
    assert waited["wait"]["polls"] == 3
    assert any("workers_min 0" in warning and endpoint_id in warning for warning in waited["warnings"])
    assert health_gets(sim, endpoint_id) == 3

    # Deleted mid-wait: not_found after two misses.
    failed = result.task_result("wait gone")
    endpoint_id = result.task_result("setup_gone")["endpoint"]["id"]
    assert failed["failed"] is True
    assert failed["code"] == "not_found"
    assert failed["id"] == endpoint_id
    assert failed["changed"] is False  # it existed before this task
    assert failed["wait"]["polls"] == 3  # one good read, then two 404s
    assert "deleted while waiting" in failed["msg"]
    assert f"endpoint {endpoint_id}" in failed["msg"]
    assert failed["endpoint"]["id"] == endpoint_id
    assert failed["endpoint"]["health"]["initializing"] == 1
    assert health_gets(sim, endpoint_id) == 3

    # A 401 mid-wait fails at once.
    failed = result.task_result("wait denied")
    endpoint_id = result.task_result("setup_denied")["endpoint"]["id"]
    assert failed["failed"] is True
    assert failed["code"] == "unauthorized"
    assert failed["status"] == 401
    assert failed["id"] == endpoint_id
    assert failed["wait"]["polls"] == 2
    # Fatal at the second read (0.5 s in), far from the 60 s budget (no wall-clock budget in make test).
    assert failed["wait"]["elapsed"] < 30
    assert failed["wait"]["history"][-1]["elapsed"] < 30
    assert health_gets(sim, endpoint_id) == 2
    assert sim.api_key not in json.dumps(failed)

    # Throttled and unhealthy workers are never ready.
    failed = result.task_result("wait sick")
    endpoint_id = result.task_result("setup_sick")["endpoint"]["id"]
    assert failed["failed"] is True
    assert failed["code"] == "wait_timeout"
    assert failed["id"] == endpoint_id
    counters = "workers ready 0, running 0, initializing 0, throttled 1, unhealthy 1"
    assert failed["wait"]["last_state"] == counters
    assert counters in failed["msg"]
    assert f"a ready worker on endpoint {endpoint_id}" in failed["msg"]
    assert "not billing, but it will start one on the first request" in failed["msg"]
    assert failed["endpoint"]["health"]["throttled"] == 1 and failed["endpoint"]["health"]["unhealthy"] == 1
    # Polls at 0, 0.2, ... and a final one at the deadline (1 s): never more than one per interval (at most 6),
    # and at least the first and the one at the deadline. How many fit between depends on how long each read
    # takes on this machine (a loaded run at 6 workers made 4), so the exact count is pinned where the clock is
    # fake: tests/unit/plugins/module_utils/test_cadence.py. Exactly one health read per poll.
    assert 2 <= failed["wait"]["polls"] <= 6
    assert health_gets(sim, endpoint_id) == failed["wait"]["polls"]

    # Never propagating: not_found on the 12th read, and kept.
    failed = result.task_result("wait lost")
    endpoint_id = failed["id"]
    assert failed["failed"] is True
    assert failed["code"] == "not_found"
    assert failed["changed"] is True  # this task created it, and it is kept
    assert failed["endpoint"]["id"] == endpoint_id
    assert failed["endpoint"]["health"] is None
    assert failed["wait"]["polls"] == 12
    assert "still does not know endpoint" in failed["msg"] and "12 consecutive reads" in failed["msg"]
    for claim in ("never existed", "does not exist", "never created"):
        assert claim not in failed["msg"]
    assert "runpod.cloud.endpoint id=%s state=absent" % endpoint_id in failed["msg"]
    assert "not billing" in failed["msg"]
    assert health_gets(sim, endpoint_id) == 12

    # No failed wait deleted anything, and each of the five endpoints was created once.
    assert sim.admin.count("DELETE", rf"^{PREFIX}/") == 0
    assert sim.admin.count("POST", rf"^{PREFIX}$") == 5


def test_ship_a_new_image_waits_for_the_new_release_then_the_rollout(sim, capsys):
    """Create from an image (no template), rerun, ship a new image (ready, then rollout), a stalled rollout,
    a CPU endpoint. Simulated seconds: a worker boots in 50 (1 s real), one old worker is replaced every 150. The
    waits are the engine's decisions, so each step is a module call in this process (helpers.in_process; a module's
    own wait, proven to give the controller path's results by test_wait_progress_services; the endpoint target walks
    the create's wait through ansible-playbook)."""
    sim.admin.configure(worker_boot_delay=50, rollout_step=150)
    ep = {"name": "ship", "gpu_type_ids": GPUS[:1], "workers_min": 2, "workers_max": 3, "env": {"MODEL": "a"},
          "wait_interval": "100ms", "wait_timeout": "60s"}
    result = ModuleRuns(sim, capsys)
    run = result.run
    created = run("create", "endpoint", dict(ep, image="my-org/worker:1", wait=True))
    endpoint_id = created["endpoint"]["id"]
    run("rerun", "endpoint", dict(ep, image="my-org/worker:1"))
    run("ship", "endpoint", dict(ep, image="my-org/worker:2", wait=True), diff=True)
    response = httpx.get(f"{sim.urls['api_v2']}/serverless/{endpoint_id}/workers", timeout=10,
                         headers={"Authorization": f"Bearer {sim.api_key}"})
    assert response.status_code == 200, response.text
    run("rollout", "endpoint", dict(ep, image="my-org/worker:2", wait=True, wait_for="rollout"))
    run("info", "endpoint_info", {"name": "ship"})
    cpu_ep = {"name": "cpu-ep", "image": "my-org/cpu-worker:1", "cpu_flavor_ids": ["cpu3c", "cpu5c"],
              "vcpu_count": 4, "workers_max": 1}
    run("cpu", "endpoint", cpu_ep)
    run("cpu rerun", "endpoint", cpu_ep)
    # Stall the next rollout.
    sim.admin.configure(rollout_step=1000000)
    run("stalled", "endpoint", dict(ep, image="my-org/worker:3", wait=True, wait_for="rollout", wait_timeout="3s"))
    assert result.failed() <= {"stalled"}
    prefix = PREFIX
    assert created["changed"] is True and created["endpoint"]["image"] == "my-org/worker:1"
    assert created["release"]["version"] == 1
    assert result.task_result("rerun")["changed"] is False

    shipped = result.task_result("ship")
    assert shipped["changed"] is True and shipped["diff"]["after"] == {"image": "my-org/worker:2"}
    assert shipped["release"] == {**shipped["release"], "version": 2, "source": "MANUAL"}
    # Ready came from a worker of release 2, while an old worker still served (the rollout was not over).
    assert shipped["ready_signal"] == "worker_idle" and shipped["rollout"]["in_progress"] is True
    listed = {w["id"]: w for w in response.json()["workers"]}
    ready_worker = listed[shipped["ready_worker_id"]]
    assert ready_worker["version"] == 2 and ready_worker["isStale"] is False
    assert ready_worker["image"] == "my-org/worker:2"

    rolled = result.task_result("rollout")
    assert rolled["changed"] is False
    assert rolled["rollout"] == {"in_progress": False, "workers_on_latest": 2, "workers_total": 2,
                                 "percent_on_latest": 100}
    (info,) = result.task_result("info")["endpoints"]
    assert info["release"]["version"] == 2 and info["rollout"]["in_progress"] is False

    cpu = result.task_result("cpu")["endpoint"]
    assert cpu["cpu_flavor_ids"] == ["cpu3c", "cpu5c"] and cpu["vcpu_count"] == 4 and cpu["gpu_pools"] == []
    assert result.task_result("cpu rerun")["changed"] is False

    stalled = result.task_result("stalled")
    assert stalled["failed"] is True and stalled["code"] == "wait_timeout" and stalled["id"] == endpoint_id
    assert f"endpoint {endpoint_id}" in stalled["msg"]
    assert "release v3: 1 of 2 workers on it, 1 stale" in stalled["msg"]
    assert stalled["release"]["version"] == 3 and stalled["rollout"]["in_progress"] is True
    # Two image changes, two PATCHes; nothing deleted by a failed wait.
    assert sim.admin.count("PATCH", rf"^{prefix}/{endpoint_id}$") == 2
    assert sim.admin.count("DELETE", rf"^{prefix}/") == 0
