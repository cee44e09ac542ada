# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.gpus``: the GPU catalog and the data centers (``/catalog``), read raw (``_api/catalog`` and
``placement`` read them)."""

from __future__ import annotations

from typing import Any


class Gpus:
    def __init__(self, client):
        self.client = client

    def catalog(self, *, cloud=None, count=None, cuda_versions=(), min_cuda_version=None, attempts=1, product="POD"):
        """``GET /catalog/gpus`` with pod (or cluster) stock (``include=AVAILABILITY&product=POD``), scoped to the
        cloud, GPU count and CUDA constraints (``placement.choose`` reads them from a create's spec); one attempt by
        default (the catalog is a hint; with gpu_requirements or max_price_per_hr a failed read refuses the create)."""
        params: dict[str, Any] = {"include": "AVAILABILITY", "product": product}
        if cuda_versions:
            params["cudaVersions"] = ",".join(cuda_versions)
        elif min_cuda_version:
            params["minCudaVersion"] = min_cuda_version
        if cloud:
            params["cloud"] = cloud.upper()
        if count and int(count) > 1:
            params["count"] = int(count)
        return self.client.request("GET", "catalog/gpus", params=params, attempts=attempts)

    def data_centers(self, attempts=None):
        """``GET /catalog/datacenters?include=GPU_AVAILABILITY``: locations with the GPU stock of each."""
        return self.client.request("GET", "catalog/datacenters", params={"include": "GPU_AVAILABILITY"},
                                   attempts=attempts)
