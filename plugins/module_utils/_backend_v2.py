# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""REST v2 backend: pods, serverless endpoints and templates as normalized ``_models`` views."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils import _placement
from ansible_collections.runpod.cloud.plugins.module_utils._backend import (
    Backend,
    as_dict,
    as_float,
    as_int,
    as_list,
    as_str,
    build_template_body,
    env_dict,
    mounts_body,
    port_list,
    quote_id,
    require_id,
)
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._clusters import ClusterCalls
from ansible_collections.runpod.cloud.plugins.module_utils._models import (
    EndpointRelease,
    EndpointView,
    PodView,
    PortMapping,
    Rollout,
    SshAddress,
    TemplateView,
    Worker,
    WorkerSummary,
)

# v2 status -> legacy desiredStatus (docs/dev/wait-and-status.md, section 6).
V2_DESIRED_STATUS = {"PROVISIONING": "RUNNING", "STARTING": "RUNNING", "RUNNING": "RUNNING", "ERROR": "RUNNING"}
WORKER_STATES = ("running", "idle", "initializing", "throttled", "unhealthy")
FLASHBOOT_ON = "FLASHBOOT"
FLASHBOOT_OFF = "OFF"


def desired_status_from_v2(status):
    status = (status or "").strip().upper()
    return V2_DESIRED_STATUS.get(status, status)


def ssh_address(block):
    """``SshAddress`` from a v2 ``ssh.direct``/``ssh.proxy`` block; None when it is null or incomplete."""
    block = as_dict(block)
    host = as_str(block.get("host")) or as_str(block.get("ip"))
    port = as_int(block.get("port"))
    if not host or not port:
        return None
    user = as_str(block.get("username")) or as_str(block.get("user")) or "root"
    command = as_str(block.get("command")) or f"ssh {user}@{host} -p {port}"
    return SshAddress(host=host, port=port, user=user, command=command)


def runtime_port(entry):
    entry = as_dict(entry)
    private = as_int(entry.get("private", entry.get("privatePort")))
    if private is None:
        return None
    return PortMapping(
        private=private,
        public=as_int(entry.get("public", entry.get("publicPort"))),
        ip=as_str(entry.get("ip")),
        type=as_str(entry.get("type")),
        is_public=None,
    )


def docker_args_from_v2(payload):
    args = payload.get("args")
    if isinstance(args, str):
        return args.strip() or None
    # Field drift: later builds send cmd[]/entrypoint[] instead of the args string.
    parts = [str(item) for item in as_list(payload.get("entrypoint")) + as_list(payload.get("cmd"))]
    return " ".join(parts) or None


def pod_from_v2(payload):
    """Normalize one REST v2 Pod object."""
    pod_id = require_id(payload, "pod")
    status = (as_str(payload.get("status")) or "").upper()
    runtime = payload.get("runtime")
    runtime_reported = isinstance(runtime, dict) and bool(runtime)
    runtime = as_dict(runtime)
    ssh = as_dict(payload.get("ssh"))
    gpu = as_dict(payload.get("gpu"))
    cpu = as_dict(payload.get("cpu"))
    mounts = as_dict(payload.get("mounts"))
    persistent = as_dict(mounts.get("persistent"))
    network = as_dict((as_list(mounts.get("network")) or [None])[0])
    template = payload.get("template")
    cluster = as_dict(payload.get("cluster"))
    return PodView(
        id=pod_id,
        name=as_str(payload.get("name")) or "",
        api_version="v2",
        status=status,
        desired_status=desired_status_from_v2(status),
        actions=[str(action) for action in as_list(payload.get("actions"))],
        last_status_change=None,
        runtime_probed=True,
        runtime_reported=runtime_reported,
        uptime_seconds=as_int(runtime.get("uptime")) if runtime_reported else None,
        image=as_str(payload.get("image")),
        template_id=as_str(template if isinstance(template, str) else as_dict(template).get("id")),
        compute_type="CPU" if cpu and not gpu else "GPU",
        gpu_type=as_str(gpu.get("id")),
        gpu_count=as_int(gpu.get("count")) or 0,
        cpu_flavor=as_str(cpu.get("id")),
        vcpu_count=as_int(cpu.get("vcpuCount")),
        cloud_type=as_str(payload.get("cloud")),
        cost_per_hr=as_float(payload.get("cost")),
        data_center_id=as_str(payload.get("dataCenterId")),
        container_disk_gb=as_int(payload.get("disk")),
        volume_gb=as_int(persistent.get("size")),
        volume_mount_path=as_str(persistent.get("path")) or as_str(network.get("path")),
        network_volume_id=as_str(network.get("volumeId")),
        ports=port_list(payload.get("ports")),
        env=env_dict(payload.get("env")),
        docker_args=docker_args_from_v2(payload),
        registry_id=as_str(payload.get("registry")),
        interruptible=None,
        public_ip=None,
        port_mappings={},
        runtime_ports=[port for port in map(runtime_port, as_list(runtime.get("ports"))) if port is not None],
        ssh_direct=ssh_address(ssh.get("direct")),
        ssh_proxy=ssh_address(ssh.get("proxy")),
        created_at=as_str(payload.get("createdAt")),
        started_at=as_str(payload.get("startedAt")),
        locked=bool(payload.get("locked")),
        cluster_id=as_str(cluster.get("id")),
        cluster_rank=as_int(cluster.get("rank")),
        cluster_role=as_str(cluster.get("role")),
        cluster_ip=as_str(cluster.get("ip")),
    )


def endpoint_from_v2(payload):
    endpoint_id = require_id(payload, "endpoint")
    gpu = as_dict(payload.get("gpu"))
    workers = as_dict(payload.get("workers"))
    scaling = as_dict(payload.get("scaling"))
    scaler_type = as_str(scaling.get("type"))
    scaler_value = as_float(scaling.get("requestCount" if scaler_type == "REQUEST_COUNT" else "queueDelay"))
    flashboot = as_str(payload.get("flashboot"))
    cpu = as_list(payload.get("cpu"))
    return EndpointView(
        id=endpoint_id,
        name=as_str(payload.get("name")) or "",
        api_version="v2",
        # A v2 Endpoint keeps no template: templateId is applied once at create (or in a PATCH) and not stored.
        template_id=None,
        # v2 selects by pool; GPU type ids exist only on v1 endpoints.
        gpu_type_ids=[],
        gpu_pools=[str(item) for item in as_list(gpu.get("pools"))],
        gpu_count=as_int(gpu.get("count")),
        workers_min=as_int(workers.get("min")),
        workers_max=as_int(workers.get("max")),
        idle_timeout=as_int(workers.get("idleTimeout")),
        scaler_type=scaler_type,
        scaler_value=scaler_value,
        flashboot=None if flashboot is None else flashboot.upper() != FLASHBOOT_OFF,
        network_volume_id=as_str((as_list(payload.get("networkVolumes")) or [None])[0]),
        data_center_ids=[str(item) for item in as_list(payload.get("dataCenterIds"))],
        execution_timeout_ms=as_int(payload.get("timeout")),
        registry_id=as_str(payload.get("registry")),
        created_at=as_str(payload.get("createdAt")),
        type=as_str(payload.get("type")),
        image=as_str(payload.get("image")),
        docker_args=docker_args_from_v2(payload),
        container_disk_gb=as_int(payload.get("disk")),
        env=env_dict(payload.get("env")),
        ports=port_list(payload.get("ports")),
        cpu_flavor_ids=[as_str(as_dict(item).get("id")) for item in cpu if as_str(as_dict(item).get("id"))],
        vcpu_count=as_int(as_dict(cpu[0]).get("vcpuCount")) if cpu else None,
        allowed_cuda_versions=[str(item) for item in as_list(gpu.get("allowedCudaVersions"))],
        min_cuda_version=as_str(gpu.get("minCudaVersion")) or None,
    )


def template_from_v2(payload):
    template_id = require_id(payload, "template")
    return TemplateView(
        id=template_id,
        name=as_str(payload.get("name")) or "",
        image=as_str(payload.get("image")),
        serverless=bool(payload.get("serverless")),
        container_disk_gb=as_int(payload.get("disk")),
        env=env_dict(payload.get("env")),
        ports=port_list(payload.get("ports")),
        docker_args=docker_args_from_v2(payload),
        registry_id=as_str(payload.get("registry")),
    )


def workers_from_v2(payload):
    payload = as_dict(payload)
    workers = []
    for entry in as_list(payload.get("workers")):
        entry = as_dict(entry)
        if not as_str(entry.get("id")):
            continue
        workers.append(
            Worker(
                id=str(entry["id"]),
                status=(as_str(entry.get("status")) or "").upper(),
                is_stale=bool(entry.get("isStale")),
                version=as_int(entry.get("version")),
            )
        )
    summary = as_dict(payload.get("summary"))
    counts = {}
    for state in WORKER_STATES:
        counted = as_int(summary.get(state))
        counts[state] = counted if counted is not None else sum(1 for w in workers if w.status.lower() == state)
    total = as_int(summary.get("total"))
    return WorkerSummary(
        workers=workers,
        total=len(workers) if total is None else total,
        endpoint_version=as_int(payload.get("endpointVersion")),
        **counts,
    )


def release_from_v2(payload):
    """``EndpointRelease`` from ListEndpointReleasesResponse: the newest release and the rollout summary."""
    payload = as_dict(payload)
    rollout = as_dict(payload.get("rollout"))
    releases = [as_dict(entry) for entry in as_list(payload.get("releases"))]
    version = as_int(payload.get("endpointVersion"))
    current = next((entry for entry in releases if as_int(entry.get("version")) == version), None)
    current = current or (releases[0] if releases else {})
    return EndpointRelease(
        version=version if version is not None else as_int(current.get("version")),
        source=as_str(current.get("source")),
        id=as_str(current.get("id")),
        created_at=as_str(current.get("createdAt")),
        rollout=Rollout(
            in_progress=bool(rollout.get("inProgress")),
            workers_on_latest=as_int(rollout.get("workersOnLatest")) or 0,
            workers_total=as_int(rollout.get("workersTotal")) or 0,
            percent_on_latest=as_int(rollout.get("percentOnLatest")) or 0,
        ),
    )


# -- request bodies ---------------------------------------------------------------------------------


def pod_create_body(spec, candidate, data_center_id=None):
    """The CreatePodRequest for ``spec`` placed on ``candidate`` (a GPU type id or CPU flavor id), in
    ``data_center_id`` when the placement pinned one (else the spec's data centers, if any)."""
    body = {"name": spec.name}
    if spec.image:
        body["image"] = spec.image
    if spec.template_id:
        body["templateId"] = spec.template_id
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
    if spec.cloud_type:
        body["cloud"] = spec.cloud_type.upper()
    if spec.container_disk_gb:
        body["disk"] = int(spec.container_disk_gb)
    mounts = mounts_body(spec.volume_gb, spec.volume_mount_path, spec.network_volume_id)
    if mounts:
        body["mounts"] = mounts
    if spec.ports:
        body["ports"] = list(spec.ports)
    if spec.env:
        body["env"] = {str(key): str(value) for key, value in spec.env.items()}
    if spec.docker_args:
        body["args"] = spec.docker_args
    if spec.registry_id:
        body["registry"] = spec.registry_id
    if data_center_id:
        body["dataCenterIds"] = [data_center_id]
    elif spec.data_center_ids:
        body["dataCenterIds"] = list(spec.data_center_ids)
    body["startSsh"] = bool(spec.start_ssh)
    return body


# PodSpec-vocabulary keys accepted by update_pod, and their PATCH body names.
POD_UPDATE_KEYS = {
    "name": "name",
    "image": "image",
    "docker_args": "args",
    "container_disk_gb": "disk",
    "ports": "ports",
    "env": "env",
    "locked": "locked",
    "template_id": "templateId",
    "registry_id": "registry",
}
POD_MOUNT_KEYS = ("volume_gb", "volume_mount_path", "network_volume_id")


def pod_update_body(changes):
    body = {}
    unknown = sorted(set(changes) - set(POD_UPDATE_KEYS) - set(POD_MOUNT_KEYS))
    if unknown:
        raise ValueError(f"REST v2 cannot update pod field(s): {', '.join(unknown)}")
    for key, api_key in POD_UPDATE_KEYS.items():
        if key in changes:
            value = changes[key]
            if key == "container_disk_gb":
                value = int(value)
            elif key == "env":
                value = {str(k): str(v) for k, v in (value or {}).items()}
            elif key == "docker_args":
                value = value or ""
            body[api_key] = value
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


ENDPOINT_CONTAINER_KEYS = (
    ("image", "image", str),
    ("docker_args", "args", str),
    ("container_disk_gb", "disk", int),
    ("ports", "ports", list),
    ("env", "env", lambda env: {str(key): str(value) for key, value in env.items()}),
    ("registry_id", "registry", str),
)


def endpoint_gpu_body(fields, creating):
    gpu = {}
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
    body = {}
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
            "REST v2 endpoints select GPUs by pool: set gpu_pools (e.g. ADA_24, AMPERE_16); "
            "gpu_type_ids alone is only understood by api_version v1"
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
    for key, api_key, convert in ENDPOINT_CONTAINER_KEYS:
        if fields.get(key) is not None and (fields[key] != "" or not creating):
            body[api_key] = convert(fields[key])
    return body


TEMPLATE_KEYS = {
    "name": "name",
    "image": "image",
    "serverless": "serverless",
    "container_disk_gb": "disk",
    "env": "env",
    "ports": "ports",
    "docker_args": "args",
    "registry_id": "registry",
}


def template_body(fields, creating):
    return build_template_body(fields, creating, TEMPLATE_KEYS)


class BackendV2(ClusterCalls, Backend):
    api_version = "v2"
    endpoints_path = "serverless"
    view_pod = staticmethod(pod_from_v2)
    view_endpoint = staticmethod(endpoint_from_v2)
    view_template = staticmethod(template_from_v2)
    pod_create_body = staticmethod(pod_create_body)
    pod_update_body = staticmethod(pod_update_body)
    endpoint_body = staticmethod(endpoint_body)
    template_body = staticmethod(template_body)

    # -- pods --------------------------------------------------------------------------------------

    def pod_candidates(self, spec):
        """GPU types crossed with the spec's data centers (each pinned in its body); CPU flavors as given."""
        gpu = spec.compute_type.upper() != "CPU"
        return _placement.cross(spec.candidates(), spec.data_center_ids if gpu else None)

    def stock_reader(self, spec):
        if spec.compute_type.upper() == "CPU":
            return None
        return lambda: self.read_gpu_catalog(spec)

    def read_gpu_catalog(self, spec=None, *, cloud=None, count=None, attempts=1):
        """``GET /catalog/gpus`` with pod stock (``include=AVAILABILITY&product=POD``), scoped to the spec's
        (or the given) cloud, GPU count and CUDA constraints; one attempt by default (the catalog is a hint)."""
        params = {"include": "AVAILABILITY", "product": "POD"}
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
            pod_from_v2(entry)
            for entry in payload["pods"]
            if entry is not None and (select is None or select(entry.get("id"), entry.get("name")))
        ]

    def get_pod(self, pod_id, attempts=None):
        return pod_from_v2(self.client.request("GET", f"pods/{quote_id(pod_id)}", attempts=attempts))

    def _action(self, pod_id, action):
        payload = self.client.request("POST", f"pods/{quote_id(pod_id)}/action", json={"action": action})
        return pod_from_v2(payload) if isinstance(payload, dict) and payload.get("id") else None

    def endpoint_workers(self, endpoint_id, attempts=None):
        path = f"serverless/{quote_id(endpoint_id)}/workers"
        return workers_from_v2(self.client.request("GET", path, attempts=attempts))

    def endpoint_release(self, endpoint_id, attempts=None):
        path = f"serverless/{quote_id(endpoint_id)}/releases"
        return release_from_v2(self.client.request("GET", path, attempts=attempts))
