# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Account secrets: write-only values, the name rules, 409, the two-step PATCH and resolution at a pod's boot."""

from __future__ import annotations

import pytest
from openapi_core import OpenAPI
from test_openapi_contract import CONFIG, _spec_path, check_v2


@pytest.fixture(scope="module")
def openapi_v2() -> OpenAPI:
    return OpenAPI.from_file_path(str(_spec_path("runpod-rest-v2-openapi.json")), config=CONFIG)


def create(v2, **body):
    return v2.post("/account/secrets", json={"name": "hf-token", "value": "s3cret", **body})


def test_secret_lifecycle_never_returns_the_value(sim, v2, openapi_v2):
    created = create(v2, description="Hugging Face read token")
    assert created.status_code == 201, created.text
    secret = check_v2(openapi_v2, created)
    assert set(secret) == {"id", "name", "description", "createdAt", "valueLastUpdatedAt"}
    assert secret["name"] == "hf-token" and secret["valueLastUpdatedAt"] == secret["createdAt"]
    listed = check_v2(openapi_v2, v2.get("/account/secrets"))
    assert listed == {"secrets": [secret]}  # not paged: no pagination block
    assert check_v2(openapi_v2, v2.get(f"/account/secrets/{secret['id']}")) == secret
    assert "s3cret" not in v2.get("/account/secrets").text + v2.get(f"/account/secrets/{secret['id']}").text
    assert sim.admin.secret(secret["id"])["value"] == "s3cret"
    assert sim.admin.secret("HF-TOKEN")["id"] == secret["id"]  # the admin view finds it by name too
    deleted = v2.delete(f"/account/secrets/{secret['id']}")
    assert deleted.status_code == 204
    check_v2(openapi_v2, deleted)
    missing = v2.get(f"/account/secrets/{secret['id']}")
    assert missing.status_code == 404
    check_v2(openapi_v2, missing)


def test_name_filter_is_a_case_insensitive_exact_match(sim, v2, openapi_v2):
    for name in ("hf-token", "hf-token-2", "other"):
        assert create(v2, name=name).status_code == 201
    found = check_v2(openapi_v2, v2.get("/account/secrets", params={"name": "HF-Token"}))["secrets"]
    assert [secret["name"] for secret in found] == ["hf-token"]
    assert v2.get("/account/secrets", params={"name": "hf"}).json() == {"secrets": []}


def test_a_name_clash_is_a_409_whatever_the_case(sim, v2, openapi_v2):
    assert create(v2).status_code == 201
    for name in ("hf-token", "HF-TOKEN"):
        clash = create(v2, name=name, value="other")
        assert clash.status_code == 409
        assert check_v2(openapi_v2, clash)["status"] == 409
    assert len(v2.get("/account/secrets").json()["secrets"]) == 1


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"name": "9lives"}, 422, "$.name"),
        ({"name": "has space"}, 422, "$.name"),
        ({"name": "x" * 192}, 422, "$.name"),
        ({"name": "RUNPOD_KEY"}, 400, "reserved prefix"),
        ({"name": "runpodish"}, 400, "reserved prefix"),
        ({"value": ""}, 422, "$.value"),
        ({"value": "é" * (8 * 1024 * 1024)}, 422, "16 MiB"),  # 8 Mi characters, 16 MiB of UTF-8
        ({"description": "é" * 32768}, 422, "65535 bytes"),
        ({"bogus": 1}, 422, "additional properties 'bogus'"),
    ],
)
def test_create_rules(sim, v2, body, status, fragment):
    refused = create(v2, **body)
    assert refused.status_code == status, refused.text[:300]
    problem = refused.json()
    assert fragment in " ".join(problem.get("errors") or [problem["detail"]])
    assert v2.get("/account/secrets").json() == {"secrets": []}


def test_allowed_names_and_sizes(sim, v2):
    for name in ("_x", "a.b-c/d_e", "A" + "z" * 190):
        assert create(v2, name=name, description="d" * 65535).status_code == 201, name
    assert create(v2, name="big", value="v" * (16 * 1024 * 1024 - 1)).status_code == 201


def test_patch_rotates_the_value_and_keeps_the_name(sim, v2, openapi_v2):
    secret = create(v2).json()
    rotated = check_v2(openapi_v2, v2.patch(f"/account/secrets/{secret['id']}", json={"value": "new"}))
    assert rotated["name"] == "hf-token" and rotated["description"] is None
    assert sim.admin.secret(secret["id"])["value"] == "new"
    described = check_v2(openapi_v2, v2.patch(f"/account/secrets/{secret['id']}", json={"description": "d"}))
    assert described["description"] == "d" and described["valueLastUpdatedAt"] == rotated["valueLastUpdatedAt"]
    for body, fragment in (({}, "$"), ({"name": "renamed"}, "'name'"), ({"value": ""}, "$.value")):
        refused = v2.patch(f"/account/secrets/{secret['id']}", json=body)
        assert refused.status_code == 422 and fragment in refused.json()["errors"][0], body
    assert v2.patch("/account/secrets/nope", json={"value": "x"}).status_code == 404


def test_a_failed_description_step_leaves_the_value_rotated(sim, v2, openapi_v2):
    secret = create(v2, description="old").json()
    sim.admin.fail_secret_description_step(count=1, status=500)
    failed = v2.patch(f"/account/secrets/{secret['id']}", json={"value": "rotated", "description": "new"})
    assert failed.status_code == 500
    assert check_v2(openapi_v2, failed)["detail"] == "the secret's description could not be updated"
    assert sim.admin.secret(secret["id"])["value"] == "rotated"  # the first step stands
    assert v2.get(f"/account/secrets/{secret['id']}").json()["description"] == "old"
    retried = v2.patch(f"/account/secrets/{secret['id']}", json={"description": "new"})  # the fault is spent
    assert retried.status_code == 200 and retried.json()["description"] == "new"


def test_a_pod_boots_with_the_secret_value_and_keeps_it_until_its_next_boot(sim, v2, running_pod):
    secret = create(v2, name="hf_token", value="v1").json()
    env = {"HF": "{{ RUNPOD_SECRET_hf_token }}", "BOTH": "a={{RUNPOD_SECRET_HF_TOKEN}};b={{ RUNPOD_SECRET_none }}"}
    pod = running_pod(env=env)
    assert pod["env"] == env  # the answer shows the placeholders, never the value
    booted = sim.admin.pod(pod["id"])["boot_env"]
    assert booted == {"HF": "v1", "BOTH": "a=v1;b={{ RUNPOD_SECRET_none }}"}
    v2.patch(f"/account/secrets/{secret['id']}", json={"value": "v2"})
    assert sim.admin.pod(pod["id"])["boot_env"]["HF"] == "v1"  # running: the value it booted with
    assert v2.post(f"/pods/{pod['id']}/action", json={"action": "restart"}).status_code == 200
    sim.admin.wait_pod(pod["id"], "RUNNING")
    assert sim.admin.pod(pod["id"])["boot_env"]["HF"] == "v2"


def test_a_pod_created_before_the_secret_resolves_it_at_boot(sim, v2, create_pod):
    sim.admin.configure(provisioning_delay=100_000)
    pod = create_pod(env={"T": "{{ RUNPOD_SECRET_later }}"})
    assert sim.admin.pod(pod["id"])["boot_env"] is None
    create(v2, name="later", value="here")
    sim.admin.set_pod_behaviour(pod["id"], provisioning_delay=0, starting_delay=0)
    sim.admin.wait_pod(pod["id"], "RUNNING")
    assert sim.admin.pod(pod["id"])["boot_env"] == {"T": "here"}


def test_bad_admin_secret_fault_is_a_400(sim):
    import httpx

    response = httpx.post(f"{sim.urls['admin']}/secrets/faults", json={"description_step": {"status": 200}})
    assert response.status_code == 400


def test_workers_resolve_at_allocation_so_a_rotation_reaches_the_next_release(sim, v2):
    secret = create(v2, name="api_key", value="old").json()
    body = {"name": "e", "type": "QUEUE", "image": "img", "gpu": {"pools": ["ADA_24"]}, "workers": {"min": 1},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}, "env": {"KEY": "{{ RUNPOD_SECRET_api_key }}"}}
    endpoint = v2.post("/serverless", json=body).json()
    assert endpoint["env"] == {"KEY": "{{ RUNPOD_SECRET_api_key }}"}
    assert [w["boot_env"] for w in sim.admin.worker_envs(endpoint["id"])] == [{"KEY": "old"}]
    v2.patch(f"/account/secrets/{secret['id']}", json={"value": "new"})
    assert [w["boot_env"] for w in sim.admin.worker_envs(endpoint["id"])] == [{"KEY": "old"}]  # still running
    v2.patch(f"/serverless/{endpoint['id']}", json={"image": "img:2"})  # a release: replacement workers boot
    sim.admin.boot_workers(endpoint["id"])
    assert [(w["version"], w["boot_env"]) for w in sim.admin.worker_envs(endpoint["id"])] == [(2, {"KEY": "new"})]
