# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""RunPod GPU types, their serverless pools and what RunPod cannot do, for checks made before any billable API call.
The user-facing list of the checks is docs/docsite/rst/guide_input_checks.rst."""

from __future__ import annotations

import difflib
import re

# GPU type id (as pods take it in ``gpu.id`` / ``gpuTypeIds``) -> serverless pool (REST v2 ``gpu.pools``),
# or None when the type is not offered to serverless endpoints.
GPU_TYPES = {
    "NVIDIA GeForce RTX 3070": None,
    "NVIDIA GeForce RTX 3080": None,
    "NVIDIA GeForce RTX 3080 Ti": None,
    "NVIDIA GeForce RTX 3090": "AMPERE_24",
    "NVIDIA GeForce RTX 3090 Ti": "AMPERE_24",
    "NVIDIA GeForce RTX 4070 Ti": None,
    "NVIDIA GeForce RTX 4080": None,
    "NVIDIA GeForce RTX 4080 SUPER": None,
    "NVIDIA GeForce RTX 4090": "ADA_24",
    "NVIDIA GeForce RTX 5090": "ADA_32_PRO",
    "NVIDIA RTX A2000": None,
    "NVIDIA RTX A4000": "AMPERE_16",
    "NVIDIA RTX A4500": "AMPERE_16",
    "NVIDIA RTX A5000": "AMPERE_24",
    "NVIDIA RTX A6000": "AMPERE_48",
    "NVIDIA A40": "AMPERE_48",
    "NVIDIA RTX 2000 Ada Generation": "AMPERE_16",
    "NVIDIA RTX 4000 Ada Generation": "AMPERE_16",
    "NVIDIA RTX 5000 Ada Generation": None,
    "NVIDIA RTX 6000 Ada Generation": "ADA_48_PRO",
    "NVIDIA L4": "ADA_24",
    "NVIDIA L40": "ADA_48_PRO",
    "NVIDIA L40S": "ADA_48_PRO",
    "NVIDIA A30": None,
    "NVIDIA A100 80GB PCIe": "AMPERE_80",
    "NVIDIA A100-SXM4-80GB": "AMPERE_80",
    "NVIDIA H100 PCIe": "ADA_80_PRO",
    "NVIDIA H100 80GB HBM3": "ADA_80_PRO",
    "NVIDIA H100 NVL": "ADA_80_PRO",
    "NVIDIA H200": "HOPPER_141",
    "NVIDIA B200": "BLACKWELL_180",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition": "BLACKWELL_96",
    "AMD Instinct MI300X OAM": None,
}

GPU_POOLS = frozenset(pool for pool in GPU_TYPES.values() if pool)


DISPLAY_WORDS = {"NVIDIA H100 80GB HBM3": ("sxm",), "NVIDIA H200": ("sxm",)}  # in the console's names, not the ids


def model_words(name):
    """The lowercase words of a GPU name but the vendor's (``NVIDIA GeForce RTX 4090`` -> rtx, 4090)."""
    return [word for word in re.split(r"[^a-z0-9]+", name.lower()) if word and word not in ("nvidia", "geforce", "amd")]


def gpu_suggestions(name, limit=4):
    """Known ids by model: each word of ``name`` with a digit (4090, h100) starts a word of the id or its display
    name (sxm of sxm4); most words matched, fewest left over first. Else the closest spelling."""
    words, ranked = model_words(name), []
    for gpu in GPU_TYPES:
        known = model_words(gpu) + list(DISPLAY_WORDS.get(gpu, ()))
        found = [word for word in words if any(have.startswith(word) for have in known)]
        if found and all(word in found for word in words if re.search(r"\d", word)):
            ranked.append((len(words) - len(found), len(known) - len(found), gpu))
    best = [gpu for missed, _left, gpu in sorted(ranked) if missed == min(ranked)[0]]
    spelled = {" ".join(model_words(gpu)): gpu for gpu in GPU_TYPES}
    return best[:limit] or [spelled[close] for close in difflib.get_close_matches(" ".join(words), spelled, n=2)]


def unknown_gpu_types(gpu_type_ids):
    """Return ``(unknown ids, hint)``; the hint suggests known ids by model and points to gpu_type_info."""
    unknown = [gpu for gpu in gpu_type_ids if gpu not in GPU_TYPES]
    hints = [f"for {gpu!r} did you mean {' or '.join(map(repr, close))}?"
             for gpu in unknown if (close := gpu_suggestions(gpu))]
    return unknown, "; ".join([*hints, "runpod.cloud.gpu_type_info lists the ids and display names"]) if unknown else ""


def pools_for(gpu_type_ids):
    """Map GPU type ids to their serverless pools, keeping order; raises ValueError for types without one."""
    pools = []
    for gpu in gpu_type_ids:
        pool = gpu if gpu in GPU_POOLS else GPU_TYPES.get(gpu)  # a pool id may be given directly
        if not pool:
            raise ValueError(f"GPU type {gpu!r} is not offered to serverless endpoints (no serverless pool)")
        if pool not in pools:
            pools.append(pool)
    return pools


# -- the REST v2 catalog, as gpu_type_info returns it ---------------------------------------------------------

STOCK_LEVELS = ("NONE", "LOW", "MEDIUM", "HIGH")


def _level(item):
    return str(item.get("availability") or "NONE").upper()


def stock_rank(level):
    """0 for NONE (or a missing / unknown level) up to 3 for HIGH."""
    level = str(level or "NONE").upper()
    return STOCK_LEVELS.index(level) if level in STOCK_LEVELS else 0


def _price(value):
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def describe_gpu_type(raw):
    """One ``GpuType`` of ``GET /v2/catalog/gpus?include=AVAILABILITY&product=POD`` in the module's shape (REST v2
    quotes on-demand prices per cloud only: spot prices are null)."""
    price = raw.get("price") if isinstance(raw.get("price"), dict) else {}
    most = raw.get("maxCount") if isinstance(raw.get("maxCount"), dict) else {}
    centers = {str(center["id"]): _level(center) for center in raw.get("dataCenters") or []
               if isinstance(center, dict) and center.get("id")}
    return {
        "id": raw.get("id"),
        "display_name": raw.get("name"),
        "manufacturer": raw.get("manufacturer"),
        "memory_gb": raw.get("memory"),
        "pool": raw.get("pool"),
        "secure_cloud": bool(raw.get("secure")),
        "community_cloud": bool(raw.get("community")),
        "max_gpu_count": {"secure": most.get("secure"), "community": most.get("community")},
        "prices": {
            "secure": {"on_demand": _price(price.get("secure")), "spot": None},
            "community": {"on_demand": _price(price.get("community")), "spot": None},
            "serverless": _price(price.get("serverless")),
        },
        "stock": _level(raw),
        "stock_by_data_center": centers,
        "cuda_versions": [
            {"version": str(item.get("version")), "available": bool(item.get("available"))}
            for item in raw.get("cudaVersions") or []
            if isinstance(item, dict) and item.get("version")
        ],
    }


def select_gpu_types(gpu_types, *, ids=None, data_center_ids=None, min_memory_gb=None, min_stock=None,
                     max_price=None, cloud_type="SECURE"):
    """The described GPU types every filter given holds for, in ``ids``' order. With ``data_center_ids`` a type needs
    stock in one of them (``stock``: the best there); a type without a ``cloud_type`` price fails ``max_price``."""
    centers = list(data_center_ids or [])
    kept = []
    for gpu in gpu_types:
        gpu = dict(gpu)
        if centers:
            gpu["stock_by_data_center"] = {dc: level for dc, level in gpu["stock_by_data_center"].items()
                                           if dc in centers}
            gpu["stock"] = max(gpu["stock_by_data_center"].values(), key=stock_rank, default="NONE")
            if stock_rank(gpu["stock"]) == 0:
                continue
        if min_memory_gb is not None and (gpu["memory_gb"] or 0) < min_memory_gb:
            continue
        if min_stock is not None and stock_rank(gpu["stock"]) < stock_rank(min_stock):
            continue
        if max_price is not None:
            price = gpu["prices"][cloud_type.lower()]["on_demand"]
            if price is None or price > max_price:
                continue
        kept.append(gpu)
    if ids:
        kept = [gpu for gpu_id in dict.fromkeys(ids) for gpu in kept if gpu["id"] == gpu_id]
    return kept


def describe_data_center(raw):
    """One ``DataCenter`` of ``GET /v2/catalog/datacenters?include=GPU_AVAILABILITY``."""
    return {
        "id": raw.get("id"),
        "name": raw.get("name"),
        "region": raw.get("region"),
        "global_network": bool(raw.get("globalNetwork")),
        "network_volume_types": list(raw.get("networkVolumeTypes") or []),
        "compliance": list(raw.get("compliance") or []),
        "gpu_stock": {str(item["id"]): _level(item) for item in raw.get("gpuAvailability") or []
                      if isinstance(item, dict) and item.get("id")},
    }


# -- what RunPod cannot do: each check says why RunPod would refuse the options (or a spec's values) ---------------

CUDA_VERSION = re.compile(r"\A\d+\.\d+\Z")


def cpu_pod_problem(values):
    """Why a CPU pod's ``values`` cannot be created (RunPod has no persistent pod volume on a CPU pod); or None."""
    if str(values.get("compute_type") or "").upper() == "CPU" and values.get("volume_gb"):
        return ("a CPU pod cannot have a pod volume on REST v2 (volume_gb); attach a network volume "
                "(network_volume_id) or remove volume_gb.")
    return None


def cuda_problems(allowed, floor, cpu, kind, remedy):
    """The CUDA constraints RunPod refuses (400 / 422) for a ``kind`` (pod, endpoint) that ``cpu`` or not, in the
    order a task should fix them; ``remedy`` ends the CPU message (how to drop them for that kind)."""
    allowed = list(allowed or [])
    problems = []
    if allowed and floor:
        problems.append("allowed_cuda_versions and min_cuda_version are mutually exclusive (RunPod answers 400 when "
                        "both are sent): give an exact set or a floor.")
    bad = [version for version in [*allowed, *([floor] if floor else [])] if not CUDA_VERSION.match(str(version))]
    if bad:
        problems.append(f"CUDA versions are major.minor, such as 12.8; got {', '.join(repr(v) for v in bad)}.")
    if (allowed or floor) and cpu:
        problems.append(f"CUDA constraints apply to GPU {kind}s only; {remedy}.")
    return problems


def gpu_on_cpu_pod_problem(values):
    if str(values.get("compute_type") or "").upper() == "CPU" and values.get("gpu_type_ids"):
        return "gpu_type_ids cannot be used with compute_type: CPU; use cpu_flavor_ids."
    return None


def scaler_problems(values):
    """What RunPod refuses beside a scaler type (serverless endpoints)."""
    problems = []
    scaler = (values.get("scaler_type") or "").upper()
    if scaler == "REQUEST_COUNT" and values.get("idle_timeout") is not None:
        problems.append("idle_timeout cannot be set beside scaler_type REQUEST_COUNT: RunPod refuses idleTimeout for "
                        "that scaler; remove idle_timeout")
    if values.get("type") == "LOAD_BALANCER" and scaler == "QUEUE_DELAY":
        problems.append("a LOAD_BALANCER endpoint scales on REQUEST_COUNT only; scaler_type QUEUE_DELAY is refused")
    return problems
