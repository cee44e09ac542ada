# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""RunPod GPU types and their serverless pools, for checks made before any billable API call."""

from __future__ import annotations

import difflib

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


def unknown_gpu_types(gpu_type_ids):
    """Return ``(unknown ids, hint)``; the hint suggests the closest known names."""
    unknown = [gpu for gpu in gpu_type_ids if gpu not in GPU_TYPES]
    suggestions = []
    for gpu in unknown:
        suggestions.extend(difflib.get_close_matches(gpu, GPU_TYPES, n=2, cutoff=0.6))
    hint = f"did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
    return unknown, hint


def pools_for(gpu_type_ids):
    """Map GPU type ids to their serverless pools, keeping order; raises ValueError for types without one."""
    pools = []
    for gpu in gpu_type_ids:
        pool = GPU_POOLS and GPU_TYPES.get(gpu)
        if gpu in GPU_POOLS:
            pool = gpu  # a pool id given directly
        if not pool:
            raise ValueError(f"GPU type {gpu!r} is not offered to serverless endpoints (no serverless pool)")
        if pool not in pools:
            pools.append(pool)
    return pools
