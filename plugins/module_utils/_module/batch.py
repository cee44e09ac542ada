# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Batch waits (a fleet's, ``pod_info``'s, a cluster's), and what every pod wait makes of ``host_key_checking``
(docs/pods.md, "Trusting the pod's host key"): the host key step, its result fields, warning and failure."""

from __future__ import annotations

import functools

from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine.host_key_check import CHECK_READ, TrustStep
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import BatchLines, BatchPodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report as _logs
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.host_keys import UNVERIFIED_CODE
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod


def with_proven_ssh(described, proven):
    """A pod's description after a wait: the SSH address the wait proved, when the last read had none yet."""
    if (described is not None and described["ssh"] is None and proven
            and not _podstate.known_down(described["runtime_status"])):
        described["ssh"] = proven
        described["ssh_not_ready"] = None
    return described


def batch_poller(waiter, pod_ids, names, read=None):
    """A ``BatchPodPoller`` for the task's ``wait_for``, with one host key step per pod."""
    wait_for = waiter.host.wait_options.wait_for
    return BatchPodPoller(waiter.host.backend, pod_ids, wait_for=wait_for, names=names, read=read,
                          trust=trust_factory(waiter, wait_for))


def batch_wait(waiter, poller, pod_ids, names, subject, of="", **wait_args):
    """``waiter.until`` over a ``BatchPodPoller``; on the controller each pod's own transitions are shown."""
    shown = waiter.on_transition
    if shown is not None:
        waiter.on_transition = BatchLines(poller, shown, subject)
    what = "ssh" if waiter.host.wait_options.wait_for == "ssh" else "running status"
    try:
        return waiter.until(
            poller, label=f"{what} on {len(pod_ids)} pod{'' if len(pod_ids) == 1 else 's'}{of}", resource_id=None,
            explain_failure=lambda error: explain_batch_failure(error, poller, pod_ids, names),
            failure_logs=_logs.batch_failure_logs(waiter, poller),
            live_logs=_logs.live_pod_lines(waiter, lambda: _logs.pending_pods(poller)),
            **wait_args
        )
    finally:
        waiter.on_transition = shown


def wait_fleet(waiter, members):
    """The fleet's one batch wait on ``members`` (``{"name", "id"}``, in order): sets ``pods`` and ``wait``."""
    host = waiter.host
    names = {member["id"]: member["name"] for member in members if member["id"]}
    before = list(host.result["pods"])
    pod_ids = list(host.result["ids"])
    poller = batch_poller(waiter, pod_ids, names)
    base = host.params["name"]

    def last_reads(final):
        pods = []
        for index, member in enumerate(members):
            pod, ready = before[index], final.get(member["id"])
            if ready is not None:
                pod = with_proven_ssh(describe_pod(ready["pod"]), ready.get("ssh"))
                pod = with_host_keys(pod, poller.trusts.get(member["id"]), host.warn)
            elif member["id"] in poller.last_pods:
                pod = describe_pod(poller.last_pods[member["id"]])
            pods.append(pod)
        return pods

    def describe_last():
        host.result["pods"] = last_reads({})

    outcome = batch_wait(waiter, poller, pod_ids, names, f"fleet {base}", f" of fleet {base!r}",
                         describe_last=describe_last)
    host.result["pods"] = last_reads(outcome.value or {})
    host.result["wait"] = outcome.as_dict()


def explain_batch_failure(error, poller, pod_ids, names):
    """``(msg, {"not_ready": [...]})``: every pod not ready with its last state (``explain_unverified``'s first)."""
    return explain_unverified(lambda: _not_ready(error, poller, pod_ids, names), error, poller.trusts,
                              [pod_id for pod_id in pod_ids if pod_id not in poller.done])


def _not_ready(error, poller, pod_ids, names):
    states = dict(error.last_states or poller.states)
    not_ready = []
    for pod_id in pod_ids:
        if pod_id in poller.done:
            continue
        pod = poller.last_pods.get(pod_id)
        name = (pod.name if pod is not None else None) or names.get(pod_id) or ""
        not_ready.append({"id": pod_id, "name": name, "state": states.get(pod_id, error.last_state)})
    listing = "; ".join(f"{entry['id']} ({entry['name'] or 'no name'}): {entry['state']}" for entry in not_ready)
    ready = len(pod_ids) - len(not_ready)
    if error.code in (_outcome.WAIT_TIMEOUT, _outcome.WAIT_INTERRUPTED):
        verb = "Timed out" if error.code == _outcome.WAIT_TIMEOUT else "Interrupted"
        head = f"{verb} after {error.elapsed}s waiting for {error.label} ({ready} of {len(pod_ids)} ready)"
    else:
        head = error.message[:1].upper() + error.message[1:]
    inspect_ids = ",".join(entry["id"] for entry in not_ready) or ",".join(pod_ids)
    msg = (
        f"{head}. Not ready: {listing or 'none'}. Nothing was deleted: inspect the pods with runpod.cloud.pod_info "
        f"ids={inspect_ids}, or delete one with runpod.cloud.pod id=<id> state=absent (pods bill by the second)."
    )
    return msg, {"not_ready": not_ready}


def trust_step(waiter, wait_for, private_key_file=None):
    """The host key check (and, with ``private_key_file``, the login) after the banner; None for nothing to check."""
    mode = waiter.host.params.get("host_key_checking") or "off"
    if wait_for == "running" or (mode == "off" and private_key_file is None):
        return None
    # A failed read is a block with no lines: no fingerprints this poll, read again at the next one.
    read_logs = functools.partial(_logs.read_pods, waiter, sources=("container",), **CHECK_READ)
    return TrustStep(mode, read_logs, private_key_file, run=waiter.host.run_command)


def trust_factory(waiter, wait_for):
    """One host key step per pod of a batch wait (``BatchPodPoller``'s ``trust``), or None."""
    return None if trust_step(waiter, wait_for) is None else functools.partial(trust_step, waiter, wait_for)


def with_host_keys(described, step, warn):
    """A pod's description with what its host key step proved in ``ssh``; its pinned warning goes to ``warn``."""
    if step is None:
        return described
    if step.fields and described is not None and described.get("ssh"):
        described["ssh"] = dict(described["ssh"], **step.fields)
    if step.warning:
        warn(step.warning)
    return described


def explain_unverified(explain, error, steps, pod_ids, otherwise=True):
    """A wait's ``explain_failure``: ``host_key_unverified`` (a sentence per pod, then ``explain()``'s) when a strict
    wait timed out on pods whose logs showed no fingerprints, else ``explain()`` (None unless ``otherwise``)."""
    timed_out = error.code == _outcome.WAIT_TIMEOUT
    said = [steps[pod_id].unverified.message() for pod_id in pod_ids
            if timed_out and pod_id in steps and steps[pod_id].unverified]
    if not said:
        return explain() if otherwise else None
    msg, extra = explain()
    return f"{' '.join(said)} {msg}", dict(extra, code=UNVERIFIED_CODE)
