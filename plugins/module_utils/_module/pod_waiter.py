# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``PodWaiter``: ``runpod.cloud.pod``'s wait, which its action plugin builds too (docs/dev/architecture.md,
"Waiters")."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import PodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._module import host_key_wait as _host_key_wait
from ansible_collections.runpod.cloud.plugins.module_utils._module.batch import wait_fleet, with_proven_ssh
from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import live_pod_lines, pod_failure_logs
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod


class PodWaiter(Waiter):
    """``runpod.cloud.pod``'s wait: one pod (``wait_for``: ssh or running), or a fleet's batch wait (``count``)."""

    kind = module = result_key = "pod"
    uses = (Pods, Gpus)

    def resume(self, handoff):
        if "members" in handoff:  # a fleet's one batch wait (``count``)
            return wait_fleet(self, handoff["members"])
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
        pod_id, result = resource.id, self.host.result
        before = result.get("pod")  # the pod as last read before the wait (what the module described)
        wait_for = self.host.wait_options.wait_for
        login_key = self.host.params.get("ssh_private_key_file") if wait_for == "login" else None
        trust = _host_key_wait.trust_step(self, wait_for, login_key)
        poller = PodPoller(self.host.backend, pod_id, wait_for=wait_for, trust=trust)
        name = (before or {}).get("name") or self.host.params.get("name")
        subject = f"pod {name} ({pod_id})" if name else f"pod {pod_id}"
        steps = {pod_id: trust} if trust is not None else {}
        outcome = self.until(
            poller,
            label=f"{wait_for} on pod {pod_id}",
            resource_id=pod_id,
            describe_last=lambda: describe_pod(poller.last_pod) if poller.last_pod is not None else before,
            explain_failure=lambda error: _host_key_wait.explain_unverified(
                lambda: (f"{error}; {self.remedy(pod_id)}", {}), error, steps, [pod_id], otherwise=False),
            failure_logs=pod_failure_logs(self, pod_id),
            live_logs=live_pod_lines(self, lambda: {pod_id: subject}, self.host.wait_options.interval),
        )
        # No re-read after the wait: the list read the wait ended on already carries the whole pod, and one
        # less API call is one less way for a ready pod to end in a failure.
        if poller.last_pod is not None:
            result["pod"] = describe_pod(poller.last_pod)
        with_proven_ssh(result["pod"], (outcome.value or {}).get("ssh"))
        _host_key_wait.with_host_keys(result["pod"], trust, self.host.warn)
        result["wait"] = outcome.as_dict()
