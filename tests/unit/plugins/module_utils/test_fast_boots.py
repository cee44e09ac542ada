"""Fast boots (issue 45): the read after a status change comes soon, so a pod that is RUNNING within a second has
its port known before sshd answers, and the probe (every 0.25 s) sees the banner within a second of it, inside the
same T / wait_interval + 3 reads (docs/dev/wait-and-status.md, section 1.1). Time is the fake clock's."""

from __future__ import annotations

from helpers.fakes import FakeClock
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import BatchPodPoller, PodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import until
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView, SshAddress

INTERVAL = 5.0  # the default wait_interval
TIMEOUT = 60.0


class Host:
    """Pods booting on a schedule of the fake clock: PROVISIONING until ``running`` (seconds after the create,
    which is the clock's start), RUNNING with its public port from then on, sshd answering from ``sshd``."""

    def __init__(self, clock, schedules):
        self.clock = clock
        self.schedules = schedules  # pod id -> (running, sshd)
        self.reads = []

    def now(self):
        return self.clock.now() - self.clock.start

    def view(self, pod_id):
        running, _sshd = self.schedules[pod_id]
        if self.now() < running:
            return PodView(id=pod_id, status="PROVISIONING", runtime_reported=False, ports=["22/tcp"])
        port = 40000 + sorted(self.schedules).index(pod_id)
        return PodView(id=pod_id, status="RUNNING", runtime_reported=True, ports=["22/tcp"],
                       ssh_direct=SshAddress(host="1.2.3.4", port=port))

    def list(self, attempts=None):
        self.reads.append(self.now())
        return [self.view(pod_id) for pod_id in self.schedules]

    @property
    def pods(self):
        return self

    def answers(self, port):
        pod_id = sorted(self.schedules)[port - 40000]
        return self.now() >= self.schedules[pod_id][1]

    def probe(self, host, port, **_options):
        ok = self.answers(port)
        return ProbeResult(ok, "ssh reachable" if ok else "connection refused", f"{host}:{port}")

    def probe_many(self, targets, **_options):
        return {key: self.probe(host, port) for key, (host, port) in targets.items()}


# RunPod-like fast hosts: RUNNING (port mapped) within 1 s of the create, sshd 2.2 to 9.7 s after it; the wait's
# first read comes up to half a second after the create (the create's answer, the hand-off).
running_at = st.floats(0.05, 1.0)
sshd_at = st.floats(2.2, 9.7)
first_read_at = st.floats(0.0, 0.5)


@settings(max_examples=300, deadline=None)
@given(running_at, sshd_at, first_read_at)
def test_a_fast_boot_is_detected_within_1_1_s_of_sshd_inside_the_read_budget(running, sshd, start):
    clock = FakeClock()
    host = Host(clock, {"pod-1": (running, sshd)})
    clock.current += start
    outcome = until(PodPoller(host, "pod-1", probe=host.probe), label="pod", timeout=TIMEOUT, interval=INTERVAL,
                    clock=clock)
    detected = host.now()
    assert outcome.value["ssh"]["port"] == 40000
    assert 0 <= detected - sshd <= 1.1, (host.reads, detected)
    waited = detected - start
    assert len(host.reads) <= waited / INTERVAL + 3


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(running_at, sshd_at), min_size=2, max_size=8), first_read_at)
def test_a_batch_of_fast_boots_knows_every_port_before_its_sshd_answers(schedules, start):
    clock = FakeClock()
    host = Host(clock, {f"pod-{index}": schedule for index, schedule in enumerate(schedules)})
    clock.current += start
    seen = {}

    def probe_many(targets, **options):
        for pod_id in targets:
            seen.setdefault(pod_id, host.now())  # the first probe: the port is known from this moment
        return host.probe_many(targets, **options)

    poller = BatchPodPoller(host, list(host.schedules), probe_many=probe_many)
    until(poller, label="pods", timeout=TIMEOUT, interval=INTERVAL, clock=clock)
    assert len(host.reads) <= (host.now() - start) / INTERVAL + 3
    for pod_id, (_running, sshd) in host.schedules.items():
        # The port was known (probed) at most 1.1 s after sshd answered, mostly before it.
        assert seen[pod_id] <= sshd + 1.1, (pod_id, host.reads, seen[pod_id], sshd)


def test_a_provisioning_pod_seen_again_is_read_at_the_steady_pace():
    """The sooner read is spent on the change, not on a pod that stays where it was (the slow RunPod schedule)."""
    clock = FakeClock()
    host = Host(clock, {"pod-1": (30.0, 40.0)})
    until(PodPoller(host, "pod-1", probe=host.probe), label="pod", timeout=TIMEOUT, interval=INTERVAL, clock=clock)
    # 0 (first read) -> 2.5 (no change: steady, the bank refills) -> 10, 15, ... RUNNING seen at 30, probed to 40.
    assert host.reads[:4] == [0, 2.5, 10, 15]
    assert 30 in host.reads and host.now() <= 40.25
