"""``poller.counted_read``: the one read of a single resource under the miss rules (docs/dev/wait-and-status.md,
section 3), which the endpoint and job pollers share over the ``MissCounter`` each holds; and the one wait block a
failed and a successful wait share."""

from __future__ import annotations

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine.endpoint_poller import EndpointPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.job_poller import JobPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import (
    MissCounter,
    PollError,
    WaitError,
    WaitOutcome,
)
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import BatchPodPoller, PodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import counted_read


class ApiError(Exception):
    def __init__(self, code, status=None):
        super().__init__(code)
        self.code, self.status, self.message = code, status, code


def _misses():
    return MissCounter("endpoint", "ep-1", never_seen_limit=3, gone_limit=2)


def _raise(error):
    raise error


def test_an_answer_is_returned_and_counts_as_seen():
    misses = _misses()
    assert counted_read(misses, lambda: {"ok": 1}) == (None, {"ok": 1})
    assert misses.ever_seen is True and misses.misses == 0


def test_a_404_is_a_counted_miss_not_an_error_until_the_limit():
    misses = _misses()
    for _attempt in range(2):
        missed, value = counted_read(misses, lambda: _raise(ApiError("not_found", 404)))
        assert value is None and missed.ready is False and missed.detail == "not_found"
    assert misses.ever_seen is False
    with pytest.raises(PollError) as raised:
        counted_read(misses, lambda: _raise(ApiError("not_found", 404)))
    assert raised.value.code == "not_found" and raised.value.fatal is True


def test_a_miss_after_seen_then_gone_ends_the_wait():
    misses = _misses()
    counted_read(misses, lambda: "here")
    missed, _value = counted_read(misses, lambda: _raise(ApiError("not_found", 404)))
    assert "unreadable in the last poll" in missed.detail
    with pytest.raises(PollError, match="no longer known"):
        counted_read(misses, lambda: _raise(ApiError("not_found", 404)))


def test_any_other_failure_is_raised_and_resets_the_run_of_misses():
    misses = _misses()
    counted_read(misses, lambda: _raise(ApiError("not_found", 404)))
    counted_read(misses, lambda: _raise(ApiError("not_found", 404)))
    with pytest.raises(ApiError):
        counted_read(misses, lambda: _raise(ApiError("server_error", 502)))
    assert misses.misses == 0
    # so two more misses do not reach the never-seen limit of 3
    counted_read(misses, lambda: _raise(ApiError("not_found", 404)))
    missed, _value = counted_read(misses, lambda: _raise(ApiError("not_found", 404)))
    assert missed.ready is False


def test_a_fatal_404_is_not_a_miss():
    misses = _misses()
    error = ApiError("unauthorized", 404)
    with pytest.raises(ApiError):
        counted_read(misses, lambda: _raise(error))
    assert misses.misses == 0


@pytest.mark.parametrize("make", [lambda: PodPoller(None, "pod-1"), lambda: EndpointPoller(None, "ep-1"),
                                  lambda: JobPoller(None, "ep-1", "job-1")])
def test_a_poller_of_one_resource_is_lost_once_its_miss_counter_saw_it(make):
    poller = make()
    assert poller.lost() is False
    counted_read(poller.misses, lambda: "here")
    assert poller.lost() is True


def test_a_batch_wait_never_says_lost():
    poller = BatchPodPoller(None, ["a"])
    for counter in poller.misses.values():
        counter.seen()
    assert poller.lost() is False


def test_a_failed_and_a_successful_wait_give_the_same_wait_block():
    failed = WaitError("wait_timeout", "pod p", "timed out", last_state="s", elapsed=3, polls=2, probes=1,
                       history=None, last_states={"p": "s"})
    succeeded = WaitOutcome("v", "s", 3, 2, 1, [], {"p": "s"})
    assert failed.history == [] and failed.as_dict() == {
        "elapsed": 3, "polls": 2, "probes": 1, "history": [], "last_state": "s", "last_states": {"p": "s"}}
    assert succeeded.as_dict() == {**failed.as_dict(), "ready_detail": "s"}
    assert "last_states" not in WaitOutcome.nothing_to_wait_for().as_dict()
