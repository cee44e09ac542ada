# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The endpoint and cluster waits handed to the controller (plugins/action/endpoint.py, cluster.py) and finished
there by ``controller.resume_wait``: handed off only for the controller's key, never carrying the key, and finished
with the result the module's own wait gives (docs/dev/architecture.md, "Waits on the controller")."""

from __future__ import annotations

import json

import pytest
from ansible.module_utils.common import warnings as module_warnings
from helpers.fakes import UNIT_API_KEY, FakeBackend, FakeClock, install_backend, install_clock, run_module
from test_cluster import FakeClusterBackend, node, view
from test_serverless_modules import endpoint_view

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._engine import ssh_probe as _ssh_probe
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.module_utils._module import controller as _controller
from ansible_collections.runpod.cloud.plugins.module_utils._module.cluster_waiter import ClusterWaiter
from ansible_collections.runpod.cloud.plugins.module_utils._module.endpoint_waiter import EndpointWaiter
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import Health
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import SshAddress
from ansible_collections.runpod.cloud.plugins.modules import cluster as cluster_module
from ansible_collections.runpod.cloud.plugins.modules import endpoint as endpoint_module

ENDPOINT_WAIT = {"name": "ep", "wait": True, "wait_timeout": "2m", "wait_interval": "1s", "wait_for": "ready"}
CLUSTER_CREATE = {"name": "train", "gpu_type_id": "NVIDIA H100 80GB HBM3", "pod_count": 2, "image": "img:1",
                  "wait": True, "wait_timeout": "2m", "wait_interval": "1s",
                  # No ssh-keyscan of the fake nodes (each node's host key step: test_batch_host_keys.py).
                  "host_key_checking": "off"}


@pytest.fixture(autouse=True)
def fake_clock(monkeypatch):
    """Both paths wait on a fake clock: their results carry ``elapsed``, which a real clock makes differ on a loaded
    machine (the module's own wait took a second, the resumed one none)."""
    return install_clock(monkeypatch, FakeClock())


def hand_off(monkeypatch, key=UNIT_API_KEY):
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(key))
    # Each module run is its own process on a target: no warning of the run before leaks into this one.
    monkeypatch.setattr(module_warnings, "_global_warnings", {})


def comparable(result):
    """The result with its warnings as plain messages (the module's are 2.19 warning events, the controller adds
    its own as text; Ansible turns both into the same warning)."""
    shaped = dict(result)
    if "warnings" in shaped:
        shaped["warnings"] = [w["event"]["msg"] if isinstance(w, dict) else w for w in shaped["warnings"]]
    return shaped


def resume(monkeypatch, wait_class, handed, backend):
    install_backend(monkeypatch, backend)
    lines, changes = [], []
    resumed = _controller.resume_wait(wait_class, handed, UNIT_API_KEY, progress=lines.append,
                                      on_transition=changes.append)
    return resumed, lines, changes


# --- endpoint --------------------------------------------------------------------------------------------------


def test_the_endpoint_hands_off_its_wait_only_for_the_key_the_controller_holds(capsys, monkeypatch):
    args = dict(ENDPOINT_WAIT, wait_for="rollout")
    hand_off(monkeypatch)
    backend = FakeBackend(endpoints=[endpoint_view()], health=[Health(ready=1)])
    handed = run_module(endpoint_module, backend, capsys, monkeypatch, **args)
    handoff = handed[_base.HANDOFF_KEY]
    assert handoff["id"] == "ep-1" and handoff["name"] == "ep" and handoff["touched_id"] is None
    assert handoff["params"]["wait_for"] == "rollout" and handoff["params"]["wait_interval"] == "1s"
    assert "api_key" not in handoff["params"] and UNIT_API_KEY not in json.dumps(handed)
    assert "wait" not in handed and handed["endpoint"]["id"] == "ep-1"
    assert backend.count("endpoint_health") == 0  # the module did not start the wait
    # Another key on the controller: the module waits by itself.
    hand_off(monkeypatch, "another-key")
    waited = run_module(endpoint_module, FakeBackend(endpoints=[endpoint_view()], health=[Health(ready=1)]),
                        capsys, monkeypatch, **args)
    assert _base.HANDOFF_KEY not in waited and waited["ready_signal"] == "health_ready"


def test_a_created_endpoint_hands_off_with_the_touched_id(capsys, monkeypatch):
    hand_off(monkeypatch)
    args = dict(ENDPOINT_WAIT, template_id="tpl-1", gpu_type_ids=["ADA_24"])
    handed = run_module(endpoint_module, FakeBackend(), capsys, monkeypatch, **args)
    handoff = handed[_base.HANDOFF_KEY]
    assert handed["changed"] is True and handoff["touched_id"] == handoff["id"] == handed["endpoint"]["id"]


@pytest.mark.parametrize(
    "workers_min, health",
    [
        (1, [Health(initializing=1), Health(initializing=1), Health(ready=1, idle=1)]),
        (0, [Health(initializing=1), RunPodError("forbidden", 403, "access denied")]),
    ],
    ids=["ready", "forbidden"],
)
def test_the_controller_finishes_an_endpoint_wait_with_the_modules_own_result(capsys, monkeypatch, workers_min,
                                                                              health):
    clock = install_clock(monkeypatch, FakeClock())
    own = run_module(endpoint_module, FakeBackend(endpoints=[endpoint_view(workers_min=workers_min)], health=health),
                     capsys, monkeypatch, **ENDPOINT_WAIT)
    hand_off(monkeypatch)
    backend = FakeBackend(endpoints=[endpoint_view(workers_min=workers_min)], health=health)
    handed = run_module(endpoint_module, backend, capsys, monkeypatch, **ENDPOINT_WAIT)
    assert _base.HANDOFF_KEY in handed
    start = clock.now()
    resumed, lines, changes = resume(monkeypatch, EndpointWaiter, handed, backend)
    assert clock.now() > start  # the resumed wait polled on its cadence (the fake clock), not at once
    assert comparable(resumed) == comparable(own)
    assert _base.HANDOFF_KEY not in resumed and UNIT_API_KEY not in json.dumps(resumed)
    assert lines[0] == ("waiting for a ready worker on endpoint ep-1 "
                        "(timeout 2m; Ctrl-C keeps the endpoint, a rerun resumes)")
    assert [entry["state"] for entry in changes] == [entry["state"] for entry in own["wait"]["history"]]
    if workers_min == 0:  # the wait's warning reaches the controller's result too
        assert "warnings" not in handed
        assert any("workers_min 0" in warning for warning in comparable(resumed)["warnings"])
        assert resumed["code"] == "forbidden" and resumed["endpoint"]["id"] == "ep-1"
    else:
        assert resumed["ready_signal"] == "health_ready" and resumed["endpoint"]["health"]["ready"] == 1


# --- cluster ---------------------------------------------------------------------------------------------------


def reachable_node(rank, **fields):
    return node(rank, cluster_id="c-new", ssh_direct=SshAddress(host="10.0.0.1", port=40000 + rank), **fields)


@pytest.fixture
def banners(monkeypatch):
    """Every probed node answers with an SSH banner (no socket is opened)."""

    def probe_many(targets, **kwargs):
        return {key: _ssh_probe.ProbeResult(True, f"ssh reachable at {host}:{port}", f"{host}:{port}")
                for key, (host, port) in targets.items()}

    monkeypatch.setattr(_ssh_probe, "probe_many", probe_many)


def test_the_cluster_hands_off_its_wait_only_for_the_key_the_controller_holds(capsys, monkeypatch, banners):
    hand_off(monkeypatch)
    backend = FakeClusterBackend(members=[reachable_node(0), reachable_node(1)])
    handed = run_module(cluster_module, backend, capsys, monkeypatch, **CLUSTER_CREATE)
    handoff = handed[_base.HANDOFF_KEY]
    assert handoff["id"] == handoff["touched_id"] == "c-new" and handoff["name"] == "train"
    assert handoff["params"]["pod_count"] == 2 and handoff["params"]["wait_timeout"] == "2m"
    assert "api_key" not in handoff["params"] and UNIT_API_KEY not in json.dumps(handed)
    # The handoff reads no member list: the wait (on the controller) does.
    assert [call[0] for call in backend.calls] == ["find_clusters", "create_cluster"]
    assert handed["pods"] == [] and "wait" not in handed
    hand_off(monkeypatch, "another-key")
    waited = run_module(cluster_module, FakeClusterBackend(members=[reachable_node(0), reachable_node(1)]),
                        capsys, monkeypatch, **CLUSTER_CREATE)
    assert _base.HANDOFF_KEY not in waited and waited["wait"]["ready_detail"] == "all 2 pods ready"


def test_the_controller_finishes_a_cluster_wait_with_the_modules_own_result(capsys, monkeypatch, banners):
    def backend():
        return FakeClusterBackend(members=[reachable_node(0), reachable_node(1)])

    own = run_module(cluster_module, backend(), capsys, monkeypatch, **CLUSTER_CREATE)
    hand_off(monkeypatch)
    controller = backend()
    handed = run_module(cluster_module, controller, capsys, monkeypatch, **CLUSTER_CREATE)
    resumed, lines, changes = resume(monkeypatch, ClusterWaiter, handed, controller)
    assert resumed == own
    assert [pod["ssh"]["port"] for pod in resumed["pods"]] == [40000, 40001]
    assert lines[0] == ("waiting for ssh on every node of cluster c-new "
                        "(timeout 2m; Ctrl-C keeps the cluster, a rerun resumes)") and "ready after" in lines[-1]
    assert [entry["state"] for entry in changes] == [entry["state"] for entry in own["wait"]["history"]]


def test_a_cluster_wait_failing_on_its_first_read_keeps_the_members_the_module_read(capsys, monkeypatch, banners):
    # An existing cluster: the module reads its members (the fixed-settings check), then the wait's first member
    # read is refused. Both paths end with the members as the module read them.
    def backend():
        fake = FakeClusterBackend([view("c1")], [node(0), node(1)])
        fake.errors["list_cluster_pods"] = [None, RunPodError("unauthorized", 401, "invalid api key")]
        return fake

    args = dict(CLUSTER_CREATE, pod_count=None)
    own = run_module(cluster_module, backend(), capsys, monkeypatch, **args)
    hand_off(monkeypatch)
    controller = backend()
    handed = run_module(cluster_module, controller, capsys, monkeypatch, **args)
    assert handed["pods"] == own["pods"]
    resumed, _lines, _changes = resume(monkeypatch, ClusterWaiter, handed, controller)
    assert resumed == own
    assert resumed["code"] == "unauthorized" and resumed["failed"] is True and resumed["id"] == "c1"
    assert [pod["id"] for pod in resumed["pods"]] == ["p0", "p1"]


def test_a_failed_re_read_after_the_cluster_wait_warns_on_both_paths(capsys, monkeypatch, banners):
    def backend():
        fake = FakeClusterBackend(members=[reachable_node(0), reachable_node(1)])
        fake.errors["get_cluster"] = RunPodError("server_error", 503, "unavailable")
        return fake

    own = run_module(cluster_module, backend(), capsys, monkeypatch, **CLUSTER_CREATE)
    hand_off(monkeypatch)
    controller = backend()
    handed = run_module(cluster_module, controller, capsys, monkeypatch, **CLUSTER_CREATE)
    assert "warnings" not in handed
    resumed, _lines, _changes = resume(monkeypatch, ClusterWaiter, handed, controller)
    assert comparable(resumed) == comparable(own)
    assert any("re-reading the cluster" in warning for warning in comparable(resumed)["warnings"])
