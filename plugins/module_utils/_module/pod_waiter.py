# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The waits of ``runpod.cloud.pod`` and ``pod_info``, which their action plugins build too (docs/dev/architecture.md,
"Waiters"); each imports the wait machinery where the wait runs (docs/dev/architecture.md, "Import cost")."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod


class PodWaiter(Waiter):
    """``runpod.cloud.pod``'s wait: one pod (``wait_for``: ssh or running), or a fleet's batch wait (``count``)."""

    kind = module = result_key = "pod"
    uses = (Pods, Gpus)

    def resume(self, handoff):
        from ansible_collections.runpod.cloud.plugins.module_utils._module import batch as _batch
        if "members" in handoff:  # a fleet's one batch wait (``count``)
            return _batch.wait_fleet(self, handoff["members"])
        return super().resume(handoff)

    def remedy(self, resource_id):
        return (
            f"pod {resource_id} was kept and bills by the second while it runs: inspect it with "
            f"{self.info_hint(resource_id)}, or delete it with {self.delete_hint(resource_id)}"
        )

    def last_known_state(self):
        result = self.host.result
        return result["pod"]["runtime_status"] if result.get("pod") else "unknown"

    def wait_for(self, resource):
        from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import PodPoller
        from ansible_collections.runpod.cloud.plugins.module_utils._module import batch as _batch
        from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report as _logs
        pod_id, result = resource.id, self.host.result
        before = result.get("pod")  # the pod as last read before the wait (what the module described)
        wait_for = self.host.wait_options.wait_for
        login_key = self.host.params.get("ssh_private_key_file") if wait_for == "login" else None
        trust = _batch.trust_step(self, wait_for, login_key)
        poller = PodPoller(self.host.backend, pod_id, wait_for=wait_for, trust=trust)
        name = (before or {}).get("name") or self.host.params.get("name")
        subject = f"pod {name} ({pod_id})" if name else f"pod {pod_id}"
        steps = {pod_id: trust} if trust is not None else {}
        outcome = self.until(
            poller,
            label=f"{wait_for} on pod {pod_id}",
            resource_id=pod_id,
            describe_last=lambda: describe_pod(poller.last_pod) if poller.last_pod is not None else before,
            explain_failure=lambda error: _batch.explain_unverified(
                lambda: (f"{error}; {self.remedy(pod_id)}", {}), error, steps, [pod_id], otherwise=False),
            failure_logs=_logs.pod_failure_logs(self, pod_id),
            live_logs=_logs.live_pod_lines(self, lambda: {pod_id: subject}),
        )
        # No re-read after the wait: its last list read carries the whole pod (one call less that could fail).
        if poller.last_pod is not None:
            result["pod"] = describe_pod(poller.last_pod)
        _batch.with_proven_ssh(result["pod"], (outcome.value or {}).get("ssh"))
        _batch.with_host_keys(result["pod"], trust, self.host.warn)
        result["wait"] = outcome.as_dict()


class PodsWaiter(Waiter):
    """``runpod.cloud.pod_info``'s wait for its pods (``wait_pods``), on either side of the handoff."""

    kind = module = "pod"
    result_key = "pods"
    uses = (Pods, Gpus)

    def resume(self, handoff):
        from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report as _logs
        from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView
        first_read = [PodView.model_validate(pod) for pod in handoff["first_read"]]
        self.wait_pods(handoff["pod_ids"], handoff["names"], handoff["timeout"], first_read=first_read)
        # ``logs: N``: the pods as the task returns them, after the wait (the module reads them on its side).
        _logs.add_pod_logs(self, self.host.result["pods"] or [])

    def wait_pods(self, pod_ids, names, timeout, first_read):
        """Wait until every pod of ``pod_ids`` is ready; sets ``pods`` (each as last read), ``missing`` and ``wait``.
        ``first_read`` (the module's one list read) is the first poll: no second read."""
        from ansible_collections.runpod.cloud.plugins.module_utils._module import batch as _batch
        result = self.host.result
        before = {pod["id"]: pod for pod in result["pods"]}
        missing = result["missing"]
        pending = [first_read] if first_read is not None else []
        poller = _batch.batch_poller(self, pod_ids, names,
                                     read=lambda: pending.pop() if pending else self.host.backend.pods.list(attempts=1))

        def last_reads(final):
            pods = []
            for pod_id in pod_ids:
                if pod_id in final:
                    pods.append(_batch.with_host_keys(describe_pod(final[pod_id]["pod"]), poller.trusts.get(pod_id),
                                                      self.host.warn))
                elif pod_id in poller.last_pods:
                    pods.append(describe_pod(poller.last_pods[pod_id]))
                elif pod_id in before:
                    pods.append(before[pod_id])
            return pods

        plural = "" if len(pod_ids) == 1 else "s"
        outcome = _batch.batch_wait(self, poller, pod_ids, names, f"{len(pod_ids)} pod{plural}", timeout=timeout,
                                    describe_last=lambda: last_reads({}))
        final = outcome.value or {}
        result["pods"] = last_reads(final)
        result["missing"] = [entry for entry in missing if entry not in final]
        result["wait"] = outcome.as_dict()
