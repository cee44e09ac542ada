# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The result shapes of every resource, built once and shared by a module and its ``_info`` sibling.

Pure Python (no Ansible import). Each ``describe_*`` takes a view from ``_models`` and returns the stable,
JSON-safe, snake_case dict a task returns; the RETURN documentation of the modules documents these keys.
"""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate

# The worker counters of a serverless ``/health`` read, in the order the results list them.
HEALTH_KEYS = ("ready", "running", "idle", "initializing", "throttled", "unhealthy")

ENDPOINT_FIELDS = (
    "id",
    "name",
    "template_id",
    "gpu_type_ids",
    "gpu_pools",
    "gpu_count",
    "workers_min",
    "workers_max",
    "idle_timeout",
    "scaler_type",
    "scaler_value",
    "flashboot",
    "network_volume_id",
    "data_center_ids",
    "execution_timeout_ms",
    "registry_id",
    "type",
    "image",
    "docker_args",
    "cmd",
    "entrypoint",
    "container_disk_gb",
    "env",
    "ports",
    "cpu_flavor_ids",
    "vcpu_count",
    "allowed_cuda_versions",
    "min_cuda_version",
    "created_at",
)
_ENDPOINT_LISTS = ("gpu_type_ids", "gpu_pools", "data_center_ids", "cpu_flavor_ids")


def describe_pod(pod: Any) -> dict | None:
    """The pod shape shared by every module (``_podstate`` derives the status and SSH parts)."""
    return _podstate.describe(pod) if pod is not None else None


def endpoint_urls(serverless_url: str, endpoint_id: str | None) -> dict | None:
    if not endpoint_id:
        return None
    base = f"{serverless_url.rstrip('/')}/{endpoint_id}"
    return {"run": f"{base}/run", "runsync": f"{base}/runsync", "status": f"{base}/status", "health": f"{base}/health"}


def health_counts(health: Any) -> dict | None:
    """The worker counters of a ``Health`` view or a poller's counts dict; None stays None."""
    if health is None:
        return None
    if isinstance(health, dict):
        return {key: int(health.get(key, 0) or 0) for key in HEALTH_KEYS}
    return {key: int(getattr(health, key, 0) or 0) for key in HEALTH_KEYS}


def describe_endpoint(endpoint: Any, serverless_url: str, health: Any = None) -> dict | None:
    """The ``endpoint`` result from an ``EndpointView`` (or a planned field dict); None stays None."""
    if endpoint is None:
        return None
    fields = endpoint if isinstance(endpoint, dict) else endpoint.model_dump()
    described = {key: fields.get(key) for key in ENDPOINT_FIELDS}
    for key in _ENDPOINT_LISTS:
        described[key] = list(described[key] or [])
    described["urls"] = endpoint_urls(serverless_url, described["id"])
    described["health"] = health_counts(health)
    return described


def describe_release(release: Any) -> tuple[dict | None, dict | None]:
    """``(release, rollout)`` result parts from an ``EndpointRelease`` (None, None when unknown)."""
    if release is None:
        return None, None
    fields = release if isinstance(release, dict) else release.model_dump()
    rollout = fields.get("rollout")
    described = {key: fields.get(key) for key in ("version", "source", "id", "created_at")}
    return described, (dict(rollout) if rollout is not None else None)


BUILD_KEYS = ("id", "status", "error", "commit", "commit_message", "branch", "commit_date", "image", "started_at",
              "completed_at")


def describe_build(build: Any) -> dict | None:
    """The ``build`` result (``builds[]`` of endpoint_info) from a ``Build`` view; None stays None."""
    if build is None:
        return None
    fields = build if isinstance(build, dict) else build.model_dump()
    return {key: fields.get(key) for key in BUILD_KEYS}


def describe_template(template: Any) -> dict | None:
    """The ``template`` result from a ``TemplateView`` or a ``TemplateSpec`` (planned: null id)."""
    if template is None:
        return None
    return {
        "id": getattr(template, "id", None),
        "name": template.name,
        "image": template.image,
        "serverless": bool(template.serverless),
        "container_disk_gb": template.container_disk_gb,
        "env": dict(template.env or {}),
        "ports": list(template.ports or []),
        "docker_args": template.docker_args or None,
        "cmd": getattr(template, "cmd", None),
        "entrypoint": getattr(template, "entrypoint", None),
        "registry_id": getattr(template, "registry_id", None),
    }


def describe_cluster(cluster: Any) -> dict | None:
    """The ``cluster`` result from a ``ClusterView`` (or a planned ``ClusterSpec``: null id, nothing placed)."""
    if cluster is None:
        return None
    network = None
    if getattr(cluster, "network_cidr", None):
        network = {"cidr": cluster.network_cidr, "vxlan_id": cluster.vxlan_id, "vxlan_port": cluster.vxlan_port}
    primary = None
    if getattr(cluster, "primary_pod_id", None):
        primary = {
            "pod_id": cluster.primary_pod_id,
            "status": cluster.primary_status,
            "ssh_endpoint": cluster.primary_ssh_endpoint,
        }
    return {
        "id": getattr(cluster, "id", None),
        "name": cluster.name,
        "type": (cluster.type or "").upper(),
        "gpu_type_id": cluster.gpu_type_id,
        "gpu_count_per_pod": cluster.gpu_count_per_pod,
        "pod_count": cluster.pod_count,
        "template_id": getattr(cluster, "template_id", None),
        "data_center_id": getattr(cluster, "data_center_id", None),
        "network": network,
        "primary": primary,
        "pods_by_status": dict(getattr(cluster, "pods_by_status", None) or {}),
        "created_at": getattr(cluster, "created_at", None),
    }


def describe_member(pod: Any, ssh: dict | None = None) -> dict:
    """A cluster member: the shared pod shape plus ``rank``, ``role``, ``cluster_ip`` and ``primary``.

    ``ssh`` is the address a wait proved reachable; it fills ``ssh`` when the read alone gave none."""
    described = _podstate.describe(pod)
    if described["ssh"] is None and ssh and not _podstate.known_down(described["runtime_status"]):
        described["ssh"] = dict(ssh)
        described["ssh_not_ready"] = None
    rank = getattr(pod, "cluster_rank", None)
    described.update(
        rank=rank,
        role=getattr(pod, "cluster_role", None),
        cluster_ip=getattr(pod, "cluster_ip", None),
        primary=rank == 0,
    )
    return described


def describe_members(pods: Any, proven: dict | None = None) -> list:
    """Cluster members in rank order (the primary, rank 0, first; unranked last), each ``describe_member``."""
    ranked = sorted(pods, key=lambda pod: (pod.cluster_rank is None, pod.cluster_rank or 0, pod.id))
    return [describe_member(pod, (proven or {}).get(pod.id)) for pod in ranked]


NETWORK_VOLUME_FIELDS = ("id", "name", "size_gb", "data_center_id", "type")


def describe_network_volume(volume: Any) -> dict | None:
    """The ``network_volume`` result from a ``NetworkVolumeView`` or a planned field dict (null id)."""
    if volume is None:
        return None
    fields = volume if isinstance(volume, dict) else volume.model_dump()
    return {key: fields.get(key) for key in NETWORK_VOLUME_FIELDS}


def describe_registry(registry: Any) -> dict | None:
    """The ``container_registry`` result: id and name only (RunPod never returns the credential)."""
    if registry is None:
        return None
    fields = registry if isinstance(registry, dict) else registry.model_dump()
    return {"id": fields.get("id"), "name": fields.get("name")}


SECRET_FIELDS = ("id", "name", "description", "created_at", "value_last_updated_at")


def describe_secret(secret: Any) -> dict | None:
    """The ``secret`` result from a ``SecretView`` or a planned field dict: never a value (RunPod returns none, and
    a spec's is dropped here)."""
    if secret is None:
        return None
    fields = secret if isinstance(secret, dict) else secret.model_dump()
    return {key: fields.get(key) for key in SECRET_FIELDS}
