# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Payload readers: RunPod's REST v2 JSON read into ``models`` views.

Each view is read through one table (``readers.Table``) with one row per view field, so a reading rule (which field,
converted how, with which fallback) is written once (docs/dev/api-notes.md lists the facts they rely on).
"""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.readers import (
    Table,
    as_dict,
    as_float,
    as_int,
    as_list,
    as_str,
    count,
    env_dict,
    filled,
    flag,
    flashboot_mode,
    id_list,
    name_text,
    port_list,
    ref_id,
    ssh_address,
    status_counts,
    str_list,
    upper,
    upper_or_none,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.shapes import HEALTH_KEYS
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.views import (
    Build,
    ClusterView,
    EndpointRelease,
    EndpointView,
    Health,
    NetworkVolumeView,
    PodView,
    PortMapping,
    RegistryView,
    Rollout,
    SecretView,
    TemplateView,
    Worker,
    WorkerSummary,
)

# -- what a path cannot say -------------------------------------------------------------------------------------


def docker_args(payload):
    args = payload.get("args")
    if isinstance(args, str):
        return args.strip() or None
    # Field drift: later builds send cmd[]/entrypoint[] instead of the args string.
    parts = [str(item) for item in as_list(payload.get("entrypoint")) + as_list(payload.get("cmd"))]
    return " ".join(parts) or None


def command_list(value):
    """An exec-form ``cmd``/``entrypoint``: a list of strings; None when the answer has none (an older answer)."""
    return None if value is None else [str(item) for item in as_list(value)]


def set_timeout(value):
    """An endpoint's ``timeout``: 0 is what RunPod reads back for an endpoint created without one (a quirk its
    clients report), so it means "not set", not "no time at all" (docs/dev/api-notes.md)."""
    return as_int(value) or None


def compute_type(payload):
    return "CPU" if as_dict(payload.get("cpu")) and not as_dict(payload.get("gpu")) else "GPU"


def scaler_value(payload):
    scaling = as_dict(payload.get("scaling"))
    key = "requestCount" if as_str(scaling.get("type")) == "REQUEST_COUNT" else "queueDelay"
    return as_float(scaling.get(key))


# -- the tables ---------------------------------------------------------------------------------------------------

NAME = ("name", name_text, "name")
CREATED_AT = ("created_at", as_str, "createdAt")

# The container settings a pod, a template and an endpoint share.
CONTAINER = (
    ("container_disk_gb", as_int, "disk"),
    ("env", env_dict, "env"),
    ("ports", port_list, "ports"),
    ("docker_args", None, docker_args),
    ("cmd", command_list, "cmd"),
    ("entrypoint", command_list, "entrypoint"),
    ("registry_id", as_str, "registry"),
)

# A runtime port: ``runtime.ports`` entries.
PORT = Table(
    PortMapping,
    None,
    (
        ("private", as_int, ("private", "privatePort")),
        ("public", as_int, ("public", "publicPort")),
        ("ip", as_str, "ip"),
        ("type", as_str, "type"),
    ),
)


def runtime_ports(value):
    """The ``runtime.ports`` list read as ``PortMapping``s; entries without a private port are skipped."""
    entries = (PORT.values(as_dict(entry)) for entry in as_list(value))
    return [PortMapping(**entry) for entry in entries if entry["private"] is not None]


POD = Table(
    PodView,
    "pod",
    (
        NAME,
        ("status", upper, "status"),
        ("actions", str_list, "actions"),
        ("runtime_reported", filled, "runtime"),
        ("uptime_seconds", as_int, "runtime.uptime"),
        ("runtime_ports", runtime_ports, "runtime.ports"),
        ("image", as_str, "image"),
        ("template_id", ref_id, "template"),
        ("compute_type", None, compute_type),
        ("gpu_type", as_str, "gpu.id"),
        ("gpu_count", count, "gpu.count"),
        ("gpu_vcpu_count", as_int, "gpu.vcpuCount"),
        ("gpu_memory_gb", as_int, "gpu.memory"),
        ("cpu_flavor", as_str, "cpu.id"),
        ("vcpu_count", as_int, "cpu.vcpuCount"),
        ("cloud_type", as_str, "cloud"),
        ("cost_per_hr", as_float, "cost"),
        ("data_center_id", as_str, "dataCenterId"),
        ("volume_gb", as_int, "mounts.persistent.size"),
        ("volume_mount_path", as_str, ("mounts.persistent.path", "mounts.network.0.path")),
        ("network_volume_id", as_str, "mounts.network.0.volumeId"),
        *CONTAINER,
        ("ssh_direct", ssh_address, "ssh.direct"),
        ("ssh_proxy", ssh_address, "ssh.proxy"),
        CREATED_AT,
        ("started_at", as_str, "startedAt"),
        ("locked", flag, "locked"),
        ("cluster_id", as_str, "cluster.id"),
        ("cluster_rank", as_int, "cluster.rank"),
        ("cluster_role", as_str, "cluster.role"),
        ("cluster_ip", as_str, "cluster.ip"),
    ),
)

# Endpoints select GPUs by pool and keep no template (``templateId`` is applied at create and not stored).
ENDPOINT = Table(
    EndpointView,
    "endpoint",
    (
        NAME,
        ("gpu_pools", str_list, "gpu.pools"),
        ("gpu_count", as_int, "gpu.count"),
        ("workers_min", as_int, "workers.min"),
        ("workers_max", as_int, "workers.max"),
        ("idle_timeout", as_int, "workers.idleTimeout"),
        ("scaler_type", as_str, "scaling.type"),
        ("scaler_value", None, scaler_value),
        ("flashboot", flashboot_mode, "flashboot"),
        ("network_volume_id", as_str, "networkVolumes.0"),
        ("data_center_ids", str_list, "dataCenterIds"),
        ("execution_timeout_ms", set_timeout, "timeout"),
        CREATED_AT,
        ("type", as_str, "type"),
        ("image", as_str, "image"),
        *CONTAINER,
        ("cpu_flavor_ids", id_list, "cpu"),
        ("vcpu_count", as_int, "cpu.0.vcpuCount"),
        ("allowed_cuda_versions", str_list, "gpu.allowedCudaVersions"),
        ("min_cuda_version", as_str, "gpu.minCudaVersion"),
    ),
)

TEMPLATE = Table(
    TemplateView,
    "template",
    (
        NAME,
        ("image", as_str, "image"),
        ("serverless", flag, "serverless"),
        *CONTAINER,
    ),
)

# A cluster's ``pods`` is a count summary, not the members.
CLUSTER = Table(
    ClusterView,
    "cluster",
    (
        NAME,
        ("type", upper, "type"),
        ("gpu_type_id", as_str, "compute.gpuTypeId"),
        ("gpu_count_per_pod", as_int, "compute.gpuCountPerPod"),
        ("pod_count", as_int, "compute.podCount"),
        ("template_id", ref_id, "template"),
        ("data_center_id", as_str, "dataCenterId"),
        ("network_cidr", as_str, "network.cidr"),
        ("vxlan_id", as_int, "network.vxlanId"),
        ("vxlan_port", as_int, "network.vxlanPort"),
        ("primary_pod_id", as_str, "primary.podId"),
        ("primary_status", upper_or_none, "primary.status"),
        ("primary_ssh_endpoint", as_str, "primary.sshEndpoint"),
        ("pods_total", count, "pods.total"),
        ("pods_by_status", status_counts, "pods.byStatus"),
        CREATED_AT,
    ),
)

NETWORK_VOLUME = Table(
    NetworkVolumeView,
    "network volume",
    (
        NAME,
        ("size_gb", as_int, "size"),
        ("data_center_id", as_str, ("dataCenter", "dataCenterId")),
        ("type", upper_or_none, "type"),
    ),
)

REGISTRY = Table(RegistryView, "container registry credential", (NAME,))
# A secret's value is write-only: no row could read it.
SECRET = Table(
    SecretView,
    "secret",
    (NAME, ("description", as_str, "description"), CREATED_AT, ("value_last_updated_at", as_str, "valueLastUpdatedAt")),
)

BUILD = Table(
    Build,
    "build",
    (
        ("status", upper, "status"),
        ("error", as_str, "error"),
        ("commit", as_str, "commitHash"),
        ("commit_message", as_str, "commitMessage"),
        ("branch", as_str, "branch"),
        ("commit_date", as_str, "commitDate"),
        ("image", as_str, "imageName"),
        ("started_at", as_str, "startedAt"),
        ("completed_at", as_str, "completedAt"),
    ),
)


def health_from_payload(payload):
    """``Health`` from a serverless ``/health`` body; missing counters are 0."""
    payload = as_dict(payload)
    workers = as_dict(payload.get("workers"))
    jobs = {str(key): count(value) for key, value in as_dict(payload.get("jobs")).items()}
    return Health(jobs=jobs, **{key: count(workers.get(key)) for key in HEALTH_KEYS})


WORKER_STATES = ("running", "idle", "initializing", "throttled", "unhealthy")


def workers_from_v2(payload):
    """``WorkerSummary`` from REST v2 ``GET /serverless/{id}/workers``; counts missing from ``summary`` are
    counted from the list."""
    payload = as_dict(payload)
    workers = []
    for entry in as_list(payload.get("workers")):
        entry = as_dict(entry)
        if not as_str(entry.get("id")):
            continue
        workers.append(
            Worker(
                id=str(entry["id"]),
                status=upper(entry.get("status")),
                is_stale=bool(entry.get("isStale")),
                version=as_int(entry.get("version")),
                started_at=as_str(entry.get("startedAt")) or None,
            )
        )
    summary = as_dict(payload.get("summary"))
    counts = {}
    for state in WORKER_STATES:
        counted = as_int(summary.get(state))
        counts[state] = counted if counted is not None else sum(1 for w in workers if w.status.lower() == state)
    total = as_int(summary.get("total"))
    return WorkerSummary(
        workers=workers,
        total=len(workers) if total is None else total,
        endpoint_version=as_int(payload.get("endpointVersion")),
        **counts,
    )


def release_from_v2(payload):
    """``EndpointRelease`` from ListEndpointReleasesResponse: the newest release and the rollout summary."""
    payload = as_dict(payload)
    rollout = as_dict(payload.get("rollout"))
    releases = [as_dict(entry) for entry in as_list(payload.get("releases"))]
    version = as_int(payload.get("endpointVersion"))
    current = next((entry for entry in releases if as_int(entry.get("version")) == version), None)
    current = current or (releases[0] if releases else {})
    return EndpointRelease(
        version=version if version is not None else as_int(current.get("version")),
        source=as_str(current.get("source")),
        id=as_str(current.get("id")),
        created_at=as_str(current.get("createdAt")),
        build_id=as_str(current.get("buildId")),
        rollout=Rollout(
            in_progress=bool(rollout.get("inProgress")),
            workers_on_latest=count(rollout.get("workersOnLatest")),
            workers_total=count(rollout.get("workersTotal")),
            percent_on_latest=count(rollout.get("percentOnLatest")),
        ),
    )
