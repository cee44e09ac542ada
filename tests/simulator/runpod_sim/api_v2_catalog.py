# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""REST v2 catalog: ``/v2/catalog/gpus``, ``/v2/catalog/datacenters``, ``/v2/catalog/cpus`` and
``/v2/catalog/templates``, the GPU part served from the stock pods are placed with.

The availability levels come from ``catalog.free_gpus`` (the same rule the create uses), so a type the
create would refuse reads NONE here and is omitted from ``dataCenters``; a scenario that empties a type
after a catalog read (``out_of_stock_gpu_types`` or a ``stock_out`` fault) makes the next create fail as
RunPod's can. The query rules are the document's: ``include=AVAILABILITY`` needs ``product`` and the
availability filters need ``include`` (400), ``cudaVersions`` and ``minCudaVersion`` exclude each other (400).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from . import catalog
from .app import ApiError, Reply
from .store import DATA_CENTERS

if TYPE_CHECKING:  # pragma: no cover
    from .app import Ctx, Sim

# Data center -> (name, region); the simulator's five.
DATA_CENTER_INFO = {
    "US-TX-3": ("US Texas 3", "NORTH_AMERICA"),
    "EU-RO-1": ("EU Romania 1", "EUROPE"),
    "CA-MTL-1": ("CA Montreal 1", "NORTH_AMERICA"),
    "US-IL-1": ("US Illinois 1", "NORTH_AMERICA"),
    "EU-SE-1": ("EU Sweden 1", "EUROPE"),
}
PRODUCTS = {"POD", "CLUSTER", "SERVERLESS"}
CUDA = re.compile(r"^\d+\.\d+$")
CUDA_FLOOR = re.compile(r"^\d+(\.\d+)?$")


def register(sim: Sim) -> None:
    sim.route("GET", "/v2/catalog/gpus", list_gpus)
    sim.route("GET", "/v2/catalog/gpus/{gpu_id}", get_gpu)
    sim.route("GET", "/v2/catalog/datacenters", list_data_centers)
    sim.route("GET", "/v2/catalog/cpus", list_cpus)
    sim.route("GET", "/v2/catalog/cpus/{cpu_id}", get_cpu)
    sim.route("GET", "/v2/catalog/templates", list_catalog_templates)


def _csv(ctx: Ctx, key: str) -> list[str]:
    return [item.strip() for item in ctx.query.get(key, "").split(",") if item.strip()]


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _availability_query(ctx: Ctx) -> dict[str, Any] | None:
    """The availability scope asked for, None without ``include``; raises ApiError as the document says."""
    include = _csv(ctx, "include")
    scoped = [
        key
        for key in ("product", "count", "cloud", "cudaVersions", "minCudaVersion", "countryCodes")
        if key in ctx.query
    ]
    if not include:
        if scoped:
            raise ApiError(400, f"{', '.join(scoped)} is valid only with include=AVAILABILITY")
        return None
    if include != ["AVAILABILITY"]:
        raise ApiError(422, f"include must be AVAILABILITY, got {','.join(include)}")
    products = _csv(ctx, "product")
    if not products:
        raise ApiError(400, "include=AVAILABILITY requires product (POD, CLUSTER or SERVERLESS)")
    if set(products) - PRODUCTS:
        raise ApiError(422, f"unknown product {','.join(sorted(set(products) - PRODUCTS))}")
    cuda, floor = _csv(ctx, "cudaVersions"), ctx.query.get("minCudaVersion")
    if cuda and floor:
        raise ApiError(400, "cudaVersions and minCudaVersion are mutually exclusive")
    if any(not CUDA.match(v) for v in cuda) or (floor and not CUDA_FLOOR.match(floor)):
        raise ApiError(422, "CUDA versions are major.minor (minCudaVersion also takes a bare major)")
    cloud = ctx.query.get("cloud", "SECURE").upper()
    if cloud not in ("SECURE", "COMMUNITY"):
        raise ApiError(422, f"cloud must be SECURE or COMMUNITY, got {cloud}")
    try:
        count = int(ctx.query.get("count", "1"))
    except ValueError:
        raise ApiError(422, "count must be an integer") from None
    countries = [code.upper() for code in _csv(ctx, "countryCodes")]
    return {"cloud": cloud, "count": max(count, 1), "cuda": cuda, "floor": floor, "countries": countries}


def _cuda_fits(scope: dict[str, Any]) -> bool:
    host = catalog.HOST_CUDA_VERSION
    if scope["cuda"]:
        return host in scope["cuda"]
    if scope["floor"]:
        floor = _version(scope["floor"])
        return _version(host)[: len(floor)] >= floor
    return True


def gpu_view(store: Any, gpu: catalog.GpuType, scope: dict[str, Any] | None) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": gpu.id,
        "name": gpu.display_name,
        "pool": None,
        "manufacturer": gpu.manufacturer.upper(),
        "memory": gpu.memory_gb,
        "secure": gpu.secure_cloud,
        "community": gpu.community_cloud,
        "price": {"secure": store.list_price(gpu.id, "SECURE"), "community": store.list_price(gpu.id, "COMMUNITY")},
        "maxCount": {"secure": gpu.max_count, "community": gpu.max_count if gpu.community_cloud else 0},
    }
    if scope is None:
        return view
    offered = gpu.secure_cloud if scope["cloud"] == "SECURE" else gpu.community_cloud
    fits = offered and _cuda_fits(scope) and scope["count"] <= gpu.max_count
    centers = []
    for center in DATA_CENTERS:
        if scope["countries"] and center.split("-", maxsplit=1)[0] not in scope["countries"]:
            continue
        free = catalog.free_gpus(store, gpu.id, center) // scope["count"] if fits else 0
        if free > 0:
            centers.append(
                {"id": center, "name": DATA_CENTER_INFO[center][0], "availability": catalog.availability_level(free)}
            )
    ranks = ["NONE", "LOW", "MEDIUM", "HIGH"]
    view["availability"] = max((c["availability"] for c in centers), key=ranks.index, default="NONE")
    if centers:
        view["dataCenters"] = centers
    versions = [catalog.HOST_CUDA_VERSION] if not scope["cuda"] else list(scope["cuda"])
    view["cudaVersions"] = [
        {"version": v, "available": bool(centers) and v == catalog.HOST_CUDA_VERSION} for v in versions
    ]
    return view


async def list_gpus(sim: Sim, ctx: Ctx) -> Reply:
    scope = _availability_query(ctx)
    return Reply(200, {"gpus": [gpu_view(sim.store, gpu, scope) for gpu in catalog.GPU_TYPES.values()]})


async def get_gpu(sim: Sim, ctx: Ctx) -> Reply:
    gpu = catalog.GPU_TYPES.get(ctx.params["gpu_id"])
    if gpu is None:
        raise ApiError(404, f"GPU type {ctx.params['gpu_id']} not found")
    return Reply(200, gpu_view(sim.store, gpu, _availability_query(ctx)))


async def list_data_centers(sim: Sim, ctx: Ctx) -> Reply:
    include = _csv(ctx, "include")
    regions = set(_csv(ctx, "regions"))
    centers = []
    for center in DATA_CENTERS:
        name, region = DATA_CENTER_INFO[center]
        if regions and region not in regions:
            continue
        view: dict[str, Any] = {
            "id": center,
            "name": name,
            "region": region,
            "globalNetwork": center.startswith("US"),
            "networkVolumeTypes": ["STANDARD"],
            "compliance": [],
        }
        if "GPU_AVAILABILITY" in include:
            view["gpuAvailability"] = [
                {"id": gpu.id, "name": gpu.display_name, "availability": catalog.availability_level(free)}
                for gpu in catalog.GPU_TYPES.values()
                if (free := catalog.free_gpus(sim.store, gpu.id, center)) > 0
            ]
        centers.append(view)
    return Reply(200, {"dataCenters": centers})


# -- CPU flavors and the public template catalog ------------------------------------------------------------------
# CPU flavor -> (name, group, most vCPUs, GB of RAM per vCPU, secure price per vCPU); every flavor starts at 2 vCPUs.
CPU_FLAVORS = {
    "cpu3c": ("Compute-Optimized", "Gen 3", 32, 2.0, 0.03),
    "cpu3g": ("General Purpose", "Gen 3", 32, 4.0, 0.04),
    "cpu5c": ("Compute-Optimized", "Gen 5", 64, 2.0, 0.05),
    "cpu5g": ("General Purpose", "Gen 5", 64, 4.0, 0.06),
}
CPU_PRODUCTS = {"POD", "SERVERLESS"}
# The public template catalog by ``source`` (the simulator's own few; RunPod's is larger).
CATALOG_TEMPLATES = {
    "official": [
        ("30zmvf89kd", "PyTorch 2.8", "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", "NVIDIA", False),
        ("runpod-ubuntu", "Ubuntu 24.04", "runpod/base:0.7.0-ubuntu2404", "CPU", False),
        ("worker-vllm", "vLLM worker", "runpod/worker-v1-vllm:v2.7.0", "NVIDIA", True),
    ],
    "verified": [("comfyui-v", "ComfyUI", "runpod/comfyui:latest", "NVIDIA", False)],
    "community": [("rocm-pt", "PyTorch ROCm", "rocm/pytorch:latest", "AMD", False)],
}


def _cpu_scope(ctx: Ctx) -> dict[str, Any] | None:
    include = _csv(ctx, "include")
    scoped = [key for key in ("product", "vcpuCount") if key in ctx.query]
    if not include:
        if scoped:
            raise ApiError(400, f"{', '.join(scoped)} is valid only with include=AVAILABILITY")
        return None
    if include != ["AVAILABILITY"]:
        raise ApiError(422, f"include must be AVAILABILITY, got {','.join(include)}")
    products = _csv(ctx, "product")
    if not products:
        raise ApiError(400, "include=AVAILABILITY requires product (POD or SERVERLESS)")
    if set(products) - CPU_PRODUCTS:
        raise ApiError(422, f"unknown product {','.join(sorted(set(products) - CPU_PRODUCTS))}")
    try:
        vcpus = int(ctx.query.get("vcpuCount", "2"))
    except ValueError:
        raise ApiError(422, "vcpuCount must be an integer") from None
    if vcpus < 2 or vcpus & (vcpus - 1):
        raise ApiError(400, "vcpuCount must be a power of two, at least 2")
    return {"vcpus": vcpus}


def cpu_view(flavor: str, scope: dict[str, Any] | None) -> dict[str, Any]:
    name, group, most, ram, price = CPU_FLAVORS[flavor]
    view: dict[str, Any] = {
        "id": flavor,
        "name": name,
        "group": group,
        "vcpu": {"min": 2, "max": most},
        "ramGbPerVcpu": ram,
        "price": {"securePerVcpu": price, "serverlessPerVcpu": round(price * 0.8, 4)},
    }
    if scope is None:
        return view
    fits = scope["vcpus"] <= most
    centers = [
        {"id": center, "name": DATA_CENTER_INFO[center][0], "availability": "HIGH"} for center in DATA_CENTERS
    ] if fits else []
    view["availability"] = "HIGH" if fits else "NONE"
    if centers:
        view["dataCenters"] = centers
    return view


async def list_cpus(sim: Sim, ctx: Ctx) -> Reply:
    scope = _cpu_scope(ctx)
    return Reply(200, {"cpus": [cpu_view(flavor, scope) for flavor in CPU_FLAVORS]})


async def get_cpu(sim: Sim, ctx: Ctx) -> Reply:
    flavor = ctx.params["cpu_id"]
    if flavor not in CPU_FLAVORS:
        raise ApiError(404, f"CPU flavor {flavor} not found")
    return Reply(200, cpu_view(flavor, _cpu_scope(ctx)))


async def list_catalog_templates(sim: Sim, ctx: Ctx) -> Reply:
    source = ctx.query.get("source", "official")
    if source not in CATALOG_TEMPLATES:
        raise ApiError(422, f"source must be official, verified or community, got {source}")
    templates = [
        {
            "id": template_id,
            "name": name,
            "image": image,
            "args": "",
            "disk": 50,
            "mounts": {},
            "ports": [] if serverless else ["8888/http", "22/tcp"],
            "env": {},
            "registry": None,
            "serverless": serverless,
            "public": True,
            "category": category,
            "startSsh": not serverless,
            "startJupyter": not serverless and category != "CPU",
            "allowedCudaVersions": [],
        }
        for template_id, name, image, category, serverless in CATALOG_TEMPLATES[source]
    ]
    return Reply(200, {"templates": templates})
