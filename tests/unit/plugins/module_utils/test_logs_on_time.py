"""Failures on time (issue 45; docs/dev/logs.md, "Which logs a failure reads"): a failed wait reads the logs of the
pods that explain it, concurrently, in at most a second of the fake clock, and never waits for the quota past that;
over httpx.MockTransport, nothing sleeps."""

from __future__ import annotations

import json
import random
import threading
from types import SimpleNamespace

import httpx
import pytest
from helpers.fakes import FakeClock, full_backend

from ansible_collections.runpod.cloud.plugins.module_utils._api.sse import read_log_stream
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report as _logs
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import Worker, WorkerSummary
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.log_lines import Masker

KEY = "rk-unit-api-key-4545"


def _event(index, source="container", line=None):
    payload = {"ts": f"2026-06-01T12:{index // 60 % 60:02d}:{index % 60:02d}Z", "source": source,
               "line": line or f"{source} {index}"}
    return f"id: {payload['ts']}\ndata: {json.dumps(payload)}\n\n".encode()


class Chatty:
    """Every log stream sends an event every ``step`` seconds of the fake clock and never ends; records the paths.
    With ``parties``, no stream starts talking before that many were opened (the reads are concurrent, and they
    share the fake clock: one must not spend the budget before the others began)."""

    def __init__(self, clock, step=0.02, parties=1):
        self.clock, self.step, self.paths, self.requests = clock, step, [], []
        self.opened = threading.Barrier(parties, timeout=10)

    def __call__(self, request):
        self.paths.append(request.url.path)
        self.requests.append(request)
        source = request.url.params["source"]
        self.opened.wait()

        def body():
            index = 0
            while True:
                index += 1
                self.clock.current += self.step
                yield _event(index, source)

        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())


def _owner(handler, clock):
    backend = full_backend({"api_key": KEY, "api_url": "https://rest.example.test/v2"},
                           transport=httpx.MockTransport(handler), clock=clock, rng=random.Random(1))
    params = {"api_key": KEY}
    return SimpleNamespace(params=params, no_log_values=set(), backend=backend)


def _failure(code):
    return WaitError(code, "ssh on 5 pods", "the wait failed")


def _entries(*ids):
    return {"not_ready": [{"id": pod_id, "name": "", "state": "pod status starting"} for pod_id in ids]}


def test_a_failed_pod_waits_logs_end_within_a_second_however_long_the_stream_talks():
    clock = FakeClock()
    handler = Chatty(clock, parties=2)
    extra = {}
    suffix = _logs.pod_failure_logs(_owner(handler, clock), "p1")(_failure("wait_timeout"), extra)
    # Both sources, concurrently, cut by the failure's budget: under a second (the old 5 s budget, or a reader that
    # waits for the stream to go quiet, would hold the task).
    assert clock.elapsed <= _logs.FAILURE_BUDGET + 2 * handler.step < 1.0
    assert sorted(request.url.params["source"] for request in handler.requests) == ["container", "system"]
    assert extra["logs"]["container"] and extra["logs"]["unavailable"] is None
    assert suffix.startswith('; last container line: "container ')


def test_the_answer_may_take_the_whole_budget_and_the_quiet_rule_starts_after_it():
    clock = FakeClock()
    seen = {}

    def handler(request):
        seen["before"] = dict(request.extensions["timeout"])
        seen["request"] = request
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter([_event(1)]))

    backend = full_backend({"api_key": KEY, "api_url": "https://rest.example.test/v2"},
                           transport=httpx.MockTransport(handler), clock=clock, rng=random.Random(1))
    block = read_log_stream(backend.client, "pods/p1/logs", tail=5, deadline=clock.now() + 0.7, clock=clock,
                            mask=Masker([KEY]), source="container", quiet=0.3)
    assert block["container"][0]["line"] == "container 1"
    # A slow answer is not a quiet stream: the headers may take the read's whole budget ...
    assert seen["before"]["read"] == seen["before"]["connect"] == pytest.approx(0.7)
    # ... and once they came, each read of the body waits at most the quiet (what httpcore reads for the body).
    assert seen["request"].extensions["timeout"]["read"] == pytest.approx(0.3)


def test_a_spent_quota_window_is_not_waited_for_past_the_reads_budget():
    clock = FakeClock()
    handler = Chatty(clock)
    owner = _owner(handler, clock)
    owner.backend.client.quota.settle({"RateLimit-Policy": '"minute";q=60;w=60', "RateLimit": '"minute";r=0;t=30'})
    extra = {}
    _logs.pod_failure_logs(owner, "p1")(_failure("conflict"), extra)
    # The window resets in 30 s: the read gives up at once instead of holding the task for it.
    assert handler.paths == [] and clock.elapsed < 1.0
    assert "rate_limited" in extra["logs"]["unavailable"]


def test_a_batch_failure_reads_only_the_pods_that_failed_it():
    clock = FakeClock()
    handler = Chatty(clock, parties=2)
    extra = _entries("p1", "p2", "p3", "p4", "p5")
    poller = SimpleNamespace(failed=["p3"])  # stopped out of band; the other four are still starting
    suffix = _logs.batch_failure_logs(_owner(handler, clock), poller)(_failure("conflict"), extra)
    assert sorted(handler.paths) == ["/v2/pods/p3/logs", "/v2/pods/p3/logs"]
    assert clock.elapsed < 1.0
    logs = {entry["id"]: entry["logs"] for entry in extra["not_ready"]}
    assert logs["p3"]["unavailable"] is None and logs["p3"]["container"]
    for pod_id in ("p1", "p2", "p4", "p5"):
        assert logs[pod_id] == {"container": [], "system": [],
                                "unavailable": "not read: this pod did not fail the wait"}
    assert suffix.startswith(' Logs: p3 last container line: "container ') and "p1" not in suffix


def test_a_batch_wait_that_ran_out_of_time_reads_the_first_pods_not_ready_in_one_round():
    clock = FakeClock()
    handler = Chatty(clock, parties=2 * _logs.FAILURE_PODS)
    ids = [f"p{index}" for index in range(1, 8)]
    extra = _entries(*ids)
    suffix = _logs.batch_failure_logs(_owner(handler, clock), SimpleNamespace(failed=[]))(
        _failure("wait_timeout"), extra)
    read = sorted({path.split("/")[3] for path in handler.paths})
    assert read == ids[:_logs.FAILURE_PODS] and len(handler.paths) == 2 * _logs.FAILURE_PODS
    assert clock.elapsed < 1.0
    skipped = [entry["logs"]["unavailable"] for entry in extra["not_ready"][_logs.FAILURE_PODS:]]
    assert skipped == [f"not read: only the first {_logs.FAILURE_PODS} pods not ready are read when the wait ends "
                       "unready"] * (len(ids) - _logs.FAILURE_PODS)
    assert suffix.endswith(f"; and {_logs.FAILURE_PODS - _logs.QUOTED} more (not_ready[].logs).")


def test_a_batch_failure_no_pod_explains_reads_nothing_and_says_so_once():
    clock = FakeClock()
    handler = Chatty(clock)
    extra = _entries("p1", "p2")
    suffix = _logs.batch_failure_logs(_owner(handler, clock), SimpleNamespace(failed=[]))(
        _failure("not_found"), extra)  # the cluster itself was deleted
    assert handler.paths == []
    assert suffix == " Logs: p1 logs unavailable: not read: this pod did not fail the wait."


def test_an_endpoint_failure_picks_its_worker_from_the_waits_last_read_without_reading_the_list_again():
    clock = FakeClock()
    handler = Chatty(clock, parties=2)
    workers = WorkerSummary(workers=[Worker(id="w1", status="UNHEALTHY", is_stale=False, started_at="t")])
    extra = {}
    read_logs = _logs.endpoint_failure_logs(_owner(handler, clock), "e1", lambda: workers)
    suffix = read_logs(_failure("wait_timeout"), extra)
    assert sorted(handler.paths) == ["/v2/serverless/e1/workers/w1/logs"] * 2
    assert extra["logs"]["worker_id"] == "w1" and suffix.startswith("; worker w1 last container line")
    assert clock.elapsed < 1.0
    extra = {}
    _logs.endpoint_failure_logs(_owner(handler, clock), "e1", lambda: None)(_failure("not_found"), extra)
    assert extra["logs"]["unavailable"] == "no worker list was read during the wait"
