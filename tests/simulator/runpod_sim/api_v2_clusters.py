# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Instant Clusters (``/v2/clusters``): N identical member pods in one data center on a private overlay network.

Members are ordinary pods of the same store (``Pod.cluster`` holds the membership), so they boot, get real
loopback SSH listeners and show in ``GET /v2/pods?includeClusterPods=true`` like any pod. They are placed one
after another (``member_stagger`` simulated seconds apart per rank), so they become ready at different times.

The overlay is modelled on loopback, so reaching a peer is a real TCP connect: cluster *k* gets the network
``127.65.k.0/24`` and the member of rank *r* the address ``127.65.k.(r+2)``. While a member's sshd is up, an
SSH-banner listener answers on ``<overlay address>:<overlay_port>`` (default 22; tests pick a high port);
when the member stops or fails it goes away, as a peer's sshd would.

Admin knobs (``/_sim/clusters/settings``, reset with the store): ``member_stagger``, ``overlay_port`` and
``fail`` = ``{"cluster_name", "rank", "after", "status"}``: the member of that rank of the next cluster with
that name turns ``status`` (ERROR, EXITED or TERMINATED) ``after`` simulated seconds (the scripted failure).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from . import container, views
from .api_v2 import _body
from .app import NO_CAPACITY, ApiError, Ctx, Reply, Sim
from .listeners import _banner_only
from .store import DATA_CENTERS, ERROR, EXITED, RUNNING, TERMINATED, Pod, Store, new_id, rfc3339

log = logging.getLogger("runpod_sim.clusters")

ROLES = {"SLURM": ("SLURM_CONTROLLER", "SLURM_COMPUTE"), "RAY": ("RAY_HEAD", "RAY_WORKER")}
MAX_GPUS_PER_POD = 8
DEFAULT_SETTINGS: dict[str, Any] = {"member_stagger": 2.0, "overlay_port": 22, "fail": None}
FAIL_STATUSES = (ERROR, EXITED, TERMINATED)
VXLAN_PORT = 4789


@dataclass
class Cluster:
    id: str
    name: str
    type: str
    gpu_type: str
    gpu_count_per_pod: int
    pod_count: int
    created_at: float
    network_index: int
    member_ids: list[str] = field(default_factory=list)
    template_id: str | None = None  # CreateClusterRequest.templateId: the answer keeps the link

    @property
    def cidr(self) -> str:
        return f"127.65.{self.network_index}.0/24"

    def address(self, rank: int) -> str:
        return f"127.65.{self.network_index}.{rank + 2}"


def register(sim: Sim) -> None:
    sim.route("GET", "/v2/clusters", list_clusters)
    sim.route("POST", "/v2/clusters", create_cluster)
    sim.route("GET", "/v2/clusters/{cluster_id}", get_cluster)
    sim.route("PATCH", "/v2/clusters/{cluster_id}", update_cluster)
    sim.route("DELETE", "/v2/clusters/{cluster_id}", delete_cluster)
    sim.route("GET", "/v2/clusters/{cluster_id}/pods", list_cluster_pods)
    sim.route("GET", "/_sim/clusters/settings", get_settings, auth=False)
    sim.route("POST", "/_sim/clusters/settings", set_settings, auth=False)
    overlay = OverlayListeners(sim.store)
    sim.listeners.reconcile_hooks.append(overlay.reconcile)


def settings(store: Store) -> dict[str, Any]:
    return {**DEFAULT_SETTINGS, **store.cluster_settings}


def members(store: Store, cluster: Cluster) -> list[Pod]:
    return [pod for pod_id in cluster.member_ids if (pod := store.get_pod(pod_id)) is not None]


# -- views -----------------------------------------------------------------------------------------------------
def cluster_v2(store: Store, cluster: Cluster) -> dict[str, Any]:
    pods = members(store, cluster)
    live = [pod for pod in pods if pod.status != TERMINATED]
    by_status: dict[str, int] = {}
    for pod in live:
        by_status[pod.status] = by_status.get(pod.status, 0) + 1
    body: dict[str, Any] = {
        "id": cluster.id,
        "name": cluster.name,
        "type": cluster.type,
        "compute": {
            "gpuTypeId": cluster.gpu_type,
            "gpuCountPerPod": cluster.gpu_count_per_pod,
            "podCount": cluster.pod_count,
        },
        "pods": {"total": len(live), "byStatus": by_status},
        "createdAt": rfc3339(cluster.created_at),
    }
    if cluster.template_id is not None:
        body["template"] = cluster.template_id
    placed = [pod for pod in pods if pod.machine_id is not None]
    if placed:
        body["dataCenterId"] = placed[0].data_center_id
        body["network"] = {"cidr": cluster.cidr, "vxlanId": 100 + cluster.network_index, "vxlanPort": VXLAN_PORT}
    primary = next((pod for pod in placed if pod.cluster and pod.cluster["rank"] == 0), None)
    if primary is not None:
        body["primary"] = {"podId": primary.id, "status": primary.status}
        if primary.status == RUNNING and primary.declares_ssh() and primary.port_map.get(22):
            body["primary"]["sshEndpoint"] = f"{views.PUBLIC_HOST}:{primary.port_map[22]}"
    return body


# -- handlers --------------------------------------------------------------------------------------------------
def _cluster(sim: Sim, ctx: Ctx) -> Cluster:
    cluster = sim.store.clusters.get(ctx.params["cluster_id"])
    if cluster is None:
        raise ApiError(404, "cluster not found")
    return cluster


async def list_clusters(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"clusters": [cluster_v2(sim.store, c) for c in sim.store.clusters.values()]})


async def get_cluster(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, cluster_v2(sim.store, _cluster(sim, ctx)))


async def list_cluster_pods(sim: Sim, ctx: Ctx) -> Reply:
    cluster = _cluster(sim, ctx)
    return Reply(200, {"pods": [views.pod_v2(sim.store, pod) for pod in members(sim.store, cluster)]})


async def update_cluster(sim: Sim, ctx: Ctx) -> Reply:
    cluster = _cluster(sim, ctx)
    body = await _body(ctx, "UpdateClusterRequest")
    cluster.name = body["name"]
    return Reply(200, cluster_v2(sim.store, cluster))


async def delete_cluster(sim: Sim, ctx: Ctx) -> Reply:
    cluster = _cluster(sim, ctx)
    for pod in members(sim.store, cluster):
        if pod.status != TERMINATED:
            sim.store.terminate(pod, "user")
    sim.store.clusters.pop(cluster.id, None)
    return Reply(204)


async def create_cluster(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "CreateClusterRequest")
    store = sim.store
    compute = body["compute"]
    if compute["gpuTypeId"] in store.config.out_of_stock_gpu_types:
        raise ApiError(400, NO_CAPACITY)
    if compute["gpuCountPerPod"] > MAX_GPUS_PER_POD:
        raise ApiError(400, f"gpuCountPerPod {compute['gpuCountPerPod']} exceeds the GPU type's maximum of 8")
    mounts = body.get("mounts") or {}
    if mounts.get("persistent") and mounts.get("network"):
        raise ApiError(400, "at most one of mounts.persistent or mounts.network may be set")
    template = _cluster_template(store, body)
    if template is not None:
        # The template supplies the container settings (and, on RunPod, the registry credential).
        body = {
            **body,
            "image": template.image,
            "args": template.args,
            "disk": template.disk_gb,
            "env": dict(template.env),
            "ports": list(template.ports),
        }
        if template.volume_gb:
            mounts = {"persistent": {"size": template.volume_gb, "path": template.volume_mount_path}}
    if not body.get("image"):
        raise ApiError(400, "image is required")
    args = container.merged_args(body, "")
    knobs = settings(store)
    index = store.cluster_settings.get("_next_network", 1)
    store.cluster_settings["_next_network"] = index % 250 + 1
    cluster = Cluster(
        id=new_id(),
        name=body["name"],
        type=body["type"],
        gpu_type=compute["gpuTypeId"],
        gpu_count_per_pod=int(compute["gpuCountPerPod"]),
        pod_count=int(compute["podCount"]),
        created_at=time.time(),
        network_index=index,
        template_id=template.id if template is not None else None,
    )
    data_center = (body.get("dataCenterIds") or list(DATA_CENTERS))[0]
    env = dict(body.get("env") or {})
    if body.get("startSsh") and "PUBLIC_KEY" not in env and store.account_ssh_keys:
        env["PUBLIC_KEY"] = "\n".join(store.account_ssh_keys)
    if body.get("startJupyter") and "JUPYTER_PASSWORD" not in env:
        env["JUPYTER_PASSWORD"] = new_id(16)
    persistent = mounts.get("persistent") or {}
    network = (mounts.get("network") or [{}])[0]
    roles = ROLES.get(cluster.type)
    store.clusters[cluster.id] = cluster
    for rank in range(cluster.pod_count):
        membership: dict[str, Any] = {"id": cluster.id, "rank": rank, "ip": cluster.address(rank)}
        if roles:
            membership["role"] = roles[0] if rank == 0 else roles[1]
        pod = Pod(
            id=new_id(),
            name=f"{cluster.name}-node-{rank}",
            image=body["image"],
            created_at=cluster.created_at,
            gpu_type=cluster.gpu_type,
            gpu_count=cluster.gpu_count_per_pod,
            args=args or "",
            disk_gb=int(body.get("disk", 50)),
            volume_gb=int(persistent.get("size", 0)),
            volume_mount_path=persistent.get("path") or network.get("path") or "/workspace",
            network_volume_id=network.get("volumeId"),
            ports=list(body.get("ports") or []),
            env=dict(env),
            registry=template.registry if template is not None else None,
            data_center_preferences=[data_center],
            cluster=membership,
        )
        # Placement is staggered by rank, so members become ready at different times.
        pod.overrides["provisioning_delay"] = store.config.provisioning_delay + knobs["member_stagger"] * rank
        store.add_pod(pod)
        cluster.member_ids.append(pod.id)
    _script_failure(store, cluster, knobs.get("fail"))
    return Reply(201, cluster_v2(store, cluster))


# What templateId excludes (CreateClusterRequest.templateId: 400 when both are sent).
TEMPLATE_EXCLUSIVE = ("image", "args", "entrypoint", "cmd", "disk", "env", "ports", "mounts")


def _cluster_template(store: Store, body: dict[str, Any]) -> Any:
    template_id = body.get("templateId")
    if template_id is None:
        return None
    clashing = [key for key in TEMPLATE_EXCLUSIVE if key in body]
    if clashing:
        raise ApiError(400, f"templateId cannot be combined with {', '.join(clashing)}")
    template = store.templates.get(template_id)
    if template is None:
        raise ApiError(404, "template not found")
    if template.serverless:
        raise ApiError(400, f"template {template_id} is a serverless template; a cluster needs a pod template")
    return template


def _script_failure(store: Store, cluster: Cluster, fail: dict[str, Any] | None) -> None:
    if not fail or fail.get("cluster_name") != cluster.name or fail["rank"] >= len(cluster.member_ids):
        return
    pod_id = cluster.member_ids[fail["rank"]]
    status = fail.get("status", ERROR)

    def turn() -> None:
        pod = store.get_pod(pod_id)
        if pod is None or pod.status == TERMINATED:
            return
        if status == TERMINATED:
            store.terminate(pod, "Runpod")
        elif status == EXITED:
            store.stop(pod, "Exited by Runpod")
        else:
            store.fail(pod, "Exited by Runpod")

    store.schedule(float(fail.get("after", 0)), turn)


# -- admin -----------------------------------------------------------------------------------------------------
async def get_settings(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, _public(settings(sim.store)))


def _public(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if not key.startswith("_")}


async def set_settings(sim: Sim, ctx: Ctx) -> Reply:
    body = await ctx.json(default={})
    if not isinstance(body, dict) or set(body) - set(DEFAULT_SETTINGS):
        return Reply(400, {"error": f"expected an object with keys among {', '.join(DEFAULT_SETTINGS)}"})
    stagger = body.get("member_stagger", 0)
    port = body.get("overlay_port", 22)
    fail = body.get("fail")
    problems = []
    if isinstance(stagger, bool) or not isinstance(stagger, (int, float)) or stagger < 0:
        problems.append("member_stagger must be a non-negative number of seconds")
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        problems.append("overlay_port must be a TCP port number")
    if fail is not None and not (
        isinstance(fail, dict)
        and isinstance(fail.get("cluster_name"), str)
        and isinstance(fail.get("rank"), int)
        and fail.get("status", ERROR) in FAIL_STATUSES
        and isinstance(fail.get("after", 0), (int, float))
        and not set(fail) - {"cluster_name", "rank", "status", "after"}
    ):
        problems.append('fail must be {"cluster_name", "rank", "after", "status": ERROR|EXITED|TERMINATED}')
    if problems:
        return Reply(400, {"error": "; ".join(problems)})
    sim.store.cluster_settings.update(body)
    return Reply(200, _public(settings(sim.store)))


# -- the overlay network ---------------------------------------------------------------------------------------
class OverlayListeners:
    """An SSH banner on each member's overlay address while that member's own sshd listens."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.servers: dict[tuple[str, int], asyncio.AbstractServer] = {}
        self.refused: set[tuple[str, int]] = set()
        # The ticker and request handlers both reconcile; one at a time, or both close (or bind) one address.
        self._lock = asyncio.Lock()

    def _wanted(self) -> set[tuple[str, int]]:
        if not self.store.clusters:
            return set()
        port = settings(self.store)["overlay_port"]
        listeners = self.store.listeners
        wanted = set()
        for cluster in self.store.clusters.values():
            for pod in members(self.store, cluster):
                entry = listeners._ports.get((pod.id, 22)) if listeners is not None else None
                if pod.status == RUNNING and entry is not None and entry.server is not None:
                    wanted.add((pod.cluster["ip"], port))
        return wanted

    async def reconcile(self) -> None:
        if not self.servers and not self.store.clusters:
            return
        async with self._lock:
            await self._apply(self._wanted())

    async def _apply(self, wanted: set[tuple[str, int]]) -> None:
        for key in [key for key in self.servers if key not in wanted]:
            # Closing the listening socket is enough: new connects are refused at once.
            self.servers.pop(key).close()
        for key in wanted - set(self.servers) - self.refused:
            try:
                self.servers[key] = await asyncio.start_server(_banner_only, host=key[0], port=key[1])
            except OSError as exc:
                # E.g. port 22 without the privilege to bind it: the overlay is then simply unreachable.
                self.refused.add(key)
                log.warning("overlay listener %s:%s not started: %s", key[0], key[1], exc)
        self.refused &= wanted
