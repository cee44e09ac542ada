"""Adaptive read cadence: ``wait_interval`` is the average, imminent transitions are read sooner, and no
sequence of poll results makes a wait of length T read more than T / interval + 3 times."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import CADENCE_ENV, Cadence, PollResult, until


class ApiError(Exception):
    """Shaped like the API layer's RunPodError (code, status, message, retry_after)."""

    def __init__(self, code, status=None, retry_after=None):
        super().__init__(code)
        self.code = code
        self.status = status
        self.message = code
        self.retry_after = retry_after


PROVISIONING = PollResult(False, "pod status provisioning")
STARTING = PollResult(False, "pod status starting", imminent=True)


def probing(ready_after=None):
    """RUNNING with the port mapped: the probe between reads answers after ``ready_after`` probes (never if None)."""
    count = []

    def recheck():
        count.append(1)
        if ready_after is not None and len(count) >= ready_after:
            return PollResult(True, "ssh reachable")
        return PollResult(False, "refused")

    return PollResult(False, "ssh port allocated but not reachable", recheck=recheck)


def scripted(steps, clock):
    """Replay ``steps`` (PollResult or exception); the last one repeats. Records each read's start time."""
    calls = []

    def poll():
        step = steps[min(len(calls), len(steps) - 1)]
        calls.append(clock.now() - clock.start)
        if isinstance(step, BaseException):
            raise step
        return step

    poll.calls = calls
    return poll


def run(poll, clock, **kwargs):
    kwargs.setdefault("label", "x")
    kwargs.setdefault("interval", 5)
    try:
        return until(poll, clock=clock, **kwargs)
    except WaitError as err:
        return err


# -- the schedule ----------------------------------------------------------------------------------------------


def test_steady_phase_reads_once_per_interval_like_the_fixed_cadence(fake_clock):
    poll = scripted([PROVISIONING], fake_clock)
    err = run(poll, fake_clock, timeout=22)
    assert poll.calls == [0, 5, 10, 15, 20, 22]
    assert err.code == "wait_timeout" and err.polls == 6


def test_starting_is_read_every_half_interval_until_the_bank_is_spent_then_steady_reads_refill_it(fake_clock):
    steps = [PROVISIONING] * 3 + [STARTING] * 4 + [probing()]
    poll = scripted(steps, fake_clock)
    run(poll, fake_clock, timeout=52, probe_interval=None)
    # 0-10 provisioning; STARTING seen at 15, read again after 2.5 s while the bank lasts (17.5, 20, 22.5), then at
    # the pace it refills (25, now RUNNING); RUNNING with a port is steady: the bank refills over 10 s gaps, then 5 s.
    assert poll.calls == [0, 5, 10, 15, 17.5, 20, 22.5, 25, 35, 45, 50, 52]
    assert len(poll.calls) <= 52 / 5 + 3


def test_imminent_from_the_first_read_spends_the_bank_then_reads_at_the_interval(fake_clock):
    poll = scripted([STARTING], fake_clock)
    err = run(poll, fake_clock, timeout=30)
    assert poll.calls == [0, 2.5, 5, 7.5, 10, 15, 20, 25, 30]
    assert err.polls == 9 <= 30 / 5 + 3


def test_the_final_read_at_the_deadline_stays_funded(fake_clock):
    poll = scripted([STARTING], fake_clock)
    err = run(poll, fake_clock, timeout=12)
    # after 7.5 the bank cannot pay for a read before the deadline and for the one at it: skip to 12
    assert poll.calls == [0, 2.5, 5, 7.5, 12]
    assert err.polls == 5 <= 12 / 5 + 3


def test_success_between_fast_reads_is_seen_by_the_probe_without_a_read(fake_clock):
    steps = [PROVISIONING, STARTING, probing(ready_after=3)]
    poll = scripted(steps, fake_clock)
    outcome = run(poll, fake_clock, timeout=600)
    assert poll.calls == [0, 5, 7.5]
    assert outcome.polls == 3 and fake_clock.elapsed == pytest.approx(8.25)


def test_retry_after_wins_over_an_imminent_transition(fake_clock):
    steps = [STARTING, ApiError("rate_limited", 429, retry_after=8), STARTING]
    poll = scripted(steps, fake_clock)
    run(poll, fake_clock, timeout=16)
    assert poll.calls[:3] == [0, 2.5, 10.5]
    assert poll.calls[-1] == 16


def test_a_failed_read_is_not_imminent(fake_clock):
    poll = scripted([STARTING, ApiError("server_error", 503), STARTING], fake_clock)
    run(poll, fake_clock, timeout=20)
    # the 503 at 2.5 gives no hint: a steady gap that refills the bank (1.5 reads short: 7.5 s) follows
    assert poll.calls[:3] == [0, 2.5, 10]


def test_fixed_cadence_by_argument_ignores_hints(fake_clock):
    poll = scripted([STARTING], fake_clock)
    err = run(poll, fake_clock, timeout=12, cadence="fixed")
    assert poll.calls == [0, 5, 10, 12]
    assert err.polls == 4


def test_fixed_cadence_by_environment(fake_clock, monkeypatch):
    monkeypatch.setenv(CADENCE_ENV, "fixed")
    poll = scripted([STARTING], fake_clock)
    run(poll, fake_clock, timeout=12)
    assert poll.calls == [0, 5, 10, 12]


def test_unknown_environment_value_keeps_the_adaptive_cadence(fake_clock, monkeypatch):
    monkeypatch.setenv(CADENCE_ENV, "sometimes")
    poll = scripted([STARTING], fake_clock)
    run(poll, fake_clock, timeout=12)
    assert poll.calls == [0, 2.5, 5, 7.5, 12]


def test_unknown_cadence_argument_is_refused(fake_clock):
    with pytest.raises(ValueError, match="cadence"):
        until(scripted([STARTING], fake_clock), label="x", clock=fake_clock, cadence="eager")


def test_cadence_object_alone():
    cadence = Cadence(5.0, start=0.0, deadline=100.0)
    assert cadence.tokens(0.0) == 3
    cadence.spend(0.0)
    assert cadence.next_read(0.0) == 5.0
    assert cadence.next_read(0.0, imminent=True) == 2.5
    assert cadence.next_read(0.0, imminent=True, retry_after=7) == 7
    cadence.spend(0.1)
    cadence.spend(0.2)  # the whole bank spent at once
    assert cadence.tokens(0.2) == pytest.approx(0.04)  # 3 + 0.2 s / 5 s - 3 reads
    assert cadence.next_read(0.2, imminent=True) == pytest.approx(5.0)  # the next read waits for a whole token
    assert cadence.next_read(0.2) == pytest.approx(10.2)  # steady: refill, at most two intervals
    assert Cadence(5.0, 0.0, 100.0, adaptive=False).next_read(3.0, imminent=True) == 8.0


# -- the bound, whatever the results -----------------------------------------------------------------------------

RESULT = st.one_of(
    st.builds(lambda imminent, detail: PollResult(False, detail, imminent=imminent), st.booleans(),
              st.sampled_from(["pod status provisioning", "pod status starting", "ssh port not allocated yet"])),
    st.builds(lambda after: ("probe", after), st.one_of(st.none(), st.integers(1, 60))),
    st.builds(lambda retry_after, status: ApiError("rate_limited" if status == 429 else "server_error", status,
                                                   retry_after),
              st.one_of(st.none(), st.floats(0, 400), st.sampled_from(["3", "soon", -1])), st.sampled_from([429, 503])),
    st.just(PollResult(True, "ready")),
)
STEP = st.tuples(RESULT, st.floats(0, 3))  # a result and how long the read took (s)


def _replay(steps, clock, read_time):
    calls = []

    def poll():
        result, took = steps[min(len(calls), len(steps) - 1)]
        calls.append(clock.now())
        if read_time:
            clock.current += took
        if isinstance(result, BaseException):
            raise result
        if isinstance(result, tuple):
            return probing(result[1])
        return result

    poll.calls = calls
    return poll


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(STEP, min_size=1, max_size=40),
    timeout=st.floats(0.5, 400),
    interval=st.floats(0.2, 60),
    probe_interval=st.sampled_from([None, 0.25, 1.0]),
    read_time=st.booleans(),
    cadence=st.sampled_from(["adaptive", "fixed"]),
)
def test_no_sequence_of_results_exceeds_the_read_bound(make_clock, steps, timeout, interval, probe_interval,
                                                       read_time, cadence):
    clock = make_clock()
    poll = _replay(steps, clock, read_time)
    result = run(poll, clock, timeout=timeout, interval=interval, probe_interval=probe_interval, cadence=cadence)
    elapsed = clock.now() - clock.start
    reads = len(poll.calls)
    assert result.polls == reads
    assert poll.calls[0] == clock.start  # first read at once
    slack = 3 if cadence == "adaptive" else 2
    assert reads <= elapsed / interval + slack + 1e-9
    # the same bound holds at every read, so also for a wait that ended right after it
    for index, moment in enumerate(poll.calls, start=1):
        assert index <= (moment - clock.start) / interval + slack + 1e-9
    if isinstance(result, WaitError) and result.code == "wait_timeout" and not read_time:
        assert poll.calls[-1] == pytest.approx(clock.start + timeout)  # the final read at the deadline
