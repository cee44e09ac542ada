# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``runpod.cloud.endpoint`` with ``wait_for: build`` and ``endpoint_info`` with ``builds`` against the simulator,
whose GitHub builds the test scripts through the admin API (real HTTP): a failed build ends the wait at once with its
error, commit and branch and deletes nothing; a completed build's wait ends on a worker of the release it made.

The steps are the modules' decisions (the engine's build wait, its results, the request log), so they run as module
calls in the test's process (helpers.in_process); the wait on the controller and the module's own giving the same
results (the same EndpointWaiter) is test_wait_progress_services'."""

from __future__ import annotations

import pytest
from helpers.in_process import ModuleRuns

pytestmark = pytest.mark.timeout(240)

GPU = "NVIDIA GeForce RTX 4090"
WAIT = {"name": "built", "wait": True, "wait_for": "build", "wait_interval": "200ms", "wait_timeout": "60s"}


def test_a_failed_build_ends_the_wait_and_a_completed_one_waits_for_its_worker(sim, capsys):
    result = ModuleRuns(sim, capsys)
    run = result.run
    endpoint_id = run("endpoint", "endpoint", {"name": "built", "image": "my-org/worker:1", "gpu_type_ids": [GPU],
                                               "workers_min": 1})["endpoint"]["id"]
    first = sim.admin.add_build(endpoint_id, commitHash="abc1234", branch="feature/x")
    sim.admin.move_build(endpoint_id, first["id"], "FAILED", error="docker build: exit 1")
    run("wait for build 1", "endpoint", WAIT)
    second = sim.admin.add_build(endpoint_id, commitHash="def5678", branch="main")
    sim.admin.move_build(endpoint_id, second["id"], "TESTING")
    sim.admin.move_build(endpoint_id, second["id"], "COMPLETED")
    run("wait for build 2", "endpoint", WAIT)
    run("info", "endpoint_info", {"name": "built", "builds": 3})
    # The playbook's rc: only the failed build's wait fails.
    assert result.failed() == {"wait for build 1"}

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
