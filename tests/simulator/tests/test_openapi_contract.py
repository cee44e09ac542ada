# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every route the collection uses answers what RunPod's published REST v2 OpenAPI document promises (openapi-core).

The document is the simulator's bundled copy (runpod_sim/spec, pinned by its sha256 below).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict

from runpod_sim.schemas import SPEC_DIR

GPU = "NVIDIA GeForce RTX 4090"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com"

SHA256 = {
    "runpod-rest-v2-openapi.json": "0b364f88dbdc53c0d985d5aea9c4050e73e6958c7ff16bc89d6b2f63844ac926",
}


# RunPod's errors are application/problem+json, which openapi-core does not decode by itself.
CONFIG = Config(extra_media_type_deserializers={"application/problem+json": json.loads})


def _spec_path(name: str) -> Path:
    # The repository's own copy: the version of RunPod's document the simulator follows, moved on deliberately
    # (a path outside the repository would change the contract under a clone that did not change).
    return SPEC_DIR / name


@pytest.fixture(scope="module")
def openapi_v2() -> OpenAPI:
    return OpenAPI.from_file_path(str(_spec_path("runpod-rest-v2-openapi.json")), config=CONFIG)


class _Request:
    """An httpx request as openapi-core sees it, re-homed onto the spec's server URL."""

    def __init__(self, request: httpx.Request, host_url: str, path_prefix: str):
        parsed = urlparse(str(request.url))
        self.host_url = host_url
        self.path = path_prefix + parsed.path.split(path_prefix, 1)[1] if path_prefix else parsed.path
        self.method = request.method.lower()
        self.body = request.content or None
        self.content_type = request.headers.get("content-type", "application/json")
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qs(parsed.query)),
            header=Headers(dict(request.headers)),
            cookie=ImmutableMultiDict({}),
        )


class _Response:
    def __init__(self, response: httpx.Response):
        self.data = response.content
        self.status_code = response.status_code
        self.content_type = response.headers.get("content-type", "")
        self.headers = Headers(dict(response.headers))


def _server_url(spec_file: str) -> str:
    """The document's own server URL: openapi-core matches requests against it (nothing is sent there)."""
    return json.loads(_spec_path(spec_file).read_text())["servers"][0]["url"]


def check_v2(openapi: OpenAPI, response: httpx.Response) -> Any:
    host = _server_url("runpod-rest-v2-openapi.json")
    openapi.validate_response(_Request(response.request, host, "/v2"), _Response(response))
    return response.json() if response.content else None


def test_bundled_specs_are_the_reference_documents():
    for name, digest in SHA256.items():
        assert hashlib.sha256((SPEC_DIR / name).read_bytes()).hexdigest() == digest


def test_v2_pod_routes_match_the_spec(sim, v2, openapi_v2):
    assert check_v2(openapi_v2, v2.get("/account/ssh-keys")) == {"keys": []}
    assert check_v2(openapi_v2, v2.put("/account/ssh-keys", json={"keys": [KEY]})) == {"keys": [KEY]}
    bad_key = v2.put("/account/ssh-keys", json={"keys": ["not a key"]})
    assert bad_key.status_code == 422
    assert check_v2(openapi_v2, bad_key)["errors"][0].startswith("$.keys[0]: ")
    body = {"name": "c", "image": "ubuntu", "gpu": {"id": GPU}, "ports": ["22/tcp"], "startSsh": True}
    created = v2.post("/pods", json=body)
    assert created.status_code == 201
    pod = check_v2(openapi_v2, created)
    assert pod["status"] == "PROVISIONING" and pod["runtime"] is None
    assert check_v2(openapi_v2, v2.get("/pods"))["pods"][0]["id"] == pod["id"]
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=True)
    running = check_v2(openapi_v2, v2.get(f"/pods/{pod['id']}"))
    assert running["runtime"]["ports"][0]["private"] == 22
    assert check_v2(openapi_v2, v2.get("/pods"))["pods"][0]["ssh"]["direct"] is not None
    assert check_v2(openapi_v2, v2.patch(f"/pods/{pod['id']}", json={"name": "renamed"}))["name"] == "renamed"
    assert check_v2(openapi_v2, v2.post(f"/pods/{pod['id']}/action", json={"action": "stop"}))["status"] == "EXITED"
    conflict = v2.post(f"/pods/{pod['id']}/action", json={"action": "restart"})
    assert conflict.status_code == 409
    assert check_v2(openapi_v2, conflict)["status"] == 409
    assert check_v2(openapi_v2, v2.post(f"/pods/{pod['id']}/action", json={"action": "start"}))["status"] == "STARTING"
    assert v2.post(f"/pods/{pod['id']}/action", json={"action": "terminate"}).status_code == 204
    other = check_v2(
        openapi_v2, v2.post("/pods", json={"name": "d", "image": "x", "cpu": {"id": "cpu5c", "vcpuCount": 4}})
    )
    deleted = v2.delete(f"/pods/{other['id']}")
    assert deleted.status_code == 204
    check_v2(openapi_v2, deleted)
    missing = v2.get("/pods/nope")
    assert missing.status_code == 404
    check_v2(openapi_v2, missing)
    invalid = v2.post("/pods", json={"name": "x", "image": "y", "gpu": {"id": GPU}, "bogus": 1})
    assert invalid.status_code == 422
    assert check_v2(openapi_v2, invalid)["errors"] == ["$: additional properties 'bogus' not allowed"]


def test_v2_serverless_and_template_routes_match_the_spec(sim, v2, openapi_v2):
    # The template-mounts quirk (a template with no mounts omits the required ``mounts``) is the one answer the
    # document does not allow; test_new_fields.py covers it, so here the answers are the document's own shape.
    sim.admin.configure(quirk_template_mounts_omitted=False)
    template = check_v2(openapi_v2, v2.post("/templates", json={"name": "t", "image": "img", "serverless": True}))
    assert template["startSsh"] is True and template["serverless"] is True
    assert check_v2(openapi_v2, v2.get("/templates"))["templates"][0]["id"] == template["id"]
    assert check_v2(openapi_v2, v2.patch(f"/templates/{template['id']}", json={"name": "t2"}))["name"] == "t2"
    body = {
        "name": "e",
        "type": "QUEUE",
        "templateId": template["id"],
        "gpu": {"pools": ["ADA_24"]},
        "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4},
        "workers": {"min": 2, "max": 3},
    }
    created = v2.post("/serverless", json=body)
    assert created.status_code == 201
    endpoint = check_v2(openapi_v2, created)
    assert endpoint["requestUrls"]["health"].endswith(f"/invoke/v2/{endpoint['id']}/health")
    assert check_v2(openapi_v2, v2.get("/serverless"))["endpoints"][0]["id"] == endpoint["id"]
    assert check_v2(openapi_v2, v2.get(f"/serverless/{endpoint['id']}"))["workers"]["min"] == 2
    patched = check_v2(openapi_v2, v2.patch(f"/serverless/{endpoint['id']}", json={"workers": {"min": 1}}))
    assert patched["workers"]["min"] == 1
    workers = check_v2(openapi_v2, v2.get(f"/serverless/{endpoint['id']}/workers"))
    assert workers["summary"]["total"] == len(workers["workers"]) == 1
    # A new image is a release: the old worker is stale (and still listed) until its replacement is ready.
    sim.admin.configure(worker_boot_delay=100_000)
    check_v2(openapi_v2, v2.patch(f"/serverless/{endpoint['id']}", json={"image": "img:2"}))
    workers = check_v2(openapi_v2, v2.get(f"/serverless/{endpoint['id']}/workers"))
    assert workers["endpointVersion"] == 2
    assert sorted((w["version"], w["isStale"]) for w in workers["workers"]) == [(1, True), (2, False)]
    releases = check_v2(openapi_v2, v2.get(f"/serverless/{endpoint['id']}/releases"))
    assert [r["version"] for r in releases["releases"]] == [2, 1]
    assert {"field": "image", "old": "img", "new": "img:2"} in releases["releases"][0]["diff"]
    assert releases["rollout"] == {"inProgress": True, "workersOnLatest": 1, "workersTotal": 2, "percentOnLatest": 50}
    in_use = v2.delete(f"/templates/{template['id']}")
    assert in_use.status_code == 400
    check_v2(openapi_v2, in_use)
    assert v2.delete(f"/serverless/{endpoint['id']}").status_code == 204
    lone = check_v2(openapi_v2, v2.post("/templates", json={"name": "pod-t", "image": "img"}))
    deleted = v2.delete(f"/templates/{lone['id']}")
    assert deleted.status_code == 204
    check_v2(openapi_v2, deleted)


def test_v2_catalog_routes_match_the_spec_and_follow_the_stock(sim, v2, openapi_v2):
    plain = check_v2(openapi_v2, v2.get("/catalog/gpus"))["gpus"]
    assert plain and all("availability" not in gpu for gpu in plain)
    query = {"include": "AVAILABILITY", "product": "POD"}
    gpus = {gpu["id"]: gpu for gpu in check_v2(openapi_v2, v2.get("/catalog/gpus", params=query))["gpus"]}
    assert gpus[GPU]["availability"] == "HIGH" and gpus[GPU]["dataCenters"][0]["availability"] == "HIGH"
    sim.admin.configure(out_of_stock_gpu_types=[GPU])  # the stock the create uses
    gpus = {gpu["id"]: gpu for gpu in check_v2(openapi_v2, v2.get("/catalog/gpus", params=query))["gpus"]}
    assert gpus[GPU]["availability"] == "NONE" and "dataCenters" not in gpus[GPU]
    assert v2.post("/pods", json={"name": "x", "image": "y", "gpu": {"id": GPU}}).status_code == 400
    one = check_v2(openapi_v2, v2.get(f"/catalog/gpus/{GPU}", params={**query, "cudaVersions": "12.8"}))
    assert one["cudaVersions"] == [{"version": "12.8", "available": False}]
    for bad, status in (
        ({"include": "AVAILABILITY"}, 400),
        ({"product": "POD"}, 400),
        ({**query, "cudaVersions": "12.8", "minCudaVersion": "12"}, 400),
        ({**query, "cudaVersions": "12"}, 422),
    ):
        refused = v2.get("/catalog/gpus", params=bad)
        assert refused.status_code == status, bad
        check_v2(openapi_v2, refused)
    centers = check_v2(openapi_v2, v2.get("/catalog/datacenters", params={"include": "GPU_AVAILABILITY"}))
    assert all(GPU not in [g["id"] for g in dc["gpuAvailability"]] for dc in centers["dataCenters"])
    europe = check_v2(openapi_v2, v2.get("/catalog/datacenters", params={"regions": "EUROPE"}))["dataCenters"]
    assert {dc["region"] for dc in europe} == {"EUROPE"} and "gpuAvailability" not in europe[0]


def test_v2_cpu_and_template_catalogs_match_the_spec(sim, v2, openapi_v2):
    cpus = check_v2(openapi_v2, v2.get("/catalog/cpus"))["cpus"]
    assert cpus and all("availability" not in cpu for cpu in cpus)
    query = {"include": "AVAILABILITY", "product": "POD", "vcpuCount": "64"}
    scoped = {cpu["id"]: cpu for cpu in check_v2(openapi_v2, v2.get("/catalog/cpus", params=query))["cpus"]}
    assert scoped["cpu5c"]["availability"] == "HIGH" and scoped["cpu5c"]["dataCenters"]
    assert scoped["cpu3c"]["availability"] == "NONE" and "dataCenters" not in scoped["cpu3c"]  # at most 32 vCPUs
    one = check_v2(openapi_v2, v2.get("/catalog/cpus/cpu3c"))
    assert one["id"] == "cpu3c" and one["price"]["securePerVcpu"] > 0
    missing = v2.get("/catalog/cpus/cpu9z")
    assert missing.status_code == 404
    check_v2(openapi_v2, missing)
    for bad in ({"product": "POD"}, {"include": "AVAILABILITY"}):
        refused = v2.get("/catalog/cpus", params=bad)
        assert refused.status_code == 400, bad
        check_v2(openapi_v2, refused)
    official = check_v2(openapi_v2, v2.get("/catalog/templates"))["templates"]
    community = check_v2(openapi_v2, v2.get("/catalog/templates", params={"source": "community"}))["templates"]
    assert official and community and {t["id"] for t in official}.isdisjoint(t["id"] for t in community)
    assert all(template["public"] for template in official + community)


def test_gpu_prices_set_through_the_admin_api_reach_the_catalog_and_the_bill(sim, v2, openapi_v2):
    sim.admin.configure(gpu_prices={GPU: {"secure": 0.11, "community": 0.07, "billed": 0.13}})
    gpus = {gpu["id"]: gpu for gpu in check_v2(openapi_v2, v2.get("/catalog/gpus"))["gpus"]}
    assert gpus[GPU]["price"] == {"secure": 0.11, "community": 0.07}
    assert gpus["AMD Instinct MI300X OAM"]["manufacturer"] == "AMD"
    created = check_v2(openapi_v2, v2.post("/pods", json={"name": "p", "image": "i", "gpu": {"id": GPU, "count": 2}}))
    assert created["cost"] == 0.26
    assert v2_bad_config(sim) == 400


def v2_bad_config(sim) -> int:
    return httpx.patch(f"{sim.urls['admin']}/config", json={"gpu_prices": {GPU: {"spot": 1}}}).status_code
