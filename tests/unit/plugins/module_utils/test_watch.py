"""The pure watchers of plugins/module_utils/_vocab/watch_events.py: statuses, the event shape and the miss rule."""

from __future__ import annotations

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import watch_events as watch


def members(*statuses):
    return {f"m{index}": {"id": f"m{index}", "runtime_status": status} for index, status in enumerate(statuses)}


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        ((), "initializing"),
        (("running", "running"), "running"),
        (("running", "initializing"), "initializing"),
        (("running", "stopped"), "degraded"),
        (("initializing", "terminated"), "degraded"),
        (("stopped", "terminated"), "stopped"),
        (("terminated", "terminated"), "terminated"),
        (("unknown", "running"), "initializing"),
    ],
)
def test_cluster_status(statuses, expected):
    assert watch.cluster_status(members(*statuses)) == expected


def facts(**counts):
    base = dict.fromkeys(("running", "idle", "initializing", "throttled", "unhealthy", "total", "stale", "serving"), 0)
    base.update(counts)
    return base


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({}, ("no_workers", None)),
        ({"total": 2, "serving": 1, "unhealthy": 1}, ("ready", None)),
        ({"total": 1, "unhealthy": 1}, ("unhealthy", None)),
        ({"total": 2, "stale": 1, "idle": 1}, ("initializing", "rollout")),
        ({"total": 1, "initializing": 1}, ("initializing", None)),
    ],
)
def test_endpoint_status(counts, expected):
    assert watch.endpoint_status(facts(**counts)) == expected


def record(resource_id, status):
    return {"id": resource_id, "name": f"n-{resource_id}", "runtime_status": status, "reason": None, "resource": {}}


def test_event_shape_names_every_documented_key():
    body = watch.event("pod", record("p1", "stopped"), "status_changed", "T", from_="running", to="stopped")["runpod"]
    assert list(body) == ["kind", "id", "name", "event", "from", "to", "runtime_status", "reason", "at", "resource"]
    assert (body["from"], body["to"]) == ("running", "stopped")


def test_absence_needs_two_successful_reads_in_a_row():
    watcher = watch.PodWatcher()
    watcher.observe([record("p1", "running")], "T")
    for _round in range(3):
        assert watcher.observe([], "T") == []
        watcher.read_failed()
    assert watcher.observe([], "T") == []
    assert [item["runpod"]["event"] for item in watcher.observe([], "T")] == ["gone"]


def test_a_pod_that_comes_back_before_its_second_miss_is_not_created_again():
    watcher = watch.PodWatcher()
    watcher.observe([record("p1", "running")], "T")
    assert watcher.observe([], "T") == []
    assert watcher.observe([record("p1", "running")], "T") == []
    assert watcher.observe([], "T") == []  # the run of misses started over


def test_ready_only_once_and_only_while_running():
    watcher = watch.PodWatcher()
    watcher.observe([record("p1", "initializing")], "T")
    running = record("p1", "running")
    running["resource"] = {"ssh": {"host": "45.23.12.1", "port": 4022}}
    watcher.observe([running], "T")
    assert watcher.awaiting_ssh() == {"p1": ("45.23.12.1", 4022)}
    watcher.observe([record("p1", "stopped")], "T")
    assert watcher.awaiting_ssh() == {} and watcher.ssh_answered("p1", "T") == []
    watcher.observe([running], "T")
    assert [item["runpod"]["event"] for item in watcher.ssh_answered("p1", "T")] == ["ready"]
    assert watcher.ssh_answered("p1", "T") == [] and watcher.awaiting_ssh() == {}
