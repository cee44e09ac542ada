# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The serverless endpoint's field table (``ENDPOINT``) and the views of what an endpoint runs: health counters,
workers, releases and builds. The blocks that tie fields together (the CPU selection, the scaler, GPUs by type) are
``_backend/endpoints.endpoint_body``'s and ``_rules/endpoint_rules``'."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import fields as _f
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import container_rows
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import Field, Record

FLASHBOOT_ON, FLASHBOOT_OFF = "FLASHBOOT", "OFF"


def flashboot_mode(value: object) -> bool | None:
    """REST v2 ``flashboot`` (``FLASHBOOT``/``OFF``) as on/off."""
    mode = _f.as_str(value)
    return None if mode is None else mode.upper() != FLASHBOOT_OFF


def set_timeout(value: object) -> int | None:
    """An endpoint's ``timeout``: 0 is what RunPod reads back for an endpoint created without one (a quirk its
    clients report), so it means "not set", not "no time at all" (docs/dev/api-notes.md)."""
    return _f.as_int(value) or None


def scaler_value(payload: Any) -> float | None:
    scaling = _f.as_dict(_f.as_dict(payload).get("scaling"))
    key = "requestCount" if _f.as_str(scaling.get("type")) == "REQUEST_COUNT" else "queueDelay"
    return _f.as_float(scaling.get(key))


def same_set(current: Any, wanted: Any) -> bool:
    """Lists compared without regard to order."""
    return sorted(current or []) == sorted(wanted or [])


def same_floor(current: Any, wanted: Any) -> bool:
    """"" and none are the same setting (a change to "" clears the value on v2)."""
    return (current or None) == (wanted or None)


def col(name: str, read: Any = None, convert: Any = None, update: bool = True, **flags: Any) -> Col:
    """A row every endpoint result shows, updated in place unless told otherwise."""
    return Col(name, read, convert, shown=True, update=update, **flags)


ENDPOINT = Table("endpoint", "EndpointView", (
    col("name", "name", _f.name_text, body="name", option=True),
    # Applied once at create: an endpoint keeps no template, so there is nothing to read back or compare.
    col("template_id", body="templateId", update=False, option=True),
    col("gpu_type_ids", option=True, default=list),  # mapped onto the pools (``endpoint_rules.gpu_selection``)
    # REST v2 selects GPUs by pool (AMPERE_16, ADA_24, ...).
    col("gpu_pools", "gpu.pools", _f.str_list, body="gpu.pools", send=list, spec=True, diff=same_set, default=list),
    col("gpu_count", "gpu.count", _f.as_int, body="gpu.count", send=int, option=True, diff=True),
    col("workers_min", "workers.min", _f.as_int, body="workers.min", send=int, option=True, diff=True),
    col("workers_max", "workers.max", _f.as_int, body="workers.max", send=int, option=True, diff=True),
    col("idle_timeout", "workers.idleTimeout", _f.as_int, body="workers.idleTimeout", send=int, option=True, diff=True),
    col("scaler_type", "scaling.type", _f.as_str, option=True, diff=True),  # the scaling block is endpoint_body's
    col("scaler_value", scaler_value, option=True),  # compared as the scaler type stores it (endpoint_rules)
    col("flashboot", "flashboot", flashboot_mode, body="flashboot", option=True, diff=True,
        send=lambda on: FLASHBOOT_ON if on else FLASHBOOT_OFF),
    col("network_volume_id", "networkVolumes.0", _f.as_str, body="networkVolumes", send=lambda volume: [volume],
        option=True, diff=True),
    col("data_center_ids", "dataCenterIds", _f.str_list, body="dataCenterIds", send=list, option=True, diff=same_set,
        default=list),
    col("execution_timeout_ms", "timeout", set_timeout, body="timeout", send=int, option=True, diff=True),
    col("type", "type", _f.as_str, body="type", update=False, option=True, diff=True),
    # The endpoint's own container settings; ``env`` and ``ports`` stay None where it sets none (its template's
    # apply).
    *container_rows(shown=True, empty=False),
    col("cpu_flavor_ids", "cpu", _f.id_list, option=True, diff=same_set, default=list),  # the cpu block: endpoint_body
    col("vcpu_count", "cpu.0.vcpuCount", _f.as_int, option=True, diff=True),
    col("allowed_cuda_versions", "gpu.allowedCudaVersions", _f.str_list, body="gpu.allowedCudaVersions", send=list,
        option=True, diff=same_set, norm=list),
    col("min_cuda_version", "gpu.minCudaVersion", _f.as_str, body="gpu.minCudaVersion", option=True, diff=same_floor),
    col("created_at", "createdAt", _f.as_str),
), __name__)
EndpointView = ENDPOINT.View
EndpointSpec = ENDPOINT.spec("EndpointSpec", module=__name__)

WORKER_STATES = ("running", "idle", "initializing", "throttled", "unhealthy")
# The worker counters of a serverless ``/health`` read, in the order the results list them.
HEALTH_KEYS = ("ready", *WORKER_STATES)


class WorkerCounts(Record):
    """Workers per state; a missing counter is 0."""

    running: int = 0
    idle: int = 0
    initializing: int = 0
    throttled: int = 0
    unhealthy: int = 0


class Health(WorkerCounts):
    """Serverless ``/health`` counters."""

    ready: int = 0
    jobs: dict[str, int] = Field(default_factory=dict)


class Worker(Record):
    id: str
    status: str
    is_stale: bool = False
    version: int | None = None
    started_at: str | None = None


class WorkerSummary(WorkerCounts):
    workers: list[Worker] = Field(default_factory=list)
    # The endpoint's current version (REST v2 ``endpointVersion``); a worker on another one is stale.
    endpoint_version: int | None = None
    total: int = 0


class Rollout(Record):
    """REST v2 ``RolloutSummary``: how far the endpoint's current version has replaced the old workers."""

    in_progress: bool = False
    workers_on_latest: int = 0
    workers_total: int = 0
    percent_on_latest: int = 0


class EndpointRelease(Record):
    """The endpoint's current release (``GET /v2/serverless/{id}/releases``, newest entry) and its rollout."""

    version: int | None = None
    source: str | None = None
    id: str | None = None
    created_at: str | None = None
    rollout: Rollout = Field(default_factory=Rollout)
    build_id: str | None = None  # the GitHub build that produced it (``source`` GIT_BUILD)


BUILD_LIVE = ("PENDING", "BUILDING", "UPLOADING", "TESTING")
BUILD_FAILED = ("FAILED", "TEST_FAILED", "CANCELLED")  # terminal, and no release comes of them

# A GitHub build of an endpoint (``GET /v2/serverless/{id}/builds``); status: BUILD_LIVE, COMPLETED, BUILD_FAILED.
BUILD = Table("build", "Build", tuple(Col(name, path, convert, shown=True) for name, convert, path in (
    ("status", _f.upper, "status"),
    ("error", _f.as_str, "error"),
    ("commit", _f.as_str, "commitHash"),
    ("commit_message", _f.as_str, "commitMessage"),
    ("branch", _f.as_str, "branch"),
    ("commit_date", _f.as_str, "commitDate"),
    ("image", _f.as_str, "imageName"),
    ("started_at", _f.as_str, "startedAt"),
    ("completed_at", _f.as_str, "completedAt"),
)), __name__)
Build = BUILD.View


def health_from_payload(payload: Any) -> Health:
    """``Health`` from a serverless ``/health`` body; missing counters are 0."""
    payload = _f.as_dict(payload)
    workers = _f.as_dict(payload.get("workers"))
    jobs = {str(key): _f.count(value) for key, value in _f.as_dict(payload.get("jobs")).items()}
    return Health(jobs=jobs, **{key: _f.count(workers.get(key)) for key in HEALTH_KEYS})


def workers_from_v2(payload: Any) -> WorkerSummary:
    """``WorkerSummary`` from ``GET /serverless/{id}/workers``; counts missing from ``summary`` are counted."""
    payload = _f.as_dict(payload)
    workers = [
        Worker(id=str(entry["id"]), status=_f.upper(entry.get("status")), is_stale=bool(entry.get("isStale")),
               version=_f.as_int(entry.get("version")), started_at=_f.as_str(entry.get("startedAt")))
        for entry in map(_f.as_dict, _f.as_list(payload.get("workers"))) if _f.as_str(entry.get("id"))
    ]
    summary = _f.as_dict(payload.get("summary"))
    counts = {}
    for state in WORKER_STATES:
        counted = _f.as_int(summary.get(state))
        counts[state] = counted if counted is not None else sum(1 for w in workers if w.status.lower() == state)
    total = _f.as_int(summary.get("total"))
    return WorkerSummary(workers=workers, total=len(workers) if total is None else total,
                         endpoint_version=_f.as_int(payload.get("endpointVersion")), **counts)


def release_from_v2(payload: Any) -> EndpointRelease:
    """``EndpointRelease`` from ListEndpointReleasesResponse: the newest release and the rollout summary."""
    payload = _f.as_dict(payload)
    rollout = _f.as_dict(payload.get("rollout"))
    releases = [_f.as_dict(entry) for entry in _f.as_list(payload.get("releases"))]
    version = _f.as_int(payload.get("endpointVersion"))
    current = next((entry for entry in releases if _f.as_int(entry.get("version")) == version), None)
    current = current or (releases[0] if releases else {})
    return EndpointRelease(
        version=version if version is not None else _f.as_int(current.get("version")),
        source=_f.as_str(current.get("source")), id=_f.as_str(current.get("id")),
        created_at=_f.as_str(current.get("createdAt")), build_id=_f.as_str(current.get("buildId")),
        rollout=Rollout(in_progress=bool(rollout.get("inProgress")),
                        workers_on_latest=_f.count(rollout.get("workersOnLatest")),
                        workers_total=_f.count(rollout.get("workersTotal")),
                        percent_on_latest=_f.count(rollout.get("percentOnLatest"))),
    )


def endpoint_urls(serverless_url: str, endpoint_id: str | None) -> dict | None:
    if not endpoint_id:
        return None
    return {key: f"{serverless_url.rstrip('/')}/{endpoint_id}/{key}" for key in ("run", "runsync", "status", "health")}


def health_counts(health: Any) -> dict | None:
    """The worker counters of a ``Health`` view or a poller's counts dict; None stays None."""
    if health is None:
        return None
    get = health.get if isinstance(health, dict) else lambda key, default: getattr(health, key, default)
    return {key: int(get(key, 0) or 0) for key in HEALTH_KEYS}


def describe_endpoint(endpoint: Any, serverless_url: str, health: Any = None) -> dict | None:
    """The ``endpoint`` result from an ``EndpointView`` (or a planned field dict); None stays None."""
    if endpoint is None:
        return None
    described = ENDPOINT.result(endpoint)
    described.update({row.name: list(described[row.name] or []) for row in ENDPOINT.rows if row.default is list})
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


def describe_build(build: Any) -> dict | None:
    """The ``build`` result (``builds[]`` of endpoint_info) from a ``Build`` view; None stays None."""
    return None if build is None else BUILD.result(build)
