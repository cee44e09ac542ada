"""The host key check (plugins/module_utils/_engine/host_key_check.py) as a pod wait's step after the banner: the check
under each ``host_key_checking`` mode and the ``wait_for: login`` login, with scripted scans, log reads and logins.
The same ``check_hosts`` over many pods at once: the inventory's (tests/unit/plugins/inventory/
test_runpod_host_keys.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_check as hkc
from ansible_collections.runpod.cloud.plugins.module_utils._engine.host_key_check import TrustStep
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import PodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as hk
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView, SshAddress

PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ"
KEY = hk.parse_key(PUBLIC_KEY)
OTHER_FP = "SHA256:" + "A" * 43
ADDRESS = {"host": "127.0.0.1", "port": 40123, "user": "root"}
POD = SimpleNamespace(id="pod-1", env={"PUBLIC_KEY": PUBLIC_KEY})


def log_of(fingerprint):
    return [{"ts": "t", "line": "SSH host keys:"}, {"ts": "t", "line": "Key: /etc/ssh/ssh_host_ed25519_key.pub"},
            {"ts": "t", "line": f"256 {fingerprint} root@pod-1 (ED25519)"}]


class Calls:
    def __init__(self, scans=None, logins=None, log=None):
        self.scans = list(scans or [hkc.ScanResult(True, (KEY,), "1 key")])
        self.logins = list(logins or [])
        self.log = log
        self.logged_in = []
        self.reads = 0

    def run(self, argv):  # never reached: the scripted scan and login take its place
        raise AssertionError(argv)

    def scan(self, host, port, **options):
        assert options.pop("run") == self.run  # the step hands its runner to the tools
        return self.scans.pop(0) if len(self.scans) > 1 else self.scans[0]

    def login(self, host, port, user, key_file, trusted, **options):
        assert options.pop("run") == self.run
        self.logged_in.append((user, key_file, tuple(trusted), options.get("pod_keys")))
        return self.logins.pop(0)

    def read(self, pod_ids, lines, stops):
        self.reads += 1
        assert pod_ids == ["pod-1"] and lines == 1000
        # The step hands the read a watch: the log it gets back must satisfy it line by line exactly when the
        # check verifies every presented key (what a real read stopping early would have returned).
        self.enough = stops["pod-1"]
        block = {"container": self.log or [], "unavailable": None if self.log is not None else "refused"}
        return {"pod-1": block}


def step(calls, mode="log", key_file=None):
    return TrustStep(mode, calls.read, key_file, run=calls.run, scan=calls.scan, login=calls.login)


def test_a_logged_fingerprint_verifies_the_presented_key():
    calls = Calls(log=log_of(KEY.fingerprint))
    trust = step(calls, "strict")
    assert trust(POD, ADDRESS) == (True, "ssh reachable at 127.0.0.1:40123")
    assert trust.fields == {"host_keys": [f"[127.0.0.1]:40123 ssh-ed25519 {KEY.key}"],
                            "host_key_fingerprints": [KEY.fingerprint], "host_key_check": "verified"}
    assert trust.warning is None
    # The read was told to end at the fingerprint line (a real stream would not go quiet for another second).
    assert [calls.enough(entry) for entry in calls.log] == [False, False, True]


def test_the_read_is_not_ended_early_by_another_keys_fingerprint():
    calls = Calls(log=log_of(OTHER_FP))
    with pytest.raises(PollError):
        step(calls, "log")(POD, ADDRESS)
    assert not any(calls.enough(entry) for entry in calls.log)


@pytest.mark.parametrize("mode", ["log", "strict"])
def test_another_logged_fingerprint_fails_at_once_naming_both(mode):
    trust = step(Calls(log=log_of(OTHER_FP)), mode)
    with pytest.raises(PollError) as raised:
        trust(POD, ADDRESS)
    assert raised.value.fatal and raised.value.code == "host_key_mismatch"
    assert KEY.fingerprint in raised.value.message and OTHER_FP in raised.value.message
    assert "pod-1" in raised.value.message and "kept" in raised.value.message


def test_log_pins_with_a_warning_when_the_log_shows_none():
    trust = step(Calls(log=[{"ts": "t", "line": "Pod Started"}]), "log")
    assert trust(POD, ADDRESS)[0] is True
    assert trust.fields["host_key_check"] == "pinned" and trust.fields["host_keys"]
    assert "pinned without verification" in trust.warning


@pytest.mark.parametrize("log, why", [
    ([{"ts": "t", "line": "Pod Started"}], "shows no host key fingerprints"),  # read: no fingerprints in it
    (None, "could not be read (refused)"),  # not read (Calls: unavailable "refused"): why, not "shows no ..."
])
def test_strict_waits_and_says_why_nothing_verified_the_key(log, why):
    calls = Calls(log=log)  # read again at the next poll
    trust = step(calls, "strict")
    ready, detail = trust(POD, ADDRESS)
    assert (ready, detail) == (False, f"host key at 127.0.0.1:40123 not verified yet: the container log {why}")
    assert trust.fields is None
    message = trust.unverified.message()
    assert KEY.fingerprint in message and "host_key_checking: strict" in message
    assert f"its container log {why}, so nothing verifies it" in message
    assert ("The image must print" in message) is (log is not None)  # the image is to blame only for a read log
    calls.log = log_of(KEY.fingerprint)
    assert trust(POD, ADDRESS)[0] is True and trust.unverified is None
    assert calls.reads == 2


def test_no_key_yet_keeps_waiting_and_a_missing_ssh_keyscan_fails():
    trust = step(Calls(scans=[hkc.ScanResult(False, (), "no host key answered")], log=[]))
    assert trust(POD, ADDRESS) == (False, "ssh banner at 127.0.0.1:40123, but no host key yet: no host key answered")
    missing = step(Calls(scans=[hkc.ScanResult(False, (), "not found", unavailable=True)]))
    with pytest.raises(PollError) as raised:
        missing(POD, ADDRESS)
    assert raised.value.code == "ssh_client_missing" and raised.value.fatal


def test_off_reads_no_log_and_checks_nothing():
    calls = Calls(log=log_of(OTHER_FP))
    trust = step(calls, "off")
    assert trust(POD, ADDRESS)[0] is True and calls.reads == 0 and trust.fields is None


def test_off_with_a_login_trusts_the_keys_presented_now_for_that_login_only():
    calls = Calls(log=log_of(OTHER_FP), logins=[hkc.LoginResult("ok", "ran true")])
    trust = step(calls, "off", "/keys/id")
    assert trust(POD, ADDRESS) == (True, "logged in at 127.0.0.1:40123")
    assert calls.reads == 0 and trust.fields is None and calls.logged_in[0][2] == (KEY,)


def test_login_trusts_only_the_checked_key_and_passes_the_pod_keys():
    calls = Calls(log=log_of(KEY.fingerprint), logins=[hkc.LoginResult("ok", "ran true")])
    trust = step(calls, "log", "/keys/id")
    assert trust(POD, ADDRESS) == (True, "logged in at 127.0.0.1:40123, host key verified")
    user, key_file, trusted, pod_keys = calls.logged_in[0]
    assert (user, key_file, trusted) == ("root", "/keys/id", (KEY,))
    assert [key.fingerprint for key in pod_keys] == [KEY.fingerprint]


def test_a_transient_login_waits_and_a_refused_one_fails_fast():
    calls = Calls(log=log_of(KEY.fingerprint), logins=[
        hkc.LoginResult("transient", "Connection reset"), hkc.LoginResult("login_refused", "wrong key")])
    trust = step(calls, "log", "/keys/id")
    assert trust(POD, ADDRESS) == (False, "login at 127.0.0.1:40123 not possible yet: Connection reset")
    with pytest.raises(PollError) as raised:
        trust(POD, ADDRESS)
    assert raised.value.code == "login_refused" and raised.value.fatal and "wrong key" in raised.value.message


def test_a_host_key_change_between_check_and_login_is_a_mismatch():
    calls = Calls(log=log_of(KEY.fingerprint), logins=[hkc.LoginResult("host_key", "changed")])
    with pytest.raises(PollError) as raised:
        step(calls, "log", "/keys/id")(POD, ADDRESS)
    assert raised.value.code == "host_key_mismatch"


class OnePod:
    def __init__(self, pod):
        self.pod = pod

    def list(self, attempts=None):
        return [self.pod]


def test_pod_poller_runs_the_step_after_the_banner_and_only_then():
    pod = PodView(id="pod-1", status="RUNNING", runtime_reported=True,
                  ssh_direct=SshAddress(host="127.0.0.1", port=40123, user="root", command=""))
    seen = []

    def trust(view, address, deadline):
        seen.append(address["port"])
        return False, "host key not verified yet"

    probes = [ProbeResult(False, "refused", "127.0.0.1:40123"), ProbeResult(True, "banner", "127.0.0.1:40123")]
    poller = PodPoller(SimpleNamespace(pods=OnePod(pod)), "pod-1", wait_for="login",
                       probe=lambda host, port, **kw: probes.pop(0), trust=trust)
    first = poller.poll()
    assert not first.ready and seen == []
    second = first.recheck()
    assert (second.ready, second.detail, second.recheck) == (False, "host key not verified yet", None)
    assert seen == [40123]
