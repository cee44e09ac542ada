# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This plugin_utils file is private to runpod.cloud and may change without notice.
"""The inventory plugin's host key check, controller-side (``host_key_checking`` of ``runpod.cloud.runpod``,
docs/pods.md "Trusting the pod's host key"): every pod through the pod wait's check
(``module_utils/_engine/host_key_check.check_hosts``), as one batch, and a known_hosts file per pod.

The inventory waits for nothing: a pod whose key cannot be trusted now is left out of the inventory, with the reason
(``problem``), instead of being added with connection variables that would trust whatever answers.
"""

from __future__ import annotations

import functools
import os
import shlex
import tempfile

from ansible_collections.runpod.cloud.plugins.module_utils._backend.log_reads import LogReader
from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_check as _check


def check_pods(backend, records, mode, *, run, scan=_check.scan, read_logs=None):
    """``{pod id: check}`` for ``records`` (pod records with an ``ssh`` address) under ``mode`` (``strict`` or
    ``log``): each check has ``mode``, ``host_key_check``, ``host_keys`` (known_hosts lines of the keys to trust),
    ``host_key_fingerprints``, ``problem`` (why the pod must be left out, else None) and ``warning``. ``run``
    starts ``ssh-keyscan`` (the plugin's ``run_local``); ``read_logs`` defaults to a ``LogReader`` on ``backend``.
    Raises ``check_hosts``' fatal ``PollError`` ``ssh_client_missing``."""
    targets = {record["id"]: (record["ssh"]["host"], int(record["ssh"]["port"]))
               for record in records if record.get("ssh")}
    if not targets:
        return {}
    read_logs = read_logs or functools.partial(LogReader(backend, **_check.CHECK_READ).pods, sources=("container",))
    checks = _check.check_hosts(targets, mode, scan=functools.partial(scan, run=run), read_logs=read_logs)
    return {pod_id: _found(mode, checked) for pod_id, checked in checks.items()}


def _found(mode, checked):
    found = {"mode": mode, "host_key_check": None, "host_keys": [], "host_key_fingerprints": [], "problem": None,
             "warning": None}
    if not checked.scanned.ok:
        found["problem"] = f"its host key could not be read: {checked.scanned.detail}"
        return found
    found.update(checked.fields())
    if checked.verdict.ready:
        found["warning"] = checked.message() or None
        return found
    unread = checked.unavailable and not checked.verdict.failure
    found["problem"] = checked.message() + (f" (its log could not be read: {checked.unavailable})" if unread else "")
    found["host_keys"] = []
    return found


def known_hosts_path(directory, pod_id):
    return os.path.join(directory, f"known_hosts_{pod_id}")


def write_known_hosts(directory, pod_id, lines):
    """Write ``lines`` (sorted: the same keys are the same file) to the pod's own known_hosts file in ``directory``
    (made 0700), replacing it atomically with a 0600 file; returns its path."""
    directory = os.path.expanduser(directory)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = known_hosts_path(directory, pod_id)
    text = "".join(line + "\n" for line in sorted(lines))
    try:
        with open(path, encoding="utf-8") as handle:
            if handle.read() == text:
                return path
    except OSError:
        pass
    descriptor, temporary = tempfile.mkstemp(prefix=".known_hosts_", dir=directory)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return path


def ssh_common_args(path):
    """The connection's host key settings: only the keys in ``path`` are trusted."""
    return f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={shlex.quote(path)}"
