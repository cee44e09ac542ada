# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What RunPod does that is inconvenient, modelled by default; and the response check behind every test."""

from __future__ import annotations

import pytest
from simhelpers import GPU, pod_body, wait_for

from runpod_sim import contract

SCALING = {"scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}}


def test_the_contract_check_flags_undeclared_fields_wrong_types_and_missing_fields():
    endpoint = {
        "id": "e",
        "name": "n",
        "workers": {"min": 0, "max": 1},
        "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4},
        "dataCenterIds": [],
        "networkVolumes": [],
        "timeout": 1,
        "flashboot": "OFF",
        "createdAt": "2026-01-01T00:00:00Z",
    }
    assert contract.check("GET", "/v2/serverless/e", 200, "application/json", endpoint) == []
    served = contract.check("GET", "/v2/serverless/e", 200, "application/json", {**endpoint, "templateId": "t"})
    assert served == ["GET /v2/serverless/e -> 200: $: property 'templateId' is not in the document"]
    nested = {**endpoint, "workers": {"min": 0, "max": 1, "extra": True}}
    assert "GET /v2/serverless/e -> 200: $.workers: property 'extra' is not in the document" in contract.check(
        "GET", "/v2/serverless/e", 200, "application/json", nested
    )
    wrong = contract.check("GET", "/v2/serverless/e", 200, "application/json", {**endpoint, "timeout": "soon"})
    assert wrong == ["GET /v2/serverless/e -> 200: $.timeout: 'soon' is not of type 'integer'"]
    assert (
        "'createdAt' is a required property"
        in contract.check(
            "GET",
            "/v2/serverless",
            200,
            "application/json",
            {
                "endpoints": [{k: v for k, v in endpoint.items() if k != "createdAt"}],
                "pagination": {"nextCursor": None, "hasNextPage": False},
            },
        )[0]
    )
    assert contract.check("GET", "/v2/nowhere", 200, "application/json", {}) == [
        "GET /v2/nowhere -> 200: the v2 document has no such operation"
    ]
    assert contract.check("GET", "/v2/nowhere", 404, "application/problem+json", {}) == []
    # Retired surfaces have no document here at all.
    assert contract.check("GET", "/v1/pods", 200, "application/json", [{"bogus": 1}]) == []


def test_a_served_violation_is_recorded_and_reset(sim, v2):
    # A fault-altered response is exempt; nothing the handlers serve on their own breaks the documents.
    sim.admin.inject_fault("/v2/pods", "status", method="GET", status=200, body={"pods": [], "bogus": 1})
    assert v2.get("/pods").status_code == 200
    assert sim.admin.contract_violations() == []


def test_gpu_stock_is_per_type_and_data_center(sim, v2):
    sim.admin.configure(gpu_stock={GPU: {"US-TX-3": 2, "*": 0}, "NVIDIA A40": {"*": 1}})
    first = v2.post("/pods", json=pod_body(gpu={"id": GPU, "count": 2})).json()
    sim.admin.wait_pod(first["id"], "RUNNING")
    assert v2.get(f"/pods/{first['id']}").json()["dataCenterId"] == "US-TX-3"
    full = v2.post("/pods", json=pod_body(gpu={"id": GPU, "count": 1}))
    assert full.status_code == 400 and full.headers["content-type"].startswith("application/problem+json")
    assert "no longer any instances available" in full.json()["detail"]  # free text, no machine code
    # Another type still places, in the data center that has it.
    elsewhere = v2.post("/pods", json=pod_body(gpu={"id": "NVIDIA A40"}, dataCenterIds=["EU-RO-1"]))
    assert elsewhere.status_code == 201
    # Stopping frees the GPUs; another pod takes them; the stopped one then cannot start on its host.
    v2.post(f"/pods/{first['id']}/action", json={"action": "stop"})
    taker = v2.post("/pods", json=pod_body(gpu={"id": GPU, "count": 1}))
    assert taker.status_code == 201
    refused = v2.post(f"/pods/{first['id']}/action", json={"action": "start"})
    assert refused.status_code == 400 and "not enough free GPUs" in refused.json()["detail"]


def test_empty_balance_is_402_and_a_restricted_pool_is_403(sim, v2):
    assert v2.post("/pods", json=pod_body(gpu={"id": "NVIDIA B200"})).status_code == 403
    restricted = v2.post(
        "/serverless",
        json={"name": "e", "image": "i", "type": "QUEUE", "gpu": {"pools": ["BLACKWELL_180"]}, **SCALING},
    )
    assert restricted.status_code == 403 and "BLACKWELL_180" in restricted.json()["detail"]
    sim.admin.configure(balance=0)
    broke = v2.post("/pods", json=pod_body())
    assert broke.status_code == 402 and broke.json()["title"] == "Payment Required"


def test_a_pod_on_a_machine_without_a_public_ip_maps_22_on_a_private_address(sim, v2):
    pod = v2.post("/pods", json=pod_body(dataCenterIds=["EU-SE-1"])).json()
    sim.admin.wait_pod(pod["id"], "RUNNING")

    def mapped():
        current = v2.get(f"/pods/{pod['id']}").json()
        return current if current["runtime"] and current["runtime"]["ports"] else None

    current = wait_for(mapped)
    (port22,) = [row for row in current["runtime"]["ports"] if row["private"] == 22]
    assert port22["type"] == "tcp" and port22["ip"].startswith("10.")
    assert current["ssh"]["direct"] is None  # the document: null unless a public port was assigned


def test_health_counts_a_scheduled_worker_as_running_before_it_serves(sim, v2, sim_http):
    sim.admin.configure(worker_boot_delay=100000)
    endpoint = v2.post(
        "/serverless",
        json={
            "name": "e",
            "image": "i",
            "type": "QUEUE",
            "gpu": {"pools": ["ADA_24"]},
            "workers": {"min": 1, "max": 1},
            **SCALING,
        },
    ).json()
    sim.admin.propagate(endpoint["id"])
    workers = v2.get(f"/serverless/{endpoint['id']}/workers").json()
    assert [worker["status"] for worker in workers["workers"]] == ["INITIALIZING"]
    health = sim_http.get(f"{sim.urls['serverless']}/{endpoint['id']}/health").json()
    assert health["workers"]["running"] == 1 and health["workers"]["ready"] == 0


@pytest.fixture
def sim_http(sim):
    import httpx

    with httpx.Client(headers={"Authorization": f"Bearer {sim.api_key}"}, timeout=10) as client:
        yield client
