"""How soon the host key step knows (issue 54; docs/pods.md "What the check costs"): the log read starts with the
key scan, the history decides at once when it shows every presented fingerprint or sshd's start followed by other
output, an unreadable log pins with its reason at once, a spent quota defers the check instead of pinning, and only
a log that may still be printing is waited for, within its bound. A real ``LogReader`` over httpx.MockTransport on a
fake clock: nothing sleeps, the elapsed times are the fake clock's."""

from __future__ import annotations

import functools
import json
import random
import threading
from concurrent.futures import Future
from types import SimpleNamespace

import httpx
import pytest
from helpers.fakes import FakeClock, full_backend
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_check as hkc
from ansible_collections.runpod.cloud.plugins.module_utils._engine.host_key_check import CHECK_READ, TrustStep
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import (
    TRUST_CONCURRENCY,
    BatchPodPoller,
)
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult
from ansible_collections.runpod.cloud.plugins.module_utils._module import batch
from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report as _logs
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as hk
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView, SshAddress

API_KEY = "rk-unit-api-key-5454"
PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ"
KEY = hk.parse_key(PUBLIC_KEY)
ADDRESS = {"host": "127.0.0.1", "port": 40123, "user": "root"}
POD = SimpleNamespace(id="pod-1", env={})
BLOCK = ["SSH host keys:", "Key: /etc/ssh/ssh_host_ed25519_key.pub", f"256 {KEY.fingerprint} root@pod-1 (ED25519)"]
SSHD = ["Setting up SSH...", " * Starting OpenBSD Secure Shell server sshd", "   ...done."]


def _event(index, line):
    payload = {"ts": f"2026-06-01T12:00:{index % 60:02d}.{index:06d}Z", "source": "container", "line": line}
    return f"id: {payload['ts']}\ndata: {json.dumps(payload)}\n\n".encode()


class Log:
    """One pod's log stream: ``history`` at once, then each ``(seconds, line)`` of ``live`` that many fake seconds
    later; then silence (the transport's read timeout fires after the read's quiet) or, ``chatty``, a line every
    50 ms forever. ``sent``: the events the reader took; ``status``: a non-200 answer instead."""

    def __init__(self, clock, history=(), live=(), chatty=False, status=200):
        self.clock, self.history, self.live, self.chatty, self.status = clock, list(history), list(live), chatty, status
        self.sent, self.requests, self.asked = 0, 0, threading.Event()

    def __call__(self, request):
        self.requests += 1
        self.asked.set()
        if self.status != 200:
            problem = {"title": "Forbidden", "status": self.status, "detail": "this key may not read pod logs"}
            return httpx.Response(self.status, headers={"content-type": "application/problem+json"}, json=problem)
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=self._body(request))

    def _body(self, request):
        for line in self.history:
            self.sent += 1
            yield _event(self.sent, line)
        for seconds, line in self.live:
            self.clock.current += seconds
            self.sent += 1
            yield _event(self.sent, line)
        while self.chatty:
            self.clock.current += 0.05
            self.sent += 1
            yield _event(self.sent, f"step {self.sent}: loss 0.1")
        self.clock.current += request.extensions["timeout"]["read"]  # silence: httpcore's read timeout fires
        raise httpx.ReadTimeout("no data", request=request)


def _owner(handler, clock):
    backend = full_backend({"api_key": API_KEY, "api_url": "https://rest.example.test/v2"},
                           transport=httpx.MockTransport(handler), clock=clock, rng=random.Random(1))
    return SimpleNamespace(params={"api_key": API_KEY}, no_log_values=set(), backend=backend)


def _scan(host, port, **_options):
    return hkc.ScanResult(True, (KEY,), "1 key")


def _step(owner, mode="log", scan=_scan):
    read_logs = functools.partial(_logs.read_pods, owner, sources=("container",), **CHECK_READ)
    return TrustStep(mode, read_logs, run=lambda argv: (0, "", ""),
                     scan=lambda host, port, run, **options: scan(host, port, **options))


def _check(log, clock, mode="log", scan=_scan):
    step = _step(_owner(log, clock), mode, scan)
    ready, detail = step(POD, ADDRESS)
    return step, ready, detail, clock.current - clock.start


def test_the_pod_waits_read_is_the_checks_own_bounded_read():
    waiter = SimpleNamespace(host=SimpleNamespace(params={"host_key_checking": "log"}, run_command=None))
    assert batch.trust_step(waiter, "ssh").read_logs.keywords == {"sources": ("container",), **CHECK_READ}
    # Waits only while a start script can still be printing: well under the 1 s quiet of other reads.
    assert CHECK_READ["quiet"] <= 0.2 and CHECK_READ["budget"] <= 1.5


def test_fingerprints_in_the_history_verify_at_once_while_the_stream_goes_on():
    clock = FakeClock()
    log = Log(clock, SSHD + BLOCK, chatty=True)
    step, ready, _detail, elapsed = _check(log, clock)
    assert ready and step.fields["host_key_check"] == "verified" and step.warning is None
    assert elapsed == 0 and log.sent == len(SSHD + BLOCK)  # stopped at the block's last line


@pytest.mark.parametrize("mode", ["log", "strict"])
def test_sshd_started_and_the_script_went_on_without_a_block_decides_from_the_history_at_once(mode):
    clock = FakeClock()
    log = Log(clock, [*SSHD, "Starting Jupyter Lab...", "Start script(s) finished"], chatty=True)
    step, ready, detail, elapsed = _check(log, clock, mode)
    assert elapsed == 0 and log.sent == len(SSHD) + 1  # no quiet, no budget: the first line after the start decides
    if mode == "log":  # pinned, with a warning
        assert ready and step.fields["host_key_check"] == "pinned"
        assert "shows no host key fingerprints" in step.warning
    else:  # not verified: the wait goes on, and at its end fails naming the keys and that the log shows none
        assert not ready and step.fields is None and step.warning is None
        assert detail == ("host key at 127.0.0.1:40123 not verified yet: the container log shows no host key "
                          "fingerprints")
        assert "shows no host key fingerprints, so nothing verifies it" in step.unverified.message()


def test_an_earlier_block_in_the_history_is_never_cut_off_by_a_later_start():
    # A restarted container: its earlier run printed a block, so "went on" proves nothing: the read goes on to the
    # current block instead of judging the new keys by the old run's lines.
    old = ["SSH host keys:", "Key: /etc/ssh/ssh_host_ed25519_key.pub", "256 SHA256:" + "B" * 43 + " root@x (ED25519)"]
    clock = FakeClock()
    log = Log(clock, [*SSHD, *old, "Start script(s) finished", *SSHD, *BLOCK, "Start script(s) finished"])
    step, ready, _detail, _elapsed = _check(log, clock)
    assert ready and step.fields["host_key_check"] == "verified"


def test_a_block_printed_while_the_script_can_still_print_is_waited_for():
    clock = FakeClock()
    log = Log(clock, SSHD, live=[(0.15, line) for line in BLOCK])
    step, ready, _detail, elapsed = _check(log, clock)
    assert ready and step.fields["host_key_check"] == "verified"
    assert elapsed == pytest.approx(0.45)  # each block line came 0.15 s after the one before: within the quiet


def test_a_silent_log_is_waited_for_only_the_print_bound_then_pinned():
    clock = FakeClock()
    log = Log(clock)  # an image that prints nothing at all: no sshd start to decide from
    step, ready, _detail, elapsed = _check(log, clock)
    assert ready and step.fields["host_key_check"] == "pinned"
    assert elapsed == pytest.approx(CHECK_READ["quiet"])


def test_strict_waits_the_same_bound_and_stays_unverified():
    clock = FakeClock()
    step, ready, detail, elapsed = _check(Log(clock, SSHD), clock, mode="strict")
    assert not ready and step.unverified is not None
    assert detail.endswith("not verified yet: the container log shows no host key fingerprints")
    assert elapsed == pytest.approx(CHECK_READ["quiet"])


def test_a_log_that_never_pauses_and_never_decides_ends_at_the_budget():
    clock = FakeClock()
    step, ready, _detail, elapsed = _check(Log(clock, chatty=True), clock)
    assert ready and step.fields["host_key_check"] == "pinned"
    assert CHECK_READ["budget"] <= elapsed <= CHECK_READ["budget"] + 0.05


def test_an_unreadable_log_pins_at_once_with_its_reason():
    clock = FakeClock()
    log = Log(clock, status=403)
    step, ready, _detail, elapsed = _check(log, clock)
    assert ready and step.fields["host_key_check"] == "pinned" and elapsed == 0 and log.requests == 1
    assert "could not be read (" in step.warning and "forbidden" in step.warning and API_KEY not in step.warning


def test_an_unreadable_log_under_strict_says_it_was_not_read_and_why():
    clock = FakeClock()
    step, ready, detail, elapsed = _check(Log(clock, status=403), clock, mode="strict")
    assert not ready and elapsed == 0 and "not verified yet: the container log could not be read (" in detail
    message = step.unverified.message()
    assert "its container log could not be read (" in message and "forbidden" in message.lower()
    assert "shows no host key fingerprints" not in detail + message and API_KEY not in detail + message


def test_a_spent_quota_defers_the_check_to_the_waits_next_read_and_sends_nothing():
    clock = FakeClock()
    log = Log(clock, SSHD + BLOCK)
    owner = _owner(log, clock)
    owner.backend.client.quota.settle({"RateLimit-Policy": '"minute";q=60;w=60', "RateLimit": '"minute";r=0;t=30'})
    step = _step(owner)
    ready, detail = step(POD, ADDRESS)
    assert not ready and "not checked yet" in detail and "rate_limited" in detail
    assert log.requests == 0 and step.fields is None and step.warning is None  # no 429, nothing pinned
    clock.current += 31  # the window reset: the next poll checks
    assert step(POD, ADDRESS)[0] and step.fields["host_key_check"] == "verified"


def test_the_log_read_starts_with_the_scan_not_after_it():
    clock = FakeClock()
    log = Log(clock, SSHD + BLOCK)

    def scan(host, port, **_options):
        # A scan that ends only once the log was asked for: a read that waited for the scans would never start.
        assert log.asked.wait(5), "the log read did not start with the scan"
        return _scan(host, port)

    step, ready, _detail, _elapsed = _check(log, clock, scan=scan)
    assert ready and step.fields["host_key_check"] == "verified"


def test_a_fingerprint_read_before_the_scan_ended_waits_for_its_keys():
    scanning = Future()
    watch = hk.VouchWatch(lambda: scanning.result().keys)
    done = []
    reader = threading.Thread(target=lambda: done.append(watch(BLOCK[2])))
    reader.start()
    reader.join(0.05)
    assert reader.is_alive()  # holds the read until the keys are known: no decision without them
    scanning.set_result(hkc.ScanResult(True, (KEY,), "1 key"))
    reader.join(5)
    assert done == [True]


@pytest.mark.parametrize("lines, decided", [
    ([*SSHD, "Starting Jupyter Lab..."], True),
    (["Server listening on 0.0.0.0 port 22.", "Server listening on :: port 22.", "app: ready"], True),
    (["Started ssh.service - OpenBSD Secure Shell server.", "Started jupyter.service."], True),
    ([*SSHD, "SSH host keys:"], False),  # the block has begun
    ([*SSHD], False),  # the script may still print
    (["Starting Jupyter Lab...", "app: ready"], False),  # no sshd start to judge from
    (["256 SHA256:" + "C" * 43 + " root@old (ED25519)", *SSHD, "app: ready"], False),  # a block before: read on
])
def test_what_the_history_decides_without_the_keys(lines, decided):
    watch = hk.VouchWatch(lambda: [KEY])
    assert any(watch(line) for line in lines) == decided


def test_a_batch_checks_every_newly_ready_pod_at_once():
    """The steps of the pods that answered in one round run concurrently: each waits until all have started."""
    count = min(TRUST_CONCURRENCY, 12)
    started = threading.Barrier(count, timeout=5)

    class Step:
        def __call__(self, pod, address, deadline=None):
            started.wait()  # a step run after another would break the barrier: BrokenBarrierError
            return True, "checked"

    pods = [PodView(id=f"p{index}", name=f"n{index}", status="RUNNING", runtime_reported=True,
                    ssh_direct=SshAddress(host="127.0.0.1", port=40000 + index, user="root", command=""))
            for index in range(count)]
    backend = SimpleNamespace(pods=SimpleNamespace(list=lambda attempts=None: list(pods)))
    poller = BatchPodPoller(backend, [pod.id for pod in pods], trust=Step,
                            probe_many=lambda targets, **o: {key: ProbeResult(True, "banner", "x") for key in targets})
    poller.deadline = None
    assert poller.poll().ready and len(poller.done) == count


def test_batch_checks_run_at_least_ten_at_once():
    # A 10-pod pod_info wait checks all ten in one round (issue 54: 1.5 s after the last banner, not a sum of rounds).
    assert TRUST_CONCURRENCY >= 10


# Lines by what they are to the watch: sshd's start, that start's own output or the block's head, a fingerprint of
# the presented key or of another, and anything else a container prints.
KINDS = {
    "start": [" * Starting OpenBSD Secure Shell server sshd", "Server listening on 0.0.0.0 port 22.",
              "Started ssh.service - OpenBSD Secure Shell server."],
    "start_output": ["   ...done.", "[ OK ]", "SSH host keys:", "Key: /etc/ssh/ssh_host_ed25519_key.pub", ""],
    "presented": [f"256 {KEY.fingerprint} root@pod-1 (ED25519)"],
    "other_key": ["256 SHA256:" + "D" * 43 + " root@old (ED25519)"],
    "app": ["Starting Jupyter Lab...", "step 1: loss 0.3", "Start script(s) finished, pod is ready to use."],
}


@given(st.lists(st.tuples(st.sampled_from(sorted(KINDS)), st.integers(0, 4)), max_size=25))
def test_the_watch_stops_exactly_where_the_history_decides(picks):
    lines = [(kind, KINDS[kind][index % len(KINDS[kind])]) for kind, index in picks]
    watch = hk.VouchWatch(lambda: [KEY])
    stopped = next((index for index, (_kind, line) in enumerate(lines) if watch(line)), None)
    # The oracle: the first line at which the presented key's fingerprint has shown, or at which other output follows
    # a start with no fingerprint line anywhere before it.
    expected, started, fingerprint = None, False, False
    for index, (kind, _line) in enumerate(lines):
        if kind == "presented" or (kind == "app" and started and not fingerprint):
            expected = index
            break
        fingerprint = fingerprint or kind == "other_key"
        started = started or kind == "start"
    assert stopped == expected
    if stopped is not None:  # what the read kept: verified at the key's line, pinned where the script went on
        kept = hk.check([KEY], hk.logged_fingerprints(line for _kind, line in lines[:stopped + 1]))
        assert kept.status in (("verified",) if lines[stopped][0] == "presented" else ("pinned",))
