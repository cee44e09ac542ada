"""What the modules do with logs (``_module/log_report.py``) and the action plugin's part (unsafe, secrets), over
httpx.MockTransport with a FakeClock: failure blocks and messages, the worker chosen, the live line's rate limit."""

from __future__ import annotations

import json
import random
import threading
from types import SimpleNamespace

import httpx
import pytest
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar
from ansible.utils.unsafe_proxy import wrap_var
from helpers.fakes import FakeClock, full_backend

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report as _logs
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import Worker, WorkerSummary
from ansible_collections.runpod.cloud.plugins.plugin_utils._wait_action import task_secrets, unsafe_logs

KEY = "rk-unit-api-key-777"
SECRET = "env-secret-value"


def _sse(*events):
    text = "".join(f"id: {ts}\ndata: {json.dumps({'ts': ts, 'source': source, 'line': line})}\n\n"
                   for ts, source, line in events)
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter([text.encode()]))


def _owner(handler, clock=None, **params):
    backend = full_backend({"api_key": KEY, "api_url": "https://rest.example.test/v2"},
                           transport=httpx.MockTransport(handler), clock=clock or FakeClock(), rng=random.Random(1))
    module = SimpleNamespace(params={"api_key": KEY, "env": {"HF_TOKEN": SECRET}, **params}, no_log_values=set())
    # As after the wait's first poll: an answer has said what the quota is (the live line waits for one).
    backend.client.requests_made = 1
    shown = []
    return SimpleNamespace(module=module, params=module.params, no_log_values=module.no_log_values, backend=backend,
                           progress=shown.append, shown=shown)


def _timeout():
    return WaitError("wait_timeout", "ssh on 2 pods", "timed out")


def test_a_batch_failure_puts_each_pods_lines_in_not_ready_and_quotes_them():
    def handler(request):
        pod = request.url.path.split("/")[3]
        if pod == "p2":
            return httpx.Response(404, json={"detail": "pod not found"})
        if request.url.params["source"] == "system":
            return _sse(("t1", "system", "start container"))
        return _sse(("t2", "container", f"echo {SECRET}"), ("t3", "container", "ImportError: no torch"))

    extra = {"not_ready": [{"id": "p1", "name": "a", "state": "x"}, {"id": "p2", "name": "b", "state": "y"}]}
    suffix = _logs.batch_failure_logs(_owner(handler), SimpleNamespace(failed=[]))(_timeout(), extra)
    first, second = extra["not_ready"]
    assert first["logs"]["container"] == [
        {"ts": "t2", "line": "echo ********"}, {"ts": "t3", "line": "ImportError: no torch"}]
    assert first["logs"]["system"] == [{"ts": "t1", "line": "start container"}]
    assert second["logs"]["unavailable"] == "pod not found (not_found)"
    assert suffix == (' Logs: p1 last container line: "ImportError: no torch" (t3); '
                      "p2 logs unavailable: pod not found (not_found).")


def test_a_key_refused_reads_no_logs_and_a_broken_backend_is_only_a_reason():
    calls = []
    owner = _owner(lambda request: calls.append(request) or httpx.Response(500))
    extra = {}
    suffix = _logs.pod_failure_logs(owner, "p1")(WaitError("unauthorized", "x", "refused"), extra)
    assert calls == [] and extra["logs"]["unavailable"] == "not read: the wait failed with unauthorized"
    assert suffix == "; logs unavailable: not read: the wait failed with unauthorized"
    owner.backend = object()  # a backend without a client (no logs to read)
    extra = {}
    _logs.pod_failure_logs(owner, "p1")(_timeout(), extra)
    assert extra["logs"]["unavailable"] == "reading the logs failed (AttributeError)"


def test_the_failing_worker_is_the_newest_unhealthy_one_on_the_current_release():
    def worker(worker_id, status, started, stale=False):
        return Worker(id=worker_id, status=status, is_stale=stale, started_at=started)

    workers = WorkerSummary(workers=[
        worker("old", "UNHEALTHY", "2026-06-01T12:00:09Z", stale=True),
        worker("init", "INITIALIZING", "2026-06-01T12:00:08Z"),
        worker("sick1", "UNHEALTHY", "2026-06-01T12:00:01Z"),
        worker("sick2", "UNHEALTHY", "2026-06-01T12:00:05Z"),
        worker("fine", "IDLE", "2026-06-01T12:00:10Z"),
    ])
    assert _logs.failing_worker(workers).id == "sick2"
    assert _logs.failing_worker(WorkerSummary(workers=[worker("init", "INITIALIZING", None)])).id == "init"
    assert _logs.failing_worker(WorkerSummary(workers=[worker("fine", "IDLE", None)])) is None


def test_the_live_line_is_read_at_most_every_five_seconds_and_shown_when_it_changes():
    clock = FakeClock()
    lines = iter(["pulling", "pulling", "extracting", "extracting", "pulling"])
    requests = []

    def handler(request):
        requests.append(request)
        assert request.url.params["source"] == "system" and request.url.params["tail"] == "1"
        return _sse(("t", "system", next(lines)))

    owner = _owner(handler, clock)
    live = _logs.LiveSystemLines(owner, lambda: {"p1": "pod web (p1)"}, interval=0.1, clock=clock, background=False)
    for step in (0, 1, 3.9, 0.2, 5, 5, 5):  # at 0, 1, 4.9, 5.1, 10.1, 15.1, 20.1: reads at 0, 5.1, 10.1, 15.1, 20.1
        clock.current += step
        live()
    assert len(requests) == 5
    assert owner.shown == ["pod web (p1) [system] pulling", "pod web (p1) [system] extracting",
                           "pod web (p1) [system] pulling"]


def test_the_controller_marks_log_lines_unsafe_and_passes_the_tasks_secrets():
    result = {"msg": "m", "logs": {"container": [{"ts": "t", "line": "{{ lookup('pipe', 'id') }}"}]},
              "not_ready": [{"id": "p", "logs": {"system": [{"ts": "t", "line": "{{ x }}"}]}}], "pod": {"name": "n"}}
    marked = unsafe_logs(result)
    templar = Templar(loader=DataLoader(), variables={"x": "templated"})
    for line in (marked["logs"]["container"][0]["line"], marked["not_ready"][0]["logs"]["system"][0]["line"]):
        assert templar.template(line) == line  # text, never a template
    assert wrap_var(result["logs"]) == marked["logs"] and marked["pod"] == {"name": "n"} and marked["msg"] == "m"
    assert task_secrets({"env": {"A": "one-secret", "B": 12345, "C": None}, "password": "pw-secret"}) == [
        "one-secret", 12345, "pw-secret"]


def test_info_lines_are_checked_before_any_call():
    failures = []

    def fail(msg, code):
        failures.append((msg, code))
        raise SystemExit

    owner = SimpleNamespace(params={"logs": 5001}, fail=fail)
    with pytest.raises(SystemExit):
        _logs.info_lines(owner)
    assert failures == [("logs must be between 0 and 5000 (lines per source), got 5001", "bad_request")]


def test_the_live_read_runs_beside_the_wait_and_its_line_is_shown_by_the_waits_thread():
    clock = FakeClock()
    release = threading.Event()

    def handler(request):
        release.wait(10)  # the read is slow: the wait's thread must not wait for it
        return _sse(("t", "system", "extracting"))

    owner = _owner(handler, clock)
    live = _logs.LiveSystemLines(owner, lambda: {"p1": "pod web (p1)"}, interval=0.1, clock=clock)
    live()
    assert owner.shown == []  # returned at once, the read still running
    clock.current += 1
    live()  # a read in flight: no second one
    release.set()
    live._thread.join(10)
    assert owner.shown == []  # nothing is printed from the reading thread
    live()
    assert owner.shown == ["pod web (p1) [system] extracting"]


def test_the_live_line_reads_nothing_before_an_answer_said_what_the_quota_is_or_while_it_runs_low():
    calls = []

    def handler(request):
        calls.append(request.url.path)
        return _sse(("t1", "system", "pulling"))

    owner = _owner(handler)
    owner.backend.client.requests_made = 0  # a resumed wait whose first poll is the module's own read
    live = _logs.LiveSystemLines(owner, lambda: {"p1": "pod a (p1)"}, 5, clock=FakeClock(), background=False)
    live()
    assert calls == [] and owner.shown == []
    owner.backend.client.requests_made = 1
    owner.backend.client.quota.settle({"RateLimit-Policy": '"minute";q=60;w=60', "RateLimit": '"minute";r=5;t=30'})
    live.next_at = None
    live()
    assert calls == [], "5 of 60 left this minute: the quota is the wait's, not the live line's"
