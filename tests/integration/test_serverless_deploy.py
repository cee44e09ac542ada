# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``playbooks/serverless-deploy.yml``, the reference deploy pipeline, against the simulator: create, then ship a
new image (a release rolled out worker by worker), smoke-test it on the new release; a failing smoke test fails
the play with the job id and the worker's error."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.timeout(300)

DEPLOY = Path(__file__).resolve().parents[2] / "playbooks" / "serverless-deploy.yml"
SMOKE = "Run the smoke-test job on the new release"
SHIP = "Ship the image and wait until no worker runs an older release"


def deploy(run_playbook, tmp_path: Path, image: str, **extra):
    variables = {"deploy_image": image, "deploy_wait_interval": "500ms", "deploy_endpoint_name": "sdxl",
                 "deploy_workers_min": 2, "deploy_smoke_input": {"prompt": "ping"}, **extra}
    run_dir = tmp_path / image.replace(":", "-").replace("/", "-")
    run_dir.mkdir()
    wrapper = f"- name: Deploy\n  ansible.builtin.import_playbook: {DEPLOY}\n"
    return run_playbook(run_dir, wrapper, extra_args=["-e", json.dumps(variables)], timeout=240)


def workers(sim, endpoint_id: str) -> dict:
    return httpx.get(f"{sim.urls['api_v2']}/serverless/{endpoint_id}/workers",
                     headers={"Authorization": f"Bearer {sim.api_key}"}, timeout=10).json()


def test_deploy_ships_waits_for_the_rollout_smoke_tests_and_fails_on_a_failing_smoke_test(sim, run_playbook, tmp_path):
    """Four deploys of one endpoint, each starting from what the one before left: the create, a new image rolled out
    and smoke-tested on the new release, then a smoke job that fails and one that answers wrong."""
    sim.admin.configure(rollout_step=20)
    first = deploy(run_playbook, tmp_path, "my-org/worker:1.0", deploy_smoke_expect={"prompt": "ping"})
    assert first.rc == 0, first.stdout[-4000:]
    endpoint_id = first.task_result(SHIP)["endpoint"]["id"]
    assert first.task_result(SMOKE)["job"]["output"] == {"prompt": "ping"}  # the simulator's worker echoes

    sim.admin.clear_requests()
    second = deploy(run_playbook, tmp_path, "my-org/worker:1.1", deploy_smoke_expect={"prompt": "ping"})
    assert second.rc == 0, second.stdout[-4000:]
    shipped = second.task_result(SHIP)
    assert shipped["changed"] is True and shipped["release"]["version"] == 2
    assert shipped["rollout"] == {"in_progress": False, "workers_on_latest": 2, "workers_total": 2,
                                  "percent_on_latest": 100}
    job = second.task_result(SMOKE)["job"]
    assert job["status"] == "COMPLETED" and job["endpoint_id"] == endpoint_id
    # The smoke job was submitted after the rollout wait's last worker read, and ran on a worker of the new release.
    paths = [entry["path"] for entry in sim.admin.requests()]
    last_rollout_read = max(i for i, path in enumerate(paths) if path.endswith("/workers"))
    submits = [i for i, path in enumerate(paths) if path.endswith(("/run", "/runsync"))]
    assert len(submits) == 1 and submits[0] > last_rollout_read, paths
    listed = {worker["id"]: worker for worker in workers(sim, endpoint_id)["workers"]}
    ran_on = sim.admin.job(job["id"])["worker_id"]
    assert listed[ran_on]["version"] == 2 and listed[ran_on]["image"] == "my-org/worker:1.1"
    assert "release v2" in second.task_result("Report the deploy")["msg"]

    # The same endpoint: a failing smoke test fails the deploy with the job and the worker's error.
    sim.admin.job_script(endpoint_id, run_time=1, outcome="FAILED", error="ImportError: no module named torch")
    broken = deploy(run_playbook, tmp_path, "my-org/worker:2.1-broken")
    assert broken.rc != 0
    smoke = broken.task_result(SMOKE)
    assert smoke["failed"] is True and smoke["code"] == "job_failed"
    assert "ImportError: no module named torch" in smoke["msg"] and smoke["id"] == smoke["job"]["id"]
    # A wrong answer fails the assert step instead.
    sim.admin.job_script(endpoint_id, run_time=1, output="constant", output_value={"prompt": "pong?"})
    wrong = deploy(run_playbook, tmp_path, "my-org/worker:2.2", deploy_smoke_expect={"prompt": "ping"})
    assert wrong.rc != 0
    check = wrong.task_result("Check the smoke test's answer")
    assert check["failed"] is True and "pong?" in check["msg"]
