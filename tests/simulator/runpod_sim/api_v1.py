# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""REST v1 (``/v1/...``): bare arrays, ``{"message"}`` errors, 400 on unknown body keys."""

from __future__ import annotations

import time
from typing import Any

from . import catalog, views
from .api_account import volume_placement
from .app import NO_CAPACITY, ApiError, Ctx, Reply, Sim
from .schemas import v1_document, validate_v1
from .store import DEFAULT_GPU_TYPE, ERROR, EXITED, RUNNING, TERMINATED, Endpoint, Pod, Template, new_id


def register(sim: Sim) -> None:
    sim.route("GET", "/v1/openapi.json", openapi_document, auth=False)
    sim.route("GET", "/v1/pods", list_pods)
    sim.route("POST", "/v1/pods", create_pod)
    sim.route("GET", "/v1/pods/{pod_id}", get_pod)
    sim.route("PATCH", "/v1/pods/{pod_id}", update_pod)
    sim.route("POST", "/v1/pods/{pod_id}/update", update_pod)
    sim.route("DELETE", "/v1/pods/{pod_id}", delete_pod)
    for action in ("start", "stop", "reset", "restart"):
        sim.route("POST", f"/v1/pods/{{pod_id}}/{action}", _action_handler(action))
    sim.route("GET", "/v1/endpoints", list_endpoints)
    sim.route("POST", "/v1/endpoints", create_endpoint)
    sim.route("GET", "/v1/endpoints/{endpoint_id}", get_endpoint)
    sim.route("PATCH", "/v1/endpoints/{endpoint_id}", update_endpoint)
    sim.route("POST", "/v1/endpoints/{endpoint_id}/update", update_endpoint)
    sim.route("DELETE", "/v1/endpoints/{endpoint_id}", delete_endpoint)
    sim.route("GET", "/v1/templates", list_templates)
    sim.route("POST", "/v1/templates", create_template)
    sim.route("GET", "/v1/templates/{template_id}", get_template)
    sim.route("PATCH", "/v1/templates/{template_id}", update_template)
    sim.route("POST", "/v1/templates/{template_id}/update", update_template)
    sim.route("DELETE", "/v1/templates/{template_id}", delete_template)


async def openapi_document(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, v1_document())


async def _body(ctx: Ctx, schema: str) -> dict[str, Any]:
    body = await ctx.json(default={})
    message = validate_v1(schema, body)
    if message:
        raise ApiError(400, message)
    return body


def _flag(ctx: Ctx, name: str) -> bool:
    return str(ctx.query.get(name, "")).lower() == "true"


def _pod(sim: Sim, ctx: Ctx) -> Pod:
    pod = sim.store.get_pod(ctx.params["pod_id"])
    # Terminated pods read back (EXITED + "Terminated by ..."), deleted ones are gone.
    if pod is None:
        raise ApiError(404, "Pod not found.")
    return pod


# -- pods ------------------------------------------------------------------------------------------------------
async def list_pods(sim: Sim, ctx: Ctx) -> Reply:
    store = sim.store
    filters = {
        "id": lambda pod, value: pod.id == value,
        "name": lambda pod, value: pod.name == value,
        "desiredStatus": lambda pod, value: views.v1_desired_status(pod) == value,
        "imageName": lambda pod, value: pod.image == value,
        "templateId": lambda pod, value: pod.template_id == value,
        "computeType": lambda pod, value: ("GPU" if pod.is_gpu else "CPU") == value,
        "gpuTypeId": lambda pod, value: pod.gpu_type == value,
        "dataCenterId": lambda pod, value: pod.data_center_id == value,
    }
    pods = store.live_pods()
    for key, matches in filters.items():
        values = ctx.query.getlist(key)
        if values:
            pods = [pod for pod in pods if any(matches(pod, value) for value in values)]
    include_machine = _flag(ctx, "includeMachine")
    return Reply(200, [views.pod_v1(store, pod, include_machine=include_machine) for pod in pods])


async def get_pod(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, views.pod_v1(sim.store, _pod(sim, ctx), include_machine=_flag(ctx, "includeMachine")))


def _pick_gpu_type(sim: Sim, requested: list[str], count: int, data_centers: list[str]) -> tuple[str, str]:
    """v1 takes a list of acceptable types: the first one in stock in a preferred data center wins."""
    store = sim.store
    allowed = [
        gpu_type for gpu_type in requested or [DEFAULT_GPU_TYPE] if gpu_type not in store.config.restricted_gpu_types
    ]
    if not allowed:
        raise ApiError(400, "Your account cannot deploy the requested GPU types")
    for gpu_type in allowed:
        placed = store.place_gpu_pod(gpu_type, count, data_centers)
        if placed is not None:
            return gpu_type, placed
    raise ApiError(500, NO_CAPACITY)


async def create_pod(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "PodCreateInput")
    store = sim.store
    await store.create_pause()
    template = None
    if body.get("templateId"):
        template = store.templates.get(body["templateId"])
        if template is None:
            raise ApiError(400, f"Template {body['templateId']} not found")
    if store.config.balance <= 0:
        raise ApiError(400, "Insufficient balance: add funds to deploy this pod")
    compute = body.get("computeType", "GPU")
    preferences = volume_placement(sim, body.get("networkVolumeId"), list(body.get("dataCenterIds") or []))
    placed = None
    if compute == "GPU":
        requested = list(body.get("gpuTypeIds") or [])
        if refusal := catalog.too_many_gpus((requested or [DEFAULT_GPU_TYPE])[0], body.get("gpuCount", 1)):
            raise ApiError(400, refusal)
        gpu_type, placed = _pick_gpu_type(sim, requested, int(body.get("gpuCount", 1)), preferences)
        cpu_flavor = None
    else:
        gpu_type = None
        cpu_flavor = (body.get("cpuFlavorIds") or ["cpu3c"])[0]
    if not body.get("imageName") and template is None:
        raise ApiError(400, "imageName is required when no templateId is given")
    env = dict(template.env) if template else {}
    env.update(body.get("env") or {})
    default_ports = template.ports if template else ["8888/http", "22/tcp"]
    vcpus = int(body.get("vcpuCount", 2)) if cpu_flavor else 0
    pod = Pod(
        id=new_id(),
        name=body.get("name", "my pod"),
        image=body.get("imageName") or (template.image if template else ""),
        created_at=time.time(),
        gpu_type=gpu_type,
        gpu_count=int(body.get("gpuCount", 1)) if gpu_type else 0,
        cpu_flavor=cpu_flavor,
        vcpu_count=vcpus,
        memory_gb=vcpus * 2,
        docker_entrypoint=list(body.get("dockerEntrypoint") or []),
        docker_start_cmd=list(body.get("dockerStartCmd") or []),
        disk_gb=int(body.get("containerDiskInGb") or (template.disk_gb if template else 50)),
        volume_gb=int(body.get("volumeInGb") if body.get("volumeInGb") is not None else 20),
        volume_mount_path=body.get("volumeMountPath", "/workspace"),
        network_volume_id=body.get("networkVolumeId"),
        ports=list(body.get("ports", default_ports)),
        env=env,
        registry=body.get("containerRegistryAuthId"),
        cloud=body.get("cloudType", "SECURE"),
        template_id=body.get("templateId"),
        interruptible=bool(body.get("interruptible", False)),
        locked=bool(body.get("locked", False)),
        global_networking=bool(body.get("globalNetworking", False)),
        data_center_preferences=preferences,
        placed_data_center=placed,
    )
    pod.args = " ".join(pod.docker_start_cmd)
    store.add_pod(pod)
    return Reply(201, views.pod_v1(store, pod))


async def update_pod(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    body = await _body(ctx, "PodUpdateInput")
    if pod.status == TERMINATED:
        raise ApiError(400, "Pod is terminated")
    container_change = False
    mapping = {
        "name": "name",
        "imageName": "image",
        "containerDiskInGb": "disk_gb",
        "volumeInGb": "volume_gb",
        "volumeMountPath": "volume_mount_path",
        "containerRegistryAuthId": "registry",
        "locked": "locked",
        "globalNetworking": "global_networking",
    }
    for key, attr in mapping.items():
        if key in body:
            setattr(pod, attr, body[key])
            container_change = container_change or key not in ("name", "locked")
    for key, attr in (("dockerEntrypoint", "docker_entrypoint"), ("dockerStartCmd", "docker_start_cmd")):
        if key in body:
            setattr(pod, attr, list(body[key]))
            container_change = True
    if "env" in body:
        pod.env = dict(body["env"])
        container_change = True
    if "ports" in body:
        sim.store.update_ports(pod, body["ports"])
        container_change = True
    if container_change and pod.status == RUNNING:
        sim.store.restart(pod)  # v1 updates reset the pod
    return Reply(200, views.pod_v1(sim.store, pod))


async def delete_pod(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    if pod.terminated_at is None:
        sim.store.terminate(pod, "user")
    return Reply(204)


def _action_handler(action: str) -> Any:
    async def handler(sim: Sim, ctx: Ctx) -> Reply:
        pod = _pod(sim, ctx)
        store = sim.store
        if pod.status == TERMINATED:
            raise ApiError(400, "Pod is terminated")
        if action == "start":
            if pod.status not in (EXITED, ERROR):
                raise ApiError(400, "Pod is not stopped")
            if store.config.balance <= 0:
                raise ApiError(400, "Insufficient balance: add funds to start this pod")
            if not store.can_resume(pod):
                raise ApiError(400, "There are not enough free GPUs on the host machine to start this pod.")
            store.start(pod)
        elif action == "stop":
            if pod.status in (EXITED, ERROR):
                raise ApiError(400, "Pod is not running")
            if pod.locked:
                raise ApiError(400, "Pod is locked")
            store.stop(pod, "Exited by user")
        else:  # reset / restart: container restart in place
            if pod.status != RUNNING:
                raise ApiError(400, "Pod is not running")
            if pod.locked and action == "reset":
                raise ApiError(400, "Pod is locked")
            store.restart(pod)
        # The document describes start and stop answers without a body (and no success for reset/restart).
        return Reply(200)

    handler.__name__ = f"pod_{action}"
    return handler


# -- endpoints -------------------------------------------------------------------------------------------------
def _endpoint(sim: Sim, ctx: Ctx) -> Endpoint:
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None:
        raise ApiError(404, "Endpoint not found.")
    return endpoint


def _apply_v1_endpoint(endpoint: Endpoint, body: dict[str, Any]) -> None:
    simple = {
        "name": "name",
        "gpuCount": "gpu_count",
        "workersMin": "workers_min",
        "workersMax": "workers_max",
        "idleTimeout": "idle_timeout",
        "scalerType": "scaler_type",
        "scalerValue": "scaler_value",
        "executionTimeoutMs": "timeout_ms",
        "minCudaVersion": "min_cuda_version",
    }
    for key, attr in simple.items():
        if key in body:
            setattr(endpoint, attr, body[key])
    if "gpuTypeIds" in body:
        endpoint.gpu_type_ids = list(body["gpuTypeIds"])
    if "allowedCudaVersions" in body:
        endpoint.allowed_cuda_versions = list(body["allowedCudaVersions"])
    if "dataCenterIds" in body:
        endpoint.data_center_ids = list(body["dataCenterIds"])
    if "flashboot" in body:
        endpoint.flashboot = "FLASHBOOT" if body["flashboot"] else "OFF"
    if "networkVolumeIds" in body or "networkVolumeId" in body:
        endpoint.network_volumes = list(body.get("networkVolumeIds") or [body["networkVolumeId"]])
    if body.get("computeType") == "CPU" or "cpuFlavorIds" in body:
        vcpus = int(body.get("vcpuCount", 2))
        endpoint.cpu = [
            {"id": flavor, "vcpuCount": vcpus, "memory": vcpus * 2} for flavor in body.get("cpuFlavorIds") or ["cpu3c"]
        ]


async def list_endpoints(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, [views.endpoint_v1(sim.store, ep) for ep in sim.store.endpoints.values()])


async def get_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, views.endpoint_v1(sim.store, _endpoint(sim, ctx)))


async def create_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "EndpointCreateInput")
    store = sim.store
    template = store.templates.get(body.get("templateId") or "")
    if template is None:
        raise ApiError(400, "templateId is required and must name one of your templates")
    if not template.serverless:
        raise ApiError(400, "Template must be a serverless template")
    endpoint = Endpoint(
        id=new_id(),
        name=body.get("name") or template.name,
        created_at=time.time(),
        visible_at=store.now() + store.scaled(store.config.propagation_lag),
        template_id=template.id,
        gpu_type_ids=[DEFAULT_GPU_TYPE],
        idle_timeout=5,
    )
    _apply_v1_endpoint(endpoint, body)
    store.add_endpoint(endpoint)
    return Reply(200, views.endpoint_v1(store, endpoint))


async def update_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    body = await _body(ctx, "EndpointUpdateInput")
    if body.get("templateId"):
        template = sim.store.templates.get(body["templateId"])
        if template is None or not template.serverless:
            raise ApiError(400, "Template must be one of your serverless templates")
        endpoint.template_id = template.id
    _apply_v1_endpoint(endpoint, body)
    endpoint.version += 1
    sim.store.scale_workers(endpoint)
    return Reply(200, views.endpoint_v1(sim.store, endpoint))


async def delete_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    sim.store.delete_endpoint(_endpoint(sim, ctx))
    return Reply(204)


# -- templates -------------------------------------------------------------------------------------------------
def _template(sim: Sim, ctx: Ctx) -> Template:
    template = sim.store.templates.get(ctx.params["template_id"])
    if template is None:
        raise ApiError(404, "Template not found.")
    return template


def _apply_v1_template(template: Template, body: dict[str, Any]) -> None:
    mapping = {
        "name": "name",
        "imageName": "image",
        "category": "category",
        "containerDiskInGb": "disk_gb",
        "volumeInGb": "volume_gb",
        "volumeMountPath": "volume_mount_path",
        "containerRegistryAuthId": "registry",
        "isPublic": "public",
        "isServerless": "serverless",
        "readme": "readme",
    }
    for key, attr in mapping.items():
        if key in body:
            setattr(template, attr, body[key])
    for key, attr in (
        ("dockerEntrypoint", "docker_entrypoint"),
        ("dockerStartCmd", "docker_start_cmd"),
        ("ports", "ports"),
    ):
        if key in body:
            setattr(template, attr, list(body[key]))
    if "dockerStartCmd" in body:
        template.args = " ".join(body["dockerStartCmd"])
    if "env" in body:
        template.env = dict(body["env"])


def _check_unique_name(sim: Sim, name: str, template_id: str | None = None) -> None:
    if any(t.name == name and t.id != template_id for t in sim.store.templates.values()):
        raise ApiError(400, f"Template name must be unique: {name!r} is already used")


async def list_templates(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, [views.template_v1(t) for t in sim.store.templates.values()])


async def get_template(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, views.template_v1(_template(sim, ctx)))


async def create_template(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "TemplateCreateInput")
    _check_unique_name(sim, body["name"])
    template = Template(
        id=new_id(10), name=body["name"], image=body["imageName"], volume_gb=20, ports=["8888/http", "22/tcp"]
    )
    _apply_v1_template(template, body)
    sim.store.templates[template.id] = template
    return Reply(200, views.template_v1(template))


async def update_template(sim: Sim, ctx: Ctx) -> Reply:
    template = _template(sim, ctx)
    body = await _body(ctx, "TemplateUpdateInput")
    if "name" in body:
        _check_unique_name(sim, body["name"], template.id)
    _apply_v1_template(template, body)
    return Reply(200, views.template_v1(template))


async def delete_template(sim: Sim, ctx: Ctx) -> Reply:
    template = _template(sim, ctx)
    if sim.store.template_in_use(template.id):
        raise ApiError(400, "Template is in use by a pod or serverless endpoint and cannot be deleted")
    sim.store.templates.pop(template.id, None)
    return Reply(204)
