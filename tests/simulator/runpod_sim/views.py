# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Render store records as REST v2 JSON (pods, templates, endpoints, workers, releases) and serverless ``/health``."""

from __future__ import annotations

import functools
from typing import Any

from . import catalog, container
from .store import (
    RUNNING,
    TERMINATED,
    Endpoint,
    Pod,
    Store,
    Template,
    rfc3339,
)

PUBLIC_HOST = "127.0.0.1"
PROXY_SSH_HOST = "ssh.runpod.io"


def _proxy_ip(pod: Pod) -> str:
    return _proxy_ip_for(pod.id)


@functools.lru_cache(maxsize=65536)
def _proxy_ip_for(pod_id: str) -> str:
    # A stable RunPod-proxy-range (100.64.0.0/10, not public) address per pod for http ports.
    digest = sum(ord(char) for char in pod_id)
    return f"100.65.{digest % 250}.{(digest // 250) % 250 + 1}"


def _uptime(store: Store, pod: Pod) -> int:
    if pod.running_since is None:
        return 0
    return max(0, int((store.now() - pod.running_since) / store.config.time_scale))


@functools.lru_cache(maxsize=65536)
def _private_ip_for(pod_id: str) -> str:
    # A machine without a public IP: its tcp mappings live on a private (RFC 1918) address.
    digest = sum(ord(char) * 7 for char in pod_id)
    return f"10.{digest % 200 + 10}.{(digest // 200) % 250}.{digest % 250 + 2}"


def has_public_ip(store: Store, pod: Pod) -> bool:
    return pod.data_center_id not in store.config.private_ip_data_centers


def runtime_ports(pod: Pod, port_map: dict[int, int], *, public: bool = True) -> list[dict[str, Any]]:
    """Ports as (private, public, type, ip, is_public) rows for the v2 ``runtime.ports``."""
    rows = []
    for private, proto in pod.declared_ports():
        port = port_map.get(private)
        if port is None:
            continue
        if proto == "http":
            rows.append({"private": private, "public": port, "type": "http", "ip": _proxy_ip(pod), "is_public": False})
        elif public:
            rows.append({"private": private, "public": port, "type": "tcp", "ip": PUBLIC_HOST, "is_public": True})
        else:
            rows.append(
                {"private": private, "public": port, "type": "tcp", "ip": _private_ip_for(pod.id), "is_public": False}
            )
    return rows


# -- REST v2 ---------------------------------------------------------------------------------------------------
def pod_v2(store: Store, pod: Pod) -> dict[str, Any]:
    """The v2 pod; rendered once per pod revision (listing 1,000 pods must stay well under 50 ms).

    Only ``runtime.uptime`` moves without a revision change, so it is refreshed on every read.
    The returned dict may be shared: callers serialize it and never mutate it.
    """
    cached = store.view_cache.get(pod.id)
    if cached is None or cached[0] != pod.revision:
        cached = (pod.revision, _render_pod_v2(store, pod))
        store.view_cache[pod.id] = cached
    body = cached[1]
    if body["runtime"] is not None:
        body = {**body, "runtime": {**body["runtime"], "uptime": _uptime(store, pod)}}
    return body


def _render_pod_v2(store: Store, pod: Pod) -> dict[str, Any]:
    running = pod.status == RUNNING
    public = has_public_ip(store, pod)
    direct = None
    if running and public and pod.declares_ssh() and pod.port_map.get(22):
        port = pod.port_map[22]
        direct = {"host": PUBLIC_HOST, "port": port, "username": "root", "command": f"ssh root@{PUBLIC_HOST} -p {port}"}
    proxy = None
    if pod.machine_id is not None and pod.status != TERMINATED:
        proxy = {
            "host": PROXY_SSH_HOST,
            "port": 22,
            "username": pod.proxy_user,
            "command": f"ssh {pod.proxy_user}@{PROXY_SSH_HOST}",
        }
    runtime = None
    use = pod.utilization
    gpus = use.get("gpus") or [{"util": 0, "memoryUtil": 0}]
    if running:
        runtime = {
            "uptime": _uptime(store, pod),
            # One reading per GPU; a shorter scripted list repeats its last entry.
            "gpus": [dict(gpus[min(index, len(gpus) - 1)]) for index in range(pod.gpu_count if pod.is_gpu else 0)],
            "cpu": {"util": use.get("cpu", 1)},
            "memory": {"util": use.get("memory", 3)},
            "ports": [
                {"private": row["private"], "public": row["public"], "type": row["type"], "ip": row["ip"]}
                for row in runtime_ports(pod, pod.port_map, public=public)
            ],
        }
    mounts: dict[str, Any] = {}
    if pod.network_volume_id:
        mounts["network"] = [{"volumeId": pod.network_volume_id, "path": pod.volume_mount_path}]
    elif pod.volume_gb:
        mounts["persistent"] = {"size": pod.volume_gb, "path": pod.volume_mount_path}
    body: dict[str, Any] = {
        "id": pod.id,
        "name": pod.name,
        "status": pod.status,
        "actions": pod.actions,
        "image": pod.image,
        "args": pod.args,
        **container.command_fields(pod.args),
        "disk": pod.disk_gb,
        "mounts": mounts,
        "ports": list(pod.ports),
        "env": dict(pod.env),
        "registry": pod.registry,
        "cloud": pod.cloud,
        "dataCenterId": pod.data_center_id,
        "cudaVersion": pod.cuda_version,
        "ssh": {"proxy": proxy, "direct": direct},
        "template": None,
        "cost": pod.cost_per_hr(),
        "locked": pod.locked,
        "runtime": runtime,
        "createdAt": rfc3339(pod.created_at),
        "startedAt": rfc3339(pod.started_at),
        "globalNetworking": {"enabled": False},
    }
    if pod.global_networking:
        body["globalNetworking"] = {"enabled": True, "ip": "10.65.1.42", "internalDns": f"{pod.id}.runpod.internal"}
    if pod.is_gpu:
        # GpuConfig (autumn 2026): the allocated totals across the pod's GPUs.
        vcpus, memory = catalog.host_share(pod.gpu_type)
        body["gpu"] = {
            "id": pod.gpu_type,
            "count": pod.gpu_count,
            "vcpuCount": vcpus * pod.gpu_count,
            "memory": memory * pod.gpu_count,
        }
    else:
        body["cpu"] = {"id": pod.cpu_flavor, "vcpuCount": pod.vcpu_count, "memory": pod.memory_gb}
    if pod.cluster is not None:
        body["cluster"] = cluster_membership(pod)
    return body


def cluster_membership(pod: Pod) -> dict[str, Any]:
    """PodCluster: rank and overlay address are assigned when the member is placed on a machine."""
    placed = pod.machine_id is not None
    membership: dict[str, Any] = {"id": pod.cluster["id"], "rank": pod.cluster["rank"] if placed else None}
    if pod.cluster.get("role"):
        membership["role"] = pod.cluster["role"]
    if placed:
        membership["ip"] = pod.cluster["ip"]
    return membership


def template_v2(template: Template, *, omit_empty_mounts: bool = False) -> dict[str, Any]:
    """The v2 template; ``omit_empty_mounts`` models the quirk RunPod's clients report (config
    ``quirk_template_mounts_omitted``): a template with no mounts has no ``mounts`` key at all."""
    body: dict[str, Any] = {
        "id": template.id,
        "name": template.name,
        "image": template.image,
        "args": template.args,
        **container.command_fields(template.args),
        "disk": template.disk_gb,
        "mounts": {"persistent": {"size": template.volume_gb, "path": template.volume_mount_path}}
        if template.volume_gb
        else {},
        "ports": list(template.ports),
        "env": dict(template.env),
        "registry": template.registry,
        "serverless": template.serverless,
        "public": template.public,
        "category": template.category,
        "startSsh": template.start_ssh,
        "startJupyter": template.start_jupyter,
        "allowedCudaVersions": list(template.allowed_cuda_versions),
    }
    if omit_empty_mounts and not template.volume_gb:
        del body["mounts"]
    return body


def endpoint_v2(store: Store, endpoint: Endpoint, invoke_base: str) -> dict[str, Any]:
    template = store.templates.get(endpoint.template_id or "")
    base = f"{invoke_base}/{endpoint.id}"
    if endpoint.type == "LOAD_BALANCER":
        urls: dict[str, Any] = {"base": base, "health": f"{base}/ping"}
    else:
        urls = {
            "run": f"{base}/run",
            "runSync": f"{base}/runsync",
            "status": f"{base}/status",
            "stream": f"{base}/stream",
            "cancel": f"{base}/cancel",
            "retry": f"{base}/retry",
            "purgeQueue": f"{base}/purge-queue",
            "health": f"{base}/health",
        }
    if endpoint.scaler_type == "REQUEST_COUNT":
        scaling: dict[str, Any] = {"type": "REQUEST_COUNT", "requestCount": int(endpoint.scaler_value)}
    else:
        scaling = {"type": "QUEUE_DELAY", "queueDelay": float(endpoint.scaler_value)}
    body: dict[str, Any] = {
        "id": endpoint.id,
        "name": endpoint.name,
        "type": endpoint.type,
        "requestUrls": urls,
        "workers": {"min": endpoint.workers_min, "max": endpoint.workers_max, "idleTimeout": endpoint.idle_timeout},
        "scaling": scaling,
        "dataCenterIds": list(endpoint.data_center_ids),
        "networkVolumes": list(endpoint.network_volumes),
        "timeout": endpoint.timeout_ms
        if endpoint.timeout_given or not store.config.quirk_endpoint_timeout_zero
        else 0,  # the quirk RunPod's clients report: an endpoint created without timeout reads back 0
        "flashboot": endpoint.flashboot,
        "createdAt": rfc3339(endpoint.created_at),
    }
    if template is not None:
        body.update(
            {
                "image": template.image,
                "args": template.args,
                **container.command_fields(template.args),
                "disk": template.disk_gb,
                "env": dict(template.env),
                "ports": list(template.ports),
                "registry": template.registry,
            }
        )
    if endpoint.cpu:
        body["cpu"] = [dict(item) for item in endpoint.cpu]
    else:
        body["gpu"] = {
            "pools": list(endpoint.gpu_pools) or ["ADA_24"],
            "count": endpoint.gpu_count,
            "allowedCudaVersions": list(endpoint.allowed_cuda_versions),
            "minCudaVersion": endpoint.min_cuda_version,
        }
        if endpoint.excluded_types:
            body["gpu"]["excludedTypes"] = list(endpoint.excluded_types)
    return body


def workers_v2(store: Store, endpoint: Endpoint) -> dict[str, Any]:
    workers = []
    summary = {"running": 0, "idle": 0, "initializing": 0, "throttled": 0, "unhealthy": 0, "total": 0}
    for worker in store.live_workers(endpoint):
        status = store.worker_status(worker)
        summary[status.lower()] += 1
        summary["total"] += 1
        ready = status not in ("INITIALIZING", "THROTTLED")
        workers.append(
            {
                "id": worker.id,
                "status": status,
                "isStale": worker.version != endpoint.version,
                "version": worker.version,
                "gpuCount": endpoint.gpu_count if not endpoint.cpu else 0,
                "image": worker.image,
                "uptimeSeconds": max(0, int((store.now() - worker.ready_at) / store.config.time_scale)) if ready else 0,
                "gpuTypeId": worker.gpu_type,
                "dataCenterId": worker.data_center_id,
                "startedAt": rfc3339(worker.created_at),
            }
        )
    return {"workers": workers, "summary": summary, "endpointVersion": endpoint.version}


def releases_v2(store: Store, endpoint: Endpoint, chosen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """ListEndpointReleasesResponse without its ``pagination``: the history newest first (``chosen``: the page of
    release records to show, default all) and how far the current version has rolled out."""
    live = store.live_workers(endpoint)
    on_latest = sum(1 for worker in live if worker.version == endpoint.version)
    rollout = {
        "inProgress": on_latest < len(live),
        "workersOnLatest": on_latest,
        "workersTotal": len(live),
        "percentOnLatest": (100 * on_latest // len(live)) if live else 0,
    }
    releases = [
        {
            "id": release["id"],
            "version": release["version"],
            "source": release["source"],
            "buildId": release.get("buildId"),
            "createdByUserId": None,
            "workerCount": sum(1 for worker in live if worker.version == release["version"]),
            "createdAt": rfc3339(release["createdAt"]),
            "diff": [dict(entry) for entry in release["diff"]],
        }
        for release in (chosen if chosen is not None else list(reversed(endpoint.releases)))
    ]
    return {"endpointVersion": endpoint.version, "rollout": rollout, "releases": releases}


def health(store: Store, endpoint: Endpoint) -> dict[str, Any]:
    counts = {"idle": 0, "initializing": 0, "ready": 0, "running": 0, "throttled": 0, "unhealthy": 0}
    # Every allocated worker counts, old release or new: /health does not know about versions.
    for worker in store.live_workers(endpoint):
        status = store.worker_status(worker)
        if status == "IDLE":
            counts["idle"] += 1
            counts["ready"] += 1  # an idle worker is warm and can take a job at once
        elif status == "INITIALIZING" and not worker.status_override:
            # RunPod writes RUNNING once a worker is scheduled, before its container serves anything.
            counts["running"] += 1
        else:
            counts[status.lower()] += 1
    return {"jobs": store.jobs.counts(endpoint.id), "workers": counts}
