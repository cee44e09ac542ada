# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Payload readers: RunPod's JSON (REST v2, REST v1 and its GraphQL runtime) read into ``_models`` views.

Each view is read through one table (``Table``) with one row per view field and one column per API version, so a
reading rule (which field, converted how, with which fallback) is written once for both versions; where the
versions differ, the two cells of a row say how (docs/dev/api-notes.md lists the facts they rely on). Reads are
lenient: a missing, null or mistyped field gives the view's empty value, never an exception; only a resource
without an ``id`` is a ``bad_response``.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._describe import HEALTH_KEYS
from ansible_collections.runpod.cloud.plugins.module_utils._models import (
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

# The columns of every table, in order.
VERSIONS = ("v2", "v1")

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


def positive(value: object) -> int | None:
    """A size where 0 means none (REST v1 ``volumeInGb``)."""
    return as_int(value) or None


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


def port_map(value: object) -> dict[str, int]:
    """REST v1 ``portMappings`` (private -> public) without the unreadable entries."""
    mapped = {str(private): as_int(public) for private, public in as_dict(value).items()}
    return {private: public for private, public in mapped.items() if public is not None}


def status_counts(value: object) -> dict[str, int]:
    return {str(key).upper(): count(number) for key, number in as_dict(value).items()}


def secure_cloud(value: object) -> str | None:
    """REST v1 ``machine.secureCloud`` as the cloud type."""
    return None if not isinstance(value, bool) else ("SECURE" if value else "COMMUNITY")


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

Getter = Callable[[Any, dict], Any]


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
    root, _dot, rest = path.partition(".") if path.startswith("@") else ("", "", path)
    keys = rest.split(".") if rest else []
    if root:
        return lambda payload, context: dig(context.get(root[1:]), keys)
    return lambda payload, context: dig(payload, keys)


class via:  # noqa: N801 - read as a function in the tables
    """A cell read from ``paths`` with its own ``convert``: the first path whose converted value is truthy (as
    ``a or b``), else the last one's. A path is dotted (``mounts.network.0.path``); ``@name.…`` starts at the
    context value ``name`` (``@graphql``: a REST v1 pod's GraphQL runtime entry)."""

    def __init__(self, convert: Callable[[Any], Any], *paths: str):
        self.convert = convert
        self.paths = paths
        self._getters = [_path_getter(path) for path in paths]

    def __call__(self, payload: Any, context: dict) -> Any:
        value = None
        for getter in self._getters:
            value = self.convert(getter(payload, context))
            if value:
                return value
        return value


def const(value: Any) -> Getter:
    return lambda payload, context: value


class Table:
    """How one view is read: ``rows`` of ``(view field, convert, REST v2 cell, REST v1 cell)``.

    A cell is a path or a tuple of paths converted with the row's ``convert`` (see ``via``), a function
    ``(payload, context) -> value`` for what a path cannot say, or None: that version does not report the field,
    the view's default stands. ``kind`` names the resource in the ``bad_response`` of a payload without an id
    (None: the view has no id); ``stamp_version`` sets the view's ``api_version``.
    """

    def __init__(self, view: type, kind: str | None, rows: tuple, stamp_version: bool = False):
        self.view = view
        self.kind = kind
        self.stamp_version = stamp_version
        # version -> [(view field, getter)]; a path cell becomes a ``via``.
        self.columns: dict[str, list[tuple[str, Getter]]] = {version: [] for version in VERSIONS}
        for field, convert, *cells in rows:
            for version, cell in zip(VERSIONS, cells, strict=True):
                if isinstance(cell, str | tuple):
                    cell = via(convert, *((cell,) if isinstance(cell, str) else cell))
                if cell is not None:
                    self.columns[version].append((field, cell))

    def values(self, version: str, payload: Any, **context: Any) -> dict[str, Any]:
        """The view's fields read from ``payload`` as ``version`` sends it."""
        values = {} if self.kind is None else {"id": require_id(payload, self.kind)}
        if self.stamp_version:
            values["api_version"] = version
        for field, get in self.columns[version]:
            values[field] = get(payload, context)
        return values

    def read(self, version: str, payload: Any, **context: Any) -> Any:
        return self.view(**self.values(version, payload, **context))


def v2_only(rows: tuple) -> tuple:
    """``rows`` with no REST v1 cell (what only REST v2 reports)."""
    return tuple((field, convert, v2, None) for field, convert, v2, *_v1 in rows)


# -- what a path cannot say -------------------------------------------------------------------------------------


def docker_args_v2(payload, context=None):
    args = payload.get("args")
    if isinstance(args, str):
        return args.strip() or None
    # Field drift: later builds send cmd[]/entrypoint[] instead of the args string.
    parts = [str(item) for item in as_list(payload.get("entrypoint")) + as_list(payload.get("cmd"))]
    return " ".join(parts) or None


def docker_args_v1(payload, context=None):
    """One command string from ``dockerEntrypoint`` + ``dockerStartCmd`` (REST) or ``dockerArgs`` (GraphQL)."""
    parts = [str(item) for item in as_list(payload.get("dockerEntrypoint")) + as_list(payload.get("dockerStartCmd"))]
    if parts:
        return shlex.join(parts)
    return as_str(payload.get("dockerArgs"))


# v2 status -> legacy desiredStatus (docs/dev/wait-and-status.md, section 6).
V2_DESIRED_STATUS = {"PROVISIONING": "RUNNING", "STARTING": "RUNNING", "RUNNING": "RUNNING", "ERROR": "RUNNING"}


def desired_status_from_v2(status):
    status = (status or "").strip().upper()
    return V2_DESIRED_STATUS.get(status, status)


def _v2_desired_status(payload, context):
    return desired_status_from_v2(upper(payload.get("status")))


def _v2_compute_type(payload, context):
    return "CPU" if as_dict(payload.get("cpu")) and not as_dict(payload.get("gpu")) else "GPU"


def _v1_gpu_type(payload):
    """REST v1 ``gpu.id``, else the machine's GPU type (which says ``unknown`` on CPU machines)."""
    machine_gpu = as_str(as_dict(payload.get("machine")).get("gpuTypeId"))
    known = machine_gpu if machine_gpu and machine_gpu.lower() != "unknown" else None
    return as_str(as_dict(payload.get("gpu")).get("id")) or known


def _v1_compute_type(payload, context):
    return "CPU" if as_str(payload.get("cpuFlavorId")) and not _v1_gpu_type(payload) else "GPU"


def _v1_pod_gpu_type(payload, context):
    return _v1_gpu_type(payload) if _v1_compute_type(payload, context) == "GPU" else None


def _v1_pod_gpu_count(payload, context):
    return count(as_dict(payload.get("gpu")).get("count")) if _v1_compute_type(payload, context) == "GPU" else 0


def _v1_runtime_probed(payload, context):
    """Whether the GraphQL runtime read was made, succeeded and listed this pod (docs/dev/api-notes.md, 3.1)."""
    return context.get("graphql") is not None


def _v2_scaler_value(payload, context):
    scaling = as_dict(payload.get("scaling"))
    key = "requestCount" if as_str(scaling.get("type")) == "REQUEST_COUNT" else "queueDelay"
    return as_float(scaling.get(key))


# -- the tables ---------------------------------------------------------------------------------------------------

NAME = ("name", name_text, "name", "name")
CREATED_AT = ("created_at", as_str, "createdAt", "createdAt")

# The container settings a pod, a template and (REST v2) an endpoint share.
CONTAINER = (
    ("container_disk_gb", as_int, "disk", "containerDiskInGb"),
    ("env", env_dict, "env", "env"),
    ("ports", port_list, "ports", "ports"),
    ("docker_args", None, docker_args_v2, docker_args_v1),
    ("registry_id", as_str, "registry", "containerRegistryAuthId"),
)

# A runtime port: REST v2 ``runtime.ports`` entries, GraphQL ``runtime.ports`` for REST v1.
PORT = Table(
    PortMapping,
    None,
    (
        ("private", as_int, ("private", "privatePort"), "privatePort"),
        ("public", as_int, ("public", "publicPort"), "publicPort"),
        ("ip", as_str, "ip", "ip"),
        ("type", as_str, "type", "type"),
        ("is_public", strict_bool, None, "isIpPublic"),
    ),
)


def runtime_ports(version: str) -> Callable[[Any], list[PortMapping]]:
    """The ``runtime.ports`` list of ``version`` read as ``PortMapping``s; entries without a private port are
    skipped."""

    def read(value):
        entries = (PORT.values(version, as_dict(entry)) for entry in as_list(value))
        return [PortMapping(**entry) for entry in entries if entry["private"] is not None]

    return read


# REST v1 pods: ``@graphql`` is the pod's entry in the GraphQL runtime read (None when that read was not made, failed
# or missed the pod). It is the fresher source of intent and last change (docs/dev/wait-and-status.md, section 6):
# a pod REST still lists as RUNNING but GraphQL shows EXITED derives as stopped; ``status`` keeps REST's. Only
# fields of the v1 document's ``Pod`` are read, and ``imageName``, which live answers send instead of ``image``;
# ``machine`` is there because reads send ``includeMachine=true``.
POD = Table(
    PodView,
    "pod",
    (
        NAME,
        ("status", upper, "status", "desiredStatus"),
        ("desired_status", upper, _v2_desired_status, ("@graphql.desiredStatus", "desiredStatus")),
        ("actions", str_list, "actions", None),
        ("last_status_change", as_str, None, ("@graphql.lastStatusChange", "lastStatusChange")),
        ("runtime_probed", None, const(True), _v1_runtime_probed),
        ("runtime_reported", filled, "runtime", "@graphql.runtime"),
        ("uptime_seconds", as_int, "runtime.uptime", "@graphql.runtime.uptimeInSeconds"),
        ("runtime_ports", None, via(runtime_ports("v2"), "runtime.ports"),
         via(runtime_ports("v1"), "@graphql.runtime.ports")),
        ("image", as_str, "image", ("image", "imageName")),
        ("template_id", as_str, via(ref_id, "template"), "templateId"),
        ("compute_type", None, _v2_compute_type, _v1_compute_type),
        ("gpu_type", as_str, "gpu.id", _v1_pod_gpu_type),
        ("gpu_count", count, "gpu.count", _v1_pod_gpu_count),
        ("cpu_flavor", as_str, "cpu.id", "cpuFlavorId"),
        ("vcpu_count", as_int, "cpu.vcpuCount", "vcpuCount"),
        ("cloud_type", as_str, "cloud", via(secure_cloud, "machine.secureCloud")),
        ("cost_per_hr", as_float, "cost", "costPerHr"),
        ("data_center_id", as_str, "dataCenterId", "machine.dataCenterId"),
        ("volume_gb", as_int, "mounts.persistent.size", via(positive, "volumeInGb")),
        ("volume_mount_path", as_str, ("mounts.persistent.path", "mounts.network.0.path"), "volumeMountPath"),
        ("network_volume_id", as_str, "mounts.network.0.volumeId", "networkVolume.id"),
        *CONTAINER,
        ("interruptible", strict_bool, None, "interruptible"),
        ("public_ip", as_str, None, "publicIp"),
        ("port_mappings", port_map, None, "portMappings"),
        ("ssh_direct", ssh_address, "ssh.direct", None),
        ("ssh_proxy", ssh_address, "ssh.proxy", None),
        ("created_at", as_str, "createdAt", None),
        ("started_at", as_str, "startedAt", "lastStartedAt"),
        ("locked", flag, "locked", "locked"),
        *v2_only(
            (
                ("cluster_id", as_str, "cluster.id"),
                ("cluster_rank", as_int, "cluster.rank"),
                ("cluster_role", as_str, "cluster.role"),
                ("cluster_ip", as_str, "cluster.ip"),
            )
        ),
    ),
    stamp_version=True,
)

# REST v2 selects GPUs by pool and keeps no template (``templateId`` is applied at create and not stored); REST v1
# selects by GPU type id and does not report the container settings.
ENDPOINT = Table(
    EndpointView,
    "endpoint",
    (
        NAME,
        ("template_id", as_str, None, ("templateId", "template.id")),
        ("gpu_type_ids", str_list, None, "gpuTypeIds"),
        ("gpu_pools", str_list, "gpu.pools", None),
        ("gpu_count", as_int, "gpu.count", "gpuCount"),
        ("workers_min", as_int, "workers.min", "workersMin"),
        ("workers_max", as_int, "workers.max", "workersMax"),
        ("idle_timeout", as_int, "workers.idleTimeout", "idleTimeout"),
        ("scaler_type", as_str, "scaling.type", "scalerType"),
        ("scaler_value", as_float, _v2_scaler_value, "scalerValue"),
        ("flashboot", strict_bool, via(flashboot_mode, "flashboot"), "flashboot"),
        ("network_volume_id", as_str, "networkVolumes.0", ("networkVolumeId", "networkVolumeIds.0")),
        ("data_center_ids", str_list, "dataCenterIds", "dataCenterIds"),
        ("execution_timeout_ms", as_int, "timeout", "executionTimeoutMs"),
        CREATED_AT,
        ("type", as_str, "type", None),
        ("image", as_str, "image", None),
        *v2_only(CONTAINER),
        ("cpu_flavor_ids", id_list, "cpu", None),
        ("vcpu_count", as_int, "cpu.0.vcpuCount", None),
        ("allowed_cuda_versions", str_list, "gpu.allowedCudaVersions", "allowedCudaVersions"),
        ("min_cuda_version", as_str, "gpu.minCudaVersion", "minCudaVersion"),
    ),
    stamp_version=True,
)

TEMPLATE = Table(
    TemplateView,
    "template",
    (
        NAME,
        ("image", as_str, "image", ("imageName", "image")),
        ("serverless", flag, "serverless", "isServerless"),
        *CONTAINER,
    ),
)

# Instant Clusters exist only on REST v2; a cluster's ``pods`` is a count summary, not the members.
CLUSTER = Table(
    ClusterView,
    "cluster",
    v2_only(
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
        )
    ),
)

# REST v1 does not report the volume tier.
NETWORK_VOLUME = Table(
    NetworkVolumeView,
    "network volume",
    (
        NAME,
        ("size_gb", as_int, "size", "size"),
        ("data_center_id", as_str, ("dataCenter", "dataCenterId"), ("dataCenterId", "dataCenter")),
        ("type", upper_or_none, "type", None),
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
    """Entries of a list response: a wrapped ``{key: [...]}`` (v2) or a bare array (v1); nulls skipped."""
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
