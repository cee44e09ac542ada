# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod with ``count`` (a fleet) without an API: refusals, concurrency, identity, partial failure."""

from __future__ import annotations

import functools
import itertools
import threading

import pytest
from helpers.fakes import GPU, FakeBackend, FakePods, pod_view, run_module

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.modules import pod as pod_module

run = functools.partial(run_module, pod_module)
FLEET = {"name": "fleet", "image": "img:1", "gpu_type_ids": [GPU]}


class FleetPods(FakePods):
    """Creates get distinct ids; ``barrier`` makes every create wait for the others (proof they overlap);
    ``refuse`` maps pod names to the error their create raises."""

    def __init__(self, backend, items=(), reads=None, barrier=None, refuse=None):
        super().__init__(backend, items, reads)
        self.barrier = barrier
        self.refuse = refuse or {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def create(self, spec, shared_read=None):
        self._call("create_pod", spec.model_dump())
        if self.barrier is not None:
            self.barrier.wait(timeout=10)  # sequential creates would break the barrier
        if spec.name in self.refuse:
            raise self.refuse[spec.name]
        with self._lock:
            pod = pod_view(f"new-{next(self._ids)}", name=spec.name, image=spec.image, ports=list(spec.ports))
            self.store[pod.id] = pod
        return pod, None


class FleetBackend(FakeBackend):
    """A FakeBackend whose pods are ``pods_class`` (``FleetPods``)."""

    pods_class = FleetPods

    def __init__(self, *, pods=(), reads=None, barrier=None, refuse=None):
        super().__init__()
        self.pods = self.pods_class(self, pods, reads, barrier=barrier, refuse=refuse)


@pytest.mark.parametrize(
    "args, text",
    [
        (dict(FLEET, count=0), "count must be between 1 and 100, got 0"),
        (dict(FLEET, count=101), "count must be between 1 and 100, got 101"),
        (dict(FLEET, count=2, create_concurrency=0), "create_concurrency must be between 1 and 50"),
        (dict(FLEET, count=2, create_concurrency=51), "create_concurrency must be between 1 and 50"),
        (dict(FLEET, count=2, id="abc"), "cannot be combined with id"),
        (dict(FLEET, name="x" * 189, count=100), "the pod names {name}-K) must be at most"),
    ],
)
def test_fleet_options_are_refused_before_any_backend_exists(capsys, monkeypatch, args, text):
    result = run(None, capsys, monkeypatch, **args)
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert text in result["msg"]


def test_creates_overlap_and_the_result_is_in_index_order(capsys, monkeypatch):
    backend = FleetBackend(barrier=threading.Barrier(4))
    result = run(backend, capsys, monkeypatch, **dict(FLEET, count=4, create_concurrency=4))
    assert result["changed"] is True
    assert [pod["name"] for pod in result["pods"]] == ["fleet-1", "fleet-2", "fleet-3", "fleet-4"]
    assert result["ids"] == [pod["id"] for pod in result["pods"]] and len(set(result["ids"])) == 4
    assert result["actions"] == ["create fleet-1", "create fleet-2", "create fleet-3", "create fleet-4"]
    assert result["pod"] is None
    # One list read found every member by name, one after the creates checked for duplicates; no per-pod reads.
    assert backend.count("list_pods") == 2 and backend.count("find_pods") == 0


def test_existing_pods_are_reused_and_pods_beyond_count_never_touched(capsys, monkeypatch):
    pods = [pod_view("old-1", name="fleet-1"), pod_view("old-3", name="fleet-3"), pod_view("old-9", name="fleet-9")]
    backend = FleetBackend(pods=pods)
    result = run(backend, capsys, monkeypatch, **dict(FLEET, count=3))
    assert result["actions"] == ["create fleet-2"]
    assert result["ids"] == ["old-1", "new-1", "old-3"]
    assert [call[1]["name"] for call in backend.mutations()] == ["fleet-2"]

    again = run(backend, capsys, monkeypatch, **dict(FLEET, count=3))
    assert again["changed"] is False and again["actions"] == []

    gone = run(backend, capsys, monkeypatch, name="fleet", count=3, state="absent", diff=True)
    assert gone["changed"] is True and gone["ids"] == [] and gone["pods"] == [None, None, None]
    assert sorted(call[1] for call in backend.mutations() if call[0] == "delete_pod") == ["new-1", "old-1", "old-3"]
    assert "fleet-9" not in gone["diff"]["before"] and set(gone["diff"]["before"]) == {"fleet-1", "fleet-2", "fleet-3"}


def test_check_mode_plans_every_create_and_calls_nothing(capsys, monkeypatch):
    backend = FleetBackend(pods=[pod_view("old-1", name="fleet-1")])
    result = run(backend, capsys, monkeypatch, check_mode=True, **dict(FLEET, count=3, wait=True, own_sshd=True))
    assert result["changed"] is True
    assert result["actions"] == ["create fleet-2", "create fleet-3"]
    assert result["ids"] == ["old-1"] and result["pods"][1:] == [None, None]
    assert backend.mutations() == [] and "wait" not in result


def test_partial_failure_fails_after_all_settle_keeps_and_names_what_exists(capsys, monkeypatch):
    refused = RunPodError("forbidden", 403, "quota exceeded")
    backend = FleetBackend(barrier=threading.Barrier(3), refuse={"fleet-2": refused})
    result = run(backend, capsys, monkeypatch, **dict(FLEET, count=3, create_concurrency=3, wait=True,
                                                      own_sshd=True))
    assert result["failed"] is True and result["changed"] is True and result["code"] == "forbidden"
    assert result["failures"] == [
        {"name": "fleet-2", "msg": "creating pod 'fleet-2' failed: quota exceeded (forbidden)", "code": "forbidden"}
    ]
    assert len(result["ids"]) == 2 and set(result["ids"]) == set(backend.pods.store)
    assert "1 of 3 pods failed" in result["msg"] and "Nothing was deleted" in result["msg"]
    assert all(pod_id in result["msg"] for pod_id in result["ids"])
    assert backend.count("delete_pod") == 0
    assert "wait" not in result, "a failed fleet does not wait"


def test_an_ambiguous_member_fails_alone(capsys, monkeypatch):
    pods = [pod_view("a", name="fleet-1"), pod_view("b", name="fleet-1")]
    backend = FleetBackend(pods=pods)
    result = run(backend, capsys, monkeypatch, **dict(FLEET, count=2))
    assert result["failed"] is True and result["code"] == "ambiguous"
    assert [failure["name"] for failure in result["failures"]] == ["fleet-1"]
    assert result["actions"] == ["create fleet-2"] and result["ids"] == ["new-1"]


def test_a_name_created_twice_at_the_same_moment_fails_that_member_only(capsys, monkeypatch):
    """Another task created fleet-2 while this one did: the one list read after the creates sees two."""

    class RacingPods(FleetPods):
        def create(self, spec, shared_read=None):
            pod, placement = super().create(spec, shared_read)
            if spec.name == "fleet-2":
                self.store["other"] = pod_view("other", name="fleet-2")
            return pod, placement

    class Racing(FleetBackend):
        pods_class = RacingPods

    backend = Racing()
    result = run(backend, capsys, monkeypatch, **dict(FLEET, count=2))
    assert result["failed"] is True and result["code"] == "ambiguous"
    assert [failure["name"] for failure in result["failures"]] == ["fleet-2"]
    assert len(result["ids"]) == 2 and backend.count("delete_pod") == 0


# --- the fleet's batch wait on the controller (plugins/action/pod.py) ------------------------------------------


def _fleet_reads():
    def booting(index):
        return pod_view(f"old-{index}", name=f"fleet-{index}", status="STARTING", runtime_reported=False)

    def up(index):
        return pod_view(f"old-{index}", name=f"fleet-{index}")

    # The lookup by name, then four polls: fleet-2 comes up first, fleet-1 next, fleet-3 last.
    return [
        [booting(1), booting(2), booting(3)],
        [booting(1), booting(2), booting(3)],
        [booting(1), up(2), booting(3)],
        [up(1), up(2), booting(3)],
        [up(1), up(2), up(3)],
    ]


def test_a_fleet_hands_its_one_batch_wait_to_the_controller_with_the_same_result(capsys, monkeypatch):
    from helpers.fakes import UNIT_API_KEY, FakeClock, install_backend, install_clock

    from ansible_collections.runpod.cloud.plugins.module_utils._module import controller as _controller
    from ansible_collections.runpod.cloud.plugins.module_utils._module import pod_waiter as _waits

    install_clock(monkeypatch, FakeClock())
    args = dict(FLEET, count=3, wait=True, wait_for="running", wait_interval="5s", wait_timeout="2m")
    own = run(FleetBackend(reads=_fleet_reads()), capsys, monkeypatch, **args)
    assert "failed" not in own, own
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    backend = FleetBackend(reads=_fleet_reads())
    handed = run(backend, capsys, monkeypatch, **args)
    handoff = handed[_base.HANDOFF_KEY]
    assert "wait" not in handed and backend.count("list_pods") == 1  # the lookup only: no poll yet
    assert handoff["members"] == [{"name": f"fleet-{i}", "id": f"old-{i}"} for i in (1, 2, 3)]
    assert "api_key" not in handoff["params"] and handoff["params"]["name"] == "fleet"
    install_backend(monkeypatch, backend)
    lines, changes = [], []
    resumed = _controller.resume_wait(_waits.PodWaiter, handed, UNIT_API_KEY, progress=lines.append,
                                      on_transition=changes.append)
    assert resumed == own
    # Each pod's own transitions, named, then the running count each time it changes.
    assert [(entry["subject"], entry["state"]) for entry in changes] == [
        ("pod fleet-1 (old-1)", "pod status starting"),
        ("pod fleet-2 (old-2)", "pod status starting"),
        ("pod fleet-3 (old-3)", "pod status starting"),
        ("pod fleet-2 (old-2)", "pod running"),
        ("pod fleet-1 (old-1)", "pod running"),
        ("pod fleet-3 (old-3)", "pod running"),
    ]
    assert lines == [
        "waiting for running status on 3 pods of fleet 'fleet' (timeout 2m; Ctrl-C keeps the pods, a rerun resumes)",
        "0/3 ready; waiting for fleet-1, fleet-2, fleet-3",
        "1/3 ready; waiting for fleet-1, fleet-3",
        "2/3 ready; waiting for fleet-3",
        "3/3 ready",
        f"running status on 3 pods of fleet 'fleet' ready after {own['wait']['elapsed']}s: all 3 pods ready",
    ]


def test_a_fleet_that_times_out_on_the_controller_fails_as_the_module_would(capsys, monkeypatch):
    from helpers.fakes import UNIT_API_KEY, FakeClock, install_backend, install_clock

    from ansible_collections.runpod.cloud.plugins.module_utils._module import controller as _controller
    from ansible_collections.runpod.cloud.plugins.module_utils._module import pod_waiter as _waits

    install_clock(monkeypatch, FakeClock())
    args = dict(FLEET, count=3, wait=True, wait_for="running", wait_interval="5s", wait_timeout="40s")
    stuck = _fleet_reads()[:3]
    own = run(FleetBackend(reads=stuck), capsys, monkeypatch, **args)
    assert own["failed"] is True and own["code"] == "wait_timeout"
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    backend = FleetBackend(reads=stuck)
    handed = run(backend, capsys, monkeypatch, **args)
    install_backend(monkeypatch, backend)
    lines = []
    resumed = _controller.resume_wait(_waits.PodWaiter, handed, UNIT_API_KEY, progress=lines.append, on_transition=None)
    assert resumed == own
    assert [entry["id"] for entry in resumed["not_ready"]] == ["old-1", "old-3"]
    # The heartbeat (every 15 s) carries the running count, not the long detail.
    heartbeats = [line for line in lines if line.startswith("still waiting")]
    assert heartbeats and all(line.endswith("): 1/3 ready; waiting for fleet-1, fleet-3") for line in heartbeats)


@pytest.mark.parametrize("answer", [{"gpus": []}, RunPodError("server_error", 503, "catalog down")])
def test_the_members_share_one_catalog_read_and_the_backend_is_left_alone(answer):
    from ansible_collections.runpod.cloud.plugins.module_utils._module.fleet import SharedCatalog

    gpus = FakeBackend(catalog=[answer, {"gpus": ["second"]}]).gpus
    own_read = gpus.catalog
    shared = SharedCatalog()
    seen = []
    for _member in range(3):
        try:
            seen.append(shared(lambda: gpus.catalog(attempts=1)))
        except RunPodError as error:
            seen.append(error)
    assert gpus.reads == 1 and seen == [answer] * 3
    # nothing was rebound on the backend: its own read still reads
    assert gpus.catalog == own_read and "catalog" not in vars(gpus)
    assert gpus.catalog() == {"gpus": ["second"]} and gpus.reads == 2


def test_every_member_creates_through_the_tasks_one_backend(capsys, monkeypatch):
    class RecordingPods(FleetPods):
        def create(self, spec, shared_read=None):
            self.backend.creators.append(id(self.backend))  # a per-member copy of the backend would show another id
            return super().create(spec, shared_read)

    class Recording(FleetBackend):
        pods_class = RecordingPods

    backend = Recording()
    backend.creators = []
    result = run(backend, capsys, monkeypatch, **dict(FLEET, count=3))
    assert result["changed"] is True and backend.creators == [id(backend)] * 3
