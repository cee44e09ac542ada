# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``ClusterWaiter``: ``runpod.cloud.cluster``'s wait, which its action plugin builds too
(docs/dev/architecture.md, "Waiters")."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import Clusters
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.templates import Templates
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import cluster_poller
from ansible_collections.runpod.cloud.plugins.module_utils._module import batch as _batch
from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report as _logs
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import cluster_fields as _fields


class ClusterWaiter(Waiter):
    """``runpod.cloud.cluster``'s wait on every node, from the cluster and members as the task last described them
    (docs/dev/architecture.md, "Waits on the controller"), and the members it describes (``pods``)."""

    kind = module = result_key = "cluster"
    uses = (Clusters, Templates, Gpus)

    def __init__(self, host, progress=None, on_transition=None):
        super().__init__(host, progress, on_transition)
        self.members = None  # the nodes as last read (PodViews), for the ``pods`` result
        self.proven = {}  # node id -> SSH address the wait proved reachable
        self.trusts = {}  # node id -> its host key step (what it proved: ``batch.with_host_keys``)

    def last_known_state(self):
        counts = (self.host.result.get("cluster") or {}).get("pods_by_status") or {}
        return ", ".join(f"{count} {status.lower()}" for status, count in counts.items()) or "unknown"

    def read_members(self, cluster):
        self.members = self.host.backend.clusters.pods(cluster.id)
        return self.members

    def describe_members(self, warn=None):
        """``result["pods"]``: the nodes as last read, with what the wait proved (pinned warnings to ``warn``)."""
        pods = _fields.describe_members(self.members or [], self.proven)
        for pod in pods:
            _batch.with_host_keys(pod, self.trusts.get(pod["id"]), warn or (lambda _warning: None))
        self.host.result["pods"] = pods

    def wait_for(self, resource):
        cluster_id, result = resource.id, self.host.result
        before = result["cluster"]  # the cluster as last read before the wait (what the module described)
        if self.members is not None:  # read by the module (converge); on the controller the handoff's ``pods``
            self.describe_members()
        poller = cluster_poller(self.host.backend, cluster_id, before["pod_count"] or self.host.params["pod_count"],
                                trust=_batch.trust_factory(self, "ssh"))

        def last_seen():
            if poller.last_pods:
                self.members = list(poller.last_pods.values())
                proven = {pod_id: entry.get("ssh") for pod_id, entry in poller.done.items()}
                result["pods"] = _fields.describe_members(self.members, proven)
            return before

        outcome = self.until(
            poller,
            label=f"ssh on every node of cluster {cluster_id}",
            resource_id=cluster_id,
            describe_last=last_seen,
            explain_failure=lambda error: self.explain_failure(error, poller, cluster_id),
            failure_logs=_logs.batch_failure_logs(self, poller),
            live_logs=_logs.live_pod_lines(self, lambda: _logs.pending_pods(poller)),
        )
        self.proven = {pod_id: entry.get("ssh") for pod_id, entry in (outcome.value or {}).items()}
        self.trusts = poller.trusts
        self.members = list(poller.last_pods.values())
        # The create answer predates placement: one read gives the data center, network and primary.
        try:
            result["cluster"] = _fields.describe_cluster(self.host.backend.clusters.get(cluster_id))
        except RunPodError as error:
            self.host.warn(f"every node of cluster {cluster_id} answers SSH, but re-reading the cluster for its "
                           f"network and primary failed: {error.message} ({error.code}); they may be null")
        result["wait"] = outcome.as_dict()
        self.describe_members(self.host.warn)

    @staticmethod
    def explain_failure(error, poller, cluster_id):
        """Name the nodes not ready; ``host_key_unverified`` first when a ``strict`` wait timed out."""
        waiting = [pod_id for pod_id in poller.pod_ids if pod_id not in poller.done]
        return _batch.explain_unverified(
            lambda: ClusterWaiter.not_ready(error, poller, cluster_id, waiting), error, poller.trusts, waiting)

    @staticmethod
    def not_ready(error, poller, cluster_id, waiting):
        not_ready = []
        for pod_id in waiting:
            pod = poller.last_pods.get(pod_id)
            name, rank, role = (pod.name, pod.cluster_rank, pod.cluster_role) if pod is not None else (None,) * 3
            not_ready.append({"id": pod_id, "name": name, "rank": rank, "role": role,
                              "last_state": poller.states.get(pod_id)})
        listing = ", ".join(f"{entry['id']} ({entry['last_state']})" for entry in not_ready) or "none listed yet"
        return (
            f"{error}; nodes not ready: {listing}; cluster {cluster_id} was kept (nothing is deleted) and bills "
            f"while its nodes run: inspect it with runpod.cloud.cluster_info id={cluster_id}, or delete it with "
            f"runpod.cloud.cluster id={cluster_id} state=absent",
            {"not_ready": not_ready},
        )
