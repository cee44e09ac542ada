"""Both backends against the simulator: the same pod gives the same normalized view, and the v1 GraphQL bound.

Real sockets on 127.0.0.1: the simulator runs as a subprocess and the backends talk HTTP to it.
"""

from __future__ import annotations

import time

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils import _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._backends import make_backend
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._models import PodSpec
from runpod_sim.testing import start_simulator

pytestmark = pytest.mark.timeout(120)
TIME_SCALE = 0.01

SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIContractTestKey contract@test"


@pytest.fixture(scope="module")
def sim():
    with start_simulator(time_scale=TIME_SCALE) as process:
        yield process


@pytest.fixture
def fresh_sim(sim):
    sim.admin.reset()
    return sim


def options(sim, version):
    env = sim.env(version)
    return {
        "api_key": env["RUNPOD_API_KEY"],
        "api_version": version,
        "api_url": env["RUNPOD_API_URL"],
        "graphql_url": env["RUNPOD_GRAPHQL_URL"],
        "serverless_url": env["RUNPOD_SERVERLESS_URL"],
        "request_timeout": 10,
    }


@pytest.fixture
def v1_sim(fresh_sim):
    return fresh_sim


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


def running_pod(sim, backend, **overrides):
    pod, _placement = backend.create_pod(spec(**overrides))
    sim.admin.wait_pod(pod.id, "RUNNING", listening=True)
    return pod


def ssh_pair(address):
    """``(host, port)`` of ``_podstate.public_ssh`` (a dict or an object with those attributes)."""
    if address is None:
        return None
    if isinstance(address, dict):
        return (address["host"], int(address["port"]))
    return (address.host, int(address.port))


def comparable(pod):
    """What must agree between backends: identity, derived state, ports and the public ssh address."""
    runtime_status, reason = _podstate.derive(pod)
    address = _podstate.public_ssh(pod)
    return {
        "id": pod.id,
        "name": pod.name,
        "image": pod.image,
        "gpu": (pod.gpu_type, pod.gpu_count),
        "ports": sorted(pod.ports),
        "desired_status": pod.desired_status,
        "runtime_status": runtime_status,
        "reason": reason,
        "ssh": ssh_pair(address),
        "runtime_22": sorted((p.public, p.ip) for p in pod.runtime_ports if p.private == 22),
    }


# -- v2 against the simulator (runs as soon as the simulator serves REST v2) --------------------------


def test_v2_create_get_and_list_agree_and_ssh_direct_is_a_listening_loopback_port(fresh_sim):
    backend = make_backend(options(fresh_sim, "v2"))
    created, placement = backend.create_pod(spec())
    assert placement["attempts"][-1]["status"] == 201
    assert created.status == "PROVISIONING" and created.desired_status == "RUNNING"
    assert "22/tcp" in created.ports  # start_ssh adds it
    fresh_sim.admin.wait_pod(created.id, "RUNNING", listening=True)
    before = time.monotonic()
    got = backend.get_pod(created.id)
    (listed,) = [pod for pod in backend.list_pods() if pod.id == created.id]
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
    assert [pod.id for pod in backend.find_pods("contract")] == [created.id]


def test_v2_list_pods_is_one_request_and_skips_null_entries(fresh_sim):
    backend = make_backend(options(fresh_sim, "v2"))
    ids = fresh_sim.admin.seed(3)
    fresh_sim.admin.inject_fault(r"^/v2/pods$", "null_entry", method="GET")
    fresh_sim.admin.clear_requests()
    pods = backend.list_pods()
    assert sorted(pod.id for pod in pods) == sorted(ids)
    assert fresh_sim.admin.count("GET", r"^/v2/pods$") == 1
    assert backend.requests_made == 1


def test_v2_errors_come_back_typed_from_the_simulator(fresh_sim):
    backend = make_backend(options(fresh_sim, "v2"))
    with pytest.raises(RunPodError) as caught:
        backend.get_pod("doesnotexist")
    assert caught.value.code == "not_found" and caught.value.status == 404
    bad_key = make_backend({**options(fresh_sim, "v2"), "api_key": "wrong-key-000"})
    with pytest.raises(RunPodError) as caught:
        bad_key.list_pods()
    assert caught.value.code == "unauthorized"
    assert "wrong-key-000" not in str(caught.value)


# -- both backends: the contract -------------------------------------------------------------------


def test_both_backends_give_equal_views_of_the_same_running_pod(v1_sim):
    v2 = make_backend(options(v1_sim, "v2"))
    v1 = make_backend(options(v1_sim, "v1"))
    pod = running_pod(v1_sim, v2)
    from_v2 = v2.get_pod(pod.id)
    from_v1 = v1.get_pod(pod.id)
    assert from_v1.runtime_probed is True, v1.runtime_error
    assert comparable(from_v1) == comparable(from_v2)
    assert comparable(from_v2)["runtime_status"] == "running"
    assert comparable(from_v2)["ssh"] is not None
    listed_v1 = {p.id: p for p in v1.list_pods()}
    listed_v2 = {p.id: p for p in v2.list_pods()}
    assert comparable(listed_v1[pod.id]) == comparable(listed_v2[pod.id])


def test_v1_makes_no_graphql_read_when_nothing_runs_and_one_when_something_does(v1_sim):
    v2 = make_backend(options(v1_sim, "v2"))
    v1 = make_backend(options(v1_sim, "v1"))
    pod = running_pod(v1_sim, v2)
    v2.stop_pod(pod.id)
    v1_sim.admin.wait_pod(pod.id, "EXITED")
    v1_sim.admin.clear_requests()
    (stopped,) = v1.list_pods()
    assert stopped.status == "EXITED"
    assert v1_sim.admin.count("POST", r"^/graphql") == 0

    running_pod(v1_sim, v2, name="second")
    running_pod(v1_sim, v2, name="third")
    v1_sim.admin.clear_requests()
    pods = v1.list_pods()
    assert len(pods) == 3
    assert v1_sim.admin.count("POST", r"^/graphql") == 1
    assert v1_sim.admin.count("GET", r"^/v1/pods$") == 1


def test_v1_graphql_failure_degrades_to_runtime_unavailable(v1_sim):
    v2 = make_backend(options(v1_sim, "v2"))
    v1 = make_backend(options(v1_sim, "v1"))
    pod = running_pod(v1_sim, v2)
    v1_sim.admin.inject_fault(r"^/graphql", "status", status=500)
    (listed,) = v1.list_pods()
    assert listed.id == pod.id and listed.runtime_probed is False
    assert _podstate.derive(listed) == ("unknown", "runtime_unavailable")
