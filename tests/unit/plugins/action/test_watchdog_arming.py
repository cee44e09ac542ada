# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""plugins/plugin_utils/_watchdog.py: when ``runpod.cloud.pod`` arms the pod's watchdog, and the login it arms over
(the real SSH arming runs in tests/integration/test_pod_watchdog.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from ansible_collections.runpod.cloud.plugins.plugin_utils import _watchdog

POD = {"id": "p1", "ssh": {"host": "203.0.113.7", "port": 40123, "user": "root",
                           "host_keys": ["[203.0.113.7]:40123 ssh-ed25519 AAAAC3Nz"]}}
LOGIN = {"wait_for": "login", "ssh_private_key_file": "~/.ssh/id_ed25519"}


@pytest.mark.parametrize(("args", "result", "armed"), [
    (LOGIN, {"pod": POD, "wait": {}}, True),
    ({**LOGIN, "wait_for": "ssh"}, {"pod": POD, "wait": {}}, False),  # no login, no key to arm with
    (LOGIN, {"pod": POD}, False),  # nothing waited (check mode, absent, a wait that did not run)
    (LOGIN, {"pod": POD, "wait": {}, "failed": True}, False),
    (LOGIN, {"pod": {"id": "p1", "ssh": None}, "wait": {}}, False),
])
def test_only_a_login_wait_that_succeeded_arms(args, result, armed):
    assert _watchdog.wanted(args, result) is armed


def test_the_arming_trusts_only_the_checked_host_keys_and_sends_the_script_on_stdin(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    seen = {}

    def run(argv, *, input, **_kwargs):
        known_hosts = next(arg.split("=", 1)[1] for arg in argv if arg.startswith("UserKnownHostsFile="))
        seen.update(argv=argv, input=input, known_hosts=Path(known_hosts).read_text(encoding="utf-8"))
        return SimpleNamespace(returncode=0, stdout="runpod.cloud watchdog: armed on pod p1 (pid 9)\n", stderr="")

    done = _watchdog.arm(POD, "~/.ssh/id_ed25519", run=run)
    assert done == {"armed": True, "detail": "runpod.cloud watchdog: armed on pod p1 (pid 9)"}
    argv = seen["argv"]
    assert "StrictHostKeyChecking=yes" in argv and "BatchMode=yes" in argv
    assert argv[argv.index("-i") + 1] == f"{tmp_path}/.ssh/id_ed25519"
    assert argv[-2:] == ["203.0.113.7", _watchdog.ARM]
    assert seen["known_hosts"] == "[203.0.113.7]:40123 ssh-ed25519 AAAAC3Nz\n"
    assert seen["input"] == _watchdog.SCRIPT.read_text(encoding="utf-8")


@pytest.mark.parametrize(("outcome", "armed", "detail"), [
    (SimpleNamespace(returncode=0, stdout="runpod.cloud watchdog: pod p1 has no lease, nothing armed\n", stderr=""),
     False, "runpod.cloud watchdog: pod p1 has no lease, nothing armed"),
    (SimpleNamespace(returncode=255, stdout="", stderr="ssh: connect to host 203.0.113.7 port 40123: refused\n"),
     False, "ssh: connect to host 203.0.113.7 port 40123: refused"),
    (subprocess.TimeoutExpired("ssh", 60), False, "could not run ssh to arm the watchdog"),
])
def test_a_pod_without_a_lease_or_a_failed_login_is_not_armed(outcome, armed, detail):
    def run(*_args, **_kwargs):
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    done = _watchdog.arm(POD, "/k", run=run)
    assert done["armed"] is armed and done["detail"].startswith(detail)
