# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This plugin_utils file is private to runpod.cloud and may change without notice.
"""The inventory plugin's host key check, controller-side (``host_key_checking`` of ``runpod.cloud.runpod``,
docs/pods.md "Trusting the pod's host key"): every pod through the pod wait's check
(``module_utils/_engine/host_key_check.check_hosts``), as one batch (the known_hosts files: ``_known_hosts``).

The inventory waits for nothing: a pod whose key cannot be trusted now is left out of the inventory, with the reason
(``problem``), instead of being added with connection variables that would trust whatever answers.
"""

from __future__ import annotations

import functools

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
    found["problem"], found["host_keys"] = checked.message(), []  # the message says why, an unread log too
    return found
