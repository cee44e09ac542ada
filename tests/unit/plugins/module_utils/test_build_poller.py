# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``wait_for: build`` (docs/dev/wait-and-status.md, section 5.1): the newest build ends, then a worker on its release
is ready by the endpoint poller's rule; a failed build ends the wait at once, typed, with its error."""

from __future__ import annotations

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.build_poller import BuildPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import until
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import (
    Build,
    Health,
    Worker,
    WorkerSummary,
)


def build(status, **fields):
    return Build(id=fields.pop("id", "build_1"), status=status, commit="abc1234", branch="main", **fields)


def workers(version, *states, stale=()):
    listed = [Worker(id=f"w{i}", status=state, version=version) for i, state in enumerate(states)]
    listed += [Worker(id=f"old{i}", status=state, is_stale=True, version=version - 1) for i, state in enumerate(stale)]
    return WorkerSummary(workers=listed, endpoint_version=version)


class Endpoints:
    """Answers in order (the last one repeats); an exception answer is raised. Records every call."""

    def __init__(self, builds, releases=(3,), health=None, workers_=None):
        self.answers = {"builds": list(builds), "release": list(releases), "health": list(health or [Health()]),
                        "workers": list(workers_ or [WorkerSummary()])}
        self.calls = []

    def next(self, kind):
        queue = self.answers[kind]
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    def builds(self, endpoint_id, latest=1, attempts=None):
        self.calls.append(("builds", latest, attempts))
        return self.next("builds")

    def build_release(self, endpoint_id, build_id, attempts=None):
        self.calls.append(("release", build_id))
        return self.next("release")

    def health(self, endpoint_id, attempts=1):
        self.calls.append(("health",))
        return self.next("health")

    def workers(self, endpoint_id, attempts=None):
        self.calls.append(("workers",))
        return self.next("workers")


class Backend:
    def __init__(self, endpoints):
        self.endpoints = endpoints


def test_live_states_are_not_ready_and_read_only_the_newest_build():
    endpoints = Endpoints([[build("PENDING")], [build("BUILDING")], [build("TESTING")]])
    poller = BuildPoller(Backend(endpoints), "ep-1")
    details = [poller.poll() for _read in range(3)]
    assert [result.ready for result in details] == [False] * 3
    assert details[1].detail == "build build_1 BUILDING (commit abc1234 on main)"
    assert endpoints.calls == [("builds", 1, 1)] * 3  # one read a poll, one attempt: no health read yet


def test_no_build_yet_is_not_ready():
    result = BuildPoller(Backend(Endpoints([[]])), "ep-1").poll()
    assert (result.ready, result.detail) == (False, "endpoint ep-1 has no build yet")


@pytest.mark.parametrize("status", ["FAILED", "TEST_FAILED", "CANCELLED"])
def test_a_failed_build_ends_the_wait_at_once_with_its_error(status, fake_clock):
    endpoints = Endpoints([[build("BUILDING")], [build(status, error="pip install failed: no torch")]])
    poller = BuildPoller(Backend(endpoints), "ep-1")
    with pytest.raises(WaitError) as raised:
        until(poller, label="the build", timeout=600, interval=5, clock=fake_clock)
    assert raised.value.code == "build_failed" and raised.value.polls == 2  # at once, not at the deadline
    assert f"build build_1 {status} (commit abc1234 on main): pip install failed: no torch" in str(raised.value)
    assert poller.last_build.error == "pip install failed: no torch"
    assert ("health",) not in endpoints.calls


def test_a_failed_build_without_an_error_says_so():
    poller = BuildPoller(Backend(Endpoints([[build("CANCELLED")]])), "ep-1")
    with pytest.raises(Exception, match="RunPod gave no error"):
        poller.poll()


def test_completed_waits_for_its_release_then_a_worker_on_it(fake_clock):
    endpoints = Endpoints(
        [[build("COMPLETED")]],
        releases=[None, 4],  # the release shows up on the second look
        workers_=[workers(3, "IDLE"), workers(4, "INITIALIZING", stale=["IDLE"]), workers(4, "IDLE")],
    )
    poller = BuildPoller(Backend(endpoints), "ep-1")
    first = poller.poll()
    assert not first.ready and first.detail.endswith("its release is not listed yet")
    second = poller.poll()  # an IDLE worker, but on v3: the build's release is v4
    assert not second.ready and "the workers are on v3, not yet on the build's release" in second.detail
    third = poller.poll()  # v4 rolling out: the stale v3 worker does not count (the endpoint poller's rule)
    assert not third.ready and third.imminent
    fourth = poller.poll()
    assert fourth.ready and fourth.value["ready_signal"] == "worker_idle" and fourth.value["version"] == 4
    assert endpoints.calls.count(("release", "build_1")) == 2  # looked up until found, then not again


def test_a_newer_build_during_the_wait_is_the_one_waited_for():
    endpoints = Endpoints([[build("COMPLETED")], [build("PENDING", id="build_2")], [build("COMPLETED", id="build_2")]],
                          releases=[3, 5], workers_=[workers(3, "INITIALIZING"), workers(5, "IDLE")])
    poller = BuildPoller(Backend(endpoints), "ep-1")
    assert not poller.poll().ready
    assert poller.poll().detail == "build build_2 PENDING (commit abc1234 on main)"
    assert poller.poll().ready and poller.release_version == 5
    assert ("release", "build_2") in endpoints.calls


def test_an_endpoint_deleted_during_the_wait_is_not_found(fake_clock):
    gone = RunPodError("not_found", 404, "endpoint not found")
    endpoints = Endpoints([[build("BUILDING")], gone])
    with pytest.raises(WaitError) as raised:
        until(BuildPoller(Backend(endpoints), "ep-1"), label="the build", timeout=600, interval=5, clock=fake_clock)
    assert raised.value.code == "not_found" and raised.value.polls == 3  # seen, then two misses in a row
