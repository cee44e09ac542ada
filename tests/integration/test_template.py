# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.template against the simulator: the module's decisions, in the test's process."""

from __future__ import annotations

import httpx
import pytest
from helpers.in_process import ModuleRuns

pytestmark = pytest.mark.timeout(180)

PREFIX = "/v2/templates"


TPL = {"name": "hello-worker", "image": "runpod/serverless-hello-world:1", "serverless": True, "container_disk_gb": 10,
       "env": {"MODEL": "tiny", "THREADS": 4}, "ports": ["8000/http"], "docker_args": "python handler.py --port 8000"}
NEXT = {**TPL, "image": "runpod/serverless-hello-world:2", "env": {"MODEL": "large", "THREADS": 4}}


def test_template_lifecycle_in_use_and_duplicate_names(sim, capsys):
    """One walk, each step a module call in this process (helpers.in_process: the module's own code over real
    HTTP; the template target walks it through ansible-playbook, tests/integration/targets/template):
    hello-worker's create, update and delete with their diffs and request counts (a rerun with the ports in another
    order and the check-mode update send nothing), then a template an endpoint uses is not deleted and says why,
    then a name two templates share is refused with their ids."""
    # REST v2 states no uniqueness rule, so duplicates can exist there; the module must not guess.
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    twins = sorted(
        httpx.post(sim.urls["api_v2"] + "/templates", headers=headers, timeout=10,
                   json={"name": "twin", "image": "busybox"}).json()["id"]
        for _ignored in range(2)
    )
    sim.admin.clear_requests()
    result = ModuleRuns(sim, capsys)
    result.run("create", "template", TPL, diff=True)
    result.run("rerun with reordered ports and image only", "template",
               {"name": "hello-worker", "image": "runpod/serverless-hello-world:1"})
    result.run("preview update", "template", NEXT, check_mode=True, diff=True)
    result.run("update", "template", NEXT, diff=True)
    result.run("delete", "template", {"name": "hello-worker", "state": "absent"}, diff=True)
    busy = result.run("template", "template",
                      {"name": "busy", "image": "runpod/serverless-hello-world:1", "serverless": True})
    result.run("endpoint", "endpoint",
               {"name": "busy-ep", "template_id": busy["template"]["id"], "gpu_type_ids": ["NVIDIA L4"]})
    result.run("delete busy", "template", {"name": "busy", "state": "absent"})
    result.run("update twin", "template", {"name": "twin", "image": "alpine"})
    refusals = {"delete busy", "update twin"}
    assert result.failed() <= refusals
    prefix = PREFIX

    created = result.task_result("create")
    template = created["template"]
    assert created["changed"] is True
    assert template["id"]
    assert template == {
        "id": template["id"],
        "name": "hello-worker",
        "image": "runpod/serverless-hello-world:1",
        "serverless": True,
        "container_disk_gb": 10,
        "env": {"MODEL": "tiny", "THREADS": "4"},
        "ports": ["8000/http"],
        "docker_args": "python handler.py --port 8000",
        # RunPod answers the exec form of the same command beside it (docs/pods.md, "The container's command").
        "cmd": ["python", "handler.py", "--port", "8000"],
        "entrypoint": [],
        "registry_id": None,
    }
    assert created["diff"]["after"]["env"] == {"MODEL": "tiny", "THREADS": "4"}

    rerun = result.task_result("rerun with reordered ports and image only")
    assert rerun["changed"] is False
    assert rerun["template"]["id"] == template["id"]
    assert "diff" not in rerun

    preview_update = result.task_result("preview update")
    assert preview_update["changed"] is True
    assert preview_update["diff"] == {
        "before": {"image": "runpod/serverless-hello-world:1", "env": {"MODEL": "tiny", "THREADS": "4"}},
        "after": {"image": "runpod/serverless-hello-world:2", "env": {"MODEL": "large", "THREADS": "4"}},
    }
    update = result.task_result("update")
    assert update["changed"] is True
    assert update["diff"] == preview_update["diff"]
    assert update["template"]["id"] == template["id"]
    assert update["template"]["image"] == "runpod/serverless-hello-world:2"
    assert update["template"]["env"] == {"MODEL": "large", "THREADS": "4"}
    assert update["template"]["docker_args"] == "python handler.py --port 8000"

    deleted = result.task_result("delete")
    assert deleted["changed"] is True
    assert deleted["template"]["id"] == template["id"]
    assert deleted["diff"]["after"] == {}

    # The rerun and the check-mode update never mutate: exactly one create (and busy's), one update, one delete.
    assert sim.admin.count("POST", rf"^{prefix}$") == 2
    assert sim.admin.count("PATCH", rf"^{prefix}/") == 1
    assert sim.admin.count("PATCH", rf"^{prefix}/{template['id']}$") == 1
    assert sim.admin.count("DELETE", rf"^{prefix}/{template['id']}$") == 1

    # A template in use is not deleted, and the failure says why.
    failed = result.task_result("delete busy")
    template_id = result.task_result("template")["template"]["id"]
    assert failed["failed"] is True
    assert failed["code"] == "bad_request"
    assert failed["id"] == template_id
    assert f"deleting template {template_id} ('busy') failed" in failed["msg"]
    assert "in use" in failed["msg"]
    listed = sim.listed("/templates", "templates")
    assert template_id in {t["id"] for t in listed}

    # A name two templates share: refused with their ids, neither changed nor deleted.
    failed = result.task_result("update twin")
    assert failed["failed"] is True
    assert failed["code"] == "ambiguous"
    assert failed["ids"] == twins
    assert all(twin in failed["msg"] for twin in twins)
    for twin in twins:
        assert sim.admin.count("PATCH", rf"^{prefix}/{twin}$") == 0
        assert sim.admin.count("DELETE", rf"^{prefix}/{twin}$") == 0
