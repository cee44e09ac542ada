# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""REST v2 (``/v2/...``) and the serverless data plane (``/invoke/v2/{endpoint_id}/health``)."""

from __future__ import annotations

import time
from typing import Any

from . import catalog, container, paging, views
from .api_account import volume_placement
from .app import NO_CAPACITY, ApiError, Ctx, Reply, Sim
from .schemas import validate_v2
from .store import (
    DEFAULT_GPU_TYPE,
    ERROR,
    EXITED,
    TERMINATED,
    Endpoint,
    Pod,
    Template,
    new_id,
)

# POST /v2/pods answers 413 to a larger body, before authentication (autumn 2026 document).
CREATE_POD_BODY_LIMIT = 102400


def register(sim: Sim) -> None:
    sim.route("GET", "/v2/pods", list_pods)
    sim.route("POST", "/v2/pods", create_pod, max_body=CREATE_POD_BODY_LIMIT)
    sim.route("GET", "/v2/pods/{pod_id}", get_pod)
    sim.route("PATCH", "/v2/pods/{pod_id}", update_pod)
    sim.route("DELETE", "/v2/pods/{pod_id}", delete_pod)
    sim.route("POST", "/v2/pods/{pod_id}/action", pod_action)
    sim.route("GET", "/v2/account/ssh-keys", get_ssh_keys)
    sim.route("PUT", "/v2/account/ssh-keys", put_ssh_keys)
    sim.route("GET", "/v2/serverless", list_endpoints)
    sim.route("POST", "/v2/serverless", create_endpoint)
    sim.route("GET", "/v2/serverless/{endpoint_id}", get_endpoint)
    sim.route("PATCH", "/v2/serverless/{endpoint_id}", update_endpoint)
    sim.route("DELETE", "/v2/serverless/{endpoint_id}", delete_endpoint)
    sim.route("GET", "/v2/serverless/{endpoint_id}/workers", list_workers)
    sim.route("GET", "/v2/serverless/{endpoint_id}/releases", list_releases)
    sim.route("GET", "/v2/templates", list_templates)
    sim.route("POST", "/v2/templates", create_template)
    sim.route("GET", "/v2/templates/{template_id}", get_template)
    sim.route("PATCH", "/v2/templates/{template_id}", update_template)
    sim.route("DELETE", "/v2/templates/{template_id}", delete_template)
    sim.route("GET", "/invoke/v2/{endpoint_id}/health", endpoint_health)


async def _body(ctx: Ctx, schema: str) -> dict[str, Any]:
    body = await ctx.json(default={})
    errors = validate_v2(schema, body)
    if errors:
        raise ApiError(422, "Request validation failed.", errors)
    return body


def _pod(sim: Sim, ctx: Ctx, *, allow_terminated: bool = True, allow_member: bool = True) -> Pod:
    pod = sim.store.get_pod(ctx.params["pod_id"])
    if pod is None or (not allow_terminated and pod.status == TERMINATED):
        raise ApiError(404, "pod not found")
    if not allow_member and pod.cluster is not None:
        raise ApiError(400, f"pod {pod.id} is a member of cluster {pod.cluster['id']}; manage it through /v2/clusters")
    return pod


# -- pods ------------------------------------------------------------------------------------------------------
async def list_pods(sim: Sim, ctx: Ctx) -> Reply:
    """Newest first, cursor-paged. Cluster members are cut from the page *after* it is cut (unless
    ``includeClusterPods=true``), as RunPod does: a page can be short, even empty, while ``hasNextPage`` is true."""
    store = sim.store
    members = ctx.query.get("includeClusterPods", "false").lower() == "true"
    live = [pod for pod in store.live_pods() if pod.status != TERMINATED]
    chosen, pagination = paging.page(
        live,
        lambda pod: (-pod.created_at, -pod.seq),
        ctx.query,
        operation="listPods",
        params={"includeClusterPods": members},
        page_size=store.config.page_size,
    )
    pods = [views.pod_v2(store, pod) for pod in chosen if members or pod.cluster is None]
    return Reply(200, {"pods": pods, "pagination": pagination})


async def get_pod(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, views.pod_v2(sim.store, _pod(sim, ctx)))


def _resolve_template(sim: Sim, template_id: str | None) -> Template | None:
    if not template_id:
        return None
    template = sim.store.templates.get(template_id)
    if template is None:
        raise ApiError(404, "template not found")
    if template.serverless:
        raise ApiError(
            422, "Request validation failed.", [f"$.templateId: template {template_id} is a serverless template"]
        )
    return template


async def create_pod(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "CreatePodRequest")
    store = sim.store
    await store.create_pause()
    gpu, cpu = body.get("gpu"), body.get("cpu")
    if (gpu is None) == (cpu is None):
        raise ApiError(400, "exactly one of gpu or cpu must be set")
    if gpu and gpu.get("allowedCudaVersions") and gpu.get("minCudaVersion"):
        raise ApiError(400, "allowedCudaVersions and minCudaVersion cannot be combined")
    mounts = body.get("mounts") or {}
    if mounts.get("persistent") and mounts.get("network"):
        raise ApiError(400, "at most one of mounts.persistent or mounts.network may be set")
    if cpu and mounts.get("persistent"):
        raise ApiError(400, "mounts.persistent is not supported on CPU pods")
    if cpu and (cpu["vcpuCount"] & (cpu["vcpuCount"] - 1)):
        raise ApiError(400, "cpu.vcpuCount must be a power of two")
    template = _resolve_template(sim, body.get("templateId"))
    args = container.merged_args(body, template.args if template else "")
    gpu_type = gpu["id"] if gpu else None
    if gpu and (refusal := catalog.too_many_gpus(gpu_type, gpu.get("count", 1))):
        raise ApiError(400, refusal)
    if gpu_type in store.config.restricted_gpu_types:
        raise ApiError(403, f"access denied: your account cannot deploy {gpu_type}")
    if store.config.balance <= 0:
        raise ApiError(402, "Insufficient balance: add funds to deploy this pod")
    network = (mounts.get("network") or [{}])[0]
    preferences = volume_placement(sim, network.get("volumeId"), list(body.get("dataCenterIds") or []))
    placed = None
    if gpu and catalog.below_floor(gpu_type, gpu.get("minRamPerGpu"), gpu.get("minVcpuCountPerGpu")):
        raise ApiError(400, NO_CAPACITY)  # no host of this GPU type meets the placement filters
    if gpu_type:
        placed = store.place_gpu_pod(gpu_type, int(gpu.get("count", 1)), preferences)
        if placed is None:
            raise ApiError(400, NO_CAPACITY)

    env = dict(template.env) if template else {}
    env.update(body.get("env") or {})
    # startSsh defaults to false on a pod and to the template's flag when a template is given.
    start_ssh = body.get("startSsh", template.start_ssh if template else False)
    if start_ssh and "PUBLIC_KEY" not in env and store.account_ssh_keys:
        env["PUBLIC_KEY"] = "\n".join(store.account_ssh_keys)
    if body.get("startJupyter") and "JUPYTER_PASSWORD" not in env:
        env["JUPYTER_PASSWORD"] = new_id(16)
    persistent = mounts.get("persistent") or {}
    if not mounts and template and template.volume_gb:
        persistent = {"size": template.volume_gb, "path": template.volume_mount_path}
    pod = Pod(
        id=new_id(),
        name=body["name"],
        image=body.get("image") or (template.image if template else ""),
        created_at=time.time(),
        gpu_type=gpu_type,
        gpu_count=int(gpu.get("count", 1)) if gpu else 0,
        cpu_flavor=cpu["id"] if cpu else None,
        vcpu_count=int(cpu["vcpuCount"]) if cpu else 0,
        memory_gb=int(cpu["vcpuCount"]) * 2 if cpu else 0,
        args=args if args is not None else (template.args if template else ""),
        disk_gb=int(body.get("disk", template.disk_gb if template else 50)),
        volume_gb=int(persistent.get("size", 0)),
        volume_mount_path=persistent.get("path") or network.get("path") or "/workspace",
        network_volume_id=network.get("volumeId"),
        ports=list(body.get("ports", template.ports if template else [])),
        env=env,
        registry=body.get("registry", template.registry if template else None),
        cloud=body.get("cloud", "SECURE"),
        billed_per_gpu=store.billed_price(gpu_type, body.get("cloud", "SECURE")) if gpu_type else None,
        global_networking=bool(body.get("globalNetworking", False)),
        data_center_preferences=preferences,
        placed_data_center=placed,
    )
    store.add_pod(pod)
    return Reply(201, views.pod_v2(store, pod))


async def update_pod(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx, allow_terminated=False, allow_member=False)
    body = await _body(ctx, "UpdatePodRequest")
    mounts = body.get("mounts")
    if mounts:
        if mounts.get("network") == []:
            raise ApiError(400, "mounts.network cannot be cleared")
        if "persistent" in mounts and not pod.volume_gb:
            raise ApiError(400, "mount kind is fixed at create: this pod has no persistent mount")
        if "network" in mounts and (
            not pod.network_volume_id or mounts["network"][0]["volumeId"] != pod.network_volume_id
        ):
            raise ApiError(400, "the network volume of a pod cannot be added or changed")
    template = _resolve_template(sim, body.get("templateId"))
    if template is not None:
        if "entrypoint" in body or "cmd" in body:
            body.setdefault("args", container.merged_args(body, template.args))
        for key, value in (
            ("image", template.image),
            ("args", template.args),
            ("disk", template.disk_gb),
            ("ports", template.ports),
            ("registry", template.registry),
        ):
            body.setdefault(key, value)
        body["env"] = {**template.env, **(body.get("env") or {})}
    if "name" in body:
        pod.name = body["name"]
    if "image" in body:
        pod.image = body["image"]
    args = container.merged_args(body, pod.args)
    if args is not None:
        pod.args = args
    if "disk" in body:
        pod.disk_gb = int(body["disk"])
    if "env" in body:
        pod.env = dict(body["env"])
    if "registry" in body:
        pod.registry = body["registry"]
    if "locked" in body:
        pod.locked = bool(body["locked"])
    if "globalNetworking" in body:
        pod.global_networking = bool(body["globalNetworking"])
    if mounts and mounts.get("persistent"):
        pod.volume_gb = int(mounts["persistent"]["size"])
        pod.volume_mount_path = mounts["persistent"]["path"]
    if "ports" in body:
        sim.store.update_ports(pod, body["ports"])
    return Reply(200, views.pod_v2(sim.store, pod))


async def delete_pod(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx, allow_terminated=False, allow_member=False)
    sim.store.terminate(pod, "user")
    return Reply(204)


async def pod_action(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx, allow_member=False)
    body = await _body(ctx, "PodActionRequest")
    action = body["action"]
    if action not in pod.actions:
        allowed = ", ".join(pod.actions) or "none"
        raise ApiError(
            409, f"action '{action}' is not valid for a pod in status {pod.status} (valid actions: {allowed})"
        )
    store = sim.store
    if action == "terminate":
        store.terminate(pod, "user")
        return Reply(204)
    if action == "stop":
        store.stop(pod, "Exited by user")
    elif action == "start":
        if store.config.balance <= 0:
            raise ApiError(402, "Insufficient balance: add funds to start this pod")
        if pod.status in (EXITED, ERROR) and not store.can_resume(pod):
            raise ApiError(400, "There are not enough free GPUs on the host machine to start this pod")
        store.start(pod)
    elif action == "restart":
        store.restart(pod)
    return Reply(200, views.pod_v2(store, pod))


async def get_ssh_keys(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"keys": list(sim.store.account_ssh_keys)})


async def put_ssh_keys(sim: Sim, ctx: Ctx) -> Reply:
    # A complete replacement; affects only pods created afterwards with startSsh (running pods keep their env).
    keys = (await _body(ctx, "UpdateSshKeysRequest"))["keys"]
    sim.store.account_ssh_keys[:] = keys
    return Reply(200, {"keys": list(keys)})


# -- serverless ------------------------------------------------------------------------------------------------
def _endpoint(sim: Sim, ctx: Ctx) -> Endpoint:
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None:
        raise ApiError(404, "endpoint not found")
    return endpoint


async def list_endpoints(sim: Sim, ctx: Ctx) -> Reply:
    base = sim.urls()["serverless"]
    store = sim.store
    chosen, pagination = paging.page(
        list(store.endpoints.values()),
        lambda ep: (store.order_of(ep.id),),
        ctx.query,
        operation="listEndpoints",
        params={},
        page_size=store.config.page_size,
    )
    return Reply(200, {"endpoints": [views.endpoint_v2(store, ep, base) for ep in chosen], "pagination": pagination})


async def get_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, views.endpoint_v2(sim.store, _endpoint(sim, ctx), sim.urls()["serverless"]))


def _apply_endpoint_fields(endpoint: Endpoint, body: dict[str, Any]) -> None:
    if "name" in body:
        endpoint.name = body["name"]
    if "gpu" in body:
        gpu = body["gpu"]
        endpoint.gpu_pools = list(gpu.get("pools", endpoint.gpu_pools))
        endpoint.gpu_count = int(gpu.get("count", endpoint.gpu_count))
        endpoint.excluded_types = list(gpu.get("excludedTypes", endpoint.excluded_types))
        endpoint.allowed_cuda_versions = list(gpu.get("allowedCudaVersions", endpoint.allowed_cuda_versions))
        endpoint.min_cuda_version = gpu.get("minCudaVersion", endpoint.min_cuda_version) or None
        endpoint.cpu = []
    if "cpu" in body:
        endpoint.cpu = [
            {"id": item["id"], "vcpuCount": item["vcpuCount"], "memory": item["vcpuCount"] * 2} for item in body["cpu"]
        ]
    workers = body.get("workers") or {}
    endpoint.workers_min = int(workers.get("min", endpoint.workers_min))
    endpoint.workers_max = int(workers.get("max", endpoint.workers_max))
    endpoint.idle_timeout = int(workers.get("idleTimeout", endpoint.idle_timeout))
    if "scaling" in body:
        scaling = body["scaling"]
        endpoint.scaler_type = scaling["type"]
        endpoint.scaler_value = scaling.get("queueDelay", scaling.get("requestCount", endpoint.scaler_value))
    if "flashboot" in body:
        endpoint.flashboot = body["flashboot"]
    if "timeout" in body:
        endpoint.timeout_ms = int(body["timeout"])
        endpoint.timeout_given = True
    if "dataCenterIds" in body:
        endpoint.data_center_ids = list(body["dataCenterIds"])
    if "networkVolumes" in body:
        endpoint.network_volumes = list(body["networkVolumes"])


def _serverless_template(sim: Sim, template_id: str) -> Template:
    template = sim.store.templates.get(template_id)
    if template is None:
        raise ApiError(404, "template not found")
    if not template.serverless:
        raise ApiError(
            422, "Request validation failed.", [f"$.templateId: template {template_id} is not a serverless template"]
        )
    return template


def _check_pools(sim: Sim, body: dict[str, Any]) -> None:
    restricted = [
        pool for pool in (body.get("gpu") or {}).get("pools") or [] if pool in sim.store.config.restricted_pools
    ]
    if restricted:
        raise ApiError(403, f"access denied: your account cannot use the pool {restricted[0]}")


async def create_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "CreateEndpointRequest")
    if ("gpu" in body) == ("cpu" in body):
        raise ApiError(400, "exactly one of gpu or cpu must be set")
    _check_pools(sim, body)
    store = sim.store
    endpoint_id = new_id()
    if body.get("templateId"):
        template = _serverless_template(sim, body["templateId"])
    else:
        template = Template(
            id=new_id(10),
            name=f"{body['name']}__template__{endpoint_id}",
            image=body["image"],
            serverless=True,
            bound_endpoint_id=endpoint_id,
        )
        store.templates[template.id] = template
        store.order_of(template.id)
    # Container fields in the body win over the template's (they become the endpoint's bound template).
    args = container.merged_args(body, template.args)
    for key, attr in (("image", "image"), ("disk", "disk_gb"), ("registry", "registry")):
        if key in body and template.bound_endpoint_id == endpoint_id:
            setattr(template, attr, body[key])
    if args is not None and template.bound_endpoint_id == endpoint_id:
        template.args = args
    if template.bound_endpoint_id == endpoint_id:
        template.env = dict(body.get("env") or {})
        template.ports = list(body.get("ports") or [])
    endpoint = Endpoint(
        id=endpoint_id,
        name=body["name"],
        created_at=time.time(),
        visible_at=store.now() + store.scaled(store.config.propagation_lag),
        type=body["type"],
        template_id=template.id,
        gpu_type_ids=[DEFAULT_GPU_TYPE] if "gpu" in body else [],
    )
    _apply_endpoint_fields(endpoint, body)
    endpoint.timeout_given = "timeout" in body
    store.order_of(endpoint.id)
    store.add_endpoint(endpoint)
    return Reply(201, views.endpoint_v2(store, endpoint, sim.urls()["serverless"]))


async def update_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    body = await _body(ctx, "UpdateEndpointRequest")
    before = _release_fields(sim.store, endpoint)
    if "gpu" in body and "cpu" in body:
        raise ApiError(400, "exactly one of gpu or cpu must be set")
    _check_pools(sim, body)
    if body.get("templateId"):
        endpoint.template_id = _serverless_template(sim, body["templateId"]).id
    template = sim.store.templates.get(endpoint.template_id or "")
    if template is not None:
        args = container.merged_args(body, template.args)
        if args is not None:
            template.args = args
        for key, attr in (
            ("image", "image"),
            ("disk", "disk_gb"),
            ("env", "env"),
            ("ports", "ports"),
            ("registry", "registry"),
        ):
            if key in body:
                setattr(template, attr, body[key])
    _apply_endpoint_fields(endpoint, body)
    diff = _release_diff(before, _release_fields(sim.store, endpoint))
    if diff:
        sim.store.new_release(endpoint, diff)
    sim.store.scale_workers(endpoint)
    return Reply(200, views.endpoint_v2(sim.store, endpoint, sim.urls()["serverless"]))


async def delete_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    sim.store.delete_endpoint(_endpoint(sim, ctx))
    return Reply(204)


async def list_workers(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, views.workers_v2(sim.store, _endpoint(sim, ctx)))


async def list_releases(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    chosen, pagination = paging.page(
        endpoint.releases,
        lambda release: (-release["version"],),  # newest first
        ctx.query,
        operation="listEndpointReleases",
        params={"id": endpoint.id},
        page_size=sim.store.config.page_size,
    )
    return Reply(200, {**views.releases_v2(sim.store, endpoint, chosen), "pagination": pagination})


# What the workers run: a change of any of these makes a release that replaces every worker. Scaling,
# timeouts, FlashBoot, data centers and the name take effect without replacing workers.
RELEASE_KEYS = ("image", "args", "disk", "env", "ports", "registry", "gpu", "cpu", "networkVolumes")


def _release_fields(store: Any, endpoint: Endpoint) -> dict[str, Any]:
    """The worker configuration flattened (``gpu.count``, ``image``, ...): what a release diff compares."""
    view = views.endpoint_v2(store, endpoint, "")
    flat: dict[str, Any] = {}
    for key in RELEASE_KEYS:
        value = view.get(key)
        if isinstance(value, dict) and key != "env":
            flat.update({f"{key}.{inner}": item for inner, item in value.items()})
        else:
            flat[key] = value
    return flat


def _release_diff(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"field": key, "old": before.get(key), "new": after.get(key)}
        for key in sorted(set(before) | set(after))
        if before.get(key) != after.get(key)
    ]


# -- templates -------------------------------------------------------------------------------------------------
def _template(sim: Sim, ctx: Ctx) -> Template:
    template = sim.store.templates.get(ctx.params["template_id"])
    if template is None:
        raise ApiError(404, "template not found")
    return template


def _apply_template_fields(template: Template, body: dict[str, Any]) -> None:
    args = container.merged_args(body, template.args)
    if args is not None:
        template.args = args
    simple = {
        "name": "name",
        "image": "image",
        "disk": "disk_gb",
        "registry": "registry",
        "category": "category",
        "public": "public",
        "serverless": "serverless",
        "startSsh": "start_ssh",
        "startJupyter": "start_jupyter",
    }
    for key, attr in simple.items():
        if key in body:
            setattr(template, attr, body[key])
    if "ports" in body:
        template.ports = list(body["ports"])
    if "env" in body:
        template.env = dict(body["env"])
    if "allowedCudaVersions" in body:
        template.allowed_cuda_versions = list(body["allowedCudaVersions"])
    persistent = (body.get("mounts") or {}).get("persistent")
    if persistent:
        template.volume_gb = int(persistent["size"])
        template.volume_mount_path = persistent["path"]


def _template_v2(sim: Sim, template: Template) -> dict[str, Any]:
    return views.template_v2(template, omit_empty_mounts=sim.store.config.quirk_template_mounts_omitted)


async def list_templates(sim: Sim, ctx: Ctx) -> Reply:
    store = sim.store
    chosen, pagination = paging.page(
        list(store.templates.values()),
        lambda template: (store.order_of(template.id),),
        ctx.query,
        operation="listTemplates",
        params={},
        page_size=store.config.page_size,
    )
    return Reply(200, {"templates": [_template_v2(sim, t) for t in chosen], "pagination": pagination})


async def get_template(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, _template_v2(sim, _template(sim, ctx)))


async def create_template(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "CreateTemplateRequest")
    if (body.get("mounts") or {}).get("persistent") and body.get("serverless"):
        raise ApiError(400, "serverless templates cannot have a persistent mount")
    template = Template(id=new_id(10), name=body["name"], image=body["image"])
    _apply_template_fields(template, body)
    sim.store.templates[template.id] = template
    sim.store.order_of(template.id)
    return Reply(201, _template_v2(sim, template))


async def update_template(sim: Sim, ctx: Ctx) -> Reply:
    template = _template(sim, ctx)
    body = await _body(ctx, "UpdateTemplateRequest")
    _apply_template_fields(template, body)
    return Reply(200, _template_v2(sim, template))


async def delete_template(sim: Sim, ctx: Ctx) -> Reply:
    template = _template(sim, ctx)
    if sim.store.template_in_use(template.id):
        raise ApiError(400, "Template is in use by a pod or serverless endpoint and cannot be deleted")
    sim.store.templates.pop(template.id, None)
    return Reply(204)


# -- serverless data plane -------------------------------------------------------------------------------------
async def endpoint_health(sim: Sim, ctx: Ctx) -> Reply:
    store = sim.store
    endpoint = store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None or store.now() < endpoint.visible_at:
        return Reply(404, {"error": "endpoint not found"})
    if endpoint.health_sequence:
        entry = endpoint.health_sequence.pop(0) if len(endpoint.health_sequence) > 1 else endpoint.health_sequence[0]
        if "status" in entry and entry["status"] != 200:
            detail = entry.get("error") or ("endpoint not found" if entry["status"] == 404 else "upstream error")
            return Reply(int(entry["status"]), {"error": detail})
        return Reply(200, {key: value for key, value in entry.items() if key != "status"})
    store.count_health_read(endpoint)
    return Reply(200, views.health(store, endpoint))
