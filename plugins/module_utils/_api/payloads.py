# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Payload readers: RunPod's REST v2 JSON read into ``_models`` views.

Each view is read through one table (``Table``) with one row per view field, so a reading rule (which field,
converted how, with which fallback) is written once (docs/dev/api-notes.md lists the facts they rely on). Reads are
lenient: a missing, null or mistyped field gives the view's empty value, never an exception; only a resource
without an ``id`` is a ``bad_response``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.describe import HEALTH_KEYS
from ansible_collections.runpod.cloud.plugins.module_utils._api.models import (
    ClusterView,
    EndpointRelease,
    EndpointView,
    Health,
    NetworkVolumeView,
    PodView,
    PortMapping,
    RegistryView,
    Rollout,
    SshAddress,
    TemplateView,
    Worker,
    WorkerSummary,
)

# -- lenient value readers --------------------------------------------------------------------------------------


def as_int(value: Any) -> int | None:
    """An int from an int, float or digit string; None otherwise (bools are not counts)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def as_float(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def as_str(value: object) -> str | None:
    """A non-empty string or None."""
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def as_dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list:
    """A list without its ``null`` entries."""
    if not isinstance(value, list):
        return []
    return [item for item in value if item is not None]


def env_dict(value: object) -> dict[str, str]:
    """``env`` as a str->str dict from an object, a ``[{key, value}]`` list or a ``KEY=VALUE`` list."""
    result = {}
    if isinstance(value, dict):
        for key, item in value.items():
            result[str(key)] = "" if item is None else str(item)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and "key" in item:
                result[str(item["key"])] = "" if item.get("value") is None else str(item.get("value"))
            elif isinstance(item, str) and "=" in item:
                key, text = item.split("=", 1)
                result[key] = text
    return result


def port_list(value: object) -> list[str]:
    """Declared ports as a list of strings, from a list or a comma-separated string."""
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return [str(item).strip() for item in as_list(value) if str(item).strip()]


def name_text(value: object) -> str:
    return as_str(value) or ""


def upper(value: object) -> str:
    return (as_str(value) or "").upper()


def upper_or_none(value: object) -> str | None:
    return upper(value) or None


def count(value: object) -> int:
    """A count that is 0 when missing."""
    return as_int(value) or 0


def flag(value: object) -> bool:
    return bool(value)


def strict_bool(value: object) -> bool | None:
    """A JSON boolean, or None for anything else (the API did not say)."""
    return value if isinstance(value, bool) else None


def str_list(value: object) -> list[str]:
    return [str(item) for item in as_list(value)]


def ref_id(value: object) -> str | None:
    """The id of a reference sent either as the id itself or as an object with an ``id``."""
    return as_str(value if isinstance(value, str) else as_dict(value).get("id"))


def id_list(value: object) -> list[str]:
    """The ids of a list of ``{id, ...}`` objects (REST v2 endpoint ``cpu`` entries)."""
    return [text for text in (as_str(as_dict(item).get("id")) for item in as_list(value)) if text]


def filled(value: object) -> bool:
    """True for a non-empty object (a ``runtime`` block that says something; ``{}`` counts as null)."""
    return isinstance(value, dict) and bool(value)


def status_counts(value: object) -> dict[str, int]:
    return {str(key).upper(): count(number) for key, number in as_dict(value).items()}


def flashboot_mode(value: object) -> bool | None:
    """REST v2 ``flashboot`` (``FLASHBOOT``/``OFF``) as on/off."""
    mode = as_str(value)
    return None if mode is None else mode.upper() != "OFF"


def ssh_address(value: object) -> SshAddress | None:
    """``SshAddress`` from a v2 ``ssh.direct``/``ssh.proxy`` block; None when it is null or incomplete."""
    block = as_dict(value)
    host = as_str(block.get("host")) or as_str(block.get("ip"))
    port = as_int(block.get("port"))
    if not host or not port:
        return None
    user = as_str(block.get("username")) or as_str(block.get("user")) or "root"
    command = as_str(block.get("command")) or f"ssh {user}@{host} -p {port}"
    return SshAddress(host=host, port=port, user=user, command=command)


# -- the table reader -------------------------------------------------------------------------------------------

Getter = Callable[[Any], Any]


def dig(value: Any, keys: list[str]) -> Any:
    """The value at ``keys`` (a number indexes a list without its nulls); None where the path breaks."""
    for key in keys:
        if key.isdigit():
            items = as_list(value)
            value = items[int(key)] if int(key) < len(items) else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value


def _path_getter(path: str) -> Getter:
    keys = path.split(".") if path else []
    return lambda payload: dig(payload, keys)


class via:  # noqa: N801 - read as a function in the tables
    """A cell read from ``paths`` with its own ``convert``: the first path whose converted value is truthy (as
    ``a or b``), else the last one's. A path is dotted (``mounts.network.0.path``)."""

    def __init__(self, convert: Callable[[Any], Any], *paths: str):
        self.convert = convert
        self.paths = paths
        self._getters = [_path_getter(path) for path in paths]

    def __call__(self, payload: Any) -> Any:
        value = None
        for getter in self._getters:
            value = self.convert(getter(payload))
            if value:
                return value
        return value


class Table:
    """How one view is read: ``rows`` of ``(view field, convert, cell)``.

    A cell is a path or a tuple of paths converted with the row's ``convert`` (see ``via``), or a function
    ``payload -> value`` for what a path cannot say. ``kind`` names the resource in the ``bad_response`` of a payload
    without an id (None: the view has no id).
    """

    def __init__(self, view: type, kind: str | None, rows: tuple):
        self.view = view
        self.kind = kind
        self.cells: list[tuple[str, Getter]] = []
        for field, convert, cell in rows:
            if isinstance(cell, str | tuple):
                cell = via(convert, *((cell,) if isinstance(cell, str) else cell))
            self.cells.append((field, cell))

    def values(self, payload: Any) -> dict[str, Any]:
        """The view's fields read from ``payload``."""
        values = {} if self.kind is None else {"id": require_id(payload, self.kind)}
        for field, get in self.cells:
            values[field] = get(payload)
        return values

    def read(self, payload: Any) -> Any:
        return self.view(**self.values(payload))


# -- what a path cannot say -------------------------------------------------------------------------------------


def docker_args(payload):
    args = payload.get("args")
    if isinstance(args, str):
        return args.strip() or None
    # Field drift: later builds send cmd[]/entrypoint[] instead of the args string.
    parts = [str(item) for item in as_list(payload.get("entrypoint")) + as_list(payload.get("cmd"))]
    return " ".join(parts) or None


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
        ("execution_timeout_ms", as_int, "timeout"),
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


# -- readers of whole responses -----------------------------------------------------------------------------------


def require_id(payload: object, kind: str) -> str:
    """The ``id`` of a resource payload, or ``bad_response`` naming what was missing."""
    if not isinstance(payload, dict):
        raise RunPodError("bad_response", None, f"expected a {kind} object, got {type(payload).__name__}")
    resource_id = payload.get("id")
    if not isinstance(resource_id, str) or not resource_id:
        raise RunPodError("bad_response", None, f"the API returned a {kind} without an id")
    return resource_id


def pick_list(payload: object, key: str, kind: str) -> list:
    """Entries of a list response: a wrapped ``{key: [...]}`` or a bare array; nulls skipped."""
    if isinstance(payload, list):
        return as_list(payload)
    if isinstance(payload, dict) and isinstance(payload.get(key), list):
        return as_list(payload[key])
    if isinstance(payload, dict) and payload.get(key) is None and key in payload:
        return []
    raise RunPodError("bad_response", None, f"expected a list of {kind}s in the response")


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
        rollout=Rollout(
            in_progress=bool(rollout.get("inProgress")),
            workers_on_latest=count(rollout.get("workersOnLatest")),
            workers_total=count(rollout.get("workersTotal")),
            percent_on_latest=count(rollout.get("percentOnLatest")),
        ),
    )
