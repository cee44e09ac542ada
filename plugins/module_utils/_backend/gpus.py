# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.gpus``: the GPU catalog and the data centers (``/catalog``), read raw (``_api/catalog`` and
``offers`` read them)."""

from __future__ import annotations

from typing import Any


class Gpus:
    def __init__(self, client):
        self.client = client

    def catalog(self, spec=None, *, cloud=None, count=None, attempts=1, product="POD"):
        """``GET /catalog/gpus`` with pod (or cluster) stock (``include=AVAILABILITY&product=POD``), scoped to the
        spec's (or the given) cloud, GPU count and CUDA constraints; one attempt by default (the catalog is a
        hint; with gpu_requirements or max_price_per_hr a failed read refuses the create)."""
        params: dict[str, Any] = {"include": "AVAILABILITY", "product": product}
        if spec is not None:
            cloud, count = spec.cloud_type, spec.gpu_count
            if spec.allowed_cuda_versions:
                params["cudaVersions"] = ",".join(spec.allowed_cuda_versions)
            elif spec.min_cuda_version:
                params["minCudaVersion"] = spec.min_cuda_version
        if cloud:
            params["cloud"] = cloud.upper()
        if count and int(count) > 1:
            params["count"] = int(count)
        return self.client.request("GET", "catalog/gpus", params=params, attempts=attempts)

    def data_centers(self, attempts=None):
        """``GET /catalog/datacenters?include=GPU_AVAILABILITY``: locations with the GPU stock of each."""
        return self.client.request("GET", "catalog/datacenters", params={"include": "GPU_AVAILABILITY"},
                                   attempts=attempts)
