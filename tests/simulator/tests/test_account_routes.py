# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Network volumes, registry credentials and billing: behaviour and the published REST v2 OpenAPI schemas."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openapi_core import OpenAPI
from test_openapi_contract import CONFIG, _spec_path, check_v2

from runpod_sim.account import BUCKET_SIZES, bucket_floor, bucket_next, resolve_window

GPU = "NVIDIA GeForce RTX 4090"
VOLUME_KEYS = {"id", "name", "size", "dataCenter", "type"}


@pytest.fixture(scope="module")
def spec_v2() -> OpenAPI:
    return OpenAPI.from_file_path(str(_spec_path("runpod-rest-v2-openapi.json")), config=CONFIG)


def add_charges(sim, *charges):
    response = httpx.post(f"{sim.urls['admin']}/billing", json={"charges": list(charges)}, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def test_v2_network_volume_lifecycle(sim, v2, spec_v2):
    created = v2.post("/network-volumes", json={"name": "data", "size": 20, "dataCenter": "EU-RO-1"})
    assert created.status_code == 201
    volume = check_v2(spec_v2, created)
    assert set(volume) == VOLUME_KEYS and volume["type"] == "STANDARD"
    listed = check_v2(spec_v2, v2.get("/network-volumes"))
    assert listed == {"networkVolumes": [volume]}
    assert check_v2(spec_v2, v2.get(f"/network-volumes/{volume['id']}")) == volume
    grown = check_v2(spec_v2, v2.patch(f"/network-volumes/{volume['id']}", json={"size": 40}))
    assert grown["size"] == 40
    shrink = v2.patch(f"/network-volumes/{volume['id']}", json={"size": 30})
    assert shrink.status_code == 400 and "cannot be decreased" in check_v2(spec_v2, shrink)["detail"]
    for body in ({}, {"type": "HIGH_PERFORMANCE"}, {"size": 5000}):
        refused = v2.patch(f"/network-volumes/{volume['id']}", json=body)
        assert refused.status_code == 422, body
        check_v2(spec_v2, refused)
    for body in (
        {"name": "x", "size": 9, "dataCenter": "EU-RO-1"},
        {"name": "x", "size": 10, "dataCenter": "EU-RO-1", "type": "FAST"},
        {"name": "x", "size": 10},
    ):
        assert v2.post("/network-volumes", json=body).status_code == 422, body
    unknown_dc = v2.post("/network-volumes", json={"name": "x", "size": 10, "dataCenter": "MARS-1"})
    assert unknown_dc.status_code == 400
    check_v2(spec_v2, unknown_dc)

    # A pod mounting the volume blocks its deletion until the pod is terminated.
    pod = v2.post(
        "/pods",
        json={
            "name": "p",
            "image": "ubuntu",
            "gpu": {"id": GPU},
            "mounts": {"network": [{"volumeId": volume["id"], "path": "/data"}]},
        },
    ).json()
    sim.admin.wait_pod(pod["id"], "RUNNING")
    assert v2.get(f"/pods/{pod['id']}").json()["dataCenterId"] == "EU-RO-1"
    for mounts, dcs in ((["nope"], None), ([volume["id"]], ["US-TX-3"])):
        body = {
            "name": "q",
            "image": "ubuntu",
            "gpu": {"id": GPU},
            "mounts": {"network": [{"volumeId": mounts[0], "path": "/d"}]},
        }
        if dcs:
            body["dataCenterIds"] = dcs
        refused = v2.post("/pods", json=body)
        assert refused.status_code == 400, refused.text
        check_v2(spec_v2, refused)
    attached = v2.delete(f"/network-volumes/{volume['id']}")
    assert attached.status_code == 400
    assert f"attached to pod {pod['id']}" in check_v2(spec_v2, attached)["detail"]
    assert v2.delete(f"/pods/{pod['id']}").status_code == 204
    deleted = v2.delete(f"/network-volumes/{volume['id']}")
    assert deleted.status_code == 204
    check_v2(spec_v2, deleted)
    missing = v2.get(f"/network-volumes/{volume['id']}")
    assert missing.status_code == 404
    check_v2(spec_v2, missing)


def test_v2_registries_are_write_only_unique_and_guarded(sim, v2, spec_v2):
    created = v2.post("/registries", json={"name": "hub", "username": "u", "password": "p"})
    assert created.status_code == 201
    registry = check_v2(spec_v2, created)
    assert set(registry) == {"id", "name"}
    assert check_v2(spec_v2, v2.get("/registries")) == {"registries": [registry]}
    assert check_v2(spec_v2, v2.get(f"/registries/{registry['id']}")) == registry
    duplicate = v2.post("/registries", json={"name": "hub", "username": "u", "password": "p"})
    assert duplicate.status_code == 400
    check_v2(spec_v2, duplicate)
    assert v2.post("/registries", json={"name": "x", "username": "u"}).status_code == 422
    template = v2.post("/templates", json={"name": "t", "image": "img", "registry": registry["id"]}).json()
    pod = v2.post("/pods", json={"name": "p", "image": "priv/img", "gpu": {"id": GPU}}).json()
    assert v2.patch(f"/pods/{pod['id']}", json={"registry": registry["id"]}).status_code == 200
    in_use = v2.delete(f"/registries/{registry['id']}")
    assert in_use.status_code == 400 and pod["id"] in check_v2(spec_v2, in_use)["detail"]
    v2.delete(f"/pods/{pod['id']}")
    deleted = v2.delete(f"/registries/{registry['id']}")
    assert deleted.status_code == 204
    check_v2(spec_v2, deleted)
    # Templates silently lose the reference instead of blocking the delete.
    assert v2.get(f"/templates/{template['id']}").json()["registry"] is None


def test_v2_billing_buckets_and_totals(sim, v2, spec_v2):
    day = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=1)
    add_charges(
        sim,
        {
            "kind": "pods",
            "resource_id": "pod1",
            "time": (day + timedelta(hours=3)).isoformat(),
            "gpu": 1.5,
            "disk": 0.1,
        },
        {"kind": "pods", "resource_id": "pod2", "time": (day + timedelta(hours=5)).isoformat(), "cpu": 0.25},
        {"kind": "pods", "resource_id": "pod1", "time": (day - timedelta(hours=1)).isoformat(), "gpu": 9},
        {
            "kind": "serverless",
            "resource_id": "ep1",
            "time": (day + timedelta(hours=1)).isoformat(),
            "gpu": 2,
            "fee": 1,
        },
        {"kind": "network_volumes", "resource_id": "vol1", "time": day.isoformat(), "high_performance": 0.5},
        {"kind": "endpoints", "time": day.isoformat(), "amount": 0.75},
        {"kind": "clusters", "resource_id": "c1", "time": day.isoformat(), "networking": 0.125},
    )
    window = {"startTime": day.strftime("%Y-%m-%dT%H:%M:%SZ"), "endTime": (day + timedelta(days=1)).isoformat()}
    total = check_v2(spec_v2, v2.get("/billing", params={**window, "bucketSize": "day"}))
    assert total["metadata"]["query"] == {
        "startTime": window["startTime"],
        "endTime": (day + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "bucketSize": "day",
    }
    assert [r["startTime"] for r in total["records"]] == [window["startTime"]]
    totals = total["metadata"]["totals"]
    assert totals["podGpuAmount"] == 1.5 and totals["podCpuAmount"] == 0.25 and totals["serverlessGpuAmount"] == 2
    assert totals["storageHighPerformanceAmount"] == 0.5 and totals["endpointAmount"] == 0.75
    assert totals["clusterNetworkingAmount"] == 0.125
    assert totals["totalAmount"] == pytest.approx(1.5 + 0.1 + 0.25 + 2 + 1 + 0.5 + 0.75 + 0.125)

    hourly = check_v2(spec_v2, v2.get("/billing/pods", params={**window, "bucketSize": "hour"}))
    assert [(r["podId"], r["gpuAmount"], r["cpuAmount"]) for r in hourly["records"]] == [
        ("pod1", 1.5, 0),
        ("pod2", 0, 0.25),
    ]
    assert hourly["metadata"]["uniquePodCount"] == 2 and hourly["metadata"]["query"]["podId"] is None
    one = check_v2(spec_v2, v2.get("/billing/pods", params={**window, "podId": "pod1"}))
    assert one["metadata"]["totals"] == {"totalAmount": 1.6, "gpuAmount": 1.5, "cpuAmount": 0, "diskAmount": 0.1}
    assert one["metadata"]["query"]["podId"] == "pod1"
    for path, key in (
        ("serverless", "serverlessId"),
        ("network-volumes", "networkVolumeId"),
        ("clusters", "clusterId"),
    ):
        body = check_v2(spec_v2, v2.get(f"/billing/{path}", params=window))
        assert len(body["records"]) == 1 and key in body["records"][0], path
    endpoints = check_v2(spec_v2, v2.get("/billing/endpoints", params=window))
    assert endpoints["metadata"]["totals"] == {"totalAmount": 0.75}
    last = check_v2(spec_v2, v2.get("/billing", params={"lastN": 3, "bucketSize": "day"}))
    assert len(last["records"]) == 3 and last["records"][1]["startTime"] == window["startTime"]
    for params in (
        {"lastN": 2, "startTime": window["startTime"]},
        {"bucketSize": "minute"},
        {"startTime": "yesterday"},
    ):
        refused = v2.get("/billing", params=params)
        assert refused.status_code == 400, params
        check_v2(spec_v2, refused)


def test_admin_billing_seed_refuses_bad_charges(sim):
    for charge in ({"kind": "gpus"}, {"kind": "pods", "gpu": 1}, {"kind": "pods", "resource_id": "p", "ram": 1}):
        response = httpx.post(f"{sim.urls['admin']}/billing", json={"charges": [charge]}, timeout=10)
        assert response.status_code == 400, charge
    add_charges(sim, {"kind": "endpoints", "amount": 1})
    assert len(httpx.get(f"{sim.urls['admin']}/billing", timeout=10).json()["charges"]) == 1
    sim.admin.reset()
    assert httpx.get(f"{sim.urls['admin']}/billing", timeout=10).json()["charges"] == []


@settings(max_examples=200, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)),
    size=st.sampled_from(BUCKET_SIZES),
)
def test_buckets_contain_their_moment_and_tile(moment, size):
    start = bucket_floor(moment, size)
    following = bucket_next(start, size)
    assert start <= moment < following
    assert bucket_floor(following, size) == following
    assert bucket_floor(following - timedelta(microseconds=1), size) == start


@settings(max_examples=100, deadline=None)
@given(
    now=st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)),
    size=st.sampled_from(BUCKET_SIZES),
    count=st.integers(min_value=1, max_value=30),
)
def test_last_n_spans_exactly_n_buckets_ending_with_the_current_one(now, size, count):
    window = resolve_window({"lastN": str(count), "bucketSize": size}, now)
    buckets = window.buckets()
    assert len(buckets) == count
    assert buckets[-1][0] <= now < buckets[-1][1]
