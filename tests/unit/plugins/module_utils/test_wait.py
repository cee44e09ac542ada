"""Poll engine: reference §1.2 contract, §3 classification, §4 miss rules, cancellation, decoupled cadence."""

from __future__ import annotations

import itertools
import signal
import threading
import time

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import (
    CancelToken,
    MissCounter,
    PollError,
    WaitError,
    cancel_on_signals,
    classify,
    error_text,
    rate_limit_sleep,
)
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import (
    PollResult,
    SystemClock,
    until,
)


class ApiError(Exception):
    """Shaped like the API layer's RunPodError (code, status, message, retry_after)."""

    def __init__(self, code, status=None, message="", retry_after=None):
        super().__init__(message or code)
        self.code = code
        self.status = status
        self.message = message or code
        self.retry_after = retry_after


def scripted(*steps, clock=None):
    """A poll function replaying ``steps`` (PollResult, exception, or bool); the last step repeats."""
    calls = []

    def poll():
        step = steps[min(len(calls), len(steps) - 1)]
        calls.append(clock.now() if clock is not None else None)
        if isinstance(step, BaseException):
            raise step
        return step if isinstance(step, PollResult) else PollResult(step)

    poll.calls = calls
    return poll


NOT_READY = PollResult(False, "pod status starting")


# -- Loop contract -------------------------------------------------------------------------------


def test_ready_on_first_poll_does_not_sleep(fake_clock):
    lines = []
    outcome = until(
        scripted(PollResult(True, "ssh reachable at 1.2.3.4:51227", value={"port": 51227})),
        label="ssh on pod pod-1",
        timeout=600,
        interval=5,
        clock=fake_clock,
        progress=lines.append,
    )
    assert fake_clock.sleeps == []
    assert outcome.value == {"port": 51227}
    assert (outcome.polls, outcome.elapsed) == (1, 0)
    assert lines == [
        "waiting for ssh on pod pod-1 (timeout 10m0s)",
        "ssh on pod pod-1 ready after 0s: ssh reachable at 1.2.3.4:51227",
    ]


def test_polls_until_ready(fake_clock):
    poll = scripted(NOT_READY, NOT_READY, PollResult(True, "ok"), clock=fake_clock)
    outcome = until(poll, label="x", timeout=60, interval=5, clock=fake_clock)
    assert [t - fake_clock.start for t in poll.calls] == [0, 5, 10]
    assert (outcome.polls, outcome.elapsed, outcome.detail) == (3, 10, "ok")


def test_timeout_polls_at_0_5_10_12_and_keeps_last_state(fake_clock):
    poll = scripted(NOT_READY, clock=fake_clock)
    with pytest.raises(WaitError) as info:
        until(poll, label="ssh on pod pod-1", timeout=12, interval=5, clock=fake_clock, resource_id="pod-1")
    err = info.value
    assert [t - fake_clock.start for t in poll.calls] == [0, 5, 10, 12]
    assert fake_clock.sleeps == [5, 5, 2]
    assert (err.code, err.polls, err.elapsed, err.status) == ("wait_timeout", 4, 12, None)
    assert err.last_state == "pod status starting"
    assert err.resource_id == "pod-1" and err.label == "ssh on pod pod-1"
    assert str(err) == "timed out after 12s waiting for ssh on pod pod-1; last known state: pod status starting"
    assert err.as_dict() == {
        "elapsed": 12,
        "polls": 4,
        "probes": 0,
        "history": [{"elapsed": 0.0, "state": "pod status starting"}],
        "last_state": "pod status starting",
    }


def test_success_on_the_final_poll_at_the_deadline_is_a_success(fake_clock):
    poll = scripted(NOT_READY, NOT_READY, NOT_READY, PollResult(True, "up"), clock=fake_clock)
    outcome = until(poll, label="x", timeout=12, interval=5, clock=fake_clock)
    assert (outcome.polls, outcome.elapsed) == (4, 12)


def test_never_sleeps_past_the_deadline_with_a_long_interval(fake_clock):
    poll = scripted(NOT_READY, clock=fake_clock)
    with pytest.raises(WaitError):
        until(poll, label="x", timeout=7, interval=3600, clock=fake_clock)
    assert fake_clock.sleeps == [7]
    assert len(poll.calls) == 2


def test_fatal_poller_verdict_aborts_with_its_code_and_message(fake_clock):
    verdict = PollError("conflict", "pod pod-1 is exited, so the wait cannot succeed", fatal=True)
    poll = scripted(NOT_READY, verdict)
    with pytest.raises(WaitError) as info:
        until(poll, label="ssh on pod pod-1", timeout=3600, interval=3600, clock=fake_clock)
    err = info.value
    assert err.code == "conflict" and err.polls == 2
    assert str(err) == "waiting for ssh on pod pod-1: pod pod-1 is exited, so the wait cannot succeed"
    assert err.last_state == "pod status starting"
    assert err.__cause__ is verdict


def test_unauthorized_aborts_after_one_poll_keeping_status(fake_clock):
    poll = scripted(ApiError("unauthorized", 401, "missing bearer token"))
    with pytest.raises(WaitError) as info:
        until(poll, label="a ready worker on endpoint ep-1", timeout=600, interval=5, clock=fake_clock)
    assert (info.value.code, info.value.status, info.value.polls) == ("unauthorized", 401, 1)
    assert fake_clock.sleeps == []
    assert "missing bearer token" in str(info.value)


def test_transient_server_error_becomes_the_timeout_last_state(fake_clock):
    poll = scripted(ApiError("server_error", 502, "bad gateway"))
    with pytest.raises(WaitError) as info:
        until(poll, label="x", timeout=12, interval=5, clock=fake_clock)
    assert info.value.code == "wait_timeout"
    assert info.value.last_state == "bad gateway"
    assert info.value.polls == 4


def test_cancel_before_the_first_sleep_is_interrupted_at_zero_seconds(fake_clock):
    token = CancelToken()
    token.cancel("signal SIGINT")
    with pytest.raises(WaitError) as info:
        until(scripted(NOT_READY), label="ssh on pod pod-1", timeout=600, interval=5, clock=fake_clock, cancel=token)
    err = info.value
    assert (err.code, err.elapsed, err.polls) == ("wait_interrupted", 0, 1)
    assert str(err) == "interrupted after 0s waiting for ssh on pod pod-1; last known state: pod status starting"
    assert fake_clock.sleeps == []


def test_cancel_during_a_sleep_ends_the_wait_before_the_next_poll(make_clock):
    token = CancelToken()
    clock = make_clock(on_sleep=lambda c, s: token.cancel() if c.elapsed >= 10 else None)
    poll = scripted(NOT_READY, clock=clock)
    with pytest.raises(WaitError) as info:
        until(poll, label="x", timeout=600, interval=5, clock=clock, cancel=token)
    assert info.value.code == "wait_interrupted"
    assert (info.value.elapsed, len(poll.calls)) == (10, 2)


def test_empty_detail_renders_as_not_ready(fake_clock):
    with pytest.raises(WaitError) as info:
        until(scripted(PollResult(False)), label="x", timeout=5, interval=5, clock=fake_clock)
    assert info.value.last_state == "not ready"
    assert str(info.value).endswith("last known state: not ready")


def test_not_found_then_eof_then_ready_succeeds_with_failures_in_progress(fake_clock):
    lines = []
    poll = scripted(
        ApiError("not_found", 404, "pod not found"),
        ApiError("not_found", 404, "pod not found"),
        EOFError(),
        PollResult(True, "up"),
    )
    outcome = until(
        poll, label="x", timeout=60, interval=10, progress_every=10, clock=fake_clock, progress=lines.append
    )
    assert outcome.polls == 4
    assert [entry["state"] for entry in outcome.history] == ["pod not found", "EOFError", "up"]
    assert lines == [
        "waiting for x (timeout 1m0s)",
        "still waiting for x (10s elapsed): pod not found",
        "still waiting for x (20s elapsed): EOFError",
        "x ready after 30s: up",
    ]


def test_tolerated_error_is_kept_on_the_state(fake_clock):
    with pytest.raises(WaitError) as info:
        until(
            scripted(ApiError("server_error", 502, "bad gateway: boom")),
            label="x",
            timeout=5,
            interval=5,
            clock=fake_clock,
        )
    assert info.value.last_state == "bad gateway: boom"
    assert info.value.code == "wait_timeout"


def test_sixty_second_budget_gives_thirteen_polls_and_five_progress_lines(fake_clock):
    lines = []
    poll = scripted(NOT_READY, clock=fake_clock)
    with pytest.raises(WaitError):
        until(
            poll,
            label="ssh on pod pod-1",
            timeout=60,
            interval=5,
            progress_every=15,
            clock=fake_clock,
            progress=lines.append,
        )
    assert len(poll.calls) == 13
    assert lines == [
        "waiting for ssh on pod pod-1 (timeout 1m0s)",
        "still waiting for ssh on pod pod-1 (15s elapsed): pod status starting",
        "still waiting for ssh on pod pod-1 (30s elapsed): pod status starting",
        "still waiting for ssh on pod pod-1 (45s elapsed): pod status starting",
        "still waiting for ssh on pod pod-1 (1m0s elapsed): pod status starting",
    ]


def test_no_progress_sink_writes_nothing(fake_clock, capsys):
    with pytest.raises(WaitError):
        until(scripted(NOT_READY), label="x", timeout=60, interval=5, clock=fake_clock)
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_zero_and_negative_options_mean_defaults(fake_clock):
    lines = []
    poll = scripted(NOT_READY, clock=fake_clock)
    with pytest.raises(WaitError) as info:
        until(
            poll,
            label="x",
            timeout=0,
            interval=-1,
            progress_every=0,
            probe_interval=0,
            clock=fake_clock,
            progress=lines.append,
        )
    assert lines[0] == "waiting for x (timeout 10m0s)"
    assert info.value.elapsed == 600
    assert len(poll.calls) == 121  # every 5 s from 0 to 600 inclusive
    assert sum(1 for line in lines if line.startswith("still waiting")) == 40


def test_ten_minute_wait_never_sleeps_for_real_with_probes(fake_clock, monkeypatch):
    def real_sleep(seconds):
        raise AssertionError(f"the engine slept {seconds}s of real time instead of asking its clock")

    monkeypatch.setattr(time, "sleep", real_sleep)
    probes = []

    def poll():
        return PollResult(
            False,
            "ssh port 1.2.3.4:1 allocated but not reachable: refused",
            recheck=lambda: probes.append(1) or PollResult(False, "refused again"),
        )

    with pytest.raises(WaitError) as info:
        until(poll, label="x", timeout=600, interval=5, clock=fake_clock)
    assert info.value.elapsed == 600
    assert info.value.polls == 121
    assert info.value.probes == len(probes) == 120 * 19  # 19 probes between reads 5 s apart at 0.25 s


def test_rate_limited_read_waits_for_retry_after_but_not_past_the_deadline(fake_clock):
    poll = scripted(ApiError("rate_limited", 429, "slow down", retry_after=12), NOT_READY, clock=fake_clock)
    with pytest.raises(WaitError):
        until(poll, label="x", timeout=20, interval=5, clock=fake_clock)
    assert [t - fake_clock.start for t in poll.calls] == [0, 12, 17, 20]

    clock_two = type(fake_clock)()
    poll_two = scripted(ApiError("rate_limited", 429, "slow down", retry_after=3600), clock=clock_two)
    with pytest.raises(WaitError) as info:
        until(poll_two, label="x", timeout=30, interval=5, clock=clock_two)
    assert clock_two.sleeps == [30]
    assert info.value.last_state == "slow down"


def test_rate_limit_sleep_is_capped_and_tolerant():
    assert rate_limit_sleep(12, 5) == 5
    assert rate_limit_sleep("3", 5) == 3
    assert rate_limit_sleep(None, 5) == 0
    assert rate_limit_sleep("soon", 5) == 0
    assert rate_limit_sleep(-4, 5) == 0


def test_history_and_transition_callback_record_each_change(fake_clock):
    seen = []
    poll = scripted(
        PollResult(False, "pod status provisioning"),
        PollResult(False, "pod status provisioning"),
        PollResult(False, "pod status starting"),
        PollResult(True, "ssh reachable at h:1"),
    )
    outcome = until(poll, label="x", timeout=60, interval=5, clock=fake_clock, on_transition=seen.append)
    assert outcome.history == [
        {"elapsed": 0.0, "state": "pod status provisioning"},
        {"elapsed": 10.0, "state": "pod status starting"},
        {"elapsed": 15.0, "state": "ssh reachable at h:1"},
    ]
    assert seen == outcome.history


# -- Decoupled cadence ---------------------------------------------------------------------------


def test_recheck_notices_readiness_between_reads_without_extra_api_reads(fake_clock):
    probe_times = []

    def recheck():
        probe_times.append(fake_clock.elapsed)
        return PollResult(fake_clock.elapsed >= 6.6, "banner" if fake_clock.elapsed >= 6.6 else "refused", value="addr")

    poll = scripted(PollResult(False, "refused", recheck=recheck), clock=fake_clock)
    outcome = until(poll, label="x", timeout=600, interval=5, clock=fake_clock)
    assert [t - fake_clock.start for t in poll.calls] == [0, 5]
    assert outcome.value == "addr"
    assert outcome.elapsed == 7
    assert probe_times[-1] == pytest.approx(6.75)
    assert all(abs(b - a - 0.25) < 1e-9 for a, b in itertools.pairwise(probe_times) if b < 5 or a > 5)
    assert outcome.probes == len(probe_times)


def test_reference_discipline_probes_only_on_reads(fake_clock):
    recheck_calls = []
    poll = scripted(
        PollResult(False, "refused", recheck=lambda: recheck_calls.append(1) or PollResult(True)), clock=fake_clock
    )
    with pytest.raises(WaitError) as info:
        until(poll, label="x", timeout=12, interval=5, probe_interval=None, clock=fake_clock)
    assert recheck_calls == []
    assert info.value.probes == 0
    assert fake_clock.sleeps == [5, 5, 2]


def test_recheck_replacement_and_transient_recheck_errors(fake_clock):
    second = []

    def failing_recheck():
        return PollResult(False, "first", recheck=lambda: second.append(1) or PollResult(False, "second"))

    poll = scripted(PollResult(False, "read", recheck=failing_recheck))
    with pytest.raises(WaitError) as info:
        until(poll, label="x", timeout=1, interval=5, clock=fake_clock)
    assert len(second) == 2  # at 0.5 and 0.75: the replacement recheck was used after the first
    assert info.value.last_state == "read"

    clock_two = type(fake_clock)()
    poll_two = scripted(PollResult(False, "read", recheck=lambda: (_ignored for _ignored in ()).throw(OSError("boom"))))
    with pytest.raises(WaitError) as info_two:
        until(poll_two, label="x", timeout=0.6, interval=5, clock=clock_two)
    assert [entry["state"] for entry in info_two.value.history][:2] == ["read", "boom"]


def test_fatal_recheck_error_aborts(fake_clock):
    def recheck():
        raise PollError("conflict", "gone bad", fatal=True)

    with pytest.raises(WaitError) as info:
        until(scripted(PollResult(False, "read", recheck=recheck)), label="x", timeout=60, interval=5, clock=fake_clock)
    assert info.value.code == "conflict"
    assert fake_clock.elapsed == pytest.approx(0.25)


def test_states_of_a_batch_ride_on_the_error(fake_clock):
    poll = scripted(PollResult(False, "1 of 2 ready", states={"a": "ready", "b": "pod status starting"}))
    with pytest.raises(WaitError) as info:
        until(poll, label="x", timeout=5, interval=5, clock=fake_clock)
    assert info.value.last_states == {"a": "ready", "b": "pod status starting"}


def test_non_pollresult_truthy_value_counts_as_ready(fake_clock):
    assert until(lambda: True, label="x", clock=fake_clock).polls == 1


# -- Classification ------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["unauthorized", "forbidden", "no_credentials", "bad_request", "UNAUTHORIZED"])
def test_each_fatal_code_is_fatal(code):
    assert classify(ApiError(code)) is True


@pytest.mark.parametrize("status", [400, 401, 403])
def test_an_unlisted_code_with_a_fatal_status_is_fatal_even_wrapped(status):
    inner = ApiError("upstream_error", status, "upstream error: denied")
    assert classify(inner) is True
    try:
        try:
            raise inner
        except ApiError as err:
            raise RuntimeError("listing pods failed") from err
    except RuntimeError as wrapped:
        assert classify(wrapped) is True


@pytest.mark.parametrize("status", [404, 429, 502, 200, None])
def test_an_unlisted_code_with_another_status_is_transient(status):
    assert classify(ApiError("upstream_error", status)) is False


@pytest.mark.parametrize(
    "err",
    [
        ApiError("not_found", 404),
        ApiError("server_error", 500),
        ApiError("rate_limited", 429),
        ApiError("network_error"),
        ApiError("conflict", 409),
        EOFError(),
        ValueError("Expecting value"),
        OSError("reset"),
        PollError("not_found", "missed", fatal=False),
    ],
)
def test_everything_else_is_transient(err):
    assert classify(err) is False


def test_wrapped_poller_verdict_is_fatal_and_reports_its_code(fake_clock):
    verdict = PollError("not_found", "pod p is no longer listed", fatal=True)

    def poll():
        try:
            raise verdict
        except PollError as err:
            raise RuntimeError("pod poll failed: pod p is no longer listed") from err

    assert classify(RuntimeError("x")) is False
    with pytest.raises(WaitError) as info:
        until(poll, label="x", clock=fake_clock)
    assert info.value.code == "not_found"
    assert str(info.value) == "waiting for x: pod poll failed: pod p is no longer listed"


def test_fatal_status_only_error_gets_a_code(fake_clock):
    class StatusOnlyError(Exception):
        status = 403

    with pytest.raises(WaitError) as info:
        until(scripted(StatusOnlyError("no")), label="x", clock=fake_clock)
    assert (info.value.code, info.value.status) == ("api_error", 403)


def test_error_text_prefers_message_and_names_untyped_errors():
    assert error_text(ApiError("x", message="nice text")) == "nice text"
    assert error_text(EOFError()) == "EOFError"
    assert error_text(ValueError("bad json")) == "bad json"


# -- Misses --------------------------------------------------------------------------------------


def test_pod_never_seen_is_not_found_on_the_twelfth_miss():
    counter = MissCounter("pod", "pod-1")
    for _ignored in range(11):
        assert counter.missed() == "pod not listed yet"
    with pytest.raises(PollError) as info:
        counter.missed()
    assert info.value.fatal and info.value.code == "not_found"
    assert str(info.value) == (
        "pod pod-1 has not appeared in 12 consecutive reads, so it was terminated before it "
        "was ever listed, or it is not visible to this api key"
    )
    assert "never existed" not in str(info.value)


def test_pod_seen_then_two_misses_is_gone_and_a_reappearance_resets():
    counter = MissCounter("pod", "pod-1")
    counter.seen()
    assert counter.missed() == "pod not listed in the last read"
    counter.seen()
    assert counter.missed() == "pod not listed in the last read"
    with pytest.raises(PollError, match=r"^pod pod-1 is no longer listed, so it was terminated or deleted while"):
        counter.missed()


def test_failed_read_resets_the_run():
    counter = MissCounter("pod", "pod-1")
    for _ignored in range(11):
        counter.missed()
    counter.read_failed()
    for _ignored in range(11):
        assert counter.missed() == "pod not listed yet"


def test_endpoint_texts():
    counter = MissCounter("endpoint", "ep-1")
    assert counter.missed(ApiError("not_found", 404, "endpoint not found")) == "endpoint not found"
    for _ignored in range(10):
        counter.missed()
    with pytest.raises(PollError, match=r"^the invoke service still does not know endpoint ep-1 after 12 "):
        counter.missed()
    seen = MissCounter("endpoint", "ep-1")
    seen.seen()
    assert seen.missed(ApiError("not_found", 404, "nope")) == "endpoint health unreadable in the last poll: nope"
    with pytest.raises(PollError, match=r"^endpoint ep-1 is no longer known to the invoke service, so it was deleted"):
        seen.missed()


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="resource_kind"):
        MissCounter("volume", "v-1")


# -- Cancellation and the real clock -------------------------------------------------------------


def test_first_signal_cancels_and_restores_handlers_so_the_second_is_not_swallowed():
    received = []
    previous_int = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    previous_term = signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
    try:
        token = CancelToken()
        with cancel_on_signals(token):
            assert not token.cancelled
            signal.raise_signal(signal.SIGTERM)
            assert token.cancelled and token.reason == "signal SIGTERM"
            assert received == []
            # Both handlers are back at once: the next SIGINT reaches the previous handler.
            signal.raise_signal(signal.SIGINT)
            assert received == [signal.SIGINT]
        signal.raise_signal(signal.SIGTERM)
        assert received == [signal.SIGINT, signal.SIGTERM]
    finally:
        signal.signal(signal.SIGINT, previous_int)
        signal.signal(signal.SIGTERM, previous_term)


@pytest.mark.timeout(20, method="signal")  # a deadlocked handler fails the test instead of hanging the suite
def test_a_signal_while_the_wait_holds_its_event_lock_cancels_without_deadlock():
    # The handler runs on the main thread between two bytecodes, possibly while Event.wait is taking its lock
    # back (a controller wait hung there at 6 workers: Event.set in the handler waited for that lock forever).
    # Hold the lock as Event.wait would, signal, and the handler must return; the wait then ends at once.
    token = CancelToken()
    with cancel_on_signals(token), token._event._cond:
        signal.raise_signal(signal.SIGTERM)
        assert token.cancelled and token.reason == "signal SIGTERM"
    started = time.monotonic()
    assert token.wait(30) is True
    assert time.monotonic() - started < 5


def test_handlers_are_restored_when_no_signal_arrives():
    before = signal.getsignal(signal.SIGINT)
    with cancel_on_signals(CancelToken()):
        assert signal.getsignal(signal.SIGINT) is not before
    assert signal.getsignal(signal.SIGINT) is before


def test_cancel_on_signals_outside_the_main_thread_is_a_no_op():
    outcome = {}

    def worker():
        token = CancelToken()
        with cancel_on_signals(token) as inside:
            outcome["token"] = inside is token
        outcome["handler"] = signal.getsignal(signal.SIGINT)

    before = signal.getsignal(signal.SIGINT)
    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert outcome == {"token": True, "handler": before}


def test_first_cancel_reason_wins():
    token = CancelToken()
    token.cancel("signal SIGINT")
    token.cancel("signal SIGTERM")
    assert token.reason == "signal SIGINT"


def test_system_clock_sleep_wakes_when_cancelled():
    clock = SystemClock()
    token = CancelToken()
    timer = threading.Timer(0.05, token.cancel)
    started = clock.now()
    timer.start()
    # Woken by the cancel, not at the end of the sleep: the sleep is long enough (60 s) that no scheduling delay
    # on a loaded machine reaches it, while the cancel comes after 0.05 s.
    clock.sleep(60, cancel=token)
    assert clock.now() - started < 60
    timer.join()


def test_system_clock_sleeps_what_it_is_asked_and_never_a_negative_time(monkeypatch):
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)
    clock = SystemClock()
    clock.sleep(0.01)
    clock.sleep(-1)
    assert len(slept) == 1 and 0 < slept[0] <= 0.01
    # With a token the sleep waits on it (so a cancel wakes it) for at most the time asked.
    started = clock.now()
    clock.sleep(0.01, cancel=CancelToken())
    assert clock.now() - started >= 0.01
    assert slept == [slept[0]]


def test_real_clock_wait_is_interrupted_by_a_real_signal():
    token = CancelToken()
    threading.Timer(0.05, lambda: token.cancel("test")).start()
    started = time.monotonic()
    with pytest.raises(WaitError) as info:
        until(scripted(NOT_READY), label="x", timeout=240, interval=120, probe_interval=None, cancel=token)
    assert info.value.code == "wait_interrupted"
    # Interrupted, not waited out: without the cancel the first sleep alone would last the 120 s interval (long
    # enough that no scheduling delay on a loaded machine reaches it).
    assert time.monotonic() - started < 120


def test_a_left_over_timeout_is_shown_to_the_millisecond(fake_clock):
    # pod_info waits for what is left after its first read: the start line must not show nanoseconds.
    lines = []
    with pytest.raises(WaitError) as info:
        until(scripted(NOT_READY, clock=fake_clock), label="x", timeout=29.860248964, interval=5,
              clock=fake_clock, progress=lines.append)
    assert lines[0] == "waiting for x (timeout 29.86s)"
    assert info.value.elapsed == 30  # whole seconds, from the exact deadline
    # A module shows the timeout as its task gave it (Waiter.until passes wait_timeout): 15m, not 14m59.906s.
    lines.clear()
    with pytest.raises(WaitError):
        until(scripted(NOT_READY, clock=fake_clock), label="x", timeout=899.906, interval=5, clock=fake_clock,
              progress=lines.append, timeout_text="15m")
    assert lines[0] == "waiting for x (timeout 15m)"


def test_the_first_line_says_what_an_interrupt_keeps_only_when_told(fake_clock):
    lines = []
    until(lambda: PollResult(True, "up"), label="ssh on pod p", timeout=60, clock=fake_clock, progress=lines.append,
          kept="the pod")
    assert lines[0] == "waiting for ssh on pod p (timeout 1m0s; Ctrl-C keeps the pod, a rerun resumes)"


@pytest.mark.parametrize(("waiter", "resource_id", "kept"), [
    ("pod_waiter.PodWaiter", "p1", "the pod"), ("pod_waiter.PodsWaiter", None, "the pods"),
    ("cluster_waiter.ClusterWaiter", "c1", "the cluster"), ("endpoint_waiter.EndpointWaiter", "e1", "the endpoint"),
    # A rerun of a job's task submits another job: nothing to resume, so nothing promised.
    ("job_task.JobWaiter", "j1", None),
])
def test_each_waiter_says_what_ctrl_c_keeps(monkeypatch, waiter, resource_id, kept):
    import importlib
    from types import SimpleNamespace

    from ansible_collections.runpod.cloud.plugins.module_utils._module import waiter as _waiter

    module_name, class_name = waiter.split(".")
    package = "ansible_collections.runpod.cloud.plugins.module_utils._module"
    cls = getattr(importlib.import_module(f"{package}.{module_name}"), class_name)
    seen = {}
    monkeypatch.setattr(_waiter._wait, "until", lambda poller, **kwargs: seen.update(kwargs) or "done")
    host = SimpleNamespace(wait_options=SimpleNamespace(timeout=60, interval=5), backend=None,
                           params={"wait_timeout": "1m"})
    outcome = cls(host).until(SimpleNamespace(), label="x", resource_id=resource_id, describe_last=lambda: None)
    assert outcome == "done" and seen["kept"] == kept
