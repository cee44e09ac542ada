"""The REST v2 backend against the simulator: create, get and list agree, one list read, typed errors.

Real sockets on 127.0.0.1: the simulator runs as a subprocess and the backend talks HTTP to it.
"""

from __future__ import annotations

import time

import pytest
from helpers.fakes import full_backend

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodSpec
from runpod_sim.testing import start_simulator

# (the backend against the simulator, no Ansible in it).
pytestmark = pytest.mark.timeout(120)
TIME_SCALE = 0.01

SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIContractTestKey contract@test"


@pytest.fixture(scope="module")
def sim():
    with start_simulator(time_scale=TIME_SCALE, page_size=2) as process:  # every list read crosses pages
        yield process


@pytest.fixture
def fresh_sim(sim):
    sim.admin.reset()
    return sim


def options(sim):
    env = sim.env()
    return {
        "api_key": env["RUNPOD_API_KEY"],
        "api_url": env["RUNPOD_API_URL"],
        "serverless_url": env["RUNPOD_SERVERLESS_URL"],
        "request_timeout": 10,
    }


def spec(name="contract", **overrides):
    fields = {
        "name": name,
        "image": "runpod/base:0.1",
        "gpu_type_ids": ["NVIDIA GeForce RTX 4090"],
        "ports": ["8888/http"],
        "env": {"PUBLIC_KEY": SSH_KEY},
    }
    fields.update(overrides)
    return PodSpec(**fields)


def test_v2_create_get_and_list_agree_and_ssh_direct_is_a_listening_loopback_port(fresh_sim):
    backend = full_backend(options(fresh_sim))
    created, placement = backend.pods.create(spec())
    assert placement["attempts"][-1]["status"] == 201
    assert created.status == "PROVISIONING"
    assert "22/tcp" in created.ports  # start_ssh adds it
    fresh_sim.admin.wait_pod(created.id, "RUNNING", listening=True)
    before = time.monotonic()
    got = backend.pods.get(created.id)
    (listed,) = [pod for pod in backend.pods.list() if pod.id == created.id]
    apart = time.monotonic() - before
    # Two reads a moment apart: everything agrees but the uptime, which runs on the simulator's scaled clock
    # (a loaded machine may put a real tenth of a second, ten simulated seconds, between the two reads).
    assert got.model_dump(exclude={"uptime_seconds"}) == listed.model_dump(exclude={"uptime_seconds"})
    assert 0 <= listed.uptime_seconds - got.uptime_seconds <= apart / TIME_SCALE + 1
    assert (got.status, got.runtime_reported) == ("RUNNING", True)
    assert _podstate.derive(got) == ("running", None)
    assert got.ssh_direct is not None and got.ssh_direct.host == "127.0.0.1"
    internal = fresh_sim.admin.pod(created.id)
    assert str(got.ssh_direct.port) in {str(port) for port in internal["port_map"].values()}
    assert [pod.id for pod in backend.pods.find("contract")] == [created.id]


def test_v2_list_pods_walks_every_page_and_skips_null_entries(fresh_sim):
    backend = full_backend(options(fresh_sim))
    ids = fresh_sim.admin.seed(5)
    fresh_sim.admin.inject_fault(r"^/v2/pods$", "null_entry", method="GET")
    fresh_sim.admin.clear_requests()
    pods = backend.pods.list()
    assert sorted(pod.id for pod in pods) == sorted(ids)
    # Five pods at two a page: three pages, the cursor of each page sent with the next, never a 422.
    requests = [entry for entry in fresh_sim.admin.requests() if entry["path"] == "/v2/pods"]
    assert len(requests) == 3 == backend.requests_made
    assert [("cursor=" in entry.get("query", "")) for entry in requests] == [False, True, True]
    assert {entry["status"] for entry in requests} == {200}


def test_v2_errors_come_back_typed_from_the_simulator(fresh_sim):
    backend = full_backend(options(fresh_sim))
    with pytest.raises(RunPodError) as caught:
        backend.pods.get("doesnotexist")
    assert caught.value.code == "not_found" and caught.value.status == 404
    bad_key = full_backend({**options(fresh_sim), "api_key": "wrong-key-000"})
    with pytest.raises(RunPodError) as caught:
        bad_key.pods.list()
    assert caught.value.code == "unauthorized"
    assert "wrong-key-000" not in str(caught.value)
