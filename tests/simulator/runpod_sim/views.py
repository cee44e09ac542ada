# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Render store records as REST v2, REST v1 and GraphQL JSON (the three views of one pod)."""

from __future__ import annotations

import functools
import hashlib
import time
from typing import Any

from . import catalog
from .store import (
    EXITED,
    RUNNING,
    TERMINATED,
    Endpoint,
    Pod,
    Store,
    Template,
    rfc3339,
)

PUBLIC_HOST = "127.0.0.1"
USER_ID = "user_sim"
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
    """Ports as (private, public, type, ip, is_public) rows, shared by v2 runtime and GraphQL runtime."""
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
    if running:
        runtime = {
            "uptime": _uptime(store, pod),
            "gpus": [{"util": 0, "memoryUtil": 0} for _ignored in range(pod.gpu_count if pod.is_gpu else 0)],
            "cpu": {"util": 1},
            "memory": {"util": 3},
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
        body["gpu"] = {"id": pod.gpu_type, "count": pod.gpu_count}
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


def template_v2(template: Template) -> dict[str, Any]:
    return {
        "id": template.id,
        "name": template.name,
        "image": template.image,
        "args": template.args,
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
        "timeout": endpoint.timeout_ms,
        "flashboot": endpoint.flashboot,
        "createdAt": rfc3339(endpoint.created_at),
    }
    if template is not None:
        body.update(
            {
                "image": template.image,
                "args": template.args,
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


def releases_v2(store: Store, endpoint: Endpoint) -> dict[str, Any]:
    """ListEndpointReleasesResponse: the history newest first and how far the current version has rolled out."""
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
            "buildId": None,
            "createdByUserId": None,
            "workerCount": sum(1 for worker in live if worker.version == release["version"]),
            "createdAt": rfc3339(release["createdAt"]),
            "diff": [dict(entry) for entry in release["diff"]],
        }
        for release in reversed(endpoint.releases)
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
    return {"jobs": {"completed": 0, "failed": 0, "inProgress": 0, "inQueue": 0, "retried": 0}, "workers": counts}


# -- REST v1 ---------------------------------------------------------------------------------------------------
def v1_desired_status(pod: Pod) -> str:
    if pod.v1_desired_status:
        return pod.v1_desired_status
    return "EXITED" if pod.status in (EXITED, "ERROR", TERMINATED) else "RUNNING"


def _v1_port_map(pod: Pod) -> dict[int, int]:
    if pod.status == RUNNING:
        return pod.port_map
    return pod.stale_port_map


def pod_v1(store: Store, pod: Pod, *, include_machine: bool = False) -> dict[str, Any]:
    port_map = _v1_port_map(pod)
    public = has_public_ip(store, pod)
    tcp_rows = [row for row in runtime_ports(pod, port_map, public=public) if row["type"] == "tcp"]
    body: dict[str, Any] = {
        "id": pod.id,
        "name": pod.name,
        "desiredStatus": v1_desired_status(pod),
        "lastStatusChange": pod.last_status_change,
        "image": pod.image,
        "costPerHr": pod.cost_per_hr(),
        "adjustedCostPerHr": pod.cost_per_hr(),
        "containerDiskInGb": pod.disk_gb,
        "volumeInGb": pod.volume_gb,
        "volumeMountPath": pod.volume_mount_path,
        "env": dict(pod.env),
        "ports": list(pod.ports),
        "publicIp": PUBLIC_HOST if tcp_rows and public else None,
        "dockerEntrypoint": list(pod.docker_entrypoint),
        "dockerStartCmd": list(pod.docker_start_cmd),
        "interruptible": pod.interruptible,
        "locked": pod.locked,
        "memoryInGb": pod.memory_gb or 62,
        "vcpuCount": pod.vcpu_count or 16,
        "consumerUserId": "user_sim",
    }
    if pod.ports:
        body["portMappings"] = {str(row["private"]): row["public"] for row in tcp_rows}
    if pod.machine_id:
        body["machineId"] = pod.machine_id
    if pod.started_at is not None:
        body["lastStartedAt"] = rfc3339(pod.started_at)
    if pod.template_id:
        body["templateId"] = pod.template_id
    if pod.network_volume_id:
        body["networkVolume"] = {"id": pod.network_volume_id, "name": pod.network_volume_id, "size": 10}
    if pod.is_gpu:
        body["gpu"] = {"id": pod.gpu_type, "count": pod.gpu_count, "displayName": _display_name(pod.gpu_type)}
    else:
        body["cpuFlavorId"] = pod.cpu_flavor
    if include_machine and pod.machine_id:
        body["machine"] = {
            "gpuTypeId": pod.gpu_type if pod.is_gpu else "unknown",
            "gpuDisplayName": _display_name(pod.gpu_type) if pod.is_gpu else "",
            "location": pod.data_center_id,
            "dataCenterId": pod.data_center_id,
            "supportPublicIp": True,
            "secureCloud": pod.cloud == "SECURE",
        }
    return body


def _display_name(gpu_type: str | None) -> str:
    return catalog.display_name(gpu_type)


def template_v1(template: Template) -> dict[str, Any]:
    return {
        "id": template.id,
        "name": template.name,
        "imageName": template.image,
        "category": template.category,
        "containerDiskInGb": template.disk_gb,
        "volumeInGb": template.volume_gb,
        "volumeMountPath": template.volume_mount_path,
        "dockerEntrypoint": list(template.docker_entrypoint),
        "dockerStartCmd": list(template.docker_start_cmd),
        "env": dict(template.env),
        "ports": list(template.ports),
        "isPublic": template.public,
        "isServerless": template.serverless,
        "isRunpod": False,
        "readme": template.readme,
        "earned": 0,
        "runtimeInMin": 0,
        **({"containerRegistryAuthId": template.registry} if template.registry else {}),
    }


def endpoint_v1(store: Store, endpoint: Endpoint) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": endpoint.id,
        "name": endpoint.name,
        "templateId": endpoint.template_id or "",
        "computeType": "CPU" if endpoint.cpu else "GPU",
        "gpuTypeIds": list(endpoint.gpu_type_ids),
        "gpuCount": endpoint.gpu_count,
        "workersMin": endpoint.workers_min,
        "workersMax": endpoint.workers_max,
        "idleTimeout": endpoint.idle_timeout,
        "scalerType": endpoint.scaler_type,
        "scalerValue": int(endpoint.scaler_value),
        "dataCenterIds": list(endpoint.data_center_ids),
        "executionTimeoutMs": endpoint.timeout_ms,
        "createdAt": rfc3339(endpoint.created_at),
        "userId": "user_sim",
        "version": endpoint.version,
        "allowedCudaVersions": list(endpoint.allowed_cuda_versions),
        "networkVolumeIds": list(endpoint.network_volumes),
    }
    if endpoint.network_volumes:
        body["networkVolumeId"] = endpoint.network_volumes[0]
    template = store.templates.get(endpoint.template_id or "")
    if template is not None:
        body["template"] = template_v1(template)
    return body


# -- GraphQL ---------------------------------------------------------------------------------------------------
def pod_graphql(store: Store, pod: Pod) -> dict[str, Any]:
    port_map = _v1_port_map(pod)
    runtime = None
    if pod.status == RUNNING or (port_map and pod.status != TERMINATED):
        runtime = {
            "uptimeInSeconds": _uptime(store, pod),
            "ports": [
                {
                    "ip": row["ip"],
                    "isIpPublic": row["is_public"],
                    "privatePort": row["private"],
                    "publicPort": row["public"],
                    "type": row["type"],
                }
                for row in runtime_ports(pod, port_map, public=has_public_ip(store, pod))
            ],
            "gpus": [
                {"id": f"GPU-{pod.id[:8]}-{index}", "gpuUtilPercent": 0, "memoryUtilPercent": 0}
                for index in range(pod.gpu_count if pod.is_gpu and pod.status == RUNNING else 0)
            ],
            "container": {"cpuPercent": 1, "memoryPercent": 3},
        }
    return {
        "id": pod.id,
        "name": pod.name,
        "desiredStatus": v1_desired_status(pod),
        "lastStatusChange": pod.last_status_change,
        "imageName": pod.image,
        "costPerHr": pod.cost_per_hr(),
        "adjustedCostPerHr": pod.cost_per_hr(),
        "gpuCount": pod.gpu_count if pod.is_gpu else 0,
        "vcpuCount": float(pod.vcpu_count or 16),
        "memoryInGb": float(pod.memory_gb or 62),
        "containerDiskInGb": pod.disk_gb,
        "volumeInGb": float(pod.volume_gb),
        "volumeMountPath": pod.volume_mount_path,
        "dockerArgs": pod.args or " ".join(pod.docker_start_cmd),
        "env": [f"{key}={value}" for key, value in pod.env.items()],
        "ports": ",".join(pod.ports),
        "uptimeSeconds": 0,  # deprecated upstream, always 0
        "podType": "INTERRUPTABLE" if pod.interruptible else "RESERVED",
        "machineId": pod.machine_id,
        # The container on the host: known once a machine is assigned.
        "dockerId": hashlib.sha256(f"{pod.id}/{pod.machine_id}".encode()).hexdigest()[:12] if pod.machine_id else None,
        "port": None,  # the legacy single-port field; pods declare `ports`
        "consumerUserId": USER_ID,
        "containerRegistryAuthId": pod.registry,
        "networkVolumeId": pod.network_volume_id,
        "cpuFlavorId": pod.cpu_flavor,
        "templateId": pod.template_id,
        "locked": pod.locked,
        "lastStartedAt": rfc3339(pod.started_at),
        "createdAt": rfc3339(pod.created_at),
        "machine": {
            "id": pod.machine_id,
            "gpuDisplayName": _display_name(pod.gpu_type) if pod.is_gpu else "",
            "gpuTypeId": pod.gpu_type if pod.is_gpu else "unknown",
            "location": pod.data_center_id,
            "dataCenterId": pod.data_center_id,
            "podHostId": f"{pod.id}-{pod.machine_id}" if pod.machine_id else None,
            "secureCloud": pod.cloud == "SECURE",
            "supportPublicIp": True,
        }
        if pod.machine_id
        else None,
        "runtime": runtime,
    }


def endpoint_graphql(store: Store, endpoint: Endpoint) -> dict[str, Any]:
    """A serverless endpoint as ``myself { endpoints {...} }`` shows it (pools as one ``gpuIds`` string)."""
    template = store.templates.get(endpoint.template_id or "")
    gpu_ids = None
    if not endpoint.cpu:
        # The same pools REST v2 shows, then RunPod's "-<type>" exclusions.
        pools = list(endpoint.gpu_pools) or ["ADA_24"]
        gpu_ids = ",".join(pools + [f"-{excluded}" for excluded in endpoint.excluded_types])
    volume_id = endpoint.network_volumes[0] if endpoint.network_volumes else None
    volume = store.network_volumes.get(volume_id or "")
    return {
        "id": endpoint.id,
        "name": endpoint.name,
        "type": endpoint.type,
        "computeType": "CPU" if endpoint.cpu else "GPU",
        "userId": USER_ID,
        "templateId": endpoint.template_id,
        "gpuIds": gpu_ids,
        "gpuCount": endpoint.gpu_count,
        "allowedCudaVersions": ",".join(endpoint.allowed_cuda_versions),
        "idleTimeout": endpoint.idle_timeout,
        "scalerType": endpoint.scaler_type,
        "scalerValue": int(endpoint.scaler_value),
        "workersMin": endpoint.workers_min,
        "workersMax": endpoint.workers_max,
        "workersStandby": None,  # not modelled
        "executionTimeoutMs": endpoint.timeout_ms,
        "locations": ",".join(endpoint.data_center_ids) or None,
        "networkVolumeId": volume_id,
        "networkVolume": network_volume_graphql(volume) if volume else None,
        "env": [{"key": key, "value": value} for key, value in (template.env if template else {}).items()],
        "version": endpoint.version,
        "aiKey": None,
        "createdAt": rfc3339(endpoint.created_at),
    }


def network_volume_graphql(volume: Any) -> dict[str, Any]:
    return {"id": volume.id, "name": volume.name, "size": volume.size, "dataCenterId": volume.data_center}


def gpu_type_graphql(store: Store, gpu: catalog.GpuType) -> dict[str, Any]:
    """One ``gpuTypes`` entry; ``lowestPrice`` answers for the count, cloud and data center asked."""

    def lowest_price(info: Any, input: dict[str, Any] | None = None) -> dict[str, Any]:
        wanted = input or {}
        count = wanted.get("gpuCount") or 1
        data_center = catalog.place(
            store,
            gpu.id,
            count=count,
            secure=wanted.get("secureCloud"),
            data_center_id=wanted.get("dataCenterId"),
            country_code=wanted.get("countryCode"),
            min_cuda=wanted.get("cudaVersion"),
            allowed_cuda=wanted.get("allowedCudaVersions"),
        )
        available = data_center is not None
        price = gpu.community_price if wanted.get("secureCloud") is False else gpu.price
        return {
            "gpuName": gpu.display_name,
            "gpuTypeId": gpu.id,
            # Null prices and stock mean "cannot be placed", as RunPod answers for a sold-out type.
            "uninterruptablePrice": price if available else None,
            "minimumBidPrice": round(price * catalog.SPOT_SHARE, 3) if available else None,
            # The v2 catalog's level for the data center a deploy would land in ("High", "Medium", "Low").
            "stockStatus": (
                catalog.availability_level(catalog.free_gpus(store, gpu.id, data_center) // count).title()
                if data_center
                else None
            ),
        }

    return {
        "id": gpu.id,
        "displayName": gpu.display_name,
        "manufacturer": gpu.manufacturer,
        "memoryInGb": gpu.memory_gb,
        "cudaCores": gpu.cuda_cores,
        "maxGpuCount": gpu.max_count,
        "maxGpuCountSecureCloud": gpu.max_count if gpu.secure_cloud else 0,
        "maxGpuCountCommunityCloud": gpu.max_count if gpu.community_cloud else 0,
        "secureCloud": gpu.secure_cloud,
        "communityCloud": gpu.community_cloud,
        # The same list prices as GET /v2/catalog/gpus; a pod costs the secure price (store.GPU_PRICES).
        "securePrice": gpu.price if gpu.secure_cloud else None,
        "communityPrice": gpu.community_price if gpu.community_cloud else None,
        "secureSpotPrice": gpu.spot_price if gpu.secure_cloud else None,
        "communitySpotPrice": round(gpu.community_price * catalog.SPOT_SHARE, 3) if gpu.community_cloud else None,
        # No savings plans are offered.
        "oneWeekPrice": None,
        "oneMonthPrice": None,
        "threeMonthPrice": None,
        "sixMonthPrice": None,
        "lowestPrice": lowest_price,
    }


def now_text() -> str:
    return rfc3339(time.time()) or ""
