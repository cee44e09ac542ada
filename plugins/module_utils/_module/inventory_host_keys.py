# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The inventory plugin's host key check (``host_key_checking`` of ``runpod.cloud.runpod``, docs/pods.md "Trusting
the pod's host key"): the keys each pod presents (``ssh-keyscan``) against the fingerprints its container log shows,
under the same rule as a pod wait (``_vocab.host_keys.check`` and ``verdict``), and a known_hosts file per pod.

The inventory waits for nothing: a pod whose key cannot be trusted now is left out of the inventory, with the reason
(``problem``), instead of being added with connection variables that would trust whatever answers.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from concurrent.futures import ThreadPoolExecutor

from ansible_collections.runpod.cloud.plugins.module_utils._backend.log_reads import MAX_CONCURRENT_READS, LogReader
from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_scan as _scan
from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import HOST_KEY_LINES
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as _host_keys


class ScannerMissingError(Exception):
    """No ``ssh-keyscan`` on the controller: nothing can be checked (the message says what to install)."""


def check_pods(backend, records, mode, *, run, secrets=(), scan=_scan.scan, read_logs=None):
    """``{pod id: check}`` for ``records`` (pod records with an ``ssh`` address) under ``mode`` (``strict`` or
    ``log``): each check has ``mode``, ``host_key_check``, ``host_keys`` (known_hosts lines of the keys to trust),
    ``host_key_fingerprints`` and ``problem`` (why the pod must be left out, else None) and ``warning``.
    ``run`` starts ``ssh-keyscan`` (``_engine.host_key_scan.Run``: the plugin's ``run_local``). The scans run
    concurrently, the log reads in one bounded batch (``read_logs(pod_ids, stops) -> {id: logs block}``, by default
    a ``LogReader`` on ``backend``; ``stops``: ``{id: predicate}`` ending each read early)."""
    targets = [record for record in records if record.get("ssh")]
    if not targets:
        return {}
    with ThreadPoolExecutor(min(MAX_CONCURRENT_READS, len(targets))) as pool:
        found = pool.map(lambda record: scan(record["ssh"]["host"], int(record["ssh"]["port"]), run=run),
                         targets)
        scans = dict(zip([record["id"] for record in targets], found, strict=True))
    missing = next((result for result in scans.values() if result.unavailable), None)
    if missing is not None:
        raise ScannerMissingError(missing.detail)
    scanned = [record["id"] for record in targets if scans[record["id"]].ok]
    reader = read_logs or (lambda pod_ids, stops: LogReader(backend, secrets).pods(pod_ids, HOST_KEY_LINES,
                                                                                   ("container",), stops))
    # Each read ends once the log vouched for every key its pod presented (see ``_host_keys.VouchWatch``).
    stops = {pod_id: _host_keys.VouchWatch(scans[pod_id].keys) for pod_id in scanned}
    logs = reader(scanned, stops) if scanned else {}
    return {record["id"]: _judge(record, mode, scans[record["id"]], logs.get(record["id"])) for record in targets}


def _judge(record, mode, scanned, block):
    host, port = record["ssh"]["host"], int(record["ssh"]["port"])
    address = f"{host}:{port}"
    found = {"mode": mode, "host_key_check": None, "host_keys": [], "host_key_fingerprints": [], "problem": None,
             "warning": None}
    if not scanned.ok:
        found["problem"] = f"its host key could not be read: {scanned.detail}"
        return found
    lines = (block or {}).get("container") or ()
    result = _host_keys.check(scanned.keys, _host_keys.logged_fingerprints(lines))
    found.update(_host_keys.result_fields(result, host, port))
    verdict = _host_keys.verdict(result.status, mode)
    if verdict.failure:
        found["problem"] = _host_keys.mismatch_message(record["id"], address, result)
    elif not verdict.ready:
        unavailable = (block or {}).get("unavailable")
        found["problem"] = _host_keys.unverified_message(record["id"], address, result) + (
            f" (its log could not be read: {unavailable})" if unavailable else "")
    elif verdict.warning:
        found["warning"] = _host_keys.pinned_warning(record["id"], address, result)
    if found["problem"]:
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
