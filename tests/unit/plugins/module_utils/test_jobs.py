"""Serverless jobs: the poller on the engine (FakeClock), the input rules, and the runtime calls over
httpx.MockTransport (docs/dev/wait-and-status.md section 7, docs/dev/api-notes.md "Serverless jobs")."""

from __future__ import annotations

import itertools
import json
import random

import httpx
import pytest
from helpers.fakes import FakeClock, full_backend
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.job_inputs import job_request
from ansible_collections.runpod.cloud.plugins.module_utils._backend.jobs import read_job, sync_wait_ms
from ansible_collections.runpod.cloud.plugins.module_utils._engine.job_poller import JobPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import CancelToken, WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import until

SLS = "https://sls.example.test/v2"


def job(status, job_id="job-1", **extra):
    return {"id": job_id, "status": status, "output": None, "error": None, "delay_time": 0, "execution_time": 0,
            "endpoint_id": "ep-1", **extra}


class Statuses:
    """A backend whose ``jobs.status`` replays one scripted answer per read (a job dict or an exception); the last
    one repeats."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.reads = 0
        self.cancels = 0
        self.jobs = self

    def status(self, endpoint_id, job_id, attempts=None):
        assert attempts == 1  # one read per poll: the engine's cadence is the retry
        self.reads += 1
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    def cancel(self, *args):  # pragma: no cover - a wait must never get here
        self.cancels += 1
        raise AssertionError("a wait cancelled the job")


def wait(poller, clock, timeout=60.0, interval=5.0, cancel=None):
    return until(poller, label="job job-1", timeout=timeout, interval=interval, clock=clock, cancel=cancel,
                 probe_interval=None, resource_id="job-1")


# -- the poller on the engine -----------------------------------------------------------------------------------


def test_the_wait_ends_on_the_first_terminal_status_and_returns_the_job():
    backend = Statuses(job("IN_QUEUE"), job("IN_PROGRESS"), job("COMPLETED", output={"ok": 1}))
    outcome = wait(JobPoller(backend, "ep-1", "job-1"), FakeClock())
    assert outcome.value["output"] == {"ok": 1} and backend.reads == 3
    assert [entry["state"] for entry in outcome.history] == ["job job-1 IN_QUEUE", "job job-1 IN_PROGRESS",
                                                             "job job-1 COMPLETED"]


@pytest.mark.parametrize("status", ["FAILED", "CANCELLED", "TIMED_OUT"])
def test_every_terminal_status_ends_the_wait_the_module_decides_what_it_means(status):
    backend = Statuses(job("IN_PROGRESS"), job(status, error="boom"))
    assert wait(JobPoller(backend, "ep-1", "job-1"), FakeClock()).value["status"] == status


def test_a_seed_counts_as_the_first_read():
    backend = Statuses(job("COMPLETED"))
    poller = JobPoller(backend, "ep-1", "job-1", seed=job("IN_PROGRESS"))
    outcome = wait(poller, FakeClock())
    assert outcome.polls == 2 and backend.reads == 1
    done = wait(JobPoller(Statuses(job("FAILED")), "ep-1", "job-1", seed=job("COMPLETED")), FakeClock())
    assert done.value["status"] == "COMPLETED" and done.polls == 1  # a terminal seed needs no read at all


def test_our_deadline_fails_wait_timeout_naming_the_job_and_never_cancels_it():
    backend = Statuses(job("IN_PROGRESS"))
    poller = JobPoller(backend, "ep-1", "job-1")
    with pytest.raises(WaitError) as caught:
        wait(poller, FakeClock(), timeout=30, interval=5)
    assert caught.value.code == "wait_timeout" and caught.value.resource_id == "job-1"
    assert "IN_PROGRESS" in caught.value.last_state and backend.cancels == 0
    assert backend.reads <= 30 / 5 + 3  # the engine's read budget
    assert poller.last["status"] == "IN_PROGRESS"


def test_an_interrupt_ends_the_wait_without_a_cancel():
    token = CancelToken()
    clock = FakeClock(on_sleep=lambda _clock, _seconds: token.cancel("signal SIGINT"))
    backend = Statuses(job("IN_QUEUE"))
    with pytest.raises(WaitError) as caught:
        wait(JobPoller(backend, "ep-1", "job-1"), clock, cancel=token)
    assert caught.value.code == "wait_interrupted" and backend.cancels == 0


def test_fatal_errors_end_the_wait_at_once_transient_ones_are_ridden_out():
    unauthorized = RunPodError("unauthorized", 401, "invalid api key")
    with pytest.raises(WaitError) as caught:
        wait(JobPoller(Statuses(job("IN_QUEUE"), unauthorized), "ep-1", "job-1"), FakeClock())
    assert caught.value.code == "unauthorized" and caught.value.polls == 2
    flaky = Statuses(RunPodError("server_error", 502, "bad gateway"), RunPodError("network_error", None, "reset"),
                     job("COMPLETED"))
    assert wait(JobPoller(flaky, "ep-1", "job-1"), FakeClock()).value["status"] == "COMPLETED"


def test_misses_a_job_never_seen_ends_after_twelve_a_seen_one_after_two():
    missing = RunPodError("not_found", 404, "job not found")
    with pytest.raises(WaitError) as never:
        wait(JobPoller(Statuses(missing), "ep-1", "job-1"), FakeClock(), timeout=600, interval=1)
    assert never.value.code == "not_found" and never.value.polls == 12
    with pytest.raises(WaitError) as gone:
        wait(JobPoller(Statuses(job("IN_QUEUE"), missing), "ep-1", "job-1"), FakeClock(), timeout=600, interval=1)
    assert gone.value.code == "not_found" and gone.value.polls == 3 and "no longer known" in gone.value.message
    once = Statuses(job("IN_QUEUE"), missing, job("COMPLETED"))
    assert wait(JobPoller(once, "ep-1", "job-1"), FakeClock()).value["status"] == "COMPLETED"


def test_a_status_change_makes_the_next_read_come_sooner():
    clock = FakeClock()
    backend = Statuses(job("IN_QUEUE"), job("IN_QUEUE"), job("IN_PROGRESS"), job("IN_PROGRESS"), job("COMPLETED"))
    stamps = []
    poller = JobPoller(backend, "ep-1", "job-1")

    def timed():
        stamps.append(clock.now())
        return poller.poll()

    wait(timed, clock, interval=4)
    gaps = [later - earlier for earlier, later in itertools.pairwise(stamps)]
    assert gaps[2] < gaps[1]  # after IN_QUEUE -> IN_PROGRESS the engine reads sooner (imminent)


# -- input rules --------------------------------------------------------------------------------------------------


def test_a_submit_request_carries_the_policy_in_milliseconds_and_the_webhook():
    request = job_request({"endpoint_id": "ep-1", "input": {"a": 1}, "execution_timeout": "2m", "ttl": 3600,
                           "low_priority": True, "webhook": "https://hooks.example.com/done"})
    assert request["body"] == {"input": {"a": 1}, "webhook": "https://hooks.example.com/done",
                               "policy": {"executionTimeout": 120000, "ttl": 3600000, "lowPriority": True}}
    assert job_request({"endpoint_name": "sdxl", "input": {}})["body"] == {"input": {}}


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"input": {}}, "exactly one of endpoint_id and endpoint_name"),
        ({"endpoint_id": "e", "endpoint_name": "n", "input": {}}, "exactly one"),
        ({"endpoint_name": " sdxl", "input": {}}, "whitespace"),
        ({"endpoint_id": "e", "input": {}, "id": "j"}, "not both"),
        ({"endpoint_id": "e", "state": "cancelled"}, "needs id"),
        ({"endpoint_id": "e"}, "give input"),
        ({"endpoint_id": "e", "input": {}, "execution_timeout": "4s"}, "between 5 seconds and 7 days"),
        ({"endpoint_id": "e", "input": {}, "execution_timeout": "8d"}, "between 5 seconds and 7 days"),
        ({"endpoint_id": "e", "input": {}, "ttl": "9s"}, "between 10 seconds"),
        ({"endpoint_id": "e", "input": {}, "ttl": "soon"}, "invalid ttl"),
        ({"endpoint_id": "e", "input": {}, "webhook": "hooks.example.com"}, "http or https"),
        ({"endpoint_id": "e", "input": {}, "webhook": "https://a:b@hooks.example.com"}, "password"),
        ({"endpoint_id": "e", "input": {"x": float("nan")}}, "plain JSON"),
        ({"endpoint_id": "e", "input": {"x": "y" * (10 * 1024 * 1024)}}, "at most"),
        ({"endpoint_id": "e", "id": "a/b"}, "not a job id"),
        ({"endpoint_id": "e", "id": "j", "ttl": "1h"}, "apply to a new job"),
    ],
)
def test_broken_rules_are_refused_with_one_message(params, needle):
    with pytest.raises(ValueError, match=needle):
        job_request(params)


# -- the runtime calls --------------------------------------------------------------------------------------------


def calls_with(router, **options):
    backend = full_backend({"api_key": "k-test-123456", "serverless_url": SLS, **options},
                           transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))
    return backend.jobs, backend


def test_a_submit_with_a_wait_is_one_runsync_whose_read_timeout_covers_the_wait():
    seen = []

    def router(request):
        seen.append(request)
        return httpx.Response(200, json={"id": "sync-1", "status": "COMPLETED", "delayTime": 12, "executionTime": 340,
                                         "output": [1, 2]})

    calls, _backend = calls_with(router, request_timeout=10)
    answer = calls.submit("ep 1", {"input": {"q": 1}}, wait_ms=sync_wait_ms(5))
    assert answer == {"id": "sync-1", "status": "COMPLETED", "output": [1, 2], "error": None, "delay_time": 12,
                      "execution_time": 340, "endpoint_id": "ep 1"}
    request = seen[0]
    assert request.method == "POST" and request.url.raw_path == b"/v2/ep%201/runsync?wait=5000"
    assert json.loads(request.content) == {"input": {"q": 1}}
    assert request.headers["authorization"] == "Bearer k-test-123456"
    assert request.extensions["timeout"]["read"] == pytest.approx(15.0)


def test_sync_wait_is_clamped_to_the_documented_range():
    assert sync_wait_ms(0.5) is None and sync_wait_ms(1) == 1000 and sync_wait_ms(600) == 90000


@pytest.mark.parametrize("status", [500, 502])
def test_a_submit_is_never_resent_and_a_5xx_may_have_queued_the_job(status):
    seen = []

    def router(request):
        seen.append(request.url.path)
        return httpx.Response(status, json={"error": "upstream"})

    calls, _backend = calls_with(router)
    for wait_ms in (None, 2000):
        with pytest.raises(RunPodError) as caught:
            calls.submit("ep-1", {"input": {}}, wait_ms=wait_ms)
        assert caught.value.maybe_created is True
    assert seen == ["/v2/ep-1/run", "/v2/ep-1/runsync"]


def test_status_and_cancel_paths_and_a_404():
    def router(request):
        if request.url.path.endswith("/status/missing"):
            return httpx.Response(404, json={"error": "job not found"})
        status = "CANCELLED" if "/cancel/" in request.url.path else "IN_QUEUE"
        return httpx.Response(200, json={"id": request.url.path.rsplit("/", 1)[-1], "status": status})

    calls, backend = calls_with(router)
    assert calls.status("ep-1", "j-1", attempts=1)["status"] == "IN_QUEUE"
    assert calls.cancel("ep-1", "j-1")["status"] == "CANCELLED"
    with pytest.raises(RunPodError) as caught:
        calls.status("ep-1", "missing", attempts=1)
    assert caught.value.code == "not_found"
    assert [(method, path) for method, path, _status in backend.client.request_log] == [
        ("GET", f"{SLS}/ep-1/status/j-1"), ("POST", f"{SLS}/ep-1/cancel/j-1"), ("GET", f"{SLS}/ep-1/status/missing")]


@given(st.dictionaries(st.sampled_from(["id", "status", "output", "error", "delayTime", "executionTime", "extra"]),
                       st.none() | st.integers() | st.text() | st.booleans() | st.lists(st.integers(), max_size=3)))
def test_read_job_either_gives_the_view_or_refuses_without_crashing(payload):
    try:
        view = read_job(payload, "ep-1")
    except RunPodError as error:
        assert error.code == "bad_response"
        return
    assert set(view) == {"id", "status", "output", "error", "delay_time", "execution_time", "endpoint_id"}
    assert view["id"] and view["status"] == view["status"].upper()
    assert view["error"] is None or isinstance(view["error"], str)
    assert view["delay_time"] is None or isinstance(view["delay_time"], int)
