# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``EndpointWaiter``: ``runpod.cloud.endpoint``'s wait, which its action plugin builds too
(docs/dev/architecture.md, "Waiters")."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import Endpoints
from ansible_collections.runpod.cloud.plugins.module_utils._engine.build_poller import BUILD_FAILED_CODE, BuildPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.endpoint_poller import EndpointPoller
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import (
    describe_build,
    describe_endpoint,
    describe_release,
)

# What an endpoint wait waits for, by ``wait_for`` (its label).
WAITED_FOR = {
    "ready": "a ready worker",
    "rollout": "a finished rollout (no stale worker left)",
    "build": "the newest build and a ready worker on its release",
}


class EndpointWaiter(Waiter):
    """From the endpoint as the task last described it, never a fresh read: both paths describe it alike."""

    kind = module = result_key = "endpoint"
    uses = (Endpoints,)

    def remedy(self, resource_id):
        return (
            f"endpoint {resource_id} was kept (nothing is deleted): inspect it with {self.info_hint(resource_id)}, "
            f"or delete it with {self.delete_hint(resource_id)} if you no longer want it (an endpoint with no "
            f"running worker is not billing, but it will start one on the first request)"
        )

    def describe(self, resource, health=None):
        return describe_endpoint(resource, self.host.backend.serverless_url, health)

    def wait_for(self, resource):
        from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import endpoint_failure_logs
        endpoint_id, result = resource.id, self.host.result
        before = result["endpoint"]  # the endpoint as last read before the wait (what the module described)
        if not before["workers_min"]:
            self.host.warn(
                f"endpoint {endpoint_id} has workers_min 0, so RunPod keeps no worker running and none is "
                f"guaranteed to start before a request arrives; waiting anyway (set workers_min to 1 or more to "
                f"guarantee a worker)"
            )
        wait_for = self.host.params["wait_for"]
        build = BuildPoller(self.host.backend, endpoint_id) if wait_for == "build" else None
        # A build wait holds the endpoint poller (its worker rule, its reads): the result is described from it.
        workers = build.endpoint if build is not None else EndpointPoller(self.host.backend, endpoint_id, wait_for)
        poller = build or workers
        logs = endpoint_failure_logs(self, endpoint_id, lambda: workers.last_workers)
        outcome = self.until(
            poller,
            label=f"{WAITED_FOR[wait_for]} on endpoint {endpoint_id}",
            resource_id=endpoint_id,
            describe_last=lambda: self.describe_waited(before, workers, None),
            explain_failure=self.build_failure(build, endpoint_id) if build is not None else None,
            # A failed build has no worker of its own whose logs would say why: the build's error does.
            failure_logs=lambda error, extra: "" if error.code == BUILD_FAILED_CODE else logs(error, extra),
        )
        value = outcome.value or {}
        if build is not None:
            result["build"] = describe_build(build.last_build)
        self.describe_waited(before, workers, value.get("health"))
        result["ready_signal"] = value.get("ready_signal")
        result["ready_worker_id"] = value.get("worker_id")
        result["wait"] = outcome.as_dict()

    def build_failure(self, poller, endpoint_id):
        """A build wait's failure carries the newest build as last read (``build``: its error, commit, branch)."""
        return lambda error: (f"{error}; {self.remedy(endpoint_id)}", {"build": describe_build(poller.last_build)})

    def describe_waited(self, before, poller, health):
        """The endpoint as last seen by the wait, with its release and rollout (also on a failed wait)."""
        release, result = None, self.host.result
        if poller.last_version is not None:
            try:
                release = self.host.backend.endpoints.release(before["id"])
            except RunPodError:
                release = {"version": poller.last_version, "rollout": poller.last_rollout}
        result["release"], result["rollout"] = describe_release(release)
        result["endpoint"] = self.describe(before, health or poller.last_health)
        return result["endpoint"]
