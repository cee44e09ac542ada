# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The v2 view of the store; out-of-band actions; serverless; admin input errors; the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest
from simhelpers import GPU

from runpod_sim.testing import SIMULATOR_ROOT, SimAdminError


def test_a_running_pod_reads_back_as_created_with_its_ports_mapped(sim, v2, running_pod):
    pod = running_pod(env={"K": "V"}, gpu={"id": GPU, "count": 2})
    v2_pod = v2.get(f"/pods/{pod['id']}").json()
    ssh_port = v2_pod["ssh"]["direct"]["port"]
    assert v2_pod["status"] == "RUNNING" and v2_pod["env"] == {"K": "V"}
    assert v2_pod["gpu"]["count"] == 2 and v2_pod["ports"] == ["22/tcp", "8888/http"]
    assert sim.admin.pod(pod["id"])["port_map"]["22"] == ssh_port
    ports = {row["private"]: row for row in v2_pod["runtime"]["ports"]}
    assert ports[22] == {"private": 22, "public": ssh_port, "type": "tcp", "ip": "127.0.0.1"}
    assert ports[8888]["type"] == "http" and ports[8888]["ip"].startswith("100.")
    assert len(v2_pod["runtime"]["gpus"]) == 2 and v2_pod["runtime"]["uptime"] >= 0


def test_initializing_pod_has_no_runtime(sim, v2, create_pod):
    sim.admin.configure(provisioning_delay=100000)
    pod = create_pod()
    assert v2.get(f"/pods/{pod['id']}").json()["runtime"] is None
    assert sim.admin.pod(pod["id"])["last_status_change"].startswith("Rented by User: ")


@pytest.mark.parametrize(
    ("action", "prefix", "v2_status"),
    [
        ("stop", "Exited by Runpod: ", "EXITED"),
        ("terminate", "Terminated by Runpod: ", "TERMINATED"),
        ("outbid", "Outbid: ", "TERMINATED"),
    ],
)
def test_out_of_band_actions_write_runpod_texts(sim, v2, running_pod, action, prefix, v2_status):
    pod = running_pod()
    getattr(sim.admin, f"{action}_pod")(pod["id"])
    change = sim.admin.pod(pod["id"])["last_status_change"]
    assert change.startswith(prefix) and change.endswith("GMT+0000 (Coordinated Universal Time)")
    assert v2.get(f"/pods/{pod['id']}").json()["status"] == v2_status
    assert pod["id"] not in {p["id"] for p in v2.get("/pods").json()["pods"]} or v2_status == "EXITED"


def test_user_stop_and_delete_texts(sim, v2, create_pod):
    pod = create_pod()
    sim.admin.wait_pod(pod["id"], "RUNNING")
    assert v2.post(f"/pods/{pod['id']}/action", json={"action": "stop"}).status_code == 200
    assert sim.admin.pod(pod["id"])["last_status_change"].startswith("Exited by user: ")
    assert v2.delete(f"/pods/{pod['id']}").status_code == 204
    gone = sim.admin.pod(pod["id"])
    assert gone["terminated"] and gone["last_status_change"].startswith("Terminated by user: ")


def test_oob_delete_makes_the_pod_vanish(sim, v2, running_pod):
    pod = running_pod()
    sim.admin.delete_pod(pod["id"])
    assert v2.get(f"/pods/{pod['id']}").status_code == 404


def test_serverless_health_propagation_workers_and_sequence(sim, v2):
    # Lag and boot never end on their own during the test (10^4 s of real time): the admin hooks step them,
    # so how long a request takes on a loaded machine changes nothing.
    sim.admin.configure(propagation_lag=1_000_000, worker_boot_delay=1_000_000)
    endpoint = v2.post(
        "/serverless",
        json={
            "name": "e",
            "type": "QUEUE",
            "image": "worker:1",
            "gpu": {"pools": ["ADA_24"]},
            "workers": {"min": 1},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4},
        },
    ).json()
    health_url = f"{sim.urls['serverless']}/{endpoint['id']}/health"
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    first = httpx.get(health_url, headers=headers)
    assert first.status_code == 404 and first.json() == {"error": "endpoint not found"}
    assert httpx.get(health_url, headers=headers).status_code == 404  # still propagating
    sim.admin.propagate(endpoint["id"])
    booting = httpx.get(health_url, headers=headers)
    assert booting.status_code == 200
    # A booting worker: /health counts it running (RunPod writes RUNNING once it is scheduled), the workers
    # view says INITIALIZING; nothing is ready yet.
    assert booting.json()["workers"] | {"running": 1, "ready": 0, "idle": 0} == booting.json()["workers"]
    assert v2.get(f"/serverless/{endpoint['id']}/workers").json()["summary"]["initializing"] == 1
    booted = sim.admin.boot_workers(endpoint["id"])
    assert booted["summary"]["idle"] == 1 and booted["summary"]["initializing"] == 0
    ready = httpx.get(health_url, headers=headers).json()
    assert ready["workers"]["ready"] == 1 and ready["workers"]["running"] == 0
    assert set(ready["workers"]) == {"idle", "initializing", "ready", "running", "throttled", "unhealthy"}
    assert set(ready["jobs"]) == {"completed", "failed", "inProgress", "inQueue", "retried"}
    workers = v2.get(f"/serverless/{endpoint['id']}/workers").json()
    assert workers["summary"] == {
        "running": 0,
        "idle": 1,
        "initializing": 0,
        "throttled": 0,
        "unhealthy": 0,
        "total": 1,
    }
    sim.admin.health_sequence(endpoint["id"], [{"status": 404}, {"workers": {"throttled": 2}}])
    assert httpx.get(health_url, headers=headers).status_code == 404
    assert httpx.get(health_url, headers=headers).json() == {"workers": {"throttled": 2}}
    assert httpx.get(health_url, headers=headers).json() == {"workers": {"throttled": 2}}  # the last entry repeats
    unhealthy = sim.admin.set_worker_statuses(endpoint["id"], ["UNHEALTHY", "THROTTLED"])
    assert unhealthy["summary"]["unhealthy"] == 1 and unhealthy["summary"]["total"] == 2
    assert v2.delete(f"/serverless/{endpoint['id']}").status_code == 204
    # The bound template went with it.
    assert v2.get("/templates").json() == {"templates": [], "pagination": {"nextCursor": None, "hasNextPage": False}}
    assert httpx.get(health_url, headers=headers).status_code == 404


def test_worker_boot_health_reads_boots_at_the_nth_read_before_answering(sim, v2):
    # The boot ends at the second /health read while the worker boots, before that read is answered, so that read
    # and the worker list after it agree; reads of an endpoint whose workers all run count nothing.
    sim.admin.configure(propagation_lag=0, worker_boot_delay=1_000_000, worker_boot_health_reads=2)
    body = {"name": "e", "type": "QUEUE", "image": "worker:1", "gpu": {"pools": ["ADA_24"]}, "workers": {"min": 1},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}}
    endpoint = v2.post("/serverless", json=body).json()
    health_url = f"{sim.urls['serverless']}/{endpoint['id']}/health"
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    booting = httpx.get(health_url, headers=headers).json()["workers"]
    assert (booting["running"], booting["ready"]) == (1, 0)
    booted = httpx.get(health_url, headers=headers).json()["workers"]
    assert (booted["running"], booted["ready"], booted["idle"]) == (0, 1, 1)
    assert v2.get(f"/serverless/{endpoint['id']}/workers").json()["summary"]["idle"] == 1
    assert httpx.get(health_url, headers=headers).json()["workers"]["ready"] == 1
    with pytest.raises(SimAdminError, match="worker_boot_health_reads must be a non-negative integer"):
        sim.admin.configure(worker_boot_health_reads=1.5)


def test_serverless_workers_min_zero_never_ready(sim, v2):
    endpoint = v2.post(
        "/serverless",
        json={
            "name": "e",
            "type": "QUEUE",
            "image": "w",
            "gpu": {"pools": ["ADA_24"]},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4},
        },
    ).json()
    sim.admin.propagate(endpoint["id"])
    health = httpx.get(
        f"{sim.urls['serverless']}/{endpoint['id']}/health", headers={"Authorization": f"Bearer {sim.api_key}"}
    ).json()
    assert health["workers"]["ready"] == 0 and health["workers"]["running"] == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda a: a.inject_fault("/v2/pods", "explode"), "unknown fault kind 'explode'"),
        (lambda a: a.inject_fault("/v2/(pods", "status", status=500), "bad route pattern"),
        (lambda a: a.inject_fault("/v2/pods", "status"), "needs status"),
        (lambda a: a.inject_fault("/v2/pods", "status", status=500, count=0), "count must be a positive integer"),
        (lambda a: a.inject_fault("/v2/pods", "status", status=500, colour="red"), "unknown key(s)"),
        (lambda a: a.configure(time_scale=0), "time_scale must be greater than 0"),
        (lambda a: a.configure(ssh_behaviour="telnet"), "unknown ssh_behaviour 'telnet'"),
        (lambda a: a.configure(warp=9), "unknown config key 'warp'"),
        (lambda a: a.seed(0), "count must be an integer"),
        (lambda a: a.set_pod_behaviour("nope", ssh_delay=1), "no pod nope"),
    ],
)
def test_bad_admin_input_is_a_clear_400(sim, call, message):
    with pytest.raises(SimAdminError) as caught:
        call(sim.admin)
    assert caught.value.status in (400, 404)
    assert message in caught.value.message
    assert sim.admin.info()["simulator"] == "runpod_sim"  # still serving


def test_bad_admin_json_is_400(sim):
    response = httpx.post(
        sim.urls["admin"] + "/faults", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and response.json() == {"error": "bad JSON in the admin request body"}
    config_before = sim.admin.config()
    assert httpx.patch(sim.urls["admin"] + "/config", json={"time_scale": 2, "warp": 1}).status_code == 400
    assert sim.admin.config() == config_before  # nothing half-applied


def test_reset_restores_everything(sim, v2, create_pod):
    create_pod()
    sim.admin.configure(time_scale=5.0)
    sim.admin.inject_fault("/v2/pods", "status", status=500, count=5)
    sim.admin.reset()
    assert sim.admin.config()["time_scale"] == 0.01
    assert sim.admin.faults() == [] and sim.admin.requests() == []
    assert v2.get("/pods").json() == {"pods": [], "pagination": {"nextCursor": None, "hasNextPage": False}}


def test_cli_prints_urls_and_export_lines():
    env = {**os.environ, "PYTHONPATH": str(SIMULATOR_ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "runpod_sim", "--port", "0", "--api-key", "k1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )
    try:
        lines = []
        deadline = time.monotonic() + 20
        while not any(line.startswith("export ") for line in lines) and time.monotonic() < deadline:
            lines.append(process.stdout.readline())
        export = next(line for line in lines if line.startswith("export "))
        assert "RUNPOD_API_KEY=k1 " in export
        printed = "".join(lines)
        # REST v1 and GraphQL are gone: no line announces them.
        assert not any(word in printed for word in ("/v1", "v1 ", "graphql", "GraphQL", "RUNPOD_API_VERSION"))
        variables = dict(item.split("=", 1) for item in export.split()[1:])
        assert variables["RUNPOD_API_URL"].startswith("http://127.0.0.1:") and variables["RUNPOD_API_URL"].endswith(
            "/v2"
        )
        assert variables["RUNPOD_SERVERLESS_URL"].endswith("/invoke/v2")
        assert (
            httpx.get(variables["RUNPOD_API_URL"] + "/pods", headers={"Authorization": "Bearer k1"}).status_code == 200
        )
    finally:
        process.terminate()
        assert process.wait(10) == 0
