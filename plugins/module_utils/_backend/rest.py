# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""REST v2 backend: the request bodies and calls of pods, serverless endpoints and templates (``_payloads`` reads
the answers)."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.payloads import release_from_v2, workers_from_v2
from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import ClusterCalls
from ansible_collections.runpod.cloud.plugins.module_utils._backend.core import (
    Backend,
    body_keys,
    given,
    mounts_body,
    only,
    quote_id,
)

FLASHBOOT_ON = "FLASHBOOT"
FLASHBOOT_OFF = "OFF"


# -- request bodies ---------------------------------------------------------------------------------


# The spec fields a pod create sends as they are (when set) and those a pod update may change.
POD_CREATE_FIELDS = (
    "image", "template_id", "cloud_type", "container_disk_gb", "ports", "env", "docker_args", "registry_id"
)
POD_UPDATE_FIELDS = (
    "name", "image", "docker_args", "container_disk_gb", "ports", "env", "locked", "template_id", "registry_id"
)
POD_MOUNT_KEYS = ("volume_gb", "volume_mount_path", "network_volume_id")


def pod_create_body(spec, candidate, data_center_id=None):
    """The CreatePodRequest for ``spec`` placed on ``candidate`` (a GPU type id or CPU flavor id), in
    ``data_center_id`` when the placement pinned one (else the spec's data centers, if any)."""
    body = {"name": spec.name, **body_keys(given(spec, POD_CREATE_FIELDS))}
    if spec.compute_type.upper() == "CPU":
        cpu = {"id": candidate}
        if spec.vcpu_count:
            cpu["vcpuCount"] = int(spec.vcpu_count)
        body["cpu"] = cpu
    else:
        body["gpu"] = {"id": candidate, "count": int(spec.gpu_count or 1)}
        if spec.allowed_cuda_versions:
            body["gpu"]["allowedCudaVersions"] = list(spec.allowed_cuda_versions)
        if spec.min_cuda_version:
            body["gpu"]["minCudaVersion"] = spec.min_cuda_version
    mounts = mounts_body(spec.volume_gb, spec.volume_mount_path, spec.network_volume_id)
    if mounts:
        body["mounts"] = mounts
    if data_center_id:
        body["dataCenterIds"] = [data_center_id]
    elif spec.data_center_ids:
        body["dataCenterIds"] = list(spec.data_center_ids)
    body["startSsh"] = bool(spec.start_ssh)
    return body


def pod_update_body(changes):
    only(changes, POD_UPDATE_FIELDS + POD_MOUNT_KEYS, "REST v2 cannot update pod field(s)")
    body = body_keys({key: value for key, value in changes.items() if key in POD_UPDATE_FIELDS})
    if any(key in changes for key in POD_MOUNT_KEYS):
        mounts = mounts_body(
            changes.get("volume_gb"), changes.get("volume_mount_path"), changes.get("network_volume_id")
        )
        if mounts:
            body["mounts"] = mounts
    return body


def scaling_body(scaler_type, scaler_value):
    scaler_type = (scaler_type or "QUEUE_DELAY").upper()
    if scaler_type == "REQUEST_COUNT":
        return {"type": scaler_type, "requestCount": int(scaler_value if scaler_value is not None else 1)}
    if scaler_type == "QUEUE_DELAY":
        return {"type": scaler_type, "queueDelay": float(scaler_value if scaler_value is not None else 4)}
    raise ValueError(f"scaler_type must be QUEUE_DELAY or REQUEST_COUNT, got {scaler_type!r}")


# An endpoint's own container settings (sent like a pod's).
ENDPOINT_CONTAINER_FIELDS = ("image", "docker_args", "container_disk_gb", "ports", "env", "registry_id")


def endpoint_gpu_body(fields, creating):
    gpu: dict[str, Any] = {}
    pools = list(fields.get("gpu_pools") or [])
    if pools:
        gpu["pools"] = pools
    if fields.get("gpu_count") is not None:
        gpu["count"] = int(fields["gpu_count"])
    if fields.get("allowed_cuda_versions") is not None:
        gpu["allowedCudaVersions"] = list(fields["allowed_cuda_versions"])
    # An explicit "" clears the floor on update; on create an empty floor is simply not sent.
    if fields.get("min_cuda_version") is not None and (fields["min_cuda_version"] or not creating):
        gpu["minCudaVersion"] = fields["min_cuda_version"]
    return gpu


def endpoint_body(fields, creating):
    """CreateEndpointRequest/UpdateEndpointRequest from EndpointSpec-vocabulary ``fields``."""
    body: dict[str, Any] = {}
    if "name" in fields:
        body["name"] = fields["name"]
    if creating:
        body["type"] = fields.get("type") or "QUEUE"
    if fields.get("template_id"):
        body["templateId"] = fields["template_id"]
    if fields.get("cpu_flavor_ids"):
        vcpus = int(fields.get("vcpu_count") or 2)
        body["cpu"] = [{"id": flavor, "vcpuCount": vcpus} for flavor in fields["cpu_flavor_ids"]]
    elif creating and not fields.get("gpu_pools"):
        raise ValueError(
            "REST v2 endpoints select GPUs by pool: set gpu_pools (e.g. ADA_24, AMPERE_16), or cpu_flavor_ids "
            "for a CPU endpoint"
        )
    gpu = endpoint_gpu_body(fields, creating)
    if gpu:
        body["gpu"] = gpu
    scaler_type = fields.get("scaler_type")
    if fields.get("scaler_value") is not None and not scaler_type and not creating:
        raise ValueError("changing scaler_value on REST v2 needs scaler_type too (QUEUE_DELAY or REQUEST_COUNT)")
    if creating and not scaler_type and body["type"] == "LOAD_BALANCER":
        scaler_type = "REQUEST_COUNT"  # the only scaler a load balancer takes
    if creating or scaler_type:
        body["scaling"] = scaling_body(scaler_type, fields.get("scaler_value"))
    workers = {}
    for key, api_key in (("workers_min", "min"), ("workers_max", "max"), ("idle_timeout", "idleTimeout")):
        if fields.get(key) is not None:
            workers[api_key] = int(fields[key])
    # RunPod rejects idleTimeout beside a REQUEST_COUNT scaler (the endpoint module refuses it before this).
    if body.get("scaling", {}).get("type") == "REQUEST_COUNT":
        workers.pop("idleTimeout", None)
    if workers:
        body["workers"] = workers
    if fields.get("flashboot") is not None:
        body["flashboot"] = FLASHBOOT_ON if fields["flashboot"] else FLASHBOOT_OFF
    if fields.get("execution_timeout_ms") is not None:
        body["timeout"] = int(fields["execution_timeout_ms"])
    if fields.get("network_volume_id"):
        body["networkVolumes"] = [fields["network_volume_id"]]
    if fields.get("data_center_ids"):
        body["dataCenterIds"] = list(fields["data_center_ids"])
    container = {
        key: fields[key]
        for key in ENDPOINT_CONTAINER_FIELDS
        if fields.get(key) is not None and (fields[key] != "" or not creating)
    }
    body.update(body_keys(container))
    return body


class BackendV2(ClusterCalls, Backend):
    endpoints_path = "serverless"
    pod_create_body = staticmethod(pod_create_body)
    pod_update_body = staticmethod(pod_update_body)
    endpoint_body = staticmethod(endpoint_body)

    # -- pods --------------------------------------------------------------------------------------

    def pod_candidates(self, spec, type_ids=None):
        """GPU types crossed with the spec's data centers (each pinned in its body); CPU flavors as given."""
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement as _placement

        gpu = spec.compute_type.upper() != "CPU"
        return _placement.cross(spec.candidates() if type_ids is None else type_ids,
                                spec.data_center_ids if gpu else None)

    def stock_reader(self, spec, shared_read=None):
        if spec.compute_type.upper() == "CPU":
            return None
        if shared_read is not None:  # a fleet's members: the first one's read answers them all
            return lambda: shared_read(lambda: self.read_gpu_catalog(spec))
        return lambda: self.read_gpu_catalog(spec)

    def read_gpu_catalog(self, spec=None, *, cloud=None, count=None, attempts=1, product="POD"):
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

    def read_data_centers(self, attempts=None):
        """``GET /catalog/datacenters?include=GPU_AVAILABILITY``: locations with the GPU stock of each."""
        return self.client.request("GET", "catalog/datacenters", params={"include": "GPU_AVAILABILITY"},
                                   attempts=attempts)

    def list_pods(self, runtime=True, attempts=None, select=None, include_cluster_pods=False):
        """Every pod (``GET /pods``: one ``{"pods": [...]}``, the document has no pagination); null entries skipped.

        Cluster members are only listed with ``include_cluster_pods`` (``?includeClusterPods=true``).
        """
        params = {"includeClusterPods": "true"} if include_cluster_pods else None
        payload = self.client.request("GET", "pods", params=params, attempts=attempts)
        if not isinstance(payload, dict) or not isinstance(payload.get("pods"), list):
            raise RunPodError("bad_response", None, 'expected {"pods": [...]} from GET /pods')
        return [
            self.view_pod(entry)
            for entry in payload["pods"]
            if entry is not None and (select is None or select(entry.get("id"), entry.get("name")))
        ]

    def get_pod(self, pod_id, attempts=None):
        return self.view_pod(self.client.request("GET", f"pods/{quote_id(pod_id)}", attempts=attempts))

    def _action(self, pod_id, action):
        payload = self.client.request("POST", f"pods/{quote_id(pod_id)}/action", json={"action": action})
        return self.view_pod(payload) if isinstance(payload, dict) and payload.get("id") else None

    def endpoint_workers(self, endpoint_id, attempts=None):
        path = f"serverless/{quote_id(endpoint_id)}/workers"
        return workers_from_v2(self.client.request("GET", path, attempts=attempts))

    def endpoint_release(self, endpoint_id, attempts=None):
        path = f"serverless/{quote_id(endpoint_id)}/releases"
        return release_from_v2(self.client.request("GET", path, attempts=attempts))
