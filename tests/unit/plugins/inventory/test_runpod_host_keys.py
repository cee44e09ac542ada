"""The inventory plugin's host key check (plugins/plugin_utils/_inventory_host_keys.py): the pod wait's check
(``_engine/host_key_check.check_hosts``, test_host_key_check.py) run on every pod in one batch, a pod it cannot trust
left out with the reason, and one known_hosts file per pod."""

from __future__ import annotations

import base64

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_check as hkc
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as hk
from ansible_collections.runpod.cloud.plugins.plugin_utils import _inventory_host_keys as ihk
from ansible_collections.runpod.cloud.plugins.plugin_utils import _known_hosts


def ed25519(seed):
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes([seed]) * 32
    return hk.parse_key("ssh-ed25519 " + base64.b64encode(blob).decode())


KEYS = {port: ed25519(port - 40000) for port in range(40001, 40006)}
OTHER_FP = "SHA256:" + "B" * 43


def record(pod_id, port):
    return {"id": pod_id, "name": pod_id, "ssh": {"host": "127.0.0.1", "port": port, "user": "root"}}


def logged(fingerprint):
    return {"container": [{"ts": "t", "line": f"256 {fingerprint} root@x (ED25519)"}], "unavailable": None}


def run(argv):  # never reached: the scripted scan takes its place
    raise AssertionError(argv)


def scan(host, port, **options):
    assert options["run"] is run  # the plugin's runner reaches ssh-keyscan
    if port == 40004:
        return hkc.ScanResult(False, (), "ssh-keyscan of 127.0.0.1:40004 saw no host key: refused")
    return hkc.ScanResult(True, (KEYS[port],), "1 key")


LOGS = {
    "ok": logged(KEYS[40001].fingerprint),
    "liar": logged(OTHER_FP),
    "quiet": {"container": [], "unavailable": None},
    "unread": {"container": [], "unavailable": "no answer in time"},
}
RECORDS = [record("ok", 40001), record("liar", 40002), record("quiet", 40003), record("down", 40004),
           record("unread", 40005)]


@pytest.mark.parametrize("mode", ["log", "strict"])
def test_each_pod_is_judged_by_the_pod_wait_rule(mode):
    asked = []

    def read_logs(pod_ids, lines, stops):
        asked.extend(pod_ids)
        assert set(stops) == set(pod_ids) and lines == 1000
        return {pod_id: LOGS.get(pod_id, LOGS["quiet"]) for pod_id in pod_ids}

    checks = ihk.check_pods(None, RECORDS, mode, run=run, scan=scan, read_logs=read_logs)
    # Every read starts with the scans (issue 54), so a pod whose scan saw no key was read too, and is not judged.
    assert sorted(asked) == ["down", "liar", "ok", "quiet", "unread"]
    ok, liar, quiet, down, unread = (checks[name] for name in ("ok", "liar", "quiet", "down", "unread"))
    assert ok["host_key_check"] == "verified" and ok["problem"] is None and ok["mode"] == mode
    assert ok["host_keys"] == [f"[127.0.0.1]:40001 ssh-ed25519 {KEYS[40001].key}"]
    assert liar["host_key_check"] == "mismatch" and liar["host_keys"] == []
    assert KEYS[40002].fingerprint in liar["problem"] and OTHER_FP in liar["problem"] and "pod liar " in liar["problem"]
    assert "no host key" in down["problem"] and down["host_keys"] == []
    if mode == "log":
        assert quiet["problem"] is None and quiet["host_key_check"] == "pinned" and quiet["host_keys"]
        assert "pinned without verification" in quiet["warning"] and unread["host_key_check"] == "pinned"
        assert "could not be read (no answer in time)" in unread["warning"]  # pinned with its reason
    else:
        assert "shows no host key fingerprints" in quiet["problem"] and quiet["host_keys"] == []
        assert quiet["problem"].endswith("The pod was kept.")
        # Not verified because the log was not read: said once, with the reason, not as a log without fingerprints.
        assert "its container log could not be read (no answer in time), so nothing verifies it" in unread["problem"]
        assert "shows no host key fingerprints" not in unread["problem"] and unread["host_keys"] == []
        assert unread["problem"].endswith("(host_key_checking: strict). The pod was kept.")


def test_no_ssh_keyscan_is_an_error_not_a_guess():
    missing = hkc.ScanResult(False, (), "OpenSSH's ssh-keyscan was not found on PATH", unavailable=True)
    with pytest.raises(PollError, match="ssh-keyscan was not found") as raised:
        ihk.check_pods(None, RECORDS, "log", run=run, scan=lambda host, port, run: missing,
                       read_logs=lambda ids, lines, stops: {})
    assert raised.value.code == "ssh_client_missing"


def test_known_hosts_files_are_private_sorted_and_rewritten_only_when_they_change(tmp_path):
    directory = tmp_path / "known"
    lines = ["[127.0.0.1]:40001 ssh-rsa BBBB", "[127.0.0.1]:40001 ssh-ed25519 AAAA"]
    path = _known_hosts.write_known_hosts(str(directory), "pod-1", lines)
    assert path == str(directory / "known_hosts_pod-1")
    assert (directory / "known_hosts_pod-1").read_text() == "".join(line + "\n" for line in sorted(lines))
    assert oct(directory.stat().st_mode & 0o777) == "0o700"
    assert oct((directory / "known_hosts_pod-1").stat().st_mode & 0o777) == "0o600"
    before = (directory / "known_hosts_pod-1").stat().st_mtime_ns
    _known_hosts.write_known_hosts(str(directory), "pod-1", list(reversed(lines)))
    assert (directory / "known_hosts_pod-1").stat().st_mtime_ns == before
    assert sorted(item.name for item in directory.iterdir()) == ["known_hosts_pod-1"]
    assert _known_hosts.ssh_common_args("/a b/k") == "-o StrictHostKeyChecking=yes -o UserKnownHostsFile='/a b/k'"
