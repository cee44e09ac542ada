# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The GPU catalog's placement rule (deploys and GraphQL ``lowestPrice`` share it), on an in-memory store."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from runpod_sim import catalog, views
from runpod_sim.store import DATA_CENTERS, GPU_PRICES, RUNNING, TERMINATED, Pod, SimConfig, Store

GPU_IDS = [*catalog.GPU_TYPES, "NVIDIA GeForce RTX 3070", ""]
requests = st.fixed_dictionaries(
    {
        "gpu_type": st.sampled_from(GPU_IDS),
        "count": st.integers(min_value=0, max_value=10),
        "secure": st.sampled_from([None, True, False]),
        "data_center_id": st.sampled_from([None, *DATA_CENTERS, "XX-NONE-1"]),
        "country_code": st.sampled_from([None, "US", "eu", "CA", "JP"]),
        "min_cuda": st.sampled_from([None, "11.8", "12.8", "12.10", "13.0"]),
        "allowed_cuda": st.sampled_from([None, [], ["12.8"], ["12.4", "12.6"]]),
    }
)


def test_every_catalog_type_has_a_price_and_a_display_name():
    assert set(catalog.GPU_TYPES) == set(GPU_PRICES)
    assert len({gpu.display_name for gpu in catalog.GPU_TYPES.values()}) == len(catalog.GPU_TYPES)
    assert catalog.display_name("NVIDIA H100 80GB HBM3") == "H100 SXM"
    assert catalog.display_name("NVIDIA GeForce RTX 3070") == "RTX 3070"  # outside the catalog: the prefix goes


@settings(max_examples=300, deadline=None)
@given(requests, st.lists(st.sampled_from(GPU_IDS), max_size=3))
def test_placement_honours_every_constraint(request, sold_out):
    store = Store(SimConfig(out_of_stock_gpu_types=sold_out))
    placed = catalog.place(store, **request)
    gpu = catalog.GPU_TYPES.get(request["gpu_type"])
    if placed is None:
        return
    assert gpu is not None and request["gpu_type"] not in sold_out
    assert placed in DATA_CENTERS and 1 <= request["count"] <= gpu.max_count
    assert request["data_center_id"] in (None, placed)
    assert request["country_code"] is None or placed.startswith(request["country_code"].upper() + "-")
    assert request["secure"] is not True or gpu.secure_cloud
    assert request["secure"] is not False or gpu.community_cloud
    assert not request["allowed_cuda"] or catalog.HOST_CUDA_VERSION in request["allowed_cuda"]
    assert request["min_cuda"] in (None, "11.8", "12.8")
    # Fewer GPUs of the same type fit wherever more did.
    if request["count"] > 1:
        assert catalog.place(store, **{**request, "count": request["count"] - 1}) is not None


@settings(max_examples=200, deadline=None)
@given(requests)
def test_lowest_price_is_null_exactly_when_a_deploy_could_not_be_placed(request):
    store = Store(SimConfig())
    gpu = catalog.GPU_TYPES.get(request["gpu_type"])
    if gpu is None:
        return
    asked = {
        "gpuCount": request["count"] or None,
        "secureCloud": request["secure"],
        "dataCenterId": request["data_center_id"],
        "countryCode": request["country_code"],
        "cudaVersion": request["min_cuda"],
        "allowedCudaVersions": request["allowed_cuda"],
    }
    price = views.gpu_type_graphql(store, gpu)["lowestPrice"](None, input=asked)
    placeable = catalog.place(store, **{**request, "count": request["count"] or 1}) is not None
    assert (price["uninterruptablePrice"] is not None) is placeable
    assert (price["stockStatus"] is not None) is placeable
    if placeable:
        listed = gpu.community_price if request["secure"] is False else gpu.price
        assert price["uninterruptablePrice"] == listed
        assert price["minimumBidPrice"] == round(listed * catalog.SPOT_SHARE, 3) < listed
        assert price["stockStatus"] in ("High", "Medium", "Low")


def test_catalog_stock_falls_as_pods_land_and_returns_when_they_end():
    gpu, here, there = "NVIDIA L40S", DATA_CENTERS[0], DATA_CENTERS[1]
    store = Store(SimConfig(gpu_stock={gpu: {here: 3, "*": 0}}))
    assert catalog.free_gpus(store, gpu, here) == 3 and catalog.free_gpus(store, gpu, there) == 0
    first = Pod(id="p1", name="a", image="img", created_at=0.0, gpu_type=gpu, gpu_count=2, status=RUNNING,
                placed_data_center=here)
    store.pods[first.id] = first
    assert catalog.free_gpus(store, gpu, here) == 1
    assert catalog.availability_level(catalog.free_gpus(store, gpu, here) // 2) == "NONE"  # no room for 2 more
    assert catalog.place(store, gpu, count=2) is None and catalog.place(store, gpu, count=1) == here
    first.status = TERMINATED
    assert catalog.free_gpus(store, gpu, here) == 3
    assert catalog.free_gpus(store, "NVIDIA GeForce RTX 3070", here) == 0  # outside the catalog
