# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The real sshd's host keys (issue 44): each pod has its own, and prints them into its container log as RunPod's
start script does (``SSH host keys:``, then ``Key: <path>`` and the ``ssh-keygen -lf`` line per key); the knobs
``ssh_host_key_log`` (print, none, wrong, started) and ``ssh_login`` (key, no_key, root_refused)."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess

import asyncssh
import pytest
from simhelpers import wait_for
from test_log_streams import read_stream

from runpod_sim.testing import SimAdminError

FINGERPRINT = re.compile(r"^256 (SHA256:[A-Za-z0-9+/]{43}) root@(\S+) \((ECDSA|ED25519)\)$")


@pytest.fixture(scope="module")
def client_key():
    return asyncssh.generate_private_key("ssh-ed25519")


def _public(key) -> str:
    return key.export_public_key().decode().strip()


def container_lines(v2, pod_id: str, until: int | None = None) -> list[str]:
    _response, events = read_stream(v2, f"/pods/{pod_id}/logs", params={"source": "container"}, seconds=0.5,
                                    until=until)
    return [data["line"] for _id, data in events]


def presented_key(port: int, client_key, algorithm: str = "ssh-ed25519"):
    """The host key the sshd presents for ``algorithm`` in a real key exchange (and that a login as root works)."""

    async def go():
        async with asyncssh.connect("127.0.0.1", port, username="root", client_keys=[client_key], known_hosts=None,
                                    server_host_key_algs=[algorithm], connect_timeout=5) as conn:
            assert (await conn.run("true", check=False)).exit_status == 0
            return conn.get_server_host_key()

    return asyncio.run(go())


def blocks(lines: list[str]) -> list[list[tuple[str, str]]]:
    """Each ``SSH host keys:`` block as ``[(path, fingerprint line), ...]``."""
    found: list[list[tuple[str, str]]] = []
    for index, line in enumerate(lines):
        if line == "SSH host keys:":
            found.append([])
        elif line.startswith("Key: ") and found:
            found[-1].append((line[5:], lines[index + 1]))
    return found


def test_the_real_sshd_prints_its_host_keys_as_runpods_start_script_does(sim, v2, running_pod, client_key):
    pod = running_pod(env={"PUBLIC_KEY": _public(client_key)})
    state = sim.admin.pod(pod["id"])
    fingerprints = state["host_key_fingerprints"]
    assert len(fingerprints) == 2 and [line.split()[0] for line in state["host_keys"]] == [
        "ecdsa-sha2-nistp256", "ssh-ed25519"]
    lines = container_lines(v2, pod["id"], until=12)
    ecdsa, ed25519 = (f"256 {fingerprint} root@{pod['id']} ({label})"
                      for fingerprint, label in zip(fingerprints, ("ECDSA", "ED25519"), strict=True))
    # A fresh container disk: the script generates each key (printing its fingerprint), starts sshd, lists them.
    assert lines == [
        "Setting up SSH...",
        "ECDSA key fingerprint:", ecdsa, "ED25519 key fingerprint:", ed25519,
        " * Starting OpenBSD Secure Shell server sshd", "   ...done.",
        "SSH host keys:",
        "Key: /etc/ssh/ssh_host_ecdsa_key.pub", ecdsa,
        "Key: /etc/ssh/ssh_host_ed25519_key.pub", ed25519,
    ]
    assert all(FINGERPRINT.match(line) for line in (ecdsa, ed25519))
    # The keys the sshd presents in a real key exchange are the logged ones.
    port = pod["ssh"]["direct"]["port"]
    for algorithm, fingerprint in zip(("ecdsa-sha2-nistp256", "ssh-ed25519"), fingerprints, strict=True):
        assert presented_key(port, client_key, algorithm).get_fingerprint("sha256") == fingerprint
    # Another pod has keys of its own.
    other = running_pod(name="pod-b", env={"PUBLIC_KEY": _public(client_key)})
    assert set(sim.admin.pod(other["id"])["host_key_fingerprints"]).isdisjoint(fingerprints)


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH's ssh-keygen")
def test_the_logged_lines_are_what_ssh_keygen_prints_for_the_presented_keys(
        sim, v2, running_pod, client_key, tmp_path):
    pod = running_pod(env={"PUBLIC_KEY": _public(client_key)})
    state = sim.admin.pod(pod["id"])
    logged = [fingerprint for _path, fingerprint in blocks(container_lines(v2, pod["id"], until=12))[0]]
    for index, public in enumerate(state["host_keys"]):
        path = tmp_path / f"key{index}.pub"
        path.write_text(f"{public} root@{pod['id']}\n")
        printed = subprocess.run(["ssh-keygen", "-lf", str(path)], capture_output=True, text=True, check=True)
        assert printed.stdout.strip() == logged[index]


@pytest.mark.skipif(shutil.which("ssh-keyscan") is None, reason="needs OpenSSH's ssh-keyscan")
def test_ssh_keyscan_sees_the_keys_the_admin_view_lists(sim, running_pod, client_key):
    pod = running_pod(env={"PUBLIC_KEY": _public(client_key)})
    port = pod["ssh"]["direct"]["port"]
    scanned = subprocess.run(["ssh-keyscan", "-p", str(port), "-T", "5", "127.0.0.1"], capture_output=True,
                             text=True, timeout=60, check=False)
    keys = {" ".join(line.split()[1:3]) for line in scanned.stdout.splitlines() if line.startswith("[127.0.0.1]")}
    assert keys == set(sim.admin.pod(pod["id"])["host_keys"])


def test_a_restart_lists_the_same_keys_again_and_a_stop_makes_new_ones(sim, v2, running_pod, client_key):
    pod = running_pod(env={"PUBLIC_KEY": _public(client_key)})
    first = sim.admin.pod(pod["id"])["host_key_fingerprints"]
    v2.post(f"/pods/{pod['id']}/action", json={"action": "restart"})
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=True)
    lines = wait_for(lambda: (found := container_lines(v2, pod["id"])).count("SSH host keys:") == 2 and found)
    assert lines.count("ECDSA key fingerprint:") == 1  # the keys exist: nothing generated the second time
    assert [[line.split()[1] for _path, line in block] for block in blocks(lines)] == [first, first]
    v2.post(f"/pods/{pod['id']}/action", json={"action": "stop"})
    v2.post(f"/pods/{pod['id']}/action", json={"action": "start"})
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=True)
    renewed = sim.admin.pod(pod["id"])["host_key_fingerprints"]
    assert len(renewed) == 2 and set(renewed).isdisjoint(first)
    lines = wait_for(lambda: (found := container_lines(v2, pod["id"])).count("SSH host keys:") == 3 and found)
    assert [line.split()[1] for _path, line in blocks(lines)[-1]] == renewed
    assert lines.count("ED25519 key fingerprint:") == 2  # a new container disk: generated again


def test_an_image_that_prints_nothing_one_that_prints_other_keys_and_one_that_starts_sshd_silently(
        sim, v2, running_pod, client_key):
    sim.admin.configure(name_overrides={"quiet": {"ssh_host_key_log": "none"}, "liar": {"ssh_host_key_log": "wrong"},
                                        "bare": {"ssh_host_key_log": "started"}})
    quiet = running_pod(name="quiet", env={"PUBLIC_KEY": _public(client_key)})
    liar = running_pod(name="liar", env={"PUBLIC_KEY": _public(client_key)})
    bare = running_pod(name="bare", env={"PUBLIC_KEY": _public(client_key)})
    assert container_lines(v2, quiet["id"]) == []
    assert sim.admin.pod(quiet["id"])["ssh_host_key_log"] == "none"
    # sshd's start, then the rest of the start script: no fingerprint line, though sshd has (and presents) keys.
    assert container_lines(v2, bare["id"]) == [" * Starting OpenBSD Secure Shell server sshd", "   ...done.",
                                               "Start script(s) finished, pod is ready to use."]
    assert len(sim.admin.pod(bare["id"])["host_key_fingerprints"]) == 2
    lines = container_lines(v2, liar["id"], until=12)
    logged = [FINGERPRINT.match(line).group(1) for _path, line in blocks(lines)[0]]
    presented = sim.admin.pod(liar["id"])["host_key_fingerprints"]
    assert len(logged) == 2 and set(logged).isdisjoint(presented)
    port = liar["ssh"]["direct"]["port"]
    assert presented_key(port, client_key).get_fingerprint("sha256") == presented[1]


def test_listeners_without_a_real_sshd_print_no_host_keys(sim, v2, running_pod, client_key):
    sim.admin.configure(ssh_behaviour="banner")
    pod = running_pod(env={"PUBLIC_KEY": _public(client_key)})
    assert container_lines(v2, pod["id"]) == []
    assert sim.admin.pod(pod["id"])["host_keys"] == []


def _login(port: int, key) -> int:
    async def go():
        async with asyncssh.connect("127.0.0.1", port, username="root", client_keys=[key], known_hosts=None,
                                    connect_timeout=5) as conn:
            return (await conn.run("true", check=False)).exit_status

    return asyncio.run(go())


def test_ssh_login_lets_in_the_created_key_nobody_or_nobody_as_root(sim, running_pod, client_key):
    pod = running_pod(env={"PUBLIC_KEY": _public(client_key)})
    port = pod["ssh"]["direct"]["port"]
    assert _login(port, client_key) == 0
    for login in ("no_key", "root_refused"):
        assert sim.admin.set_pod_behaviour(pod["id"], ssh_login=login)["ssh_login"] == login
        with pytest.raises(asyncssh.PermissionDenied):
            _login(port, client_key)
    # Asked at each login: the listener (and its host keys) stays as it was.
    keys = sim.admin.pod(pod["id"])["host_keys"]
    sim.admin.set_pod_behaviour(pod["id"], ssh_login="key")
    assert _login(port, client_key) == 0 and sim.admin.pod(pod["id"])["host_keys"] == keys


def test_the_new_knobs_are_validated_and_reset(sim, running_pod):
    for knob in ({"ssh_host_key_log": "sometimes"}, {"ssh_login": "password"}):
        with pytest.raises(SimAdminError) as refused:
            sim.admin.configure(**knob)
        assert refused.value.status == 400 and "expected one of" in refused.value.message
        with pytest.raises(SimAdminError):
            sim.admin.configure(name_overrides={"x": knob})
    pod = running_pod()
    with pytest.raises(SimAdminError):
        sim.admin.set_pod_behaviour(pod["id"], ssh_login="maybe")
    sim.admin.configure(ssh_host_key_log="wrong", ssh_login="no_key")
    sim.admin.reset()
    assert {key: sim.admin.config()[key] for key in ("ssh_host_key_log", "ssh_login")} == {
        "ssh_host_key_log": "print", "ssh_login": "key"}
