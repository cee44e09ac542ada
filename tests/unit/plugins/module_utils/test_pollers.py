"""Pod, batch and endpoint pollers over a scripted backend (reference §4, §5.1, §6 and §11)."""

from __future__ import annotations

import pytest
from helpers.fakes import FakeBackend

from ansible_collections.runpod.cloud.plugins.module_utils._engine.endpoint_poller import EndpointPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError, WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import (
    BatchLines,
    BatchPodPoller,
    PodPoller,
)
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import until
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import Health, Worker, WorkerSummary
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView, PortMapping, SshAddress


class ApiError(Exception):
    def __init__(self, code, status=None, message=""):
        super().__init__(message or code)
        self.code, self.status, self.message = code, status, message or code


class Backend(FakeBackend):
    """Replays one scripted answer per read (a list of pods or an exception); the last one repeats."""

    def __init__(self, *reads, health=(), workers=()):
        super().__init__(reads=reads or None, health=health, workers=workers)


def pod(pod_id="pod-1", status="RUNNING", runtime=True, ports=("22/tcp",), runtime_ports=(), direct=None, **extra):
    return PodView(id=pod_id, status=status, runtime_reported=runtime,
                   ports=list(ports), runtime_ports=[PortMapping(**p) for p in runtime_ports],
                   ssh_direct=SshAddress(**direct) if direct else None, **extra)


DIRECT = {"host": "1.2.3.4", "port": 51227}
# A runtime port mapping of 22 on a public IP (the fallback when ssh.direct is missing).
PUBLIC_22 = {"private": 22, "public": 51227, "ip": "1.2.3.4", "type": "tcp"}


class Probe:
    """Scripted probe: ``answers`` are bools (ok or refused), the last repeats; calls are recorded."""

    def __init__(self, *answers):
        self.answers = list(answers) or [False]
        self.calls = []

    def __call__(self, host, port, **kwargs):
        self.calls.append((host, port, kwargs))
        ok = self.answers[min(len(self.calls) - 1, len(self.answers) - 1)]
        address = "%s:%s" % (host, port)
        detail = "ssh reachable at %s" % address if ok else "dial tcp %s: connect: connection refused" % address
        return ProbeResult(ok, detail, address)


# -- PodPoller -----------------------------------------------------------------------------------


def test_not_listed_yet_then_lag_before_first_sighting():
    poller = PodPoller(Backend([], [], [pod(direct=DIRECT)]), "pod-1", probe=Probe(True))
    assert poller.poll().detail == "pod not listed yet"
    assert poller.poll().detail == "pod not listed yet"
    result = poller.poll()
    assert result.ready and result.value["ssh"]["port"] == 51227


def test_status_created_is_reported_lowercase():
    poller = PodPoller(Backend([pod(status="CREATED")]), "pod-1", probe=Probe())
    assert poller.poll().detail == "pod status created"


def test_v2_provisioning_and_error_wait_without_conflict():
    poller = PodPoller(Backend([pod(status="PROVISIONING", runtime=False)], [pod(status="ERROR", runtime=False)]),
                       "pod-1", probe=Probe())
    assert poller.poll().detail == "pod status provisioning"
    assert poller.poll().detail == "pod status error"


@pytest.mark.parametrize(
    "candidate",
    [
        pod(),  # RUNNING, 22 declared, nothing mapped (nil ssh.direct, no runtime ports)
        pod(runtime=False),  # nil runtime
        pod(runtime_ports=[{"private": 22, "public": 40022, "ip": "10.0.0.1", "type": "tcp"}]),
        pod(runtime_ports=[{"private": 22, "public": 40022, "ip": "100.65.17.95", "type": "tcp"}]),
    ],
)
def test_no_public_22_is_not_allocated_and_never_probed(candidate):
    probe = Probe(True)
    result = PodPoller(Backend([candidate]), "pod-1", probe=probe).poll()
    assert (result.ready, result.detail) == (False, "ssh port not allocated yet")
    assert probe.calls == []


def test_allocated_but_refused_offers_a_recheck_of_the_same_address():
    probe = Probe(False, True)
    result = PodPoller(Backend([pod(runtime_ports=[PUBLIC_22])]), "pod-1", probe=probe).poll()
    assert not result.ready
    assert result.detail == ("ssh port 1.2.3.4:51227 allocated but not reachable: dial tcp 1.2.3.4:51227: connect: "
                             "connection refused")
    again = result.recheck()
    assert again.ready and again.detail == "ssh reachable at 1.2.3.4:51227"
    assert [call[:2] for call in probe.calls] == [("1.2.3.4", 51227), ("1.2.3.4", 51227)]


def test_reachable_returns_the_address_and_the_pod():
    poller = PodPoller(Backend([pod(direct=DIRECT)]), "pod-1", probe=Probe(True))
    result = poller.poll()
    assert result.ready and result.detail == "ssh reachable at 1.2.3.4:51227"
    assert result.value["ssh"] == {"host": "1.2.3.4", "port": 51227, "user": "root",
                                   "command": "ssh root@1.2.3.4 -p 51227"}
    assert result.value["pod"].id == "pod-1"


def test_right_id_among_several_and_null_entries_skipped():
    listing = [None, pod("pod-0", direct={"host": "9.9.9.9", "port": 1}), None, pod("pod-1", direct=DIRECT)]
    probe = Probe(True)
    assert PodPoller(Backend(listing), "pod-1", probe=probe).poll().ready
    assert probe.calls[0][:2] == ("1.2.3.4", 51227)


@pytest.mark.parametrize("status", ["EXITED", "TERMINATED", "exited", " terminated "])
def test_terminal_status_is_conflict_on_the_first_poll_even_with_a_long_interval(status, fake_clock):
    backend = Backend([pod(status=status)])
    with pytest.raises(WaitError) as info:
        until(PodPoller(backend, "pod-1", probe=Probe()), label="ssh on pod pod-1", timeout=7200, interval=3600,
              clock=fake_clock)
    assert info.value.code == "conflict" and info.value.polls == 1
    # A stopped pod can be started again: the message says how (a fleet rerun with state=present waits on it).
    start = " (runpod.cloud.pod state=running starts it)" if status.strip().upper() == "EXITED" else ""
    assert str(info.value) == ("waiting for ssh on pod pod-1: pod pod-1 is %s, so the wait cannot succeed%s"
                               % (status.strip().lower(), start))
    assert fake_clock.sleeps == []


def test_vanishes_mid_wait_first_miss_ok_second_not_found():
    poller = PodPoller(Backend([pod()], [], []), "pod-1", probe=Probe())
    poller.poll()
    assert poller.poll().detail == "pod not listed in the last read"
    with pytest.raises(PollError) as info:
        poller.poll()
    assert info.value.fatal and info.value.code == "not_found"
    assert "no longer listed" in str(info.value)


def test_miss_then_reappearance_resets():
    poller = PodPoller(Backend([pod()], [], [pod()], [], [pod()]), "pod-1", probe=Probe())
    details = [poller.poll().detail for _ignored in range(5)]
    assert details.count("pod not listed in the last read") == 2


def test_never_listed_is_not_found_on_read_twelve(fake_clock):
    backend = Backend([])
    with pytest.raises(WaitError) as info:
        until(PodPoller(backend, "pod-1", probe=Probe()), label="ssh on pod pod-1", timeout=600, interval=5,
              clock=fake_clock)
    assert info.value.code == "not_found" and info.value.polls == 12
    assert "terminated before it was ever listed" in str(info.value)


def test_empty_read_then_failed_read_then_empty_read_is_not_not_found(fake_clock):
    reads = [[]] * 11 + [ApiError("server_error", 502, "bad gateway")] + [[]] * 11 + [[pod(direct=DIRECT)]]
    poller = PodPoller(Backend(*reads), "pod-1", probe=Probe(True))
    outcome = until(poller, label="x", timeout=600, interval=5, clock=fake_clock)
    assert outcome.polls == 24 and outcome.value["ssh"]["host"] == "1.2.3.4"


def test_list_errors_are_non_fatal_and_reset_misses(fake_clock):
    backend = Backend(ApiError("server_error", 502, "bad gateway"))
    with pytest.raises(WaitError) as info:
        until(PodPoller(backend, "pod-1", probe=Probe()), label="x", timeout=60, interval=5, clock=fake_clock)
    assert info.value.code == "wait_timeout" and info.value.last_state == "bad gateway"


def test_unauthorized_list_is_fatal(fake_clock):
    with pytest.raises(WaitError) as info:
        until(PodPoller(Backend(ApiError("unauthorized", 401)), "pod-1"), label="x", clock=fake_clock)
    assert (info.value.code, info.value.polls) == ("unauthorized", 1)


def test_reads_ask_the_backend_for_a_single_attempt():
    backend = Backend([pod()])
    PodPoller(backend, "pod-1", probe=Probe()).poll()
    assert backend.calls == [("list_pods", 1)]


def test_probe_between_reads_detects_readiness_without_extra_reads(fake_clock):
    probe = Probe(*([False] * 9 + [True]))
    backend = Backend([pod(direct=DIRECT)])
    outcome = until(PodPoller(backend, "pod-1", probe=probe), label="x", timeout=600, interval=5, clock=fake_clock)
    assert backend.calls == [("list_pods", 1)]  # one read; nine probes later the banner answered
    assert outcome.elapsed == 2 and fake_clock.elapsed == pytest.approx(2.25)
    assert outcome.value["ssh"]["port"] == 51227


def test_deadline_is_passed_to_the_probe():
    probe = Probe(False)
    poller = PodPoller(Backend([pod(direct=DIRECT)]), "pod-1", probe=probe)
    poller.deadline = 1234.5
    poller()
    assert probe.calls[0][2] == {"deadline": 1234.5}


def test_wait_for_must_be_known():
    with pytest.raises(ValueError, match="wait_for"):
        PodPoller(Backend([]), "pod-1", wait_for="banner")
    with pytest.raises(ValueError, match="wait_for"):
        BatchPodPoller(Backend([]), ["pod-1"], wait_for="banner")


# -- running-only mode ---------------------------------------------------------------------------


def test_running_mode_states():
    backend = Backend([pod(status="CREATED")], [pod(status="PROVISIONING", runtime=False)], [pod(runtime=False)],
                      [pod(direct=DIRECT)])
    poller = PodPoller(backend, "pod-1", wait_for="running")
    assert poller.poll().detail == "pod status created"
    assert poller.poll().detail == "pod status provisioning"
    assert poller.poll().detail == "pod running, container not up yet"
    result = poller.poll()
    assert result.ready and result.detail == "pod running" and result.value["ssh"]["host"] == "1.2.3.4"


def test_running_mode_exited_is_conflict():
    with pytest.raises(PollError) as info:
        PodPoller(Backend([pod(status="EXITED")]), "pod-1", wait_for="running").poll()
    assert info.value.code == "conflict"


# -- BatchPodPoller ------------------------------------------------------------------------------


class ProbeMany:
    def __init__(self, ready_after):
        self.ready_after = ready_after  # pod id -> number of rounds before its banner answers
        self.rounds = []

    def __call__(self, targets, **kwargs):
        self.rounds.append(sorted(targets))
        results = {}
        for key, (host, port) in targets.items():
            seen = sum(1 for r in self.rounds if key in r)
            ok = seen > self.ready_after.get(key, 10**9)
            detail = "x" if ok else "dial tcp: connect: connection refused"
            results[key] = ProbeResult(ok, detail, "%s:%s" % (host, port))
        return results


def test_batch_reads_once_per_poll_probes_concurrently_and_stops_at_first_banner(fake_clock):
    pods = [pod("a", direct={"host": "1.1.1.1", "port": 1}), pod("b", direct={"host": "2.2.2.2", "port": 2}),
            pod("c", status="STARTING", runtime=False)]
    later = [*pods[:2], pod("c", direct={"host": "3.3.3.3", "port": 3})]
    backend = Backend(pods, later)
    probe_many = ProbeMany({"a": 0, "b": 3, "c": 0})
    outcome = until(BatchPodPoller(backend, ["a", "b", "c"], probe_many=probe_many), label="ssh on 3 pods",
                    timeout=600, interval=5, clock=fake_clock)
    assert backend.calls == [("list_pods", 1), ("list_pods", 1)]
    assert probe_many.rounds[0] == ["a", "b"]
    assert all("a" not in r for r in probe_many.rounds[1:])  # a answered in round one, never probed again
    assert probe_many.rounds[-1] == ["c"]
    assert set(outcome.value) == {"a", "b", "c"}
    assert outcome.value["b"]["ssh"] == {"host": "2.2.2.2", "port": 2, "user": "root",
                                         "command": "ssh root@2.2.2.2 -p 2"}
    assert outcome.detail == "all 3 pods ready"


def test_batch_fails_fast_naming_every_terminal_pod():
    backend = Backend([pod("a", status="EXITED"), pod("b"), pod("c", status="TERMINATED")])
    poller = BatchPodPoller(backend, ["a", "b", "c"], probe_many=ProbeMany({}))
    with pytest.raises(PollError) as info:
        poller.poll()
    assert info.value.code == "conflict" and info.value.fatal
    assert poller.failed == ["a", "c"]  # whose logs explain the failure (b is healthy: its logs are not read)
    assert str(info.value) == ("pod a is exited, so the wait cannot succeed (runpod.cloud.pod state=running starts "
                               "it); pod c is terminated, so the wait cannot succeed")


def test_a_fatal_first_read_still_carries_each_pods_last_state(fake_clock):
    # The read that fails the wait may be its first: the error keeps what that read showed of every pod.
    backend = Backend([pod("a", status="EXITED"), pod("b", status="STARTING", runtime=False)])
    with pytest.raises(WaitError) as info:
        until(BatchPodPoller(backend, ["a", "b", "c"], probe_many=ProbeMany({})), label="ssh on 3 pods",
              timeout=20, interval=5, clock=fake_clock)
    assert info.value.code == "conflict" and info.value.polls == 1
    assert info.value.last_states == {"a": "pod status exited", "b": "pod status starting",
                                      "c": "pod not listed yet"}
    assert info.value.as_dict()["last_states"] == info.value.last_states


def test_batch_not_found_names_vanished_pods():
    poller = BatchPodPoller(Backend([pod("a"), pod("b")], [pod("b")], [pod("b")]), ["a", "b"],
                            probe_many=ProbeMany({}))
    poller.poll()
    assert "a (pod not listed in the last read)" in poller.poll().detail
    assert poller.failed == []
    with pytest.raises(PollError) as info:
        poller.poll()
    assert info.value.code == "not_found" and str(info.value).startswith("pod a is no longer listed")
    assert poller.failed == ["a"]


def test_batch_timeout_carries_each_pods_last_state(fake_clock):
    backend = Backend([pod("a", direct={"host": "1.1.1.1", "port": 1}), pod("b", status="STARTING", runtime=False)])
    with pytest.raises(WaitError) as info:
        until(BatchPodPoller(backend, ["a", "b", "c"], probe_many=ProbeMany({})), label="ssh on 3 pods",
              timeout=20, interval=5, clock=fake_clock)
    err = info.value
    assert err.code == "wait_timeout"
    assert err.last_states == {
        "a": "ssh port 1.1.1.1:1 allocated but not reachable: dial tcp: connect: connection refused",
        "b": "pod status starting",
        "c": "pod not listed yet",
    }
    assert err.last_state.startswith("0 of 3 pods ready; waiting for a (ssh port 1.1.1.1:1 allocated")
    assert "b (pod status starting), c (pod not listed yet)" in err.last_state


def test_batch_failed_read_resets_every_counter():
    poller = BatchPodPoller(Backend(*([[]] * 11 + [ApiError("server_error", 500)] + [[]] * 11)), ["a", "b"],
                            probe_many=ProbeMany({}))
    for _ignored in range(11):
        poller.poll()
    with pytest.raises(ApiError):
        poller.poll()
    for _ignored in range(11):
        assert "pod not listed yet" in poller.poll().detail


def test_batch_running_mode_needs_no_probes():
    probe_many = ProbeMany({})
    backend = Backend([pod("a", runtime=False), pod("b")], [pod("a"), pod("b")])
    poller = BatchPodPoller(backend, ["a", "b", "a"], wait_for="running", probe_many=probe_many)
    first = poller.poll()
    assert first.detail == "1 of 2 pods ready; waiting for a (pod running, container not up yet)"
    assert first.recheck is None
    assert poller.poll().ready
    assert probe_many.rounds == []


# -- the running count of a batch wait (the controller's lines, docs/pods.md) ------------------------------------


def test_the_count_line_names_a_few_waiting_pods_then_how_many_more():
    pods = [pod(pod_id, runtime=pod_id in "ab", name=f"t-{pod_id}") for pod_id in "abcde"]
    poller = BatchPodPoller(Backend(pods), list("abcdef"), wait_for="running", probe_many=ProbeMany({}),
                            names={"f": "t-f", "e": "before"})
    assert poller.count_line() == "0/6 ready; waiting for a, b, c and 3 more"  # no read yet: ids, no names
    result = poller.poll()
    assert result.summary == poller.count_line() == "2/6 ready; waiting for t-c, t-d, t-e and 1 more"
    assert poller.count_line(shown=4) == "2/6 ready; waiting for t-c, t-d, t-e, t-f"
    assert BatchPodPoller(Backend([pod("x")]), ["x", "y"], wait_for="running").count_line() == (
        "0/2 ready; waiting for x, y")  # no name known: the id
    assert result.detail.startswith("2 of 6 pods ready; waiting for c (pod running, container not up yet)")


def test_the_count_is_a_progress_line_when_it_changes_and_the_text_of_every_heartbeat(fake_clock):
    def booting(pod_id):
        return pod(pod_id, status="STARTING", runtime=False, name=f"t-{pod_id}")

    up = {pod_id: pod(pod_id, name=f"t-{pod_id}") for pod_id in "abc"}
    reads = [[booting("a"), booting("b"), booting("c")]] * 4 + [[up["a"], booting("b"), booting("c")]] * 8
    reads += [[up["a"], up["b"], booting("c")], [up["a"], up["b"], up["c"]]]
    lines, history = [], []
    outcome = until(BatchPodPoller(Backend(*reads), list("abc"), wait_for="running"), label="running on 3 pods",
                    timeout=600, interval=5, clock=fake_clock, progress=lines.append, on_transition=history.append)
    counts = [line for line in lines if "ready" in line and not line.startswith(("still", "running on"))]
    assert counts == ["0/3 ready; waiting for t-a, t-b, t-c", "1/3 ready; waiting for t-b, t-c",
                      "2/3 ready; waiting for t-c", "3/3 ready"]
    heartbeats = [line for line in lines if line.startswith("still waiting")]
    assert len(heartbeats) >= 2, lines
    for line in heartbeats:  # each one carries the count as it stood at that moment (never the long detail)
        before = lines[:lines.index(line)]
        assert line.endswith(f"elapsed): {[c for c in before if c in counts][-1]}")
    # The module's own history keeps the full detail; the count lines come from the same poller state.
    assert [entry["state"] for entry in outcome.history] == [entry["state"] for entry in history]
    assert outcome.history[1]["state"].startswith("1 of 3 pods ready; waiting for b (pod status starting)")
    assert fake_clock.elapsed > 30


def test_batch_lines_name_each_pod_that_changed_and_pass_on_a_failed_read(fake_clock):
    reads = [[pod("a", runtime=False, name="web")], ApiError("server_error", 500, "boom"),
             [pod("a", runtime=False, name="web")], [pod("a", name="web"), pod("b")]]
    shown = []
    poller = BatchPodPoller(Backend(*reads), ["a", "b"], wait_for="running", names={"b": "train"})
    until(poller, label="running on 2 pods", timeout=600, interval=5, clock=fake_clock,
          on_transition=BatchLines(poller, shown.append, "2 pods"))
    assert [(entry["subject"], entry["state"]) for entry in shown] == [
        ("pod web (a)", "pod running, container not up yet"),
        ("pod train (b)", "pod not listed yet"),
        ("2 pods", "boom"),
        ("pod web (a)", "pod running"),
        ("pod train (b)", "pod running"),  # listed without a name: the one known before the wait
    ]
    assert all(isinstance(entry["elapsed"], float) for entry in shown)


# -- EndpointPoller ------------------------------------------------------------------------------


def health(**counts):
    return Health(**counts)


def test_endpoint_counts_in_detail_and_ready_on_ready_workers():
    # No worker in the list (so none stale): /health's ready counter decides.
    poller = EndpointPoller(Backend(health=[health(initializing=1, throttled=1), health(ready=1)]), "ep-1")
    first = poller.poll()
    assert (first.ready, first.detail) == (False, "workers ready 0, running 0, initializing 1, throttled 1, "
                                                  "unhealthy 0")
    second = poller.poll()
    assert second.ready and second.detail == "workers ready 1, running 0, initializing 0, throttled 0, unhealthy 0"
    assert second.value["ready_signal"] == "health_ready"
    assert second.value["worker_id"] is None and second.value["version"] is None


@pytest.mark.parametrize(
    "counts", [{"running": 2}, {"initializing": 3}, {"throttled": 1}, {"unhealthy": 2}, {"idle": 1}, {}]
)
def test_endpoint_not_ready_counts(counts):
    # /health's running counts a worker RunPod scheduled, not one that serves: alone it is not ready.
    backend = Backend(health=[health(**counts)])
    assert not EndpointPoller(backend, "ep-1").poll().ready
    assert [call[0] for call in backend.calls] == ["endpoint_health", "endpoint_workers"]


def test_endpoint_404_before_first_success_is_tolerated_then_ready(fake_clock):
    missing = ApiError("not_found", 404, "endpoint not found")
    backend = Backend(health=[missing, missing, health(ready=1)])
    outcome = until(EndpointPoller(backend, "ep-1"), label="a ready worker on endpoint ep-1",
                    timeout=600, interval=5, clock=fake_clock)
    assert outcome.polls == 3 and outcome.history[0]["state"] == "endpoint not found"
    assert backend.calls[0] == ("endpoint_health", "ep-1", 1)


def test_endpoint_never_known_is_not_found_on_404_number_twelve(fake_clock):
    backend = Backend(health=[ApiError("not_found", 404, "endpoint not found")])
    with pytest.raises(WaitError) as info:
        until(EndpointPoller(backend, "ep-1"), label="a ready worker on endpoint ep-1", timeout=600, interval=5,
              clock=fake_clock)
    assert info.value.code == "not_found" and info.value.polls == 12
    assert "still does not know endpoint ep-1 after 12 consecutive reads" in str(info.value)


def test_endpoint_500_between_404s_resets_the_run():
    missing = ApiError("not_found", 404)
    poller = EndpointPoller(Backend(health=[missing] * 11 + [ApiError("server_error", 500)] + [missing] * 11),
                            "ep-1")
    for _ignored in range(11):
        poller.poll()
    with pytest.raises(ApiError):
        poller.poll()
    for _ignored in range(11):
        assert not poller.poll().ready


def test_endpoint_deleted_mid_wait():
    missing = ApiError("not_found", 404, "endpoint not found")
    poller = EndpointPoller(Backend(health=[health(), missing, missing]), "ep-1")
    poller.poll()
    assert poller.poll().detail == "endpoint health unreadable in the last poll: endpoint not found"
    with pytest.raises(PollError, match="no longer known to the invoke service"):
        poller.poll()


def test_endpoint_repeated_500s_after_success_stay_transient(fake_clock):
    backend = Backend(health=[health(), ApiError("server_error", 500, "upstream")])
    with pytest.raises(WaitError) as info:
        until(EndpointPoller(backend, "ep-1"), label="x", timeout=60, interval=5, clock=fake_clock)
    assert info.value.code == "wait_timeout" and info.value.polls == 13 and info.value.last_state == "upstream"


def test_endpoint_idle_worker_is_the_stronger_signal():
    summary = WorkerSummary(workers=[Worker(id="w-old", status="IDLE", is_stale=True),
                                     Worker(id="w-run", status="RUNNING"), Worker(id="w-idle", status="IDLE")])
    result = EndpointPoller(Backend(health=[health()], workers=[summary]), "ep-1").poll()
    assert result.ready
    assert result.value == {"ready_signal": "worker_idle", "worker_id": "w-idle",
                            "health": {"ready": 0, "running": 0, "initializing": 0, "throttled": 0, "unhealthy": 0,
                                       "idle": 0},
                            "version": None,
                            "rollout": {"in_progress": True, "workers_on_latest": 2, "workers_total": 3,
                                        "percent_on_latest": 66}}


def test_endpoint_running_worker_signal_and_stale_only_is_ignored():
    running = WorkerSummary(workers=[Worker(id="w1", status="RUNNING")])
    assert EndpointPoller(Backend(health=[health()], workers=[running]), "ep-1").poll().value["ready_signal"] == \
        "worker_running"
    stale = WorkerSummary(workers=[Worker(id="w1", status="IDLE", is_stale=True),
                                   Worker(id="w2", status="INITIALIZING")])
    assert not EndpointPoller(Backend(health=[health()], workers=[stale]), "ep-1").poll().ready


def test_endpoint_a_failed_worker_read_is_not_ready_whatever_health_says():
    result = EndpointPoller(Backend(health=[health(ready=1)], workers=[ApiError("server_error", 500)]), "ep-1").poll()
    assert not result.ready and "worker list unavailable" in result.detail


def rolling(version, *workers):
    return WorkerSummary(endpoint_version=version, workers=[
        Worker(id=worker_id, status=status, is_stale=stale, version=version - 1 if stale else version)
        for worker_id, status, stale in workers])


def test_endpoint_after_an_update_old_idle_workers_are_not_ready_whatever_health_says():
    # The bug this poller fixes: /health counts the old release's idle workers as ready.
    old_only = rolling(4, ("w-old1", "IDLE", True), ("w-old2", "IDLE", True), ("w-new", "INITIALIZING", False))
    result = EndpointPoller(Backend(health=[health(ready=2)], workers=[old_only]), "ep-1").poll()
    assert not result.ready and result.imminent
    assert "release v4: 1 of 3 workers on it, 2 stale" in result.detail
    fresh = rolling(4, ("w-old2", "IDLE", True), ("w-new", "IDLE", False))
    result = EndpointPoller(Backend(health=[health(ready=2)], workers=[fresh]), "ep-1").poll()
    assert result.ready and result.value["worker_id"] == "w-new" and result.value["version"] == 4
    assert result.value["rollout"]["in_progress"] is True


def test_endpoint_rollout_waits_for_no_stale_worker(fake_clock):
    sequence = [rolling(2, ("a", "IDLE", True), ("b", "IDLE", False)), rolling(2, ("b", "IDLE", False),
                                                                               ("c", "INITIALIZING", False))]
    poller = EndpointPoller(Backend(health=[health(ready=2)] * 2, workers=sequence), "ep-1", wait_for="rollout")
    assert not poller.poll().ready
    result = poller.poll()
    assert result.ready and result.value["rollout"] == {"in_progress": False, "workers_on_latest": 2,
                                                        "workers_total": 2, "percent_on_latest": 100}


def test_endpoint_stalled_rollout_times_out_naming_release_and_stale_count(fake_clock):
    stalled = rolling(7, ("a", "IDLE", True), ("b", "IDLE", True), ("c", "IDLE", False))
    backend = Backend(health=[health(ready=3)], workers=[stalled])
    with pytest.raises(WaitError) as info:
        until(EndpointPoller(backend, "ep-1", wait_for="rollout"), label="rollout of ep-1", timeout=30, interval=5,
              clock=fake_clock)
    assert info.value.code == "wait_timeout"
    assert "release v7: 1 of 3 workers on it, 2 stale" in str(info.value)


def test_endpoint_wait_for_must_be_known_and_rollout_with_no_stale_worker_is_decided_like_ready():
    with pytest.raises(ValueError, match="wait_for"):
        EndpointPoller(Backend(health=[health()]), "ep-1", wait_for="banner")
    result = EndpointPoller(Backend(health=[health(ready=1)]), "ep-1", wait_for="rollout").poll()
    assert result.ready and result.value["ready_signal"] == "health_ready"


def test_endpoint_fatal_workers_error_aborts():
    with pytest.raises(ApiError):
        EndpointPoller(Backend(health=[health()], workers=[ApiError("forbidden", 403)]), "ep-1").poll()


def test_endpoint_fatal_health_error_is_not_treated_as_a_miss(fake_clock):
    with pytest.raises(WaitError) as info:
        until(EndpointPoller(Backend(health=[ApiError("unauthorized", 401)]), "ep-1"), label="x", clock=fake_clock)
    assert (info.value.code, info.value.status, info.value.polls) == ("unauthorized", 401, 1)


# -- imminent hints (the engine reads sooner while a transition is close) -------------------------------------


@pytest.mark.parametrize(
    ("candidate", "wait_for", "imminent"),
    [
        (pod(status="PROVISIONING", runtime=False), "ssh", False),
        (pod(status="STARTING", runtime=False), "ssh", True),
        (pod(), "ssh", True),  # RUNNING, port 22 not mapped yet
        (pod(runtime=False), "ssh", True),  # RUNNING, no runtime yet
        (pod(status="CREATED"), "ssh", False),
        (pod(status="ERROR", runtime=False), "ssh", False),
        (pod(status="STARTING", runtime=False), "running", True),
        (pod(runtime=False), "running", True),  # RUNNING, container not up yet
        (pod(status="PROVISIONING", runtime=False), "running", False),
    ],
)
def test_pod_poller_marks_imminent_transitions(candidate, wait_for, imminent):
    poller = PodPoller(Backend([candidate]), "pod-1", wait_for=wait_for, probe=Probe())
    first = poller.poll()
    assert not first.ready and first.imminent is True  # the first read is a change (from nothing known)
    result = poller.poll()  # the same status again: only a close transition is imminent
    assert not result.ready and result.imminent is imminent


def test_a_status_that_changed_since_the_read_before_is_imminent():
    provisioning, error = pod(status="PROVISIONING", runtime=False), pod(status="ERROR", runtime=False)
    poller = PodPoller(Backend([provisioning], [provisioning], [error], [error]), "pod-1", probe=Probe())
    assert [poller.poll().imminent for _ignored in range(4)] == [True, False, True, False]


def test_pod_poller_probing_and_missing_pods_are_steady():
    assert PodPoller(Backend([pod(direct=DIRECT)]), "pod-1", probe=Probe(False)).poll().imminent is False
    assert PodPoller(Backend([]), "pod-1", probe=Probe()).poll().imminent is False


def test_batch_follows_the_pod_nearest_to_a_transition():
    provisioning = pod("a", status="PROVISIONING", runtime=False)
    probing = pod("b", direct={"host": "2.2.2.2", "port": 2})
    backend = Backend([provisioning, probing], [provisioning, probing],
                      [provisioning, probing, pod("c", status="STARTING", runtime=False)],
                      [provisioning, probing, pod("c", direct={"host": "3.3.3.3", "port": 3})])
    poller = BatchPodPoller(backend, ["a", "b", "c"], probe_many=ProbeMany({}))
    assert poller.poll().imminent is True  # a seen for the first time (a change)
    assert poller.poll().imminent is False  # c not listed, a still provisioning, b probing
    assert poller.poll().imminent is True  # c starting
    assert poller.poll().imminent is False  # c probing too


def test_batch_running_mode_is_imminent_while_a_container_is_not_up():
    backend = Backend([pod("a", direct=DIRECT), pod("b", runtime=False)])
    result = BatchPodPoller(backend, ["a", "b"], wait_for="running").poll()
    assert not result.ready and result.imminent is True


def test_starting_pod_is_read_sooner_than_a_provisioning_one(fake_clock):
    provisioning = pod(status="PROVISIONING", runtime=False)
    backend = Backend([provisioning], [provisioning], [pod(status="STARTING", runtime=False)],
                      [pod(status="STARTING", runtime=False)], [pod(direct=DIRECT)])
    reads = []
    backend_list = backend.pods.list

    def timed_list(attempts=None):
        reads.append(fake_clock.elapsed)
        return backend_list(attempts)

    backend.pods.list = timed_list
    outcome = until(PodPoller(backend, "pod-1", probe=Probe(True)), label="x", timeout=600, interval=5,
                    clock=fake_clock)
    # the first read (right after a create) and STARTING are followed after half an interval; a PROVISIONING seen
    # again is steady (the bank refills: 7.5 s)
    assert reads == [0, 2.5, 10, 12.5, 15]
    assert outcome.polls == 5
