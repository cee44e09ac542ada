# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The GPU catalog's types and stock, on an in-memory store."""

from __future__ import annotations

from runpod_sim import catalog
from runpod_sim.store import DATA_CENTERS, GPU_PRICES, RUNNING, TERMINATED, Pod, SimConfig, Store


def test_every_catalog_type_has_a_price_and_a_display_name():
    assert set(catalog.GPU_TYPES) == set(GPU_PRICES)
    assert len({gpu.display_name for gpu in catalog.GPU_TYPES.values()}) == len(catalog.GPU_TYPES)


def test_catalog_stock_falls_as_pods_land_and_returns_when_they_end():
    gpu, here, there = "NVIDIA L40S", DATA_CENTERS[0], DATA_CENTERS[1]
    store = Store(SimConfig(gpu_stock={gpu: {here: 3, "*": 0}}))
    assert catalog.free_gpus(store, gpu, here) == 3 and catalog.free_gpus(store, gpu, there) == 0
    first = Pod(id="p1", name="a", image="img", created_at=0.0, gpu_type=gpu, gpu_count=2, status=RUNNING,
                placed_data_center=here)
    store.pods[first.id] = first
    assert catalog.free_gpus(store, gpu, here) == 1
    assert catalog.availability_level(catalog.free_gpus(store, gpu, here) // 2) == "NONE"  # no room for 2 more
    assert store.place_gpu_pod(gpu, 2, []) is None and store.place_gpu_pod(gpu, 1, []) == here
    first.status = TERMINATED
    assert catalog.free_gpus(store, gpu, here) == 3
    assert catalog.free_gpus(store, "NVIDIA GeForce RTX 3070", here) == 0  # outside the catalog
