"""The host key step per pod of a batch wait (``BatchPodPoller``'s ``trust``, plugins/module_utils/_module/
batch.py): each pod checked against its own log, a mismatch on any pod ends the wait naming it, ``strict``
names the pods whose logs showed no fingerprints, and a pod's result carries what its step proved."""

from __future__ import annotations

import base64
from types import SimpleNamespace

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_check as hkc
from ansible_collections.runpod.cloud.plugins.module_utils._engine.host_key_check import TrustStep
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError, WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import BatchPodPoller, cluster_poller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult
from ansible_collections.runpod.cloud.plugins.module_utils._module import batch
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as hk
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView, SshAddress


def ed25519(seed):
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes([seed]) * 32
    return hk.parse_key("ssh-ed25519 " + base64.b64encode(blob).decode())


KEYS = {40001: ed25519(1), 40002: ed25519(2)}
OTHER_FP = "SHA256:" + "A" * 43


def pod(pod_id, port):
    return PodView(id=pod_id, name=f"node-{pod_id}", status="RUNNING", runtime_reported=True,
                   ssh_direct=SshAddress(host="127.0.0.1", port=port, user="root", command=""))


def log_of(fingerprint):
    return [{"ts": "t", "line": "SSH host keys:"}, {"ts": "t", "line": f"256 {fingerprint} root@x (ED25519)"}]


class Pods:
    def __init__(self, pods):
        self.pods = pods

    def list(self, attempts=None):
        return list(self.pods)


def run(argv):  # never reached: the scripted scan takes its place
    raise AssertionError(argv)


def poller_for(logs, mode="log", **options):
    """Pods a (port 40001) and b (port 40002), both answering their banner; ``logs``: pod id -> log lines."""
    reads = []

    def read(pod_ids, lines, stops):
        reads.extend(pod_ids)
        return {pod_id: {"container": logs.get(pod_id) or [], "unavailable": None} for pod_id in pod_ids}

    def scan(host, port, **_options):
        return hkc.ScanResult(True, (KEYS[port],), "1 key")

    def probe_many(targets, **_options):
        return {key: ProbeResult(True, "banner", f"{host}:{port}") for key, (host, port) in targets.items()}

    backend = SimpleNamespace(pods=Pods([pod("a", 40001), pod("b", 40002)]))
    poller = BatchPodPoller(backend, ["a", "b"], probe_many=probe_many,
                            trust=lambda: TrustStep(mode, read, run=run, scan=scan), **options)
    poller.deadline = None
    return poller, reads


def test_each_pod_is_checked_against_its_own_log_and_carries_what_it_proved():
    poller, reads = poller_for({"a": log_of(KEYS[40001].fingerprint), "b": []})
    result = poller.poll()
    assert result.ready and set(result.value) == {"a", "b"} and sorted(reads) == ["a", "b"]
    assert poller.states == {"a": "ssh reachable at 127.0.0.1:40001", "b": "ssh reachable at 127.0.0.1:40002"}
    warnings = []
    a = batch.with_host_keys({"ssh": {"host": "127.0.0.1"}}, poller.trusts["a"], warnings.append)
    b = batch.with_host_keys({"ssh": {"host": "127.0.0.1"}}, poller.trusts["b"], warnings.append)
    assert a["ssh"]["host_key_check"] == "verified" and b["ssh"]["host_key_check"] == "pinned"
    assert a["ssh"]["host_keys"] == [f"[127.0.0.1]:40001 ssh-ed25519 {KEYS[40001].key}"]
    assert b["ssh"]["host_key_fingerprints"] == [KEYS[40002].fingerprint]
    assert len(warnings) == 1 and "pod b" in warnings[0] and "pinned without verification" in warnings[0]


def test_a_mismatch_on_one_pod_ends_the_whole_wait_naming_it_and_both_fingerprints():
    poller, _reads = poller_for({"a": log_of(KEYS[40001].fingerprint), "b": log_of(OTHER_FP)})
    with pytest.raises(PollError) as raised:
        poller.poll()
    error = raised.value
    assert error.fatal and error.code == "host_key_mismatch"
    assert "pod b " in error.message and KEYS[40002].fingerprint in error.message and OTHER_FP in error.message
    assert "pod a " not in error.message and error.states["b"] == "host_key_mismatch"
    assert poller.failed == ["b"]  # its logs explain the failure


def test_strict_keeps_waiting_without_rechecks_and_names_the_unverified_pods_at_the_deadline():
    poller, reads = poller_for({"a": log_of(KEYS[40001].fingerprint), "b": None}, mode="strict")
    result = poller.poll()
    assert not result.ready and "a" in poller.done and "b" not in poller.done
    assert "not verified yet" in poller.states["b"]
    assert result.recheck is None  # the step reads a log (an API call): only the next read checks again
    timeout = WaitError("wait_timeout", "ssh on 2 pods", "timed out", elapsed=60)
    msg, extra = batch.explain_unverified(lambda: ("Timed out.", {"not_ready": ["a", "b"]}), timeout,
                                          poller.trusts, ["a", "b"])
    assert msg.startswith("pod b ") and msg.endswith(" The pod was kept. Timed out.") and "pod a " not in msg
    assert KEYS[40002].fingerprint in msg and "host_key_checking: strict" in msg
    assert extra == {"not_ready": ["a", "b"], "code": "host_key_unverified"}
    # Another failure, or nothing unverified: the wait's own explanation.
    other = WaitError("conflict", "ssh on 2 pods", "pod b is exited", elapsed=3)
    assert batch.explain_unverified(lambda: ("x", {}), other, poller.trusts, ["b"]) == ("x", {})
    assert batch.explain_unverified(lambda: ("x", {}), other, poller.trusts, ["b"], otherwise=False) is None
    assert reads.count("b") == 1


def test_a_cluster_wait_checks_each_member():
    poller, _reads = poller_for({"a": [], "b": log_of(OTHER_FP)})
    members = SimpleNamespace(clusters=SimpleNamespace(pods=lambda cluster_id, attempts=None: [pod("b", 40002)]))
    cluster = cluster_poller(members, "c1", 1, probe_many=poller.probe_many, trust=poller.trust)
    with pytest.raises(PollError) as raised:
        cluster.poll()
    assert raised.value.code == "host_key_mismatch" and "pod b " in raised.value.message


def test_without_a_step_the_banner_is_enough():
    poller, reads = poller_for({})
    poller.trust = None
    assert poller.poll().ready and reads == [] and poller.trusts == {}
