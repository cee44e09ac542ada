# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Simulated Instant Clusters: document-valid answers, one data center, staggered members, the overlay, failures."""

from __future__ import annotations

import socket

import asyncssh
import pytest
from openapi_core import OpenAPI
from simhelpers import wait_for
from test_openapi_contract import CONFIG, _spec_path, check_v2

GPU = "NVIDIA H100 80GB HBM3"


@pytest.fixture(scope="module")
def openapi_v2() -> OpenAPI:
    return OpenAPI.from_file_path(str(_spec_path("runpod-rest-v2-openapi.json")), config=CONFIG)


def cluster_body(**overrides):
    body = {
        "name": "train",
        "type": "SLURM",
        "compute": {"gpuTypeId": GPU, "gpuCountPerPod": 8, "podCount": 3},
        "image": "runpod/pytorch:2.8.0",
        "ports": ["22/tcp"],
        "dataCenterIds": ["EU-RO-1"],
        "startSsh": True,
        "env": {"PUBLIC_KEY": asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()},
    }
    body.update(overrides)
    return body


def banner(host, port):
    with socket.create_connection((host, port), timeout=2) as conn:
        return conn.recv(4)


def test_cluster_lifecycle_matches_the_document(sim, v2, openapi_v2):
    sim.admin.configure(provisioning_delay=50)
    sim.admin.cluster_settings(member_stagger=500, overlay_port=42022)
    created = v2.post("/clusters", json=cluster_body())
    assert created.status_code == 201, created.text
    cluster = check_v2(openapi_v2, created)
    # Nothing placed yet: no data center, network or primary (all "omitted until ...").
    assert cluster["pods"]["total"] == 3 and "primary" not in cluster and "network" not in cluster
    cluster_id = cluster["id"]
    members = check_v2(openapi_v2, v2.get(f"/clusters/{cluster_id}/pods"))["pods"]
    roles = ("SLURM_CONTROLLER", "SLURM_COMPUTE", "SLURM_COMPUTE")
    assert [m["cluster"] for m in members] == [{"id": cluster_id, "rank": None, "role": role} for role in roles]
    # Members are hidden from the plain pod list and cannot be managed through the pod endpoints.
    assert check_v2(openapi_v2, v2.get("/pods"))["pods"] == []
    listed = check_v2(openapi_v2, v2.get("/pods", params={"includeClusterPods": "true"}))["pods"]
    assert sorted(p["id"] for p in listed) == sorted(m["id"] for m in members)
    refused = v2.delete(f"/pods/{members[1]['id']}")
    assert refused.status_code == 400 and cluster_id in check_v2(openapi_v2, refused)["detail"]

    # Rank 0 is placed first; rank 2 (500 s later per rank) is still provisioning while the primary runs.
    first = members[0]["id"]
    sim.admin.wait_pod(first, "RUNNING", listening=True)
    cluster = check_v2(openapi_v2, v2.get(f"/clusters/{cluster_id}"))
    assert cluster["dataCenterId"] == "EU-RO-1" and cluster["network"]["cidr"].endswith(".0/24")
    assert cluster["primary"]["podId"] == first and cluster["primary"]["status"] == "RUNNING"
    assert cluster["primary"]["sshEndpoint"].startswith("127.0.0.1:")
    assert cluster["pods"]["byStatus"]["RUNNING"] == 1 and sum(cluster["pods"]["byStatus"].values()) == 3
    members = check_v2(openapi_v2, v2.get(f"/clusters/{cluster_id}/pods"))["pods"]
    assert members[0]["cluster"]["rank"] == 0 and members[2]["status"] == "PROVISIONING"
    assert "ip" not in members[2]["cluster"] and members[2]["cluster"]["rank"] is None
    # The primary's overlay address answers with an SSH banner, a peer that is not up yet does not.
    overlay = members[0]["cluster"]["ip"]
    assert wait_for(lambda: banner(overlay, 42022) == b"SSH-")
    assert all(m["dataCenterId"] in (None, "EU-RO-1") for m in members)

    renamed = check_v2(openapi_v2, v2.patch(f"/clusters/{cluster_id}", json={"name": "renamed"}))
    assert renamed["name"] == "renamed"
    assert v2.patch(f"/clusters/{cluster_id}", json={"type": "RAY"}).status_code == 422
    deleted = v2.delete(f"/clusters/{cluster_id}")
    assert deleted.status_code == 204
    check_v2(openapi_v2, deleted)
    missing = v2.get(f"/clusters/{cluster_id}")
    assert missing.status_code == 404
    check_v2(openapi_v2, missing)
    assert check_v2(openapi_v2, v2.get("/pods", params={"includeClusterPods": "true"}))["pods"] == []
    assert wait_for(lambda: _refused(overlay, 42022))


def _refused(host, port):
    try:
        banner(host, port)
    except OSError:
        return True
    return False


def test_scripted_member_failure_and_validation(sim, v2, openapi_v2):
    sim.admin.cluster_settings(member_stagger=0, fail={"cluster_name": "flaky", "rank": 1, "after": 20})
    created = check_v2(openapi_v2, v2.post("/clusters", json=cluster_body(name="flaky", type="TRAINING")))
    failed = wait_for(
        lambda: [p for p in v2.get(f"/clusters/{created['id']}/pods").json()["pods"] if p["status"] == "ERROR"]
    )
    assert [p["cluster"]["rank"] for p in failed] == [1] and "role" not in failed[0]["cluster"]
    invalid = v2.post("/clusters", json=cluster_body(compute={"gpuTypeId": GPU, "gpuCountPerPod": 1, "podCount": 1}))
    assert invalid.status_code == 422
    assert check_v2(openapi_v2, invalid)["errors"] == ["$.compute.podCount: 1 is less than the minimum of 2"]
    assert v2.post("/clusters", json=cluster_body(registry="x")).status_code == 422
    listed = check_v2(openapi_v2, v2.get("/clusters"))["clusters"]
    assert [c["id"] for c in listed] == [created["id"]]
