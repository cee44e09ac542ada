# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Batch waits: one wait for many pods, a fleet's (``runpod.cloud.pod`` with ``count``) and
``runpod.cloud.pod_info``'s."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.models import PodView
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._engine.describe import describe_pod
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pollers import BatchLines, BatchPodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.handoff import HANDOFF_KEY
from ansible_collections.runpod.cloud.plugins.module_utils._module.logs import (
    add_pod_logs,
    batch_failure_logs,
    live_pod_lines,
    pending_pods,
)


def with_proven_ssh(described, proven):
    """A pod's description after a wait: the SSH address the wait proved, when the last read had none yet."""
    if described is not None and described["ssh"] is None and proven and not _podstate.known_down(
        described["runtime_status"]
    ):
        described["ssh"] = proven
        described["ssh_not_ready"] = None
    return described


def batch_wait(owner, poller, subject, **wait_args):
    """``owner.wait_until`` over a ``BatchPodPoller``; on the controller, each pod's own transitions are shown
    (``BatchLines``) and the engine prints the running count (the poller's ``summary``)."""
    shown = owner.on_transition
    if shown is not None:
        owner.on_transition = BatchLines(poller, shown, subject)
    try:
        return owner.wait_until(
            poller, resource_id=None, failure_logs=batch_failure_logs(owner),
            live_logs=live_pod_lines(owner, lambda: pending_pods(poller), owner.wait_options.interval), **wait_args
        )
    finally:
        owner.on_transition = shown


def wait_fleet(owner, members):
    """The fleet's one batch wait: ``members`` are ``{"name", "id"}`` in order, ``owner.result["pods"]`` the
    pods as the task left them; sets ``pods`` (each as last read) and ``wait``."""
    settings = owner.wait_settings
    pod_ids = list(owner.result["ids"])
    names = {member["id"]: member["name"] for member in members if member["id"]}
    before = list(owner.result["pods"])
    poller = BatchPodPoller(owner.backend, pod_ids, wait_for=settings.wait_for, names=names)
    what = "ssh" if settings.wait_for == "ssh" else "running status"
    base = owner.params["name"]

    def last_reads(final):
        pods = []
        for index, member in enumerate(members):
            pod, ready = before[index], final.get(member["id"])
            if ready is not None:
                pod = with_proven_ssh(describe_pod(ready["pod"]), ready.get("ssh"))
            elif member["id"] in poller.last_pods:
                pod = describe_pod(poller.last_pods[member["id"]])
            pods.append(pod)
        return pods

    def describe_last():
        owner.result["pods"] = last_reads({})

    outcome = batch_wait(
        owner,
        poller,
        f"fleet {base}",
        label=f"{what} on {len(pod_ids)} pod{'' if len(pod_ids) == 1 else 's'} of fleet {base!r}",
        describe_last=describe_last,
        explain_failure=lambda error: explain_batch_failure(error, poller, pod_ids, names),
    )
    owner.result["pods"] = last_reads(outcome.value or {})
    owner.result["wait"] = outcome.as_dict()


def explain_batch_failure(error, poller, pod_ids, names):
    """Name every pod that is not ready with its last state: ``(msg, {"not_ready": [...]})`` of a batch wait."""
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


class _FirstReadBackend:
    """Hands the wait's first poll the list read already made, so a wait starts without a second read."""

    def __init__(self, backend, first_read):
        self._backend = backend
        self._first = first_read

    def list_pods(self, runtime=True, attempts=None):
        if self._first is not None:
            pods, self._first = self._first, None
            return pods
        return self._backend.list_pods(runtime=runtime, attempts=attempts)


class PodInfoWait(RunPodModule):
    """What ``runpod.cloud.pod_info`` needs to wait for its pods (``wait_pods``), on either side of the handoff."""

    result_key = "pods"
    resource_kind = "pod"
    controller_wait = True

    def info_hint(self, resource_id):
        return f"runpod.cloud.pod_info id={resource_id}"

    def delete_hint(self, resource_id):
        return f"runpod.cloud.pod id={resource_id} state=absent"

    def exit(self, **extra):
        # ``logs: N``: the pods as the task returns them, after the wait (a handoff exits before it).
        if HANDOFF_KEY not in extra:
            add_pod_logs(self, self.result["pods"] or [])
        super().exit(**extra)

    def resume(self, handoff):
        first_read = [PodView.model_validate(pod) for pod in handoff["first_read"]]
        self.wait_pods(handoff["pod_ids"], handoff["names"], handoff["timeout"], first_read=first_read)

    def wait_pods(self, pod_ids, names, timeout, first_read):
        """Wait until every pod of ``pod_ids`` is ready; ``self.result`` holds ``pods`` (described, in selection
        order) and ``missing`` as selected. Sets ``pods`` (each as last read), ``missing`` and ``wait``.
        ``first_read`` (the selected pods as the module's one list read returned them) is the first poll."""
        before = {pod["id"]: pod for pod in self.result["pods"]}
        missing = self.result["missing"]
        backend = _FirstReadBackend(self.backend, first_read)
        poller = BatchPodPoller(backend, pod_ids, wait_for=self.wait_options.wait_for, names=names)
        what = "ssh" if self.wait_options.wait_for == "ssh" else "running status"
        count = f"{len(pod_ids)} pod{'' if len(pod_ids) == 1 else 's'}"

        def last_reads(final):
            pods = []
            for pod_id in pod_ids:
                if pod_id in final:
                    pods.append(describe_pod(final[pod_id]["pod"]))
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
        self.result["pods"] = last_reads(final)
        self.result["missing"] = [entry for entry in missing if entry not in final]
        self.result["wait"] = outcome.as_dict()
