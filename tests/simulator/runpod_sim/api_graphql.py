# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""GraphQL (``POST /graphql``) executed by graphql-core against a subset of RunPod's schema.

Field names follow RunPod's schema, so a query that selects a field the real schema lacks fails validation
(HTTP 400 ``GRAPHQL_VALIDATION_FAILED``, as RunPod's Apollo server answers). The key is accepted as a Bearer
header or ``?api_key=``.
"""

from __future__ import annotations

import functools
import time
from typing import Any

from graphql import GraphQLError, build_schema, graphql_sync, parse, validate

from . import catalog, views
from .app import NO_CAPACITY, ApiError, Ctx, Reply, Sim
from .store import ERROR, EXITED, Pod, Store, new_id

# The inputs both deploy mutations take (RunPod's PodFindAndDeployOnDemandInput / PodRentInterruptableInput).
_DEPLOY_FIELDS = """
  name: String
  imageName: String
  templateId: String
  cloudType: CloudTypeEnum
  gpuTypeId: String
  gpuCount: Int
  dataCenterId: String
  countryCode: String
  containerDiskInGb: Int
  volumeInGb: Int
  volumeMountPath: String
  networkVolumeId: String
  dockerArgs: String
  ports: String
  env: [EnvironmentVariableInput]
  startSsh: Boolean
  startJupyter: Boolean
  supportPublicIp: Boolean
  minVcpuCount: Int
  minMemoryInGb: Int
  minDisk: Int
  minDownload: Int
  minUpload: Int
  cudaVersion: String
  allowedCudaVersions: [String]
  containerRegistryAuthId: String
"""

SCHEMA_SDL = (
    """
scalar Void

type Query {
  myself: User
  pod(input: PodFilter): Pod
  gpuTypes(input: GpuTypeFilter): [GpuType]
}

type Mutation {
  podFindAndDeployOnDemand(input: PodFindAndDeployOnDemandInput): Pod
  podRentInterruptable(input: PodRentInterruptableInput!): Pod
  podStop(input: PodStopInput!): Pod
  podResume(input: PodResumeInput!): Pod
  podBidResume(input: PodBidResumeInput!): Pod
  podTerminate(input: PodTerminateInput): Void
  updateUserSettings(input: UpdateUserSettingsInput): User
}

input PodFilter { podId: String! }
input PodStopInput { podId: String!, incrementVersion: Boolean }
input PodResumeInput { podId: String!, gpuCount: Int }
input PodBidResumeInput { podId: String!, bidPerGpu: Float!, gpuCount: Int }
input PodTerminateInput { podId: String! }
input UpdateUserSettingsInput { pubKey: String }
input GpuTypeFilter { id: String, ids: [String] }
input EnvironmentVariableInput { key: String!, value: String }

input PodFindAndDeployOnDemandInput {"""
    + _DEPLOY_FIELDS
    + """  gpuTypeIdList: [String]
}

input PodRentInterruptableInput {
  bidPerGpu: Float!"""
    + _DEPLOY_FIELDS
    + """}

input GpuLowestPriceInput {
  gpuCount: Int
  secureCloud: Boolean
  dataCenterId: String
  countryCode: String
  minMemoryInGb: Int
  minVcpuCount: Int
  minDisk: Int
  minDownload: Int
  minUpload: Int
  totalDisk: Int
  supportPublicIp: Boolean
  cudaVersion: String
  allowedCudaVersions: [String]
  includeAiApi: Boolean
}

enum CloudTypeEnum { ALL SECURE COMMUNITY }
enum ComputeType { CPU GPU }
enum PodType { INTERRUPTABLE RESERVED BID BACKGROUND }
enum PodStatus { CREATED RUNNING RESTARTING EXITED PAUSED DEAD TERMINATED }

type User {
  id: String
  email: String
  pubKey: String
  pods: [Pod]
  endpoints: [Endpoint]
  networkVolumes: [NetworkVolume]
}

type NetworkVolume {
  id: String
  name: String
  size: Int
  dataCenterId: String
}

type EnvironmentVariable {
  key: String
  value: String
}

type Endpoint {
  id: String
  name: String
  type: String
  computeType: ComputeType
  userId: String
  templateId: String
  gpuIds: String
  gpuCount: Int
  allowedCudaVersions: String
  idleTimeout: Int
  scalerType: String
  scalerValue: Int
  workersMin: Int
  workersMax: Int
  workersStandby: Int
  executionTimeoutMs: Int
  locations: String
  networkVolumeId: String
  networkVolume: NetworkVolume
  env: [EnvironmentVariable]
  version: Int
  aiKey: String
  createdAt: String
}

type GpuType {
  id: String
  displayName: String
  manufacturer: String
  memoryInGb: Int
  cudaCores: Int
  maxGpuCount: Int
  maxGpuCountSecureCloud: Int
  maxGpuCountCommunityCloud: Int
  secureCloud: Boolean
  communityCloud: Boolean
  securePrice: Float
  communityPrice: Float
  secureSpotPrice: Float
  communitySpotPrice: Float
  oneWeekPrice: Float
  oneMonthPrice: Float
  threeMonthPrice: Float
  sixMonthPrice: Float
  lowestPrice(input: GpuLowestPriceInput): LowestPrice
}

type LowestPrice {
  gpuName: String
  gpuTypeId: String
  minimumBidPrice: Float
  uninterruptablePrice: Float
  stockStatus: String
}

type Pod {
  id: String!
  name: String
  desiredStatus: PodStatus
  lastStatusChange: String
  imageName: String
  costPerHr: Float
  adjustedCostPerHr: Float
  gpuCount: Int
  vcpuCount: Float
  memoryInGb: Float
  containerDiskInGb: Int
  volumeInGb: Float
  volumeMountPath: String
  dockerArgs: String
  dockerId: String
  env: [String]
  port: Int
  ports: String
  uptimeSeconds: Int
  podType: PodType
  machineId: String
  consumerUserId: String
  containerRegistryAuthId: String
  networkVolumeId: String
  cpuFlavorId: String
  templateId: String
  locked: Boolean
  lastStartedAt: String
  createdAt: String
  machine: PodMachineInfo
  runtime: PodRuntime
}

type PodMachineInfo {
  id: String
  gpuDisplayName: String
  gpuTypeId: String
  location: String
  dataCenterId: String
  podHostId: String
  secureCloud: Boolean
  supportPublicIp: Boolean
}

type PodRuntime {
  uptimeInSeconds: Int
  ports: [PodRuntimePorts]
  gpus: [PodRuntimeGpus]
  container: PodRuntimeContainer
}

type PodRuntimePorts {
  ip: String
  isIpPublic: Boolean
  privatePort: Int
  publicPort: Int
  type: String
}

type PodRuntimeGpus {
  id: String
  gpuUtilPercent: Int
  memoryUtilPercent: Int
}

type PodRuntimeContainer {
  cpuPercent: Int
  memoryPercent: Int
}
"""
)


@functools.lru_cache(maxsize=1)
def schema() -> Any:
    return build_schema(SCHEMA_SDL)


def register(sim: Sim) -> None:
    sim.route("POST", "/graphql", execute)


def _root(sim: Sim) -> dict[str, Any]:
    store = sim.store

    def myself(info: Any) -> dict[str, Any]:
        # Only built when selected; terminated pods are filtered as RunPod's `terminatedAt: null` does.
        return {
            "id": views.USER_ID,
            "email": "sim@example.invalid",
            # The account's SSH keys, one per line: the same list REST v2 serves at /v2/account/ssh-keys.
            "pubKey": "\n".join(store.account_ssh_keys),
            "pods": lambda info: [views.pod_graphql(store, pod) for pod in store.live_pods()],
            "endpoints": lambda info: [views.endpoint_graphql(store, ep) for ep in store.endpoints.values()],
            "networkVolumes": lambda info: [views.network_volume_graphql(v) for v in store.network_volumes.values()],
        }

    def pod(info: Any, input: dict[str, Any] | None = None) -> dict[str, Any] | None:
        found = store.get_pod((input or {}).get("podId", ""))
        if found is None or found.terminated_at is not None:
            return None
        return views.pod_graphql(store, found)

    def gpu_types(info: Any, input: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        wanted = input or {}
        ids = set(wanted.get("ids") or []) | ({wanted["id"]} if wanted.get("id") else set())
        return [views.gpu_type_graphql(store, gpu) for gpu in catalog.GPU_TYPES.values() if not ids or gpu.id in ids]

    def deploy_on_demand(info: Any, input: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.pod_graphql(store, _deploy(store, input or {}, bid=None))

    def rent_interruptable(info: Any, input: dict[str, Any]) -> dict[str, Any]:
        return views.pod_graphql(store, _deploy(store, input, bid=input["bidPerGpu"]))

    def pod_stop(info: Any, input: dict[str, Any]) -> dict[str, Any]:
        found = _live(store, input["podId"])
        if found.status in (EXITED, ERROR):
            raise GraphQLError("Pod is not running")
        if found.locked:
            raise GraphQLError("Pod is locked")
        store.stop(found, "Exited by user")
        return views.pod_graphql(store, found)

    def pod_resume(info: Any, input: dict[str, Any]) -> dict[str, Any]:
        found = _stopped(store, input["podId"])
        if found.interruptible:
            raise GraphQLError("Cannot resume a spot pod as an on demand pod")
        _resume(store, found, input.get("gpuCount"))
        return views.pod_graphql(store, found)

    def pod_bid_resume(info: Any, input: dict[str, Any]) -> dict[str, Any]:
        found = _stopped(store, input["podId"])
        if not found.interruptible:
            raise GraphQLError("Cannot resume an on demand pod as a spot pod")
        _check_bid(found.gpu_type, input["bidPerGpu"])
        _resume(store, found, input.get("gpuCount"))
        found.bid_per_gpu = input["bidPerGpu"]
        return views.pod_graphql(store, found)

    def pod_terminate(info: Any, input: dict[str, Any] | None = None) -> None:
        store.terminate(_live(store, (input or {}).get("podId", "")), "user")

    def update_user_settings(info: Any, input: dict[str, Any] | None = None) -> dict[str, Any]:
        pub_key = (input or {}).get("pubKey")
        if pub_key is not None:
            store.account_ssh_keys[:] = [line.strip() for line in pub_key.splitlines() if line.strip()]
        return myself(info)

    return {
        "myself": myself,
        "pod": pod,
        "gpuTypes": gpu_types,
        "podFindAndDeployOnDemand": deploy_on_demand,
        "podRentInterruptable": rent_interruptable,
        "podStop": pod_stop,
        "podResume": pod_resume,
        "podBidResume": pod_bid_resume,
        "podTerminate": pod_terminate,
        "updateUserSettings": update_user_settings,
    }


def _live(store: Store, pod_id: str) -> Pod:
    found = store.get_pod(pod_id)
    if found is None or found.terminated_at is not None:
        raise GraphQLError("Pod not found")
    return found


def _stopped(store: Store, pod_id: str) -> Pod:
    found = _live(store, pod_id)
    if found.status not in (EXITED, ERROR):
        raise GraphQLError("Pod is already running")
    return found


def _resume(store: Store, pod: Pod, gpu_count: int | None) -> None:
    """Start a stopped pod on its host, optionally with another GPU count; refused when the host lacks GPUs."""
    _check_balance(store)
    previous = pod.gpu_count
    if pod.is_gpu and gpu_count is not None:
        pod.gpu_count = gpu_count
    if pod.is_gpu and not (1 <= pod.gpu_count <= catalog.max_count(pod.gpu_type) and store.can_resume(pod)):
        pod.gpu_count = previous
        raise GraphQLError("There are not enough free GPUs on the host machine to start this pod.")
    store.start(pod)


def _check_balance(store: Store) -> None:
    if store.config.balance <= 0:
        raise GraphQLError("Insufficient balance: add funds to deploy or start a pod")


def _check_bid(gpu_type: str | None, bid: float) -> None:
    gpu = catalog.GPU_TYPES.get(gpu_type or "")
    if gpu is not None and bid < gpu.spot_price:
        raise GraphQLError(f"Your bid of ${bid}/hr per GPU is below the minimum bid price of ${gpu.spot_price}/hr")


def _deploy(store: Store, spec: dict[str, Any], *, bid: float | None) -> Pod:
    """Create a GPU pod from a deploy mutation's input; every check runs before anything is created."""
    template = None
    if spec.get("templateId"):
        template = store.templates.get(spec["templateId"])
        if template is None or template.serverless:
            raise GraphQLError(f"Template {spec['templateId']} not found or not a pod template")
    image = spec.get("imageName") or (template.image if template else "")
    if not image:
        raise GraphQLError("imageName is required when no templateId is given")
    count = spec.get("gpuCount") or 1
    cloud = spec.get("cloudType") or "ALL"
    data_center_id = spec.get("dataCenterId")
    if spec.get("networkVolumeId"):
        # A network volume lives in one data center: the pod goes there.
        volume = store.network_volumes.get(spec["networkVolumeId"])
        if volume is None:
            raise GraphQLError(f"Network volume {spec['networkVolumeId']} not found")
        if data_center_id not in (None, volume.data_center):
            raise GraphQLError(f"Network volume {volume.id} is in {volume.data_center}, not in {data_center_id}")
        data_center_id = volume.data_center
    candidates = [spec["gpuTypeId"]] if spec.get("gpuTypeId") else list(spec.get("gpuTypeIdList") or [])
    if not candidates:
        raise GraphQLError("gpuTypeId is required")
    denied = [gpu_type for gpu_type in candidates if gpu_type in store.config.restricted_gpu_types]
    if denied and len(denied) == len(candidates):
        raise GraphQLError(f"access denied: your account cannot deploy {denied[0]}")
    candidates = [gpu_type for gpu_type in candidates if gpu_type not in denied]
    _check_balance(store)
    placed = None
    for gpu_type in candidates:
        data_center = catalog.place(
            store,
            gpu_type,
            count=count,
            secure={"ALL": None, "SECURE": True, "COMMUNITY": False}[cloud],
            data_center_id=data_center_id,
            country_code=spec.get("countryCode"),
            min_cuda=spec.get("cudaVersion"),
            allowed_cuda=spec.get("allowedCudaVersions"),
        )
        if data_center is not None:
            placed = (gpu_type, data_center)
            break
    if placed is None:
        raise GraphQLError(f"{NO_CAPACITY}. Please refresh and try again.")
    gpu_type, data_center = placed
    if bid is not None:
        _check_bid(gpu_type, bid)
    env = dict(template.env) if template else {}
    env.update({item["key"]: item.get("value") or "" for item in spec.get("env") or []})
    # As on REST v2: startSsh hands the account's keys to the container, startJupyter a password.
    if spec.get("startSsh") and "PUBLIC_KEY" not in env and store.account_ssh_keys:
        env["PUBLIC_KEY"] = "\n".join(store.account_ssh_keys)
    if spec.get("startJupyter") and "JUPYTER_PASSWORD" not in env:
        env["JUPYTER_PASSWORD"] = new_id(16)
    ports = spec.get("ports")
    port_list = [p.strip() for p in ports.split(",") if p.strip()] if ports is not None else None
    if port_list is None:
        port_list = list(template.ports) if template else []
    docker_args = spec.get("dockerArgs")
    if docker_args is None:
        docker_args = template.args if template else ""
    volume_gb = spec.get("volumeInGb")
    pod = Pod(
        id=new_id(),
        name=spec.get("name") or "",
        image=image,
        created_at=time.time(),
        gpu_type=gpu_type,
        gpu_count=count,
        args=docker_args,
        docker_start_cmd=docker_args.split() if docker_args else [],
        disk_gb=spec.get("containerDiskInGb") or (template.disk_gb if template else 50),
        volume_gb=volume_gb if volume_gb is not None else (template.volume_gb if template else 0),
        volume_mount_path=spec.get("volumeMountPath") or (template.volume_mount_path if template else "/workspace"),
        network_volume_id=spec.get("networkVolumeId"),
        ports=port_list,
        env=env,
        registry=spec.get("containerRegistryAuthId") or (template.registry if template else None),
        cloud="COMMUNITY" if cloud == "COMMUNITY" else "SECURE",
        template_id=template.id if template else None,
        interruptible=bid is not None,
        bid_per_gpu=bid,
        data_center_preferences=[data_center],
        placed_data_center=data_center,
    )
    return store.add_pod(pod, placed=True)


async def execute(sim: Sim, ctx: Ctx) -> Reply:
    body = await ctx.json(default=None)
    if not isinstance(body, dict) or not isinstance(body.get("query"), str):
        raise ApiError(400, "POST body must be JSON with a 'query' string")
    variables = body.get("variables")
    if variables is not None and not isinstance(variables, dict):
        raise ApiError(400, "'variables' must be an object")
    try:
        document = parse(body["query"])
    except GraphQLError as exc:
        return Reply(400, {"errors": [{"message": exc.message, "extensions": {"code": "GRAPHQL_PARSE_FAILED"}}]})
    errors = validate(schema(), document)
    if errors:
        return Reply(
            400,
            {
                "errors": [
                    {"message": error.message, "extensions": {"code": "GRAPHQL_VALIDATION_FAILED"}} for error in errors
                ]
            },
        )
    # graphql_sync resolves the callables in the root value lazily, only for selected fields.
    result = graphql_sync(
        schema(),
        body["query"],
        root_value=_root(sim),
        variable_values=variables,
        operation_name=body.get("operationName"),
    )
    payload: dict[str, Any] = {"data": result.data}
    if result.errors:
        payload["errors"] = [{"message": error.message, "path": error.path} for error in result.errors]
    return Reply(200, payload)
