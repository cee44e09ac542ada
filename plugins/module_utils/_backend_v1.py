# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Legacy backend: REST v1 for CRUD plus at most one GraphQL runtime read per pod listing.

REST v1 never fills ``runtime``; the live container state only comes from GraphQL. Following the
reference CLI, a listing makes one bulk GraphQL read, only when a listed pod is RUNNING, with the
HTTP timeout capped at 5 s. If that read fails, or a pod is missing from it, the pod is returned with
``runtime_probed=False`` (derived state ``unknown``/``runtime_unavailable``) and the call succeeds.
"""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._backend import (
    Backend,
    body_keys,
    build_template_body,
    given,
    only,
    quote_id,
)
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._payloads import POD, pick_list, require_id, upper

GRAPHQL_TIMEOUT_CAP = 5.0
RUNTIME_QUERY = (
    "query RunpodCloudPodRuntimes { myself { pods { id desiredStatus lastStatusChange "
    "runtime { uptimeInSeconds ports { ip isIpPublic privatePort publicPort type } } } } }"
)


# -- request bodies (only PodCreateInput/PodUpdateInput/... keys: v1 rejects anything else) --------------


# The spec fields a pod create sends when set (POD_CREATE_FIELDS: not empty; POD_CREATE_FLAGS: not None, so false
# and 0 are sent) and those a pod update may change.
POD_CREATE_FIELDS = (
    "image", "template_id", "cloud_type", "container_disk_gb", "network_volume_id", "volume_mount_path", "ports",
    "env", "docker_args", "registry_id", "data_center_ids",
)
POD_CREATE_FLAGS = ("volume_gb", "support_public_ip", "interruptible")
POD_UPDATE_FIELDS = (
    "name", "image", "docker_args", "container_disk_gb", "volume_gb", "volume_mount_path", "ports", "env", "locked",
    "registry_id",
)


def pod_create_body(spec, candidate, data_center_id=None):
    """The v1 create body on ``candidate``; REST v1 keeps its own list semantics: the spec's data centers
    go in every body (``data_center_id`` is not used; v1 candidates are never pinned)."""
    cpu = spec.compute_type.upper() == "CPU"
    body = {
        "name": spec.name,
        "computeType": "CPU" if cpu else "GPU",
        **body_keys("v1", given(spec, POD_CREATE_FIELDS)),
        **body_keys("v1", given(spec, POD_CREATE_FLAGS, keep=lambda value: value is not None)),
    }
    if cpu:
        body["cpuFlavorIds"] = [candidate]
        if spec.vcpu_count:
            body["vcpuCount"] = int(spec.vcpu_count)
    else:
        body["gpuTypeIds"] = [candidate]
        body["gpuCount"] = int(spec.gpu_count or 1)
        if spec.allowed_cuda_versions:
            body["allowedCudaVersions"] = list(spec.allowed_cuda_versions)
    return body


def pod_update_body(changes):
    only(changes, POD_UPDATE_FIELDS, "REST v1 cannot update pod field(s)")
    return body_keys("v1", changes)


def endpoint_body(fields, creating):
    """EndpointCreateInput/EndpointUpdateInput from EndpointSpec-vocabulary ``fields``."""
    if fields.get("gpu_pools") and not fields.get("gpu_type_ids"):
        raise ValueError(
            "REST v1 endpoints select GPUs by type: set gpu_type_ids (e.g. NVIDIA A40); "
            "gpu_pools is only understood by api_version v2"
        )
    if creating and not fields.get("template_id"):
        raise ValueError("REST v1 needs template_id to create an endpoint")
    if fields.get("registry_id"):
        raise ValueError(
            "registry_id is not available for endpoints on api_version v1 (set it on the endpoint's template, "
            "or use api_version v2)"
        )
    body: dict[str, Any] = {}
    if creating:
        body["computeType"] = "CPU" if fields.get("cpu_flavor_ids") else "GPU"
    if fields.get("cpu_flavor_ids"):
        body["cpuFlavorIds"] = list(fields["cpu_flavor_ids"])
        if fields.get("vcpu_count"):
            body["vcpuCount"] = int(fields["vcpu_count"])
    if fields.get("allowed_cuda_versions") is not None:
        body["allowedCudaVersions"] = list(fields["allowed_cuda_versions"])
    if fields.get("min_cuda_version"):
        body["minCudaVersion"] = fields["min_cuda_version"]
    simple = (
        ("name", "name", str),
        ("template_id", "templateId", str),
        ("gpu_count", "gpuCount", int),
        ("workers_min", "workersMin", int),
        ("workers_max", "workersMax", int),
        ("idle_timeout", "idleTimeout", int),
        ("execution_timeout_ms", "executionTimeoutMs", int),
        ("network_volume_id", "networkVolumeId", str),
        ("flashboot", "flashboot", bool),
    )
    for key, api_key, convert in simple:
        if fields.get(key) is not None:
            body[api_key] = convert(fields[key])
    if fields.get("gpu_type_ids"):
        body["gpuTypeIds"] = list(fields["gpu_type_ids"])
    if fields.get("scaler_type"):
        body["scalerType"] = fields["scaler_type"].upper()
    if fields.get("scaler_value") is not None:
        body["scalerValue"] = int(fields["scaler_value"])
    if fields.get("data_center_ids"):
        body["dataCenterIds"] = list(fields["data_center_ids"])
    return body


def template_body(fields, creating):
    if not creating:
        # isServerless is a create-time choice on v1 (TemplateUpdateInput has no such key).
        fields = {key: value for key, value in fields.items() if key != "serverless"}
    return build_template_body("v1", fields, creating)


class BackendV1(Backend):
    api_version = "v1"
    endpoints_path = "endpoints"
    pod_create_body = staticmethod(pod_create_body)
    pod_update_body = staticmethod(pod_update_body)
    endpoint_body = staticmethod(endpoint_body)
    template_body = staticmethod(template_body)

    def __init__(self, client, options):
        super().__init__(client, options)
        # Why the last GraphQL runtime read failed (None when it succeeded or was not needed).
        self.runtime_error = None

    # -- pods --------------------------------------------------------------------------------------

    def _runtime_entries(self, raw_pods):
        """One bulk GraphQL read when a pod is RUNNING: ``{id: entry}``; None when not made or failed."""
        if not any(upper(raw.get("desiredStatus")) == "RUNNING" for raw in raw_pods):
            return None
        timeout = min(float(self.request_timeout), GRAPHQL_TIMEOUT_CAP)
        try:
            data = self.client.graphql(self.graphql_url, RUNTIME_QUERY, timeout=timeout)
        except RunPodError as error:
            if error.status in (401, 403):
                # The key was refused: no later read can succeed, so this is no degraded read but the end.
                code = "unauthorized" if error.status == 401 else "forbidden"
                raise RunPodError(code, error.status, f"the API key was refused by GraphQL: {error.message}") from None
            self.runtime_error = error.message
            return None
        myself = data.get("myself")
        if not isinstance(myself, dict) or not isinstance(myself.get("pods"), list):
            self.runtime_error = "graphql error: no pods for this api key (myself is null)"
            return None
        self.runtime_error = None
        return {
            entry["id"]: entry
            for entry in myself["pods"]
            if isinstance(entry, dict) and isinstance(entry.get("id"), str)
        }

    def _views(self, raw_pods, runtime):
        self.runtime_error = None
        entries = self._runtime_entries(raw_pods) if runtime else None
        entries = entries or {}
        return [POD.read("v1", raw, graphql=entries.get(raw["id"])) for raw in raw_pods]

    def _list_raw(self, params=None, attempts=None):
        # includeMachine: the data center, GPU type and cloud of a pod are only in its machine block.
        params = {**(params or {}), "includeMachine": "true"}
        payload = self.client.request("GET", "pods", params=params, attempts=attempts)
        raw_pods = pick_list(payload, "pods", "pod")
        for raw in raw_pods:
            require_id(raw, "pod")
        return raw_pods

    def list_pods(self, runtime=True, attempts=None, select=None):
        raw_pods = self._list_raw(attempts=attempts)
        if select is not None:
            # Before the runtime read, so GraphQL is asked only when a *selected* pod is RUNNING.
            raw_pods = [raw for raw in raw_pods if select(raw.get("id"), raw.get("name"))]
        return self._views(raw_pods, runtime)

    def get_pod(self, pod_id, attempts=None, runtime=True):
        raw = self.client.request(
            "GET", f"pods/{quote_id(pod_id)}", params={"includeMachine": "true"}, attempts=attempts
        )
        require_id(raw, "pod")
        return self._views([raw], runtime)[0]

    def find_pods(self, name, attempts=None):
        # v1 filters by name server-side; names repeat, so the caller still checks for ambiguity.
        raw_pods = [raw for raw in self._list_raw({"name": name}, attempts) if raw.get("name") == name]
        raw_pods = [raw for raw in raw_pods if upper(raw.get("desiredStatus")) != "TERMINATED"]
        return self._views(raw_pods, True)

    def _action(self, pod_id, action):
        payload = self.client.request("POST", f"pods/{quote_id(pod_id)}/{action}")
        return self.view_pod(payload) if isinstance(payload, dict) and payload.get("id") else None
