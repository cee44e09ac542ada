# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""A pod's host keys and a real login, with OpenSSH's own tools (pure Python around ``ssh-keyscan`` and ``ssh``).

``scan`` runs ``ssh-keyscan`` (a real key exchange per key type) and returns the keys the pod presents.
``ssh_login`` logs in with the user's private key against a temporary known_hosts that holds only the keys the host
key check trusted (``StrictHostKeyChecking=yes``), runs ``true``, and says what happened: ``ok``,
``login_refused`` (with the likely reason), ``host_key`` (the pod presented another key than the one checked),
``transient`` (the network or sshd is not there yet: keep waiting) or ``unavailable`` (no OpenSSH client here).
Every controller that uses Ansible's ssh connection has both tools; a missing one is reported, never guessed around.

The engine starts no process itself: ``run(argv) -> (rc, stdout, stderr)`` is handed in (a module's
``run_command``, or the action plugin's runner on the controller), and raises ``OSError`` when it cannot start the
tool. Time is bounded by OpenSSH's own options (``ssh-keyscan -T``, ``ssh``'s ``ConnectTimeout`` and
``ServerAlive*``), so no runner needs a kill timer.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as _host_keys

OK = "ok"
LOGIN_REFUSED = "login_refused"
HOST_KEY = "host_key"
TRANSIENT = "transient"
UNAVAILABLE = "unavailable"
DEFAULT_TIMEOUT = 10.0
# Runs argv with no stdin; answers (returncode, stdout, stderr); raises OSError when the tool cannot start.
Run = Callable[[Sequence[str]], tuple[int, str, str]]
_MIN_TIMEOUT = 0.001
_REFUSED = ("permission denied", "too many authentication failures", "no more authentication methods")
_HOST_KEY = ("host key verification failed", "remote host identification has changed", "host key for ")
_KEY_FILE = ("bad permissions", "unprotected private key file", "no such identity", "invalid format",
             "load key")


@dataclass(frozen=True, slots=True)
class ScanResult:
    """The keys ``host:port`` presented (``ok`` when any); ``detail`` says why none, or what was scanned."""

    ok: bool
    keys: tuple[_host_keys.PresentedKey, ...]
    detail: str
    unavailable: bool = False


@dataclass(frozen=True, slots=True)
class LoginResult:
    """``outcome`` is one of ``ok``, ``login_refused``, ``host_key``, ``transient``, ``unavailable``."""

    outcome: str
    detail: str

    @property
    def ok(self) -> bool:
        return self.outcome == OK


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _budget(timeout: float, deadline: float | None, clock: Callable[[], float]) -> float:
    if deadline is None:
        return max(timeout, _MIN_TIMEOUT)
    return max(min(timeout, deadline - clock()), _MIN_TIMEOUT)


def _missing(tool: str) -> str:
    return (f"OpenSSH's {tool} was not found on PATH: checking a pod's host key and logging in need the OpenSSH "
            "client on the controller (package openssh-client, or openssh-clients)")


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return "; ".join(lines[-count:])


def scan(host: str, port: int, *, run: Run, timeout: float = DEFAULT_TIMEOUT, deadline: float | None = None,
         clock: Callable[[], float] = time.monotonic, which: Callable[[str], str | None] = shutil.which) -> ScanResult:
    """``ssh-keyscan -p PORT -T SECONDS HOST`` within ``timeout`` (capped by ``deadline`` in ``clock()`` time)."""
    address = _address(host, port)
    tool = which("ssh-keyscan")
    if tool is None:
        return ScanResult(False, (), _missing("ssh-keyscan"), unavailable=True)
    budget = _budget(timeout, deadline, clock)
    argv = [tool, "-p", str(int(port)), "-T", str(max(1, math.ceil(budget))), host]
    try:
        _code, stdout, stderr = run(argv)
    except OSError as err:
        return ScanResult(False, (), f"cannot run {tool}: {err}", unavailable=True)
    keys = tuple(_host_keys.parse_keys(stdout))
    if keys:
        return ScanResult(True, keys, f"{address} presented {len(keys)} host key(s)")
    why = _last_lines(stderr) or "no host key answered"
    return ScanResult(False, (), f"ssh-keyscan of {address} saw no host key: {why}")


def public_key_of(private_key_file: str, run: Run,
                  which: Callable[[str], str | None] = shutil.which) -> _host_keys.PresentedKey | None:
    """The public half of a private key file: its ``.pub`` beside it, else ``ssh-keygen -y`` (an unencrypted key
    only: nothing here may prompt). None when neither tells."""
    try:
        with open(private_key_file + ".pub", encoding="utf-8") as handle:
            key = _host_keys.parse_key(handle.read())
        if key is not None:
            return key
    except (OSError, UnicodeDecodeError):
        pass
    tool = which("ssh-keygen")
    if tool is None:
        return None
    try:
        code, stdout, _stderr = run([tool, "-y", "-P", "", "-f", private_key_file])
    except OSError:
        return None
    return _host_keys.parse_key(stdout) if code == 0 else None


def refusal_reason(user: str, offered: _host_keys.PresentedKey | None,
                   pod_keys: Iterable[_host_keys.PresentedKey] | None) -> str:
    """Why a pod refused the key, from what reached it: ``pod_keys`` are the keys it was created with (its env
    ``PUBLIC_KEY``; None when unknown), ``offered`` the public half of the key the login used."""
    if pod_keys is None:
        return f"the pod refused the key for user {user}"
    pod_keys = list(pod_keys)
    if not pod_keys:
        return ("no key reached the pod: it was created without PUBLIC_KEY (give ssh_public_key, or register the "
                "account's keys and start it with start_ssh)")
    if offered is None:
        return f"the pod refused the key for user {user} (its public half could not be read to say more)"
    if all(key.fingerprint != offered.fingerprint for key in pod_keys):
        given = ", ".join(key.fingerprint for key in pod_keys)
        return f"wrong key: the pod was given {given}, not {offered.fingerprint}"
    return (f"the pod was given this key ({offered.fingerprint}) but refused it for user {user}: its image may not "
            "install PUBLIC_KEY, or its sshd refuses this user (root logins off)")


def _classify(code: int, stderr: str, stdout: str, user: str, address: str, offered: _host_keys.PresentedKey | None,
              pod_keys: Iterable[_host_keys.PresentedKey] | None) -> LoginResult:
    said = stderr.lower()
    if code == 0:
        return LoginResult(OK, f"logged in to {address} as {user} and ran true")
    if any(text in said for text in _HOST_KEY):
        return LoginResult(HOST_KEY, f"{address} presented a host key other than the checked one: "
                                     f"{_last_lines(stderr)}")
    if any(text in said for text in _REFUSED):
        key_file = [line.strip() for line in stderr.splitlines() if any(text in line.lower() for text in _KEY_FILE)]
        if key_file:
            return LoginResult(LOGIN_REFUSED, f"the private key file could not be used: {'; '.join(key_file[:2])}")
        reason = refusal_reason(user, offered, pod_keys)
        return LoginResult(LOGIN_REFUSED, f"{address} refused the login as {user}: {reason} "
                                          f"({_last_lines(stderr, 1)})")
    if code == 255:
        return LoginResult(TRANSIENT, _last_lines(stderr) or f"ssh to {address} failed")
    # Logged in, but the session did not run `true`: a forced command ("Please login as the user ...") or no shell.
    said_out = _last_lines(stdout + "\n" + stderr)
    return LoginResult(LOGIN_REFUSED, f"logged in to {address} as {user}, but `true` exited {code}"
                                      + (f": {said_out}" if said_out else ""))


def ssh_login(host: str, port: int, user: str, private_key_file: str,
              trusted: Iterable[_host_keys.PresentedKey], *, run: Run, timeout: float = DEFAULT_TIMEOUT,
              deadline: float | None = None, clock: Callable[[], float] = time.monotonic,
              pod_keys: Iterable[_host_keys.PresentedKey] | None = None,
              which: Callable[[str], str | None] = shutil.which) -> LoginResult:
    """Log in to ``host:port`` as ``user`` with ``private_key_file`` in batch mode, trusting only ``trusted``
    (``StrictHostKeyChecking=yes`` against a temporary known_hosts), and run ``true``. ``pod_keys`` (the keys
    the pod was created with) make a refusal's reason precise."""
    address = _address(host, port)
    tool = which("ssh")
    if tool is None:
        return LoginResult(UNAVAILABLE, _missing("ssh"))
    budget = _budget(timeout, deadline, clock)
    with tempfile.TemporaryDirectory(prefix="runpod_login_") as work:
        known_hosts = os.path.join(work, "known_hosts")
        with open(known_hosts, "w", encoding="utf-8") as handle:
            handle.writelines(line + "\n" for line in _host_keys.known_hosts_lines(host, port, trusted))
        seconds = max(1, math.ceil(budget))
        argv = [
            tool, "-F", os.devnull, "-n", "-T", "-p", str(int(port)), "-l", user, "-i", private_key_file,
            "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=yes",
            "-o", f"UserKnownHostsFile={known_hosts}", "-o", f"GlobalKnownHostsFile={os.devnull}",
            "-o", "UpdateHostKeys=no", "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no",
            # Connect, key exchange and a stalled session each end within the budget, without a kill timer.
            "-o", f"ConnectTimeout={seconds}", "-o", "ServerAliveInterval=1", "-o", f"ServerAliveCountMax={seconds}",
            "-o", "ControlMaster=no", "-o", "ControlPath=none",
            host, "true",
        ]
        try:
            code, stdout, stderr = run(argv)
        except OSError as err:
            return LoginResult(UNAVAILABLE, f"cannot run {tool}: {err}")
    pod_keys = None if pod_keys is None else list(pod_keys)
    refused = any(text in stderr.lower() for text in _REFUSED)
    # The public half is read only to explain a refusal against the keys the pod was given.
    offered = public_key_of(private_key_file, run, which) if refused and pod_keys else None
    return _classify(code, stderr, stdout, user, address, offered, pod_keys)
