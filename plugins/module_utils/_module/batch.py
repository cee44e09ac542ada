# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Batch waits: one wait for many pods, a fleet's (``runpod.cloud.pod`` with ``count``) and
``runpod.cloud.pod_info``'s."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import BatchLines, BatchPodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._module import host_key_wait as _host_key_wait
from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import (
    add_pod_logs,
    batch_failure_logs,
    live_pod_lines,
    pending_pods,
)
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod


def with_proven_ssh(described, proven):
    """A pod's description after a wait: the SSH address the wait proved, when the last read had none yet."""
    if described is not None and described["ssh"] is None and proven and not _podstate.known_down(
        described["runtime_status"]
    ):
        described["ssh"] = proven
        described["ssh_not_ready"] = None
    return described


def batch_wait(waiter, poller, subject, **wait_args):
    """``waiter.until`` over a ``BatchPodPoller``; on the controller, each pod's own transitions are shown
    (``BatchLines``) and the engine prints the running count (the poller's ``summary``)."""
    shown = waiter.on_transition
    if shown is not None:
        waiter.on_transition = BatchLines(poller, shown, subject)
    try:
        return waiter.until(
            poller, resource_id=None, failure_logs=batch_failure_logs(waiter, poller),
            live_logs=live_pod_lines(waiter, lambda: pending_pods(poller), waiter.host.wait_options.interval),
            **wait_args
        )
    finally:
        waiter.on_transition = shown


def wait_fleet(waiter, members):
    """The fleet's one batch wait: ``members`` are ``{"name", "id"}`` in order, ``result["pods"]`` the pods as
    the task left them; sets ``pods`` (each as last read) and ``wait``. ``waiter`` is the pod module's."""
    host = waiter.host
    settings = host.wait_options
    pod_ids = list(host.result["ids"])
    names = {member["id"]: member["name"] for member in members if member["id"]}
    before = list(host.result["pods"])
    poller = BatchPodPoller(host.backend, pod_ids, wait_for=settings.wait_for, names=names,
                            trust=_host_key_wait.trust_factory(waiter, settings.wait_for))
    what = "ssh" if settings.wait_for == "ssh" else "running status"
    base = host.params["name"]

    def last_reads(final):
        pods = []
        for index, member in enumerate(members):
            pod, ready = before[index], final.get(member["id"])
            if ready is not None:
                pod = with_proven_ssh(describe_pod(ready["pod"]), ready.get("ssh"))
                pod = _host_key_wait.with_host_keys(pod, poller.trusts.get(member["id"]), host.warn)
            elif member["id"] in poller.last_pods:
                pod = describe_pod(poller.last_pods[member["id"]])
            pods.append(pod)
        return pods

    def describe_last():
        host.result["pods"] = last_reads({})

    outcome = batch_wait(
        waiter,
        poller,
        f"fleet {base}",
        label=f"{what} on {len(pod_ids)} pod{'' if len(pod_ids) == 1 else 's'} of fleet {base!r}",
        describe_last=describe_last,
        explain_failure=lambda error: explain_batch_failure(error, poller, pod_ids, names),
    )
    host.result["pods"] = last_reads(outcome.value or {})
    host.result["wait"] = outcome.as_dict()


def explain_batch_failure(error, poller, pod_ids, names):
    """Name every pod that is not ready with its last state: ``(msg, {"not_ready": [...]})`` of a batch wait;
    ``host_key_unverified`` first when a ``strict`` wait ran out of time on pods whose logs showed no fingerprints."""
    return _host_key_wait.explain_unverified(lambda: _not_ready(error, poller, pod_ids, names), error, poller.trusts,
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


def first_read_then(pods, first_read):
    """The list read of a wait: the read already made first (so a wait starts without a second read), then
    ``pods.list(attempts=1)``."""
    pending = [first_read] if first_read is not None else []

    def read():
        return pending.pop() if pending else pods.list(attempts=1)

    return read


class PodsWaiter(Waiter):
    """``runpod.cloud.pod_info``'s wait for its pods (``wait_pods``), on either side of the handoff."""

    kind = module = "pod"
    result_key = "pods"
    uses = (Pods, Gpus)

    def resume(self, handoff):
        from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView

        first_read = [PodView.model_validate(pod) for pod in handoff["first_read"]]
        self.wait_pods(handoff["pod_ids"], handoff["names"], handoff["timeout"], first_read=first_read)
        # ``logs: N``: the pods as the task returns them, after the wait (the module reads them on its side).
        add_pod_logs(self, self.host.result["pods"] or [])

    def wait_pods(self, pod_ids, names, timeout, first_read):
        """Wait until every pod of ``pod_ids`` is ready; the result holds ``pods`` (described, in selection
        order) and ``missing`` as selected. Sets ``pods`` (each as last read), ``missing`` and ``wait``.
        ``first_read`` (the selected pods as the module's one list read returned them) is the first poll."""
        result, settings = self.host.result, self.host.wait_options
        before = {pod["id"]: pod for pod in result["pods"]}
        missing = result["missing"]
        poller = BatchPodPoller(self.host.backend, pod_ids, wait_for=settings.wait_for, names=names,
                                read=first_read_then(self.host.backend.pods, first_read),
                                trust=_host_key_wait.trust_factory(self, settings.wait_for))
        what = "ssh" if settings.wait_for == "ssh" else "running status"
        count = f"{len(pod_ids)} pod{'' if len(pod_ids) == 1 else 's'}"

        def last_reads(final):
            pods = []
            for pod_id in pod_ids:
                if pod_id in final:
                    pods.append(_host_key_wait.with_host_keys(describe_pod(final[pod_id]["pod"]),
                                                              poller.trusts.get(pod_id), self.host.warn))
                elif pod_id in poller.last_pods:
                    pods.append(describe_pod(poller.last_pods[pod_id]))
                elif pod_id in before:
                    pods.append(before[pod_id])
            return pods

        outcome = batch_wait(
            self,
            poller,
            count,
            timeout=timeout,
            label=f"{what} on {count}",
            describe_last=lambda: last_reads({}),
            explain_failure=lambda error: explain_batch_failure(error, poller, pod_ids, names),
        )
        final = outcome.value or {}
        result["pods"] = last_reads(final)
        result["missing"] = [entry for entry in missing if entry not in final]
        result["wait"] = outcome.as_dict()
