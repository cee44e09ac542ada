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

import shlex

from ansible_collections.runpod.cloud.plugins.module_utils._backend import (
    Backend,
    as_dict,
    as_float,
    as_int,
    as_list,
    as_str,
    build_template_body,
    env_dict,
    pick_list,
    port_list,
    quote_id,
    require_id,
)
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._models import (
    EndpointView,
    PodView,
    PortMapping,
    TemplateView,
)

GRAPHQL_TIMEOUT_CAP = 5.0
RUNTIME_QUERY = (
    "query RunpodCloudPodRuntimes { myself { pods { id desiredStatus lastStatusChange "
    "runtime { uptimeInSeconds ports { ip isIpPublic privatePort publicPort type } } } } }"
)


def _upper(value):
    return (as_str(value) or "").upper()


def docker_args_from_v1(payload):
    """One command string from ``dockerEntrypoint`` + ``dockerStartCmd`` (REST) or ``dockerArgs`` (GraphQL)."""
    parts = [str(item) for item in as_list(payload.get("dockerEntrypoint")) + as_list(payload.get("dockerStartCmd"))]
    if parts:
        return shlex.join(parts)
    return as_str(payload.get("dockerArgs"))


def graphql_port(entry):
    entry = as_dict(entry)
    private = as_int(entry.get("privatePort"))
    if private is None:
        return None
    public_flag = entry.get("isIpPublic")
    return PortMapping(
        private=private,
        public=as_int(entry.get("publicPort")),
        ip=as_str(entry.get("ip")),
        type=as_str(entry.get("type")),
        is_public=public_flag if isinstance(public_flag, bool) else None,
    )


def pod_from_v1(payload, runtime_entry=None):
    """Normalize a REST v1 Pod, merged with its GraphQL runtime entry when that read succeeded.

    ``runtime_entry`` is None when no GraphQL read was made, it failed, or the pod was not in it. Only fields of
    the v1 document's ``Pod`` are read (and ``imageName``, which live answers send instead of ``image``);
    ``machine`` is there because reads send ``includeMachine=true``. The document has no creation time, compute
    type, cloud or top-level data center: those stay unknown or are derived from ``machine``.
    """
    pod_id = require_id(payload, "pod")
    rest_status = _upper(payload.get("desiredStatus"))
    gpu = as_dict(payload.get("gpu"))
    machine = as_dict(payload.get("machine"))
    network_volume = as_dict(payload.get("networkVolume"))
    machine_gpu = as_str(machine.get("gpuTypeId"))
    gpu_type = as_str(gpu.get("id")) or (machine_gpu if machine_gpu and machine_gpu.lower() != "unknown" else None)
    compute_type = "CPU" if as_str(payload.get("cpuFlavorId")) and not gpu_type else "GPU"
    secure = machine.get("secureCloud")
    port_mappings = {}
    for private, public in as_dict(payload.get("portMappings")).items():
        public_port = as_int(public)
        if public_port is not None:
            port_mappings[str(private)] = public_port

    probed = runtime_entry is not None
    runtime_entry = as_dict(runtime_entry)
    runtime = runtime_entry.get("runtime")
    runtime_reported = probed and isinstance(runtime, dict) and bool(runtime)
    runtime = as_dict(runtime)
    # The GraphQL read is the fresher source of intent and last change (docs/dev/wait-and-status.md, section 6):
    # a pod that REST still lists as RUNNING but GraphQL shows EXITED derives as stopped. ``status`` keeps REST's.
    desired_status = _upper(runtime_entry.get("desiredStatus")) or rest_status
    last_status_change = as_str(runtime_entry.get("lastStatusChange")) or as_str(payload.get("lastStatusChange"))
    return PodView(
        id=pod_id,
        name=as_str(payload.get("name")) or "",
        api_version="v1",
        status=rest_status,
        desired_status=desired_status,
        actions=[],
        last_status_change=last_status_change,
        runtime_probed=probed,
        runtime_reported=runtime_reported,
        uptime_seconds=as_int(runtime.get("uptimeInSeconds")) if runtime_reported else None,
        image=as_str(payload.get("image")) or as_str(payload.get("imageName")),
        template_id=as_str(payload.get("templateId")),
        compute_type=compute_type,
        gpu_type=gpu_type if compute_type == "GPU" else None,
        gpu_count=(as_int(gpu.get("count")) or 0) if compute_type == "GPU" else 0,
        cpu_flavor=as_str(payload.get("cpuFlavorId")),
        vcpu_count=as_int(payload.get("vcpuCount")),
        cloud_type=None if not isinstance(secure, bool) else ("SECURE" if secure else "COMMUNITY"),
        cost_per_hr=as_float(payload.get("costPerHr")),
        data_center_id=as_str(machine.get("dataCenterId")),
        container_disk_gb=as_int(payload.get("containerDiskInGb")),
        volume_gb=as_int(payload.get("volumeInGb")) or None,
        volume_mount_path=as_str(payload.get("volumeMountPath")),
        network_volume_id=as_str(network_volume.get("id")),
        ports=port_list(payload.get("ports")),
        env=env_dict(payload.get("env")),
        docker_args=docker_args_from_v1(payload),
        registry_id=as_str(payload.get("containerRegistryAuthId")),
        interruptible=payload.get("interruptible") if isinstance(payload.get("interruptible"), bool) else None,
        public_ip=as_str(payload.get("publicIp")),
        port_mappings=port_mappings,
        runtime_ports=[port for port in map(graphql_port, as_list(runtime.get("ports"))) if port is not None],
        ssh_direct=None,
        ssh_proxy=None,
        created_at=None,
        started_at=as_str(payload.get("lastStartedAt")),
        locked=bool(payload.get("locked")),
    )


def endpoint_from_v1(payload):
    endpoint_id = require_id(payload, "endpoint")
    template = payload.get("template")
    flashboot = payload.get("flashboot")
    network_volumes = as_list(payload.get("networkVolumeIds"))
    return EndpointView(
        id=endpoint_id,
        name=as_str(payload.get("name")) or "",
        api_version="v1",
        template_id=as_str(payload.get("templateId")) or as_str(as_dict(template).get("id")),
        gpu_type_ids=[str(item) for item in as_list(payload.get("gpuTypeIds"))],
        gpu_pools=[],
        gpu_count=as_int(payload.get("gpuCount")),
        workers_min=as_int(payload.get("workersMin")),
        workers_max=as_int(payload.get("workersMax")),
        idle_timeout=as_int(payload.get("idleTimeout")),
        scaler_type=as_str(payload.get("scalerType")),
        scaler_value=as_float(payload.get("scalerValue")),
        flashboot=flashboot if isinstance(flashboot, bool) else None,
        network_volume_id=as_str(payload.get("networkVolumeId")) or as_str((network_volumes or [None])[0]),
        data_center_ids=[str(item) for item in as_list(payload.get("dataCenterIds"))],
        execution_timeout_ms=as_int(payload.get("executionTimeoutMs")),
        created_at=as_str(payload.get("createdAt")),
        allowed_cuda_versions=[str(item) for item in as_list(payload.get("allowedCudaVersions"))],
        min_cuda_version=as_str(payload.get("minCudaVersion")) or None,
    )


def template_from_v1(payload):
    template_id = require_id(payload, "template")
    return TemplateView(
        id=template_id,
        name=as_str(payload.get("name")) or "",
        image=as_str(payload.get("imageName")) or as_str(payload.get("image")),
        serverless=bool(payload.get("isServerless")),
        container_disk_gb=as_int(payload.get("containerDiskInGb")),
        env=env_dict(payload.get("env")),
        ports=port_list(payload.get("ports")),
        docker_args=docker_args_from_v1(payload),
        registry_id=as_str(payload.get("containerRegistryAuthId")),
    )


# -- request bodies (only PodCreateInput/PodUpdateInput/... keys: v1 rejects anything else) --------------


def _start_cmd(docker_args):
    return shlex.split(docker_args) if docker_args else []


def pod_create_body(spec, candidate, data_center_id=None):
    """The v1 create body on ``candidate``; REST v1 keeps its own list semantics: the spec's data centers
    go in every body (``data_center_id`` is not used; v1 candidates are never pinned)."""
    cpu = spec.compute_type.upper() == "CPU"
    body = {"name": spec.name, "computeType": "CPU" if cpu else "GPU"}
    if spec.image:
        body["imageName"] = spec.image
    if spec.template_id:
        body["templateId"] = spec.template_id
    if cpu:
        body["cpuFlavorIds"] = [candidate]
        if spec.vcpu_count:
            body["vcpuCount"] = int(spec.vcpu_count)
    else:
        body["gpuTypeIds"] = [candidate]
        body["gpuCount"] = int(spec.gpu_count or 1)
        if spec.allowed_cuda_versions:
            body["allowedCudaVersions"] = list(spec.allowed_cuda_versions)
    if spec.cloud_type:
        body["cloudType"] = spec.cloud_type.upper()
    if spec.container_disk_gb:
        body["containerDiskInGb"] = int(spec.container_disk_gb)
    if spec.network_volume_id:
        body["networkVolumeId"] = spec.network_volume_id
    if spec.volume_gb is not None:
        body["volumeInGb"] = int(spec.volume_gb)
    if spec.volume_mount_path:
        body["volumeMountPath"] = spec.volume_mount_path
    if spec.ports:
        body["ports"] = list(spec.ports)
    if spec.env:
        body["env"] = {str(key): str(value) for key, value in spec.env.items()}
    if spec.docker_args:
        body["dockerStartCmd"] = _start_cmd(spec.docker_args)
    if spec.registry_id:
        body["containerRegistryAuthId"] = spec.registry_id
    if spec.data_center_ids:
        body["dataCenterIds"] = list(spec.data_center_ids)
    if spec.support_public_ip is not None:
        body["supportPublicIp"] = bool(spec.support_public_ip)
    if spec.interruptible is not None:
        body["interruptible"] = bool(spec.interruptible)
    return body


POD_UPDATE_KEYS = {
    "name": "name",
    "image": "imageName",
    "docker_args": "dockerStartCmd",
    "container_disk_gb": "containerDiskInGb",
    "volume_gb": "volumeInGb",
    "volume_mount_path": "volumeMountPath",
    "ports": "ports",
    "env": "env",
    "locked": "locked",
    "registry_id": "containerRegistryAuthId",
}


def pod_update_body(changes):
    unknown = sorted(set(changes) - set(POD_UPDATE_KEYS))
    if unknown:
        raise ValueError(f"REST v1 cannot update pod field(s): {', '.join(unknown)}")
    body = {}
    for key, api_key in POD_UPDATE_KEYS.items():
        if key not in changes:
            continue
        value = changes[key]
        if key == "docker_args":
            value = _start_cmd(value)
        elif key in ("container_disk_gb", "volume_gb"):
            value = int(value)
        elif key == "env":
            value = {str(k): str(v) for k, v in (value or {}).items()}
        body[api_key] = value
    return body


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
    body = {}
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


TEMPLATE_KEYS = {
    "name": "name",
    "image": "imageName",
    "serverless": "isServerless",
    "container_disk_gb": "containerDiskInGb",
    "env": "env",
    "ports": "ports",
    "docker_args": "dockerStartCmd",
    "registry_id": "containerRegistryAuthId",
}


def template_body(fields, creating):
    if not creating:
        # isServerless is a create-time choice on v1 (TemplateUpdateInput has no such key).
        fields = {key: value for key, value in fields.items() if key != "serverless"}
    return build_template_body(fields, creating, TEMPLATE_KEYS, docker_args=_start_cmd)


class BackendV1(Backend):
    api_version = "v1"
    endpoints_path = "endpoints"
    view_pod = staticmethod(pod_from_v1)
    view_endpoint = staticmethod(endpoint_from_v1)
    view_template = staticmethod(template_from_v1)
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
        if not any(_upper(raw.get("desiredStatus")) == "RUNNING" for raw in raw_pods):
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
        return [pod_from_v1(raw, entries.get(raw["id"])) for raw in raw_pods]

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
        raw_pods = [raw for raw in raw_pods if _upper(raw.get("desiredStatus")) != "TERMINATED"]
        return self._views(raw_pods, True)

    def _action(self, pod_id, action):
        payload = self.client.request("POST", f"pods/{quote_id(pod_id)}/{action}")
        return pod_from_v1(payload) if isinstance(payload, dict) and payload.get("id") else None
