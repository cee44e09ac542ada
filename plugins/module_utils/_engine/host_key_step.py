# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The steps a pod wait takes once its SSH banner answers (issue 44, docs/pods.md "Trusting the pod's host key"):
scan the host keys the pod presents, check them against the container log's fingerprint lines under
``host_key_checking``, and, for ``wait_for: login``, log in with the user's key and run ``true``.

Pure Python around ``host_key_scan``; the log read is handed in (``read_log(pod_id, enough) -> lines or None``,
where ``enough(line)`` may end the read early), as the engine reads no logs itself. Each step answers
``(ready, detail)`` or raises a fatal ``PollError``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_scan as _scan
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as _host_keys

LOGIN_REFUSED = "login_refused"
SSH_CLIENT_MISSING = "ssh_client_missing"


class TrustStep:
    """What a pod wait proves after the banner. ``mode`` is ``host_key_checking``; ``login`` is
    ``(private_key_file)`` for ``wait_for: login``, else None. After a ready step: ``fields`` (the ``ssh``
    result keys), ``warning`` (the pinned warning of ``log``); ``unverified`` holds the last check of a
    ``strict`` wait that saw no fingerprints (its failure if the wait ends so)."""

    def __init__(self, mode: str, read_log: Callable[[str, Any], Any], private_key_file: str | None = None, *,
                 run: _scan.Run, scan: Callable[..., _scan.ScanResult] = _scan.scan,
                 login: Callable[..., _scan.LoginResult] = _scan.ssh_login):
        if mode not in _host_keys.MODES:
            raise ValueError(f"host_key_checking must be one of {', '.join(_host_keys.MODES)}, got {mode!r}")
        self.mode = mode
        self.read_log = read_log
        self.private_key_file = private_key_file
        # ``run`` starts ssh-keyscan and ssh (host_key_scan.Run): the module's run_command, or the controller's.
        self.scan = functools.partial(scan, run=run)
        self.login = functools.partial(login, run=run)
        self.fields: dict[str, Any] | None = None
        self.warning: str | None = None
        self.unverified: tuple[str, _host_keys.HostKeyCheck] | None = None

    def __call__(self, pod: Any, address: dict, deadline: float | None = None) -> tuple[bool, str]:
        host, port = address["host"], address["port"]
        text = f"{host}:{port}"
        trusted: tuple[_host_keys.PresentedKey, ...] = ()
        if self.mode != "off":
            ready, detail, trusted = self._check(pod, host, port, text, deadline)
            if not ready:
                return False, detail
        if self.private_key_file is None:
            return True, f"ssh reachable at {text}"
        return self._login(pod, address, text, trusted, deadline)

    def _checked(self) -> str:
        status = (self.fields or {}).get("host_key_check")
        return f", host key {status}" if status else ""

    def _check(self, pod, host, port, text, deadline):
        options = {} if deadline is None else {"deadline": deadline}
        scanned = self.scan(host, port, **options)
        if scanned.unavailable:
            raise PollError(SSH_CLIENT_MISSING, scanned.detail, fatal=True)
        if not scanned.ok:  # sshd is still starting: the next poll scans again
            return False, f"ssh banner at {text}, but no host key yet: {scanned.detail}", ()
        # The read ends once the log vouched for every presented key (the usual case: RunPod's start script prints
        # them), not when the never-closing stream goes quiet, which costs every ready pod a second.
        lines = self.read_log(pod.id, _host_keys.VouchWatch(scanned.keys))
        result = _host_keys.check(scanned.keys, _host_keys.logged_fingerprints(lines or ()))
        verdict = _host_keys.verdict(result.status, self.mode)
        if verdict.failure:
            raise PollError(verdict.failure, _host_keys.mismatch_message(pod.id, text, result), fatal=True)
        if not verdict.ready:
            self.unverified = (text, result)
            return False, f"host key at {text} not verified yet: the container log shows no fingerprints", ()
        self.unverified = None
        self.fields = _host_keys.result_fields(result, host, port)
        self.warning = _host_keys.pinned_warning(pod.id, text, result) if verdict.warning else None
        return True, "", result.trusted

    def unverified_failure(self, pod_id: str) -> str | None:
        """The ``host_key_unverified`` message of a ``strict`` wait that ended before the log showed fingerprints."""
        if self.unverified is None:
            return None
        text, result = self.unverified
        return _host_keys.unverified_message(pod_id, text, result)

    def _login(self, pod, address, text, trusted, deadline):
        if self.mode == "off":  # nothing checked: trust the keys the pod presents now, for this one login
            scanned = self.scan(address["host"], address["port"],
                                **({} if deadline is None else {"deadline": deadline}))
            if scanned.unavailable:
                raise PollError(SSH_CLIENT_MISSING, scanned.detail, fatal=True)
            if not scanned.ok:
                return False, f"ssh banner at {text}, but no host key yet: {scanned.detail}"
            trusted = scanned.keys
        env = getattr(pod, "env", None) or {}
        given = env.get("PUBLIC_KEY") if isinstance(env, dict) else None
        pod_keys = _host_keys.parse_keys(given) if given is not None else None
        options = {} if deadline is None else {"deadline": deadline}
        done = self.login(address["host"], address["port"], address.get("user") or "root", self.private_key_file,
                          trusted, pod_keys=pod_keys, **options)
        if done.ok:
            return True, f"logged in at {text}" + self._checked()
        if done.outcome == _scan.LOGIN_REFUSED:
            raise PollError(LOGIN_REFUSED, f"pod {pod.id}: {done.detail}", fatal=True)
        if done.outcome == _scan.HOST_KEY:
            raise PollError(_host_keys.MISMATCH_CODE, f"pod {pod.id}: {done.detail}. The pod was kept.", fatal=True)
        if done.outcome == _scan.UNAVAILABLE:
            raise PollError(SSH_CLIENT_MISSING, done.detail, fatal=True)
        return False, f"login at {text} not possible yet: {done.detail}"
