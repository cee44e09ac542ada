# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod_info without an API: selection, runtime status, and the batch wait on a fake clock."""

from __future__ import annotations

import functools

import pytest
from helpers.fakes import FakeBackend, FakeClock, install_clock, pod_view, run_module

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import V1_RETIRED
from ansible_collections.runpod.cloud.plugins.module_utils._engine import ssh_probe as _ssh_probe
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.modules import pod_info

DIRECT = {"host": "203.0.113.7", "port": 10341}


@pytest.fixture
def clock(monkeypatch):
    return install_clock(monkeypatch, FakeClock())


run = functools.partial(run_module, pod_info)


def booting(pod_id, name, **fields):
    return pod_view(pod_id, name=name, status="STARTING", runtime_reported=False, **fields)


def running(pod_id, name, **fields):
    return pod_view(pod_id, name=name, **fields)


# -- selection -----------------------------------------------------------------------------------------------


def test_no_selector_lists_every_pod_with_one_read(capsys, monkeypatch):
    backend = FakeBackend(pods=[running("a", "web"), booting("b", "train")])
    result = run(backend, capsys, monkeypatch)
    assert result["changed"] is False and result["missing"] == []
    assert [pod["id"] for pod in result["pods"]] == ["a", "b"]
    assert backend.calls == [("list_pods", None)]


def test_ids_and_names_select_and_report_what_matched_nothing(capsys, monkeypatch):
    backend = FakeBackend(pods=[running("a", "web"), running("b", "train"), running("c", "web-2")])
    by_ids = run(backend, capsys, monkeypatch, ids=["c", "a", "a"])
    assert sorted(pod["id"] for pod in by_ids["pods"]) == ["a", "c"] and by_ids["missing"] == []
    by_names = run(backend, capsys, monkeypatch, names=["train", "nobody"])
    assert [pod["id"] for pod in by_names["pods"]] == ["b"]
    assert by_names["missing"] == ["nobody"]
    # Names match exactly, never as a prefix.
    assert [pod["id"] for pod in run(backend, capsys, monkeypatch, name="web")["pods"]] == ["a"]


def test_an_unlisted_id_is_read_once_by_id_and_an_unknown_one_is_missing(capsys, monkeypatch):
    backend = FakeBackend(pods=[running("a", "web")])
    gone = pod_view("t", name="old", status="TERMINATED", runtime_reported=False)
    # REST v2 drops terminated pods from its list, but reads them by id.
    backend.pods.reads = [[running("a", "web")]]
    backend.pods.store["t"] = gone
    result = run(backend, capsys, monkeypatch, ids=["a", "t", "zzz"])
    assert [(pod["id"], pod["runtime_status"]) for pod in result["pods"]] == [("a", "running"), ("t", "terminated")]
    assert result["missing"] == ["zzz"]
    assert [call[0] for call in backend.calls] == ["list_pods", "get_pod", "get_pod"]


def test_runtime_status_filter_keeps_only_the_asked_states(capsys, monkeypatch):
    stopped = pod_view("s", name="idle", status="EXITED", runtime_reported=False)
    backend = FakeBackend(pods=[running("a", "web"), booting("b", "train"), stopped])
    result = run(backend, capsys, monkeypatch, runtime_status=["stopped", "initializing"])
    assert sorted(pod["id"] for pod in result["pods"]) == ["b", "s"]


def test_empty_id_is_refused_before_any_api_client_exists(capsys, monkeypatch):
    result = run(None, capsys, monkeypatch, ids=["a", " "])
    assert result["failed"] is True and result["code"] == "bad_request"
    assert "must not be empty" in result["msg"]


@pytest.mark.parametrize("version", ["v1", "V1 ", "v3"])
def test_any_api_version_but_v2_fails_with_the_retirement_message_before_any_call(capsys, monkeypatch, version):
    backend = FakeBackend(pods=[running("a", "web")])
    result = run(backend, capsys, monkeypatch, api_version=version)
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert "RunPod retired REST v1 on 2026-11-15" in result["msg"] and V1_RETIRED in result["msg"]
    assert backend.calls == []
    assert [pod["id"] for pod in run(backend, capsys, monkeypatch, api_version="v2")["pods"]] == ["a"]


def test_a_failed_read_without_wait_fails_with_the_api_code(capsys, monkeypatch):
    backend = FakeBackend()
    backend.errors["list_pods"] = RunPodError("forbidden", 403, "access denied")
    result = run(backend, capsys, monkeypatch)
    assert result["failed"] is True and result["code"] == "forbidden" and result["status"] == 403
    assert result["msg"] == "Could not list pods: access denied (forbidden)"


# -- runtime status ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"status": "RUNNING", "runtime_reported": True, "uptime_seconds": 42}, ("running", None, 42)),
        ({"status": "PROVISIONING", "runtime_reported": False}, ("initializing", "provisioning", None)),
        ({"status": "STARTING", "runtime_reported": False}, ("initializing", "starting_container", None)),
        ({"status": "EXITED", "runtime_reported": False, "uptime_seconds": 42}, ("stopped", None, None)),
        ({"status": "RUNNING", "runtime_reported": False}, ("initializing", "awaiting_container", None)),
        ({"status": "ERROR", "runtime_reported": False}, ("stopped", "container_error", None)),
        ({"status": "TERMINATED", "runtime_reported": False}, ("terminated", None, None)),
        ({"status": "SOMETHING_NEW", "runtime_reported": True, "uptime_seconds": 42}, ("unknown", None, None)),
    ],
)
def test_each_pod_carries_its_derived_runtime_status(capsys, monkeypatch, fields, expected):
    backend = FakeBackend(pods=[pod_view("p", **fields)])
    (pod,) = run(backend, capsys, monkeypatch, id="p")["pods"]
    assert (pod["runtime_status"], pod["runtime_status_reason"], pod["uptime_seconds"]) == expected


def test_ssh_address_or_the_reason_there_is_none(capsys, monkeypatch):
    backend = FakeBackend(pods=[running("a", "web", ssh_direct=DIRECT), booting("b", "train")])
    pods = {pod["id"]: pod for pod in run(backend, capsys, monkeypatch)["pods"]}
    assert pods["a"]["ssh"]["host"] == "203.0.113.7" and pods["a"]["ssh"]["port"] == 10341
    assert pods["a"]["ssh_not_ready"] is None
    assert pods["b"]["ssh"] is None and pods["b"]["ssh_not_ready"]


# -- batch wait ----------------------------------------------------------------------------------------------


def test_batch_wait_succeeds_when_the_last_pod_runs(capsys, monkeypatch, clock):
    backend = FakeBackend(reads=[
        [booting("a", "web"), booting("b", "train")],
        [running("a", "web"), booting("b", "train")],
        [running("a", "web"), running("b", "train")],
    ])
    result = run(backend, capsys, monkeypatch, ids=["a", "b"], wait=True, wait_for="running", wait_interval="5s",
                 wait_timeout="10m")
    assert "failed" not in result, result
    assert [pod["runtime_status"] for pod in result["pods"]] == ["running", "running"]
    assert result["wait"]["polls"] == 3 and result["wait"]["history"][-1]["state"] == "all 2 pods ready"
    # The selection read is the wait's first poll: three reads in all, at most an interval apart (booting
    # pods are read sooner, see the read cadence in docs/dev/wait-and-status.md).
    assert backend.count("list_pods") == 3 and 0 < clock.elapsed <= 10
    assert backend.mutations() == []


def test_batch_wait_for_ssh_probes_every_listed_address(capsys, monkeypatch, clock):
    answers = iter([{"a": False}, {"a": True}])

    def probe_many(targets, **kwargs):
        assert targets == {"a": ("203.0.113.7", 10341)}
        answer = next(answers)
        return {key: ProbeResult(answer[key], "ssh reachable" if answer[key] else "refused", "x") for key in targets}

    monkeypatch.setattr(_ssh_probe, "probe_many", probe_many)
    backend = FakeBackend(pods=[running("a", "web", ssh_direct=DIRECT)])
    # host_key_checking off: no ssh-keyscan of the fake address (the batch host key step: test_batch_host_keys.py).
    result = run(backend, capsys, monkeypatch, id="a", wait=True, wait_interval="5s", wait_timeout="1m",
                 host_key_checking="off")
    assert "failed" not in result, result
    assert "host_key_check" not in result["pods"][0]["ssh"]
    assert result["wait"]["probes"] >= 1
    assert backend.count("list_pods") == 1  # the banner came between reads: no second read


def test_batch_wait_timeout_names_every_pod_not_ready_and_deletes_nothing(capsys, monkeypatch, clock):
    backend = FakeBackend(pods=[running("a", "web"), booting("b", "train"), booting("c", "eval")])
    result = run(backend, capsys, monkeypatch, names=["web", "train", "eval"], wait=True, wait_for="running",
                 wait_interval="5s", wait_timeout="30s")
    assert result["failed"] is True and result["code"] == "wait_timeout"
    assert [entry["id"] for entry in result["not_ready"]] == ["b", "c"]
    assert result["msg"].startswith("Timed out after 30s waiting for running status on 3 pods (1 of 3 ready)")
    assert "Nothing was deleted" in result["msg"] and "runpod.cloud.pod_info ids=b,c" in result["msg"]
    # The whole 30 s (less the real milliseconds the first read took), one read per 5 s interval at least and
    # at most 30 s / 5 s + 3 (the read cadence's bank).
    assert clock.elapsed == pytest.approx(30, abs=0.5)
    assert 7 <= result["wait"]["polls"] == backend.count("list_pods") <= 9
    assert backend.mutations() == []


def test_batch_wait_fails_at_once_when_a_pod_stops(capsys, monkeypatch, clock):
    stopped = pod_view("b", name="train", status="EXITED", runtime_reported=False)
    backend = FakeBackend(reads=[[booting("a", "web"), booting("b", "train")], [booting("a", "web"), stopped]])
    result = run(backend, capsys, monkeypatch, ids=["a", "b"], wait=True, wait_for="running", wait_interval="5s",
                 wait_timeout="10m")
    assert result["failed"] is True and result["code"] == "conflict"
    assert "pod b is exited, so the wait cannot succeed (runpod.cloud.pod state=running starts it)" in result["msg"]
    assert backend.count("list_pods") == 2 and 0 < clock.elapsed <= 5
    assert backend.mutations() == []


def test_batch_wait_fails_at_once_on_a_401_but_rides_out_a_503(capsys, monkeypatch, clock):
    backend = FakeBackend(pods=[booting("a", "web")])
    backend.errors["list_pods"] = [RunPodError("server_error", 503, "unavailable"), None,
                                   RunPodError("unauthorized", 401, "bad key")]
    result = run(backend, capsys, monkeypatch, id="a", wait=True, wait_for="running", wait_interval="5s",
                 wait_timeout="10m")
    assert result["failed"] is True and result["code"] == "unauthorized" and result["status"] == 401
    assert backend.count("list_pods") == 3 and 0 < clock.elapsed <= 10
    assert [entry["id"] for entry in result["not_ready"]] == ["a"]


def test_wait_on_a_name_that_matches_nothing_fails_before_waiting(capsys, monkeypatch, clock):
    backend = FakeBackend(pods=[running("a", "web")])
    result = run(backend, capsys, monkeypatch, names=["web", "nobody"], wait=True)
    assert result["failed"] is True and result["code"] == "not_found"
    assert "No pod is named nobody" in result["msg"]
    assert backend.count("list_pods") == 1 and clock.elapsed == 0


def test_check_mode_reads_but_never_waits(capsys, monkeypatch, clock):
    backend = FakeBackend(pods=[booting("a", "web")])
    result = run(backend, capsys, monkeypatch, check_mode=True, id="a", wait=True, wait_for="running")
    assert "failed" not in result and "wait" not in result
    assert backend.count("list_pods") == 1 and clock.elapsed == 0


# -- the batch wait on the controller (plugins/action/pod_info.py) -------------------------------------------


def _resume(backend, handed, monkeypatch):
    from helpers.fakes import UNIT_API_KEY, install_backend

    from ansible_collections.runpod.cloud.plugins.module_utils._module import controller as _controller
    from ansible_collections.runpod.cloud.plugins.module_utils._module import pod_waiter as _pod_waiter

    install_backend(monkeypatch, backend)
    lines, changes = [], []
    resumed = _controller.resume_wait(_pod_waiter.PodsWaiter, handed, UNIT_API_KEY, progress=lines.append,
                                      on_transition=changes.append)
    return resumed, lines, changes


def test_the_batch_wait_is_handed_to_the_controller_and_ends_with_the_same_result(capsys, monkeypatch, clock):
    from helpers.fakes import UNIT_API_KEY

    select = [booting("a", "web"), booting("b", "train")]
    later = [[running("a", "web"), booting("b", "train")], [running("a", "web"), running("b", "train")]]
    args = dict(ids=["a", "b", "c"], wait=True, wait_for="running", wait_interval="5s", wait_timeout="10m")
    # c is not listed (and unknown by id) in the selection read, then listed: a pod created a moment ago.
    c = running("c", "eval")
    own_backend = FakeBackend(reads=[select, select, *later[:1], [*later[1], c]])
    own = run(own_backend, capsys, monkeypatch, **args)
    assert "failed" not in own, own
    assert own["missing"] == [] and [pod["id"] for pod in own["pods"]] == ["a", "b", "c"]
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    backend = FakeBackend(reads=[select, select, *later[:1], [*later[1], c]])
    handed = run(backend, capsys, monkeypatch, **args)
    handoff = handed[_base.HANDOFF_KEY]
    assert "wait" not in handed and handed["missing"] == ["c"]
    assert handoff["pod_ids"] == ["a", "b", "c"] and handoff["names"] == {"a": "web", "b": "train"}
    assert 0 < handoff["timeout"] <= 600 and "api_key" not in handoff["params"]
    resumed, lines, changes = _resume(backend, handed, monkeypatch)
    assert resumed == own
    # The module's selection read crossed in the handoff and was the controller's first poll: no second read.
    assert backend.count("list_pods") == own_backend.count("list_pods") == own["wait"]["polls"] == 4
    assert [(entry["subject"], entry["state"]) for entry in changes] == [
        ("pod web (a)", "pod status starting"),
        ("pod train (b)", "pod status starting"),
        ("pod c", "pod not listed yet"),
        ("pod web (a)", "pod running"),
        ("pod train (b)", "pod running"),
        ("pod eval (c)", "pod running"),
    ]
    assert lines[1:-1] == [
        "0/3 ready; waiting for web, train, c",
        "1/3 ready; waiting for train, c",
        "3/3 ready",
    ]


def test_a_batch_wait_that_fails_on_the_controller_fails_as_the_module_would(capsys, monkeypatch, clock):
    from helpers.fakes import UNIT_API_KEY

    stopped = pod_view("b", name="train", status="EXITED", runtime_reported=False)
    select = [booting("a", "web"), booting("b", "train")]
    args = dict(ids=["a", "b"], wait=True, wait_for="running", wait_interval="5s", wait_timeout="10m")
    own = run(FakeBackend(reads=[select, select, [booting("a", "web"), stopped]]), capsys, monkeypatch, **args)
    assert own["failed"] is True and own["code"] == "conflict"
    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    backend = FakeBackend(reads=[select, select, [booting("a", "web"), stopped]])
    handed = run(backend, capsys, monkeypatch, **args)
    resumed, _lines, _changes = _resume(backend, handed, monkeypatch)
    assert resumed == own


def test_a_wait_with_nothing_to_wait_for_is_never_handed_off(capsys, monkeypatch, clock):
    from helpers.fakes import UNIT_API_KEY

    monkeypatch.setenv(_base.HANDOFF_ENV, _base.key_fingerprint(UNIT_API_KEY))
    result = run(FakeBackend(pods=[running("a", "web")]), capsys, monkeypatch, runtime_status=["stopped"], wait=True)
    assert _base.HANDOFF_KEY not in result and result["wait"]["ready_detail"] == "nothing to wait for"


def test_fake_backend_matches_the_real_interface():
    from helpers.fakes import check_fake_matches_interface, real_backend

    fake, real = FakeBackend(), real_backend()
    for resource in ("pods", "endpoints", "templates", "clusters", "gpus", "account"):
        check_fake_matches_interface(getattr(fake, resource), getattr(real, resource))
