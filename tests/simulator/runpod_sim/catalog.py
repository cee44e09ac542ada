# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The GPU types the simulator rents out: the hardware facts RunPod publishes per type.

Prices are not kept here: the list price of a type is the store's (``Store.list_price``: ``GPU_PRICES``, or the
``gpu_prices`` config a test sets), the figure a new pod of that type is billed unless ``gpu_prices`` gives a
different ``billed`` rate, so a catalog read and a pod's ``cost`` agree unless a test makes them differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .store import COMMUNITY_SHARE, DEFAULT_GPU_PRICE, GPU_PRICES

# CUDA version of every simulated host (the store gives GPU pods this cudaVersion).
HOST_CUDA_VERSION = "12.8"


@dataclass(frozen=True)
class GpuType:
    id: str
    display_name: str
    memory_gb: int
    cuda_cores: int
    max_count: int = 8
    # The host share one GPU of this type comes with (GpuConfig vcpuCount and memory per GPU; the create's
    # minVcpuCountPerGpu and minRamPerGpu filters compare against them).
    vcpus_per_gpu: int = 8
    ram_gb_per_gpu: int = 31
    manufacturer: str = "Nvidia"
    secure_cloud: bool = True
    community_cloud: bool = True

    @property
    def price(self) -> float:
        return GPU_PRICES.get(self.id, DEFAULT_GPU_PRICE)

    @property
    def community_price(self) -> float:
        return round(self.price * COMMUNITY_SHARE, 3)


GPU_TYPES: dict[str, GpuType] = {
    gpu.id: gpu
    for gpu in (
        GpuType("NVIDIA GeForce RTX 4090", "RTX 4090", 24, 16384),
        GpuType("NVIDIA GeForce RTX 3090", "RTX 3090", 24, 10496),
        GpuType("NVIDIA RTX A4000", "RTX A4000", 16, 6144),
        GpuType("NVIDIA RTX A5000", "RTX A5000", 24, 8192),
        GpuType("NVIDIA RTX A6000", "RTX A6000", 48, 10752, vcpus_per_gpu=9, ram_gb_per_gpu=50),
        GpuType("NVIDIA A40", "A40", 48, 10752, community_cloud=False, vcpus_per_gpu=9, ram_gb_per_gpu=50),
        GpuType("NVIDIA L4", "L4", 24, 7424, community_cloud=False, vcpus_per_gpu=12, ram_gb_per_gpu=50),
        GpuType("NVIDIA L40S", "L40S", 48, 18176, vcpus_per_gpu=16, ram_gb_per_gpu=62),
        GpuType("NVIDIA A100 80GB PCIe", "A100 PCIe", 80, 6912, vcpus_per_gpu=8, ram_gb_per_gpu=117),
        GpuType("NVIDIA A100-SXM4-80GB", "A100 SXM", 80, 6912, vcpus_per_gpu=16, ram_gb_per_gpu=125),
        GpuType("NVIDIA H100 80GB HBM3", "H100 SXM", 80, 16896, community_cloud=False, vcpus_per_gpu=20,
                ram_gb_per_gpu=125),
        GpuType("NVIDIA H100 PCIe", "H100 PCIe", 80, 14592, vcpus_per_gpu=16, ram_gb_per_gpu=188),
        GpuType("NVIDIA H200", "H200 SXM", 141, 16896, community_cloud=False, vcpus_per_gpu=24, ram_gb_per_gpu=188),
        GpuType("AMD Instinct MI300X OAM", "MI300X", 192, 19456, manufacturer="AMD", community_cloud=False,
                vcpus_per_gpu=24, ram_gb_per_gpu=283),
    )
}


def max_count(gpu_type: str | None) -> int:
    """GpuType.maxCount: the most GPUs one pod of this type can have (types outside the catalog hold 8)."""
    gpu = GPU_TYPES.get(gpu_type or "")
    return gpu.max_count if gpu is not None else GpuType.max_count


def host_share(gpu_type: str | None) -> tuple[int, int]:
    """(vCPUs, GB of RAM) one GPU of this type comes with (types outside the catalog: the dataclass defaults)."""
    gpu = GPU_TYPES.get(gpu_type or "")
    if gpu is None:
        return GpuType.vcpus_per_gpu, GpuType.ram_gb_per_gpu
    return gpu.vcpus_per_gpu, gpu.ram_gb_per_gpu


def below_floor(gpu_type: str | None, min_ram: int | None, min_vcpus: int | None) -> bool:
    """Whether the create's placement filters (``minRamPerGpu``, ``minVcpuCountPerGpu``) rule this GPU type's
    hosts out: RunPod then has no machine to place the pod on (a capacity refusal)."""
    vcpus, ram = host_share(gpu_type)
    return (min_ram is not None and ram < min_ram) or (min_vcpus is not None and vcpus < min_vcpus)


def free_gpus(store: Any, gpu_type: str, data_center: str) -> int:
    """Free GPUs of ``gpu_type`` in ``data_center`` now, from the store's stock less the GPUs its live pods
    hold there: the catalog's availability and the create agree on it, and it falls as pods land."""
    if gpu_type not in GPU_TYPES:
        return 0
    return max(0, store.gpu_stock(gpu_type, data_center) - store.gpus_in_use(gpu_type, data_center))


def availability_level(free: int) -> str:
    """The level for ``free`` placeable pods (the simulator's own bands): the v2 catalog's ``availability``."""
    if free <= 0:
        return "NONE"
    return "LOW" if free < 4 else "MEDIUM" if free < 16 else "HIGH"


def too_many_gpus(gpu_type: str | None, count: Any) -> str | None:
    """Why a REST create asking for ``count`` GPUs is refused (upstream rejects counts above maxCount), or None.

    Checked before anything is stored, so an absurd count costs nothing (it used to be simulated per GPU).
    """
    most = max_count(gpu_type)
    if isinstance(count, int) and count > most:
        return f"gpu count {count} is more than the {most} GPUs of the largest {gpu_type} machine"
    return None
