# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The host key check in one place (docs/pods.md "Trusting the pod's host key"), for the pod waits (``TrustStep``)
and the inventory: ``ssh-keyscan`` against the container log's fingerprints. ``run`` and ``read_logs`` are handed
in, so this stays pure Python; OpenSSH's own timeouts bound the time (no kill timer).
"""

from __future__ import annotations

import functools
import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._engine import ssh_probe as _ssh_probe
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as _host_keys

OK = "ok"
LOGIN_REFUSED = "login_refused"
HOST_KEY = "host_key"
TRANSIENT = "transient"
UNAVAILABLE = "unavailable"
DEFAULT_TIMEOUT = 10.0
SSH_CLIENT_MISSING = "ssh_client_missing"
# The start script prints the fingerprint block early: the newest 1000 lines hold it even after a chatty start.
HOST_KEY_LINES = 1000
# The check's log read (docs/pods.md "What the check costs"): it ends when the history decides (VouchWatch), else
# 0.2 s (quiet) after its last line (the start script prints its block within 0.1 s of sshd answering), else 1.5 s.
CHECK_READ = {"budget": 1.5, "quiet": 0.2}
# Scans at once (one ssh-keyscan process each), as many as log reads (_backend.log_reads.MAX_CONCURRENT_READS).
SCAN_CONCURRENCY = 8
# Runs argv with no stdin; answers (returncode, stdout, stderr); raises OSError when the tool cannot start.
Run = Callable[[Sequence[str]], tuple[int, str, str]]
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
    """``outcome``: ``ok``, ``login_refused``, ``host_key``, ``transient`` (keep waiting) or ``unavailable``."""

    outcome: str
    detail: str

    @property
    def ok(self) -> bool:
        return self.outcome == OK


def _missing(tool: str) -> str:
    return (f"OpenSSH's {tool} was not found on PATH: checking a pod's host key and logging in need the OpenSSH "
            "client on the controller (package openssh-client, or openssh-clients)")


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return "; ".join(lines[-count:])


def scan(host: str, port: int, *, run: Run, timeout: float = DEFAULT_TIMEOUT, deadline: float | None = None,
         clock: Callable[[], float] = time.monotonic, which: Callable[[str], str | None] = shutil.which) -> ScanResult:
    """``ssh-keyscan -p PORT -T SECONDS HOST`` within ``timeout`` (capped by ``deadline`` in ``clock()`` time)."""
    address = _ssh_probe.format_address(host, port)
    tool = which("ssh-keyscan")
    if tool is None:
        return ScanResult(False, (), _missing("ssh-keyscan"), unavailable=True)
    budget = _ssh_probe.timeout_within(timeout, deadline, clock)
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
    """A private key's public half: its ``.pub``, else ``ssh-keygen -y`` (unencrypted only: nothing may prompt)."""
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
    """Why a pod refused ``offered``, given the keys it was created with (env ``PUBLIC_KEY``; None: unknown)."""
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


def ssh_login(host: str, port: int, user: str, private_key_file: str,
              trusted: Iterable[_host_keys.PresentedKey], *, run: Run, timeout: float = DEFAULT_TIMEOUT,
              deadline: float | None = None, clock: Callable[[], float] = time.monotonic,
              pod_keys: Iterable[_host_keys.PresentedKey] | None = None,
              which: Callable[[str], str | None] = shutil.which) -> LoginResult:
    """Run ``true`` as ``user`` at ``host:port`` trusting only ``trusted``; ``pod_keys`` explain a refusal."""
    address = _ssh_probe.format_address(host, port)
    tool = which("ssh")
    if tool is None:
        return LoginResult(UNAVAILABLE, _missing("ssh"))
    budget = _ssh_probe.timeout_within(timeout, deadline, clock)
    with tempfile.TemporaryDirectory(prefix="runpod_login_") as work:
        known_hosts = os.path.join(work, "known_hosts")
        with open(known_hosts, "w", encoding="utf-8") as handle:
            handle.writelines(line + "\n" for line in _host_keys.known_hosts_lines(host, port, trusted))
        seconds = max(1, math.ceil(budget))
        # Connect, key exchange and a stalled session each end within the budget (ConnectTimeout, ServerAlive*).
        options = ("BatchMode=yes", "IdentitiesOnly=yes", "StrictHostKeyChecking=yes",
                   f"UserKnownHostsFile={known_hosts}", f"GlobalKnownHostsFile={os.devnull}", "UpdateHostKeys=no",
                   "PasswordAuthentication=no", "KbdInteractiveAuthentication=no", f"ConnectTimeout={seconds}",
                   "ServerAliveInterval=1", f"ServerAliveCountMax={seconds}", "ControlMaster=no", "ControlPath=none")
        argv = [tool, "-F", os.devnull, "-n", "-T", "-p", str(int(port)), "-l", user, "-i", private_key_file,
                *(arg for option in options for arg in ("-o", option)), host, "true"]
        try:
            code, stdout, stderr = run(argv)
        except OSError as err:
            return LoginResult(UNAVAILABLE, f"cannot run {tool}: {err}")
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
        pod_keys = None if pod_keys is None else list(pod_keys)
        # The public half is read only to explain a refusal against the keys the pod was given.
        offered = public_key_of(private_key_file, run, which) if pod_keys else None
        reason = refusal_reason(user, offered, pod_keys)
        return LoginResult(LOGIN_REFUSED, f"{address} refused the login as {user}: {reason} ({_last_lines(stderr, 1)})")
    if code == 255:
        return LoginResult(TRANSIENT, _last_lines(stderr) or f"ssh to {address} failed")
    # Logged in, but the session did not run `true`: a forced command ("Please login as the user ...") or no shell.
    said_out = _last_lines(stdout + "\n" + stderr)
    return LoginResult(LOGIN_REFUSED, f"logged in to {address} as {user}, but `true` exited {code}"
                                      + (f": {said_out}" if said_out else ""))


@dataclass(frozen=True, slots=True)
class HostCheck:
    """One pod's check; ``result`` is None under ``off`` (no log read), ``unavailable`` why no log was read."""

    pod_id: str
    host: str
    port: int
    scanned: ScanResult
    verdict: _host_keys.Verdict
    result: _host_keys.HostKeyCheck | None = None
    unavailable: str | None = None

    @property
    def trusted(self) -> tuple[_host_keys.PresentedKey, ...]:
        """What a login trusts: the checked keys, or under ``off`` the keys the pod presents now."""
        return self.scanned.keys if self.result is None else self.result.trusted

    def fields(self) -> dict[str, Any] | None:
        return None if self.result is None else _host_keys.result_fields(self.result, self.host, self.port)

    def message(self) -> str:
        """The mismatch failure, the unverified failure of ``strict`` or the pinned warning of ``log``, else ""."""
        if self.result is None or (self.verdict.ready and not self.verdict.warning):
            return ""
        address = f"{self.host}:{self.port}"
        if self.verdict.failure:
            return _host_keys.mismatch_message(self.pod_id, address, self.result)
        said = _host_keys.pinned_warning if self.verdict.ready else _host_keys.unverified_message
        return said(self.pod_id, address, self.result, self.unavailable)


def check_hosts(targets: dict[str, tuple[str, int]], mode: str, *, scan: Callable[..., ScanResult],
                read_logs: Callable[..., dict], deadline: float | None = None) -> dict[str, HostCheck]:
    """``{pod id: HostCheck}`` for ``{pod id: (host, port)}``: one batch of log reads beside the scans (a pod costs
    the slower of its scan and its read, not their sum); a read that meets a fingerprint waits for its pod's scan."""
    options = _ssh_probe.probe_options(deadline)
    with ThreadPoolExecutor(1) as reader, ThreadPoolExecutor(min(SCAN_CONCURRENCY, len(targets))) as pool:
        scanning = {pod_id: pool.submit(scan, host, port, **options) for pod_id, (host, port) in targets.items()}
        stops = {pod_id: _host_keys.VouchWatch(functools.partial(lambda done: done.result().keys, future))
                 for pod_id, future in scanning.items()} if mode != "off" else {}
        reading = reader.submit(read_logs, list(stops), HOST_KEY_LINES, stops=stops) if stops else None
        scans = {pod_id: future.result() for pod_id, future in scanning.items()}
        logs = reading.result() if reading is not None else {}
    missing = next((found for found in scans.values() if found.unavailable), None)
    if missing is not None:
        raise PollError(SSH_CLIENT_MISSING, missing.detail, fatal=True)
    checks = {}
    for pod_id, (host, port) in targets.items():
        scanned, block = scans[pod_id], logs.get(pod_id) or {}
        if not scanned.ok or mode == "off":
            checks[pod_id] = HostCheck(pod_id, host, port, scanned, _host_keys.Verdict(ready=scanned.ok))
            continue
        result = _host_keys.check(scanned.keys, _host_keys.logged_fingerprints(block.get("container") or ()))
        checks[pod_id] = HostCheck(pod_id, host, port, scanned, _host_keys.verdict(result.status, mode), result,
                                   block.get("unavailable"))
    return checks


class TrustStep:
    """What a pod wait proves after the banner: ``step(pod, address, deadline) -> (ready, detail)`` or a fatal
    ``PollError``; ``private_key_file`` logs in. ``unverified``: a ``strict`` check with nothing to verify by."""

    def __init__(self, mode: str, read_logs: Callable[..., dict], private_key_file: str | None = None, *,
                 run: Run, scan: Callable[..., ScanResult] = scan,
                 login: Callable[..., LoginResult] = ssh_login):
        if mode not in _host_keys.MODES:
            raise ValueError(f"host_key_checking must be one of {', '.join(_host_keys.MODES)}, got {mode!r}")
        self.mode = mode
        self.read_logs = read_logs
        self.private_key_file = private_key_file
        self.scan = functools.partial(scan, run=run)
        self.login = functools.partial(login, run=run)
        self.fields: dict[str, Any] | None = None
        self.warning: str | None = None
        self.unverified: HostCheck | None = None

    def __call__(self, pod: Any, address: dict, deadline: float | None = None) -> tuple[bool, str]:
        text = f"{address['host']}:{address['port']}"
        if self.mode == "off" and self.private_key_file is None:
            return True, f"ssh reachable at {text}"
        checked = check_hosts({pod.id: (address["host"], address["port"])}, self.mode, scan=self.scan,
                              read_logs=self.read_logs, deadline=deadline)[pod.id]
        if not checked.scanned.ok:  # sshd is still starting: the next poll scans again
            return False, f"ssh banner at {text}, but no host key yet: {checked.scanned.detail}"
        if (checked.unavailable or "").endswith("(rate_limited)"):  # the next poll's read waits for the quota
            return False, f"host key at {text} not checked yet: {checked.unavailable}"
        if checked.verdict.failure:
            raise PollError(checked.verdict.failure, checked.message(), fatal=True)
        if not checked.verdict.ready:
            self.unverified, shows = checked, _host_keys.log_shows(checked.unavailable)
            return False, f"host key at {text} not verified yet: the container log {shows}"
        self.unverified, self.fields, self.warning = None, checked.fields(), checked.message() or None
        if self.private_key_file is None:
            return True, f"ssh reachable at {text}"
        return self._login(pod, address, text, checked.trusted, deadline)

    def _login(self, pod, address, text, trusted, deadline):
        env = getattr(pod, "env", None) or {}
        given = env.get("PUBLIC_KEY") if isinstance(env, dict) else None
        pod_keys = _host_keys.parse_keys(given) if given is not None else None
        options = _ssh_probe.probe_options(deadline)
        done = self.login(address["host"], address["port"], address.get("user") or "root", self.private_key_file,
                          trusted, pod_keys=pod_keys, **options)
        if done.ok:
            status = (self.fields or {}).get("host_key_check")
            return True, f"logged in at {text}" + (f", host key {status}" if status else "")
        if done.outcome == LOGIN_REFUSED:
            raise PollError(LOGIN_REFUSED, f"pod {pod.id}: {done.detail}", fatal=True)
        if done.outcome == HOST_KEY:
            raise PollError(_host_keys.MISMATCH_CODE, f"pod {pod.id}: {done.detail}. The pod was kept.", fatal=True)
        if done.outcome == UNAVAILABLE:
            raise PollError(SSH_CLIENT_MISSING, done.detail, fatal=True)
        return False, f"login at {text} not possible yet: {done.detail}"
