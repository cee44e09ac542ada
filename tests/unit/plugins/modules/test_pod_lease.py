"""runpod.cloud.pod's lease options without an API: refused before any call, written into the env at create (a
fleet's members too), kept by a task that names none, and a changed lease of a running pod shown in check mode
and refused unless the task asks for the restart; pod_info's lease_expired and idle filters."""

from __future__ import annotations

import functools
import json

import pytest
from helpers.fakes import GPU, FakeBackend, pod_view, run_module

from ansible_collections.runpod.cloud.plugins.modules import cluster as cluster_module
from ansible_collections.runpod.cloud.plugins.modules import pod as pod_module
from ansible_collections.runpod.cloud.plugins.modules import pod_info as pod_info_module

run = functools.partial(run_module, pod_module)
CREATE = {"name": "web", "image": "img:1", "gpu_type_ids": [GPU]}
LEASED = {"PUBLIC_KEY": "ssh-ed25519 AAAA k", "A": "1", "RUNPOD_CLOUD_STOP_AFTER": "3600"}


@pytest.mark.parametrize("args, text", [
    (dict(CREATE, stop_after="0s"), "stop_after: invalid duration"),
    (dict(CREATE, terminate_after="-2h"), "terminate_after: invalid duration"),
    (dict(CREATE, stop_after="2h", terminate_after="1h"), "must be after stop_after"),
    (dict(CREATE, idle_stop_after="1h", idle_below=0), "idle_below is the GPU utilization percent (1 to 100)"),
    (dict(CREATE, idle_stop_after="1h", idle_below=101), "(1 to 100)"),
    (dict(CREATE, count=3, stop_after="2h", terminate_after="2h"), "must be after stop_after"),
    ({"name": "web", "state": "absent", "stop_after": "1h"}, "cannot apply to a pod this deletes"),
])
def test_a_lease_that_cannot_be_is_refused_before_any_call(capsys, monkeypatch, args, text):
    result = run(None, capsys, monkeypatch, **args)
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert text in result["msg"]


def test_cluster_terminate_after_is_refused_before_any_call(capsys, monkeypatch):
    result = run_module(cluster_module, None, capsys, monkeypatch, name="c", image="img:1", gpu_type_id=GPU,
                        pod_count=2, terminate_after=0)
    assert result["failed"] is True and "terminate_after: invalid duration" in result["msg"]


def test_the_lease_goes_into_the_env_of_every_created_pod(capsys, monkeypatch):
    backend = FakeBackend()
    args = dict(CREATE, env={"A": "1"}, stop_after="8h", terminate_after="1d", idle_stop_after="30m", count=2)
    result = run(backend, capsys, monkeypatch, **args)
    assert result.get("failed") is not True, result
    specs = [call[1] for call in backend.calls if call[0] == "create_pod"]
    assert len(specs) == 2
    for spec in specs:
        assert spec["env"] == {"A": "1", "RUNPOD_CLOUD_STOP_AFTER": "28800", "RUNPOD_CLOUD_TERMINATE_AFTER": "86400",
                               "RUNPOD_CLOUD_IDLE_STOP_AFTER": "1800", "RUNPOD_CLOUD_IDLE_BELOW": "5"}
    assert [pod["lease"]["stop_after"] for pod in result["pods"] if pod] == [28800] * len(result["ids"]), result


def test_an_env_change_that_names_no_lease_keeps_the_pods(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view(env=dict(LEASED), status="EXITED")])
    result = run(backend, capsys, monkeypatch, name="web", env={"A": "2"})
    assert result["updated_fields"] == ["env"]
    (update,) = [call for call in backend.calls if call[0] == "update_pod"]
    assert update[2]["env"] == {"A": "2", "PUBLIC_KEY": "ssh-ed25519 AAAA k", "RUNPOD_CLOUD_STOP_AFTER": "3600"}


def test_a_changed_lease_of_a_stopped_pod_keeps_the_rest_of_the_env(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view(env=dict(LEASED), status="EXITED")])
    result = run(backend, capsys, monkeypatch, name="web", terminate_after="2h")
    assert result["changed"] is True and result["pod"]["lease"]["terminate_after"] == 7200
    (update,) = [call for call in backend.calls if call[0] == "update_pod"]
    assert update[2]["env"] == {"A": "1", "PUBLIC_KEY": "ssh-ed25519 AAAA k", "RUNPOD_CLOUD_TERMINATE_AFTER": "7200"}


def test_a_changed_lease_of_a_running_pod_is_shown_in_check_mode_and_refused_when_applied(capsys, monkeypatch):
    backend = FakeBackend(pods=[pod_view(env=dict(LEASED))])
    checked = run(backend, capsys, monkeypatch, check_mode=True, diff=True, name="web", stop_after="2h")
    assert checked["changed"] is True and checked["updated_fields"] == ["env"]
    assert checked["diff"]["after"]["env"]["RUNPOD_CLOUD_STOP_AFTER"] == "7200"
    assert "lease of running pod pod-1 (stop_after 3600) -> (stop_after 7200) would restart its container" in \
        json.dumps(checked["warnings"])
    refused = run(backend, capsys, monkeypatch, name="web", stop_after="2h")
    assert refused["failed"] is True and refused["code"] == "bad_request" and refused["changed"] is False
    assert "Set state: restarted to apply it with that restart" in refused["msg"]
    assert backend.mutations() == []
    applied = run(backend, capsys, monkeypatch, name="web", stop_after="2h", state="restarted")
    assert applied["changed"] is True and applied["pod"]["lease"]["stop_after"] == 7200
    assert run(backend, capsys, monkeypatch, name="web", stop_after="2h")["changed"] is False  # same lease: nothing


def pods_for_filters():
    created = "2026-01-01T00:00:00Z"
    busy = {"gpus": [{"util": 90}]}
    return [
        pod_view("p-expired", name="a", created_at=created, env={"RUNPOD_CLOUD_STOP_AFTER": "60"},
                 utilization={"gpus": [{"util": 0}]}),
        pod_view("p-later", name="b", created_at="2999-01-01T00:00:00Z", env={"RUNPOD_CLOUD_STOP_AFTER": "60"},
                 utilization=busy),
        pod_view("p-free", name="c", created_at=created, env={}, utilization={"gpus": [{"util": 1}]}),
        pod_view("p-idle", name="d", created_at=created, utilization={"gpus": [{"util": 40}]},
                 env={"RUNPOD_CLOUD_IDLE_STOP_AFTER": "60", "RUNPOD_CLOUD_IDLE_BELOW": "50"}),
    ]


@pytest.mark.parametrize("args, ids", [
    ({"lease_expired": True}, ["p-expired"]),
    ({"lease_expired": False}, ["p-later", "p-idle"]),  # a pod without a lease is in neither
    ({"idle": True}, ["p-expired", "p-free", "p-idle"]),  # 40 % is below p-idle's own idle_below of 50
    ({"idle": False}, ["p-later"]),
])
def test_pod_info_filters_by_lease_and_idleness(capsys, monkeypatch, args, ids):
    result = run_module(pod_info_module, FakeBackend(pods=pods_for_filters()), capsys, monkeypatch, **args)
    assert [pod["id"] for pod in result["pods"]] == ids
