# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What the waits make of ``host_key_checking`` (docs/pods.md "Trusting the pod's host key"): the host key step of
one pod's wait or of each pod of a batch wait (a fleet, ``pod_info``, a cluster), the ``ssh`` result fields it
proved, its pinned warning, and the ``host_key_unverified`` failure of a ``strict`` wait that ran out of time.
The check itself is in ``_engine.host_key_check``; this builds its step from a task's options and reads its logs."""

from __future__ import annotations

import functools

from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine.host_key_check import TrustStep
from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import read_pods
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.host_keys import UNVERIFIED_CODE


def trust_step(waiter, wait_for, private_key_file=None):
    """The host key check (and, with ``private_key_file``, the login) after the banner; None when the wait proves
    no banner (``running``) or has nothing to check (``off`` without a login)."""
    mode = waiter.host.params.get("host_key_checking") or "off"
    if wait_for == "running" or (mode == "off" and private_key_file is None):
        return None
    # A failed read is a block with no lines: no fingerprints this poll, read again at the next one.
    read_logs = functools.partial(read_pods, waiter, sources=("container",))
    return TrustStep(mode, read_logs, private_key_file, run=waiter.host.run_command)


def trust_factory(waiter, wait_for):
    """One host key step per pod of a batch wait (``BatchPodPoller``'s ``trust``), or None."""
    if trust_step(waiter, wait_for) is None:
        return None
    return lambda: trust_step(waiter, wait_for)


def with_host_keys(described, step, warn):
    """A pod's description with what its host key step proved (``ssh.host_keys``, ``host_key_fingerprints``,
    ``host_key_check``); the pinned warning of ``log`` goes to ``warn``."""
    if step is None:
        return described
    if step.fields and described is not None and described.get("ssh"):
        described["ssh"] = dict(described["ssh"], **step.fields)
    if step.warning:
        warn(step.warning)
    return described


def explain_unverified(explain, error, steps, pod_ids, otherwise=True):
    """A wait's ``explain_failure`` answer. A ``strict`` wait that timed out while some pods' logs showed no
    fingerprints is ``host_key_unverified``: one sentence per pod (naming it and the keys it presented), then
    ``explain()``'s message (``explain()`` is the wait's own ``(msg, extra)``). Otherwise ``explain()``, or None (the
    default message) when ``otherwise`` is false."""
    timed_out = error.code == _outcome.WAIT_TIMEOUT
    said = [steps[pod_id].unverified.message() for pod_id in pod_ids
            if timed_out and pod_id in steps and steps[pod_id].unverified]
    if not said:
        return explain() if otherwise else None
    msg, extra = explain()
    return f"{' '.join(said)} {msg}", dict(extra, code=UNVERIFIED_CODE)
