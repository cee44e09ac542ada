# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Paired with GPU_CHOICE_ARGUMENT_SPEC in plugins/module_utils/_module/specs.py: change both together.
    DOCUMENTATION = r"""
options:
  gpu_requirements:
    description:
      - What the GPU type must be, instead of naming types (mutually exclusive with the GPU type ids option;
        both given fails with C(code=bad_request) before any API call). Used at create only.
      - The candidates are the GPU types of RunPod's catalog (one read of C(GET /v2/catalog/gpus) with stock,
        scoped by cloud, GPU count and CUDA constraints) that meet every given field and show stock, ordered by
        list price for the cloud tier times the GPU count, cheapest first (equal prices, more stock first).
        Then one create per candidate until one is placed, by the same rules as a list of types.
      - A catalog that cannot be read fails the task before any create with C(code=catalog_unavailable); no
        type in the catalog meeting the requirements fails with C(code=no_match).
      - An empty mapping (V({})) means any GPU type, cheapest first.
      - See the collection's C(docs/gpu-capacity.md).
    type: dict
    version_added: 0.2.0
    suboptions:
      min_memory_gb:
        description: Least GPU memory (VRAM) in GB, per GPU.
        type: int
      max_memory_gb:
        description: Most GPU memory (VRAM) in GB, per GPU. Must not be below O(gpu_requirements.min_memory_gb).
        type: int
      manufacturer:
        description: V(NVIDIA) or V(AMD) (any case). Anything else fails with C(code=bad_request).
        type: str
      exclude:
        description: GPU type ids never to use, checked against the known GPU types.
        type: list
        elements: str
      min_ram_per_gpu_gb:
        description:
          - Least host RAM in GB per GPU, 1 or more, sent in the create (C(gpu.minRamPerGpu)), so RunPod places the pod
            only on a machine that gives that much, and a candidate it cannot place so is skipped like a stock-out.
          - Pods only; a cluster refuses it before any call (RunPod's cluster create takes no such floor).
        type: int
        version_added: 0.3.0
      min_vcpus_per_gpu:
        description:
          - Least host vCPUs per GPU, 1 or more, sent as C(gpu.minVcpuCountPerGpu), as
            O(gpu_requirements.min_ram_per_gpu_gb).
          - Pods only, as O(gpu_requirements.min_ram_per_gpu_gb).
        type: int
        version_added: 0.3.0
  max_price_per_hr:
    description:
      - Most the create may cost per hour at list price, in USD. A candidate whose catalog list price (per GPU,
        for the cloud tier, times the GPU count; for a cluster times the node count too) is above it is never
        sent and is listed in the result's C(placement.dropped) with C(reason=price).
      - When no candidate is left, the task fails before any create with C(code=price_cap_exceeded), naming the
        cheapest candidate and its price. A catalog that cannot be read fails with C(code=catalog_unavailable).
      - Works with either way of naming GPUs. Must be above 0. Used at create only.
      - List price and billed price can differ; a created pod whose billed C(cost) is above the cap gets a warning.
    type: float
    version_added: 0.2.0
"""
