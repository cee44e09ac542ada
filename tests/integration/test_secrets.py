# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Account secrets against the simulator (issue 43): the secret lifecycle (check mode, create, rerun unchanged,
rotate with ``update_value: always``, adopt a secret made through the API, a failed description after a rotated
value, info, delete) in a real playbook run with no value in its -vvvv output; and ``secret_env`` on a pod, its
modules run in this process (helpers.in_process): a missing secret refused before any create, then a pod created
with the placeholder, booted with the value, and rerun without a change, no value in any result. Tables of bad
names are the unit tests' (test_refused_input.py, test_secret.py)."""

from __future__ import annotations

import json

import httpx
import pytest
from helpers.in_process import ModuleRuns

pytestmark = pytest.mark.timeout(240)

VALUES = {
    "first": "s3cr3t-first-VALUE-0001",
    "rotated": "s3cr3t-rotated-VALUE-0002",
    "ignored": "s3cr3t-ignored-VALUE-0003",
    "half": "s3cr3t-half-VALUE-0004",
    "api": "s3cr3t-made-through-the-api-0005",
}
GPU = "NVIDIA GeForce RTX 4090"


def create_through_the_api(sim, name, value):
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    response = httpx.post(f"{sim.urls['api_v2']}/account/secrets", json={"name": name, "value": value},
                          headers=headers, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def assert_no_value(result):
    for value in VALUES.values():
        assert value not in result.stdout and value not in result.stderr, value
    # Ansible masks a no_log value wherever it would show: a mask is a leak it covered up.
    assert "********" not in result.stdout + result.stderr


def assert_no_value_in(results):
    """``assert_no_value`` for modules run in this process: what each module returned (a task's whole output)."""
    said = json.dumps(results)
    for value in VALUES.values():
        assert value not in said, value
    # The module masks a no_log value it would return (AnsibleModule's exit): a mask is a leak it covered up.
    assert "********" not in said


LIFECYCLE = """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: plan
      runpod.cloud.secret: {{name: hf_token, value: "{first}", description: read token}}
      check_mode: true
      diff: true
    - name: create
      runpod.cloud.secret: {{name: hf_token, value: "{first}", description: read token}}
      diff: true
    - name: rerun
      runpod.cloud.secret: {{name: hf_token, value: "{ignored}", description: read token}}
    - name: rotate
      runpod.cloud.secret: {{name: hf_token, value: "{rotated}", update_value: always}}
      diff: true
    - name: adopt
      runpod.cloud.secret: {{name: MADE_ELSEWHERE, value: "{ignored}", description: adopted}}
    - name: hide the secrets from the next lookup (as if made_elsewhere appeared just after it)
      ansible.builtin.uri:
        url: "{admin}/faults"
        method: POST
        body_format: json
        body: {{route: /v2/account/secrets, kind: empty_list, method: GET}}
        status_code: 201
    - name: raced
      runpod.cloud.secret: {{name: made_elsewhere, value: "{ignored}", description: raced}}
    - name: break the next description
      ansible.builtin.uri:
        url: "{admin}/secrets/faults"
        method: POST
        body_format: json
        body: {{description_step: {{count: 1, status: 500}}}}
    - name: half
      runpod.cloud.secret: {{name: hf_token, value: "{half}", update_value: always, description: changed}}
      ignore_errors: true
    - name: info
      runpod.cloud.secret_info: {{}}
    - name: delete
      runpod.cloud.secret: {{name: hf_token, state: absent}}
    - name: delete again
      runpod.cloud.secret: {{name: hf_token, state: absent}}
"""


@pytest.mark.core
def test_the_secret_lifecycle_shows_no_value_at_vvvv(sim, run_playbook, tmp_path):
    made = create_through_the_api(sim, "made_elsewhere", VALUES["api"])
    sim.admin.clear_requests()
    result = run_playbook(tmp_path, LIFECYCLE.format(admin=sim.urls["admin"], **VALUES), extra_args=["-vvvv"])
    assert_no_value(result)

    plan = result.task_result("plan")
    assert plan["changed"] is True and plan["secret"]["id"] is None
    assert plan["diff"]["after"]["value"] == "(set)"
    created = result.task_result("create")
    assert created["changed"] is True and created["actions"] == ["create"]
    secret_id = created["secret"]["id"]
    assert set(created["secret"]) == {"id", "name", "description", "created_at", "value_last_updated_at"}
    assert result.task_result("rerun")["changed"] is False  # on_create: the other value is not sent
    rotated = result.task_result("rotate")
    assert rotated["changed"] is True and rotated["updated_fields"] == ["value"]
    assert rotated["diff"] == {"before": {"value": "(stored)"}, "after": {"value": "(changed)"}}
    adopted = result.task_result("adopt")  # found under another case: RunPod's names ignore it
    assert adopted["secret"]["id"] == made["id"] and adopted["updated_fields"] == ["description"]
    assert sim.admin.secret(made["id"])["value"] == VALUES["api"]  # on_create: not ours to rotate
    raced = result.task_result("raced")  # the create met RunPod's 409 and adopted the secret it named
    assert raced["actions"] == ["adopt", "update"] and raced["secret"]["id"] == made["id"], raced
    assert raced["changed"] is True and raced["updated_fields"] == ["description"]

    half = result.task_result("half")
    assert half["failed"] is True and half["changed"] is True
    assert half["applied"] == ["value"] and half["not_applied"] == ["description"]
    assert "the value was rotated" in half["msg"] and "next boot" in half["msg"]
    listed = result.task_result("info")["secrets"]
    assert {entry["name"] for entry in listed} == {"hf_token", "made_elsewhere"}
    by_name = {entry["name"]: entry for entry in listed}
    assert by_name["hf_token"]["description"] == "read token"  # the description half failed
    assert result.task_result("delete")["changed"] is True
    assert result.task_result("delete again")["changed"] is False

    # What the API holds: each value where the tasks put it (the sim's admin view is the only place it shows).
    writes = [(entry["method"], entry["path"]) for entry in sim.admin.requests() if entry["method"] != "GET"]
    assert writes.count(("POST", "/v2/account/secrets")) == 2  # hf_token's, and the raced one that met the 409
    assert [entry["status"] for entry in sim.admin.requests() if entry["method"] == "POST"][-1] == 409
    assert writes.count(("PATCH", f"/v2/account/secrets/{secret_id}")) == 3  # rotate, half: value, description
    assert [secret["id"] for secret in sim.admin.secrets()] == [made["id"]]


def test_secret_env_refuses_a_missing_secret_then_boots_with_the_value(sim, capsys):
    """The steps run in this process (helpers.in_process: the modules' own code over real HTTP): what is checked
    is what the pod and secret modules decide, send and return; the pod's wait is the module-side wait. What
    ansible-playbook shows of a secret at -vvvv (no_log, the display) is the lifecycle test's, above; the pod
    module is never given a value (secret_env holds names), so what it returns is all it could show."""
    pod = {"name": "reader", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], "ssh": False,
           "env": {"MODEL": "tiny"}, "secret_env": {"HF_TOKEN": "hf_token"}}
    result = ModuleRuns(sim, capsys)
    result.run("missing", "pod", {"name": "reader", "image": "runpod/base:1.0", "gpu_type_ids": [GPU],
                                  "secret_env": {"HF_TOKEN": "hf_token", "OTHER": "not_there"}})
    result.run("store", "secret", {"name": "hf_token", "value": VALUES["first"]})
    result.run("pod", "pod", dict(pod, wait=True, wait_for="running"))
    result.run("pod again", "pod", pod)
    result.run("remove", "pod", {"name": "reader", "state": "absent"})
    assert_no_value_in(result.results)
    assert result.failed() <= {"missing"}
    missing = result.task_result("missing")
    assert missing["failed"] is True and missing["code"] == "bad_request" and missing["changed"] is False
    assert "does not have: hf_token, not_there" in missing["msg"]

    created = result.task_result("pod")
    assert created["changed"] is True
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    stored = httpx.get(f"{sim.urls['api_v2']}/pods/{created['pod']['id']}", headers=headers, timeout=10).json()
    assert stored["env"] == {"MODEL": "tiny", "HF_TOKEN": "{{ RUNPOD_SECRET_hf_token }}"}  # what RunPod keeps
    booted = sim.admin.pod(created["pod"]["id"])["boot_env"]
    assert booted["HF_TOKEN"] == VALUES["first"] and booted["MODEL"] == "tiny"
    again = result.task_result("pod again")
    assert again["changed"] is False and again["actions"] == []
    assert result.task_result("remove")["changed"] is True

    requests = [(entry["method"], entry["path"]) for entry in sim.admin.requests()]
    # The refusal made one read of the secrets and nothing else; the one pod create came after the secret's.
    assert requests[0] == ("GET", "/v2/account/secrets")
    assert requests.count(("POST", "/v2/pods")) == 1
    assert requests.index(("POST", "/v2/account/secrets")) < requests.index(("POST", "/v2/pods"))
    assert ("GET", "/v2/pods") not in requests[:requests.index(("POST", "/v2/account/secrets"))]
