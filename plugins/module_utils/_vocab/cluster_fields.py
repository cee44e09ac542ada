# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The Instant Cluster's field table (``CLUSTER``; ``ClusterView``, ``ClusterSpec`` and the result are made from it) and
its members' result. A cluster's ``pods`` is a count summary, not the members (``backend.clusters.pods`` reads
them); the container part of a create, spread from a template or named by it, is ``_backend/clusters``'."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import fields as _f
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import container_rows
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod


def status_counts(value: object) -> dict[str, int]:
    return {str(key).upper(): _f.count(number) for key, number in _f.as_dict(value).items()}


def col(name: str, read: Any = None, convert: Any = None, **flags: Any) -> Col:
    return Col(name, read, convert, shown=True, **flags)


CLUSTER = Table("cluster", "ClusterView", (
    col("name", "name", _f.name_text, body="name", update=True, option=True),
    col("type", "type", _f.upper, body="type", send=str.upper, option=True, default="TRAINING"),
    # None with gpu_requirements: placement picks the type (``backend.clusters.create_placed``).
    col("gpu_type_id", "compute.gpuTypeId", _f.as_str, body="compute.gpuTypeId", option=True),
    col("gpu_count_per_pod", "compute.gpuCountPerPod", _f.as_int, body="compute.gpuCountPerPod", send=int, option=True,
        default=1),
    col("pod_count", "compute.podCount", _f.as_int, body="compute.podCount", send=int, option=True, default=2),
    col("template_id", "template", _f.ref_id, option=True),
    col("data_center_id", "dataCenterId", _f.as_str),
    Col("network_cidr", "network.cidr", _f.as_str),
    Col("vxlan_id", "network.vxlanId", _f.as_int),
    Col("vxlan_port", "network.vxlanPort", _f.as_int),
    Col("primary_pod_id", "primary.podId", _f.as_str),
    Col("primary_status", "primary.status", _f.upper_or_none),
    Col("primary_ssh_endpoint", "primary.sshEndpoint", _f.as_str),
    Col("pods_total", "pods.total", _f.count),
    col("pods_by_status", "pods.byStatus", status_counts),
    col("created_at", "createdAt", _f.as_str),
    # Every node's container, as a pod's (sent by ``cluster_create_body``, which merges a template's).
    *(Col(row.name, option=True, default=row.default) for row in container_rows() if row.name != "registry_id"),
    Col("volume_gb", option=True),
    Col("volume_mount_path", option=True),
    Col("network_volume_id", option=True),
    Col("gpu_requirements", option=True),
    Col("max_price_per_hr", option=True),
    Col("data_center_ids", option=True, default=list),
    Col("start_ssh", option="ssh", default=True),
    Col("terminate_after", option=True),  # a lease on every node: their env (``pod_rules.wanted_env``)
), __name__)
ClusterView = CLUSTER.View
ClusterSpec = CLUSTER.spec("ClusterSpec", module=__name__)


def describe_cluster(cluster: Any) -> dict | None:
    """The ``cluster`` result from a ``ClusterView`` (or a planned ``ClusterSpec``: null id, nothing placed)."""
    if cluster is None:
        return None
    described = CLUSTER.result(cluster)
    described["type"] = (described["type"] or "").upper()
    described["pods_by_status"] = described["pods_by_status"] or {}
    described["network"] = {"cidr": cluster.network_cidr, "vxlan_id": cluster.vxlan_id,
                            "vxlan_port": cluster.vxlan_port} if getattr(cluster, "network_cidr", None) else None
    described["primary"] = {"pod_id": cluster.primary_pod_id, "status": cluster.primary_status,
                            "ssh_endpoint": cluster.primary_ssh_endpoint} \
        if getattr(cluster, "primary_pod_id", None) else None
    return described


def describe_member(pod: Any, ssh: dict | None = None) -> dict:
    """A cluster member: the shared pod shape plus ``rank``, ``role``, ``cluster_ip`` and ``primary``.

    ``ssh`` is the address a wait proved reachable; it fills ``ssh`` when the read alone gave none."""
    described = describe_pod(pod) or {}
    if described["ssh"] is None and ssh and not podstate.known_down(described["runtime_status"]):
        described["ssh"] = dict(ssh)
        described["ssh_not_ready"] = None
    rank = pod.cluster_rank
    described.update(rank=rank, role=pod.cluster_role, cluster_ip=pod.cluster_ip, primary=rank == 0)
    return described


def describe_members(pods: Any, proven: dict | None = None) -> list:
    """Cluster members in rank order (the primary, rank 0, first; unranked last), each ``describe_member``."""
    ranked = sorted(pods, key=lambda pod: (pod.cluster_rank is None, pod.cluster_rank or 0, pod.id))
    return [describe_member(pod, (proven or {}).get(pod.id)) for pod in ranked]
