# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod with ``count`` against the simulator: real concurrent creates, one batch wait over real
SSH ports, a 429 ridden out, rerun, scale-down rules, check mode and a partial failure that deletes nothing.

The steps are the module's decisions (its results, the request log, the engine's batch wait), so they run as
module calls in the test's process (helpers.in_process). The fleet's wait on the controller and the module's own
giving the same results is test_wait_progress_batch's; check mode and the pod module through ansible-playbook,
the pod target's (tests/integration/targets/pod)."""

from __future__ import annotations

from helpers.in_process import ModuleRuns

GPU = "NVIDIA GeForce RTX 4090"
CREATES = r"^/v2/pods$"


def fleet_args(**extra) -> dict:
    args = {"name": "fleet", "count": 3, "image": "runpod/base:1.0", "gpu_type_ids": [GPU]}
    args.update(extra)
    return args


def live(sim) -> dict[str, dict]:
    return {p["name"]: p for p in sim.admin.pods() if p["status"] != "TERMINATED"}


def test_fleet_check_create_wait_rerun_and_absent(sim, capsys):
    sim.admin.inject_fault(CREATES, "status", method="POST", status=429, detail="slow down", retry_after=1)
    waited = fleet_args(wait=True, wait_interval="100ms", wait_timeout="30s")
    result = ModuleRuns(sim, capsys)
    result.run("check", "pod", fleet_args(), check_mode=True)
    result.run("create", "pod", waited)
    result.run("rerun", "pod", waited)
    result.run("scale down to two, fleet-3 stays", "pod", fleet_args(count=2, state="absent"))
    # The playbook's rc: no step fails.
    assert not result.failed(), result.results

    checked = result.task_result("check")
    assert checked["changed"] is True and checked["pods"] == [None, None, None] and checked["ids"] == []
    assert checked["actions"] == ["create fleet-1", "create fleet-2", "create fleet-3"]

    created = result.task_result("create")
    assert created["changed"] is True
    assert [pod["name"] for pod in created["pods"]] == ["fleet-1", "fleet-2", "fleet-3"]
    assert created["ids"] == [pod["id"] for pod in created["pods"]]
    assert all(pod["ssh"] and pod["ssh"]["port"] for pod in created["pods"]), created["pods"]
    assert set(created["wait"]["last_states"]) == set(created["ids"])
    assert created["wait"]["polls"] >= 1
    # Three creates answered 201 after the one 429 (retried after its Retry-After, never a fourth pod).
    assert sim.admin.count("POST", CREATES, status=429) == 1
    assert sim.admin.count("POST", CREATES, status=201) == 3
    # The catalog's stock is read once for the whole fleet, not once per create.
    assert sim.admin.count("GET", r"^/v2/catalog/gpus") == 1

    rerun = result.task_result("rerun")
    assert rerun["changed"] is False and rerun["actions"] == [] and rerun["ids"] == created["ids"]

    down = result.task_result("scale down to two, fleet-3 stays")
    assert down["changed"] is True and down["actions"] == ["delete fleet-1", "delete fleet-2"]
    assert list(live(sim)) == ["fleet-3"] and live(sim)["fleet-3"]["id"] == created["ids"][2]
    assert sim.admin.count("DELETE") == 2


def test_fleet_partial_failure_keeps_what_was_created(sim, capsys):
    sim.admin.inject_fault(CREATES, "status", method="POST", count=2, status=403, detail="quota exceeded")
    failed = ModuleRuns(sim, capsys).run("create", "pod", fleet_args(count=4, wait=True, wait_interval="100ms"))
    assert failed["failed"] is True and failed["code"] == "forbidden" and failed["changed"] is True
    assert len(failed["failures"]) == 2 and all("quota exceeded" in f["msg"] for f in failed["failures"])
    assert len(failed["ids"]) == 2
    assert "2 of 4 pods failed" in failed["msg"] and "Nothing was deleted" in failed["msg"]
    assert {p["id"] for p in live(sim).values()} == set(failed["ids"])
    assert sim.admin.count("DELETE") == 0
    assert "wait" not in failed
