# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The waiters of the waiting modules: ``PodWaiter``, ``EndpointWaiter``, ``ClusterWaiter``.

A waiting module composes its waiter (``self.waiter``) and the action plugin builds the same class on the
controller, so the module and the action plugin run one ``wait_for``: the results cannot drift apart.
``controller.resume_wait`` is the controller's side of the handoff (docs/dev/architecture.md, "Waiters"); batch
waits are in ``batch``.
"""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.build_poller import BUILD_FAILED_CODE, BuildPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.endpoint_poller import EndpointPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import (
    PodPoller,
    cluster_poller,
)
from ansible_collections.runpod.cloud.plugins.module_utils._module import host_key_wait as _host_key_wait
from ansible_collections.runpod.cloud.plugins.module_utils._module.batch import wait_fleet, with_proven_ssh
from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import (
    batch_failure_logs,
    endpoint_failure_logs,
    live_pod_lines,
    pending_pods,
    pod_failure_logs,
)
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import (
    describe_cluster,
    describe_members,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import (
    describe_build,
    describe_endpoint,
    describe_release,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod


class PodWaiter(Waiter):
    """``runpod.cloud.pod``'s wait: one pod (``wait_for``: ssh or running), or a fleet's batch wait (``count``)."""

    kind = module = result_key = "pod"

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


# What an endpoint wait waits for, by ``wait_for`` (its label).
WAITED_FOR = {
    "ready": "a ready worker",
    "rollout": "a finished rollout (no stale worker left)",
    "build": "the newest build and a ready worker on its release",
}


class EndpointWaiter(Waiter):
    """``runpod.cloud.endpoint``'s wait: a ready worker, or a finished rollout; and its description.

    The wait starts from the endpoint as the task last described it (``result["endpoint"]``, which the handoff
    carries), never from a fresh read: both paths describe the same endpoint, with the wait's health counters.
    """

    kind = module = result_key = "endpoint"

    def remedy(self, resource_id):
        return (
            f"endpoint {resource_id} was kept (nothing is deleted): inspect it with {self.info_hint(resource_id)}, "
            f"or delete it with {self.delete_hint(resource_id)} if you no longer want it (an endpoint with no "
            f"running worker is not billing, but it will start one on the first request)"
        )

    def describe(self, resource, health=None):
        return describe_endpoint(resource, self.host.backend.serverless_url, health)

    def wait_for(self, resource):
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

        def explain(error):
            return f"{error}; {self.remedy(endpoint_id)}", {"build": describe_build(poller.last_build)}

        return explain

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


class ClusterWaiter(Waiter):
    """``runpod.cloud.cluster``'s wait on every node, and the members it describes (``pods``).

    The wait starts from the cluster and its members as the task last described them (``result["cluster"]`` and
    ``result["pods"]``, which the handoff carries); the member views the module read itself (``members``) are
    described at the start, so a wait that never lists a member ends with the same ``pods`` on both paths.
    """

    kind = module = result_key = "cluster"

    def __init__(self, host, progress=None, on_transition=None):
        super().__init__(host, progress, on_transition)
        self.members = None  # the nodes as last read (PodViews), for the ``pods`` result
        self.proven = {}  # node id -> SSH address the wait proved reachable
        self.trusts = {}  # node id -> its host key step (what it proved: ``host_key_wait.with_host_keys``)

    def last_known_state(self):
        counts = (self.host.result.get("cluster") or {}).get("pods_by_status") or {}
        return ", ".join(f"{count} {status.lower()}" for status, count in counts.items()) or "unknown"

    def read_members(self, cluster):
        self.members = self.host.backend.clusters.pods(cluster.id)
        return self.members

    def describe_members(self, warn=None):
        """``result["pods"]``: the nodes as last read, with the SSH addresses and host keys the wait proved (the
        pinned warnings go to ``warn``, once, after the wait)."""
        pods = describe_members(self.members or [], self.proven)
        for pod in pods:
            _host_key_wait.with_host_keys(pod, self.trusts.get(pod["id"]), warn or (lambda _warning: None))
        self.host.result["pods"] = pods

    def wait_for(self, resource):
        cluster_id, result = resource.id, self.host.result
        before = result["cluster"]  # the cluster as last read before the wait (what the module described)
        if self.members is not None:  # read by the module (converge); on the controller the handoff's ``pods``
            self.describe_members()
        poller = cluster_poller(self.host.backend, cluster_id, before["pod_count"] or self.host.params["pod_count"],
                                trust=_host_key_wait.trust_factory(self, "ssh"))

        def last_seen():
            if poller.last_pods:
                self.members = list(poller.last_pods.values())
                proven = {pod_id: entry.get("ssh") for pod_id, entry in poller.done.items()}
                result["pods"] = describe_members(self.members, proven)
            return before

        outcome = self.until(
            poller,
            label=f"ssh on every node of cluster {cluster_id}",
            resource_id=cluster_id,
            describe_last=last_seen,
            explain_failure=lambda error: self.explain_failure(error, poller, cluster_id),
            failure_logs=batch_failure_logs(self, poller),
            live_logs=live_pod_lines(self, lambda: pending_pods(poller), self.host.wait_options.interval),
        )
        self.proven = {pod_id: entry.get("ssh") for pod_id, entry in (outcome.value or {}).items()}
        self.trusts = poller.trusts
        self.members = list(poller.last_pods.values())
        # The create answer predates placement: one read gives the data center, network and primary.
        try:
            result["cluster"] = describe_cluster(self.host.backend.clusters.get(cluster_id))
        except RunPodError as error:
            self.host.warn(f"every node of cluster {cluster_id} answers SSH, but re-reading the cluster for its "
                           f"network and primary failed: {error.message} ({error.code}); they may be null")
        result["wait"] = outcome.as_dict()
        self.describe_members(self.host.warn)

    @staticmethod
    def explain_failure(error, poller, cluster_id):
        """Name the nodes not ready; ``host_key_unverified`` first when a ``strict`` wait ran out of time on nodes
        whose logs showed no fingerprints."""
        waiting = [pod_id for pod_id in poller.pod_ids if pod_id not in poller.done]
        return _host_key_wait.explain_unverified(
            lambda: ClusterWaiter.not_ready(error, poller, cluster_id), error, poller.trusts, waiting)

    @staticmethod
    def not_ready(error, poller, cluster_id):
        waiting = [pod_id for pod_id in poller.pod_ids if pod_id not in poller.done]
        not_ready = []
        for pod_id in waiting:
            pod = poller.last_pods.get(pod_id)
            not_ready.append({
                "id": pod_id,
                "name": pod.name if pod is not None else None,
                "rank": pod.cluster_rank if pod is not None else None,
                "role": pod.cluster_role if pod is not None else None,
                "last_state": poller.states.get(pod_id),
            })
        listing = ", ".join(f"{entry['id']} ({entry['last_state']})" for entry in not_ready) or "none listed yet"
        return (
            f"{error}; nodes not ready: {listing}; cluster {cluster_id} was kept (nothing is deleted) and bills "
            f"while its nodes run: inspect it with runpod.cloud.cluster_info id={cluster_id}, or delete it with "
            f"runpod.cloud.cluster id={cluster_id} state=absent",
            {"not_ready": not_ready},
        )
