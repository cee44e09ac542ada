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
from typing import Any

from graphql import GraphQLError, build_schema, graphql_sync, parse, validate

from . import views
from .app import ApiError, Ctx, Reply, Sim

SCHEMA_SDL = """
type Query {
  myself: User
  pod(input: PodFilter): Pod
}

type Mutation {
  podStop(input: PodStopInput!): Pod
  podResume(input: PodResumeInput!): Pod
  podTerminate(input: PodTerminateInput): Boolean
}

input PodFilter { podId: String! }
input PodStopInput { podId: String!, incrementVersion: Boolean }
input PodResumeInput { podId: String!, gpuCount: Int }
input PodTerminateInput { podId: String! }

type User {
  id: String
  email: String
  pods: [Pod]
}

enum PodStatus { CREATED RUNNING RESTARTING EXITED PAUSED DEAD TERMINATED }

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
  env: [String]
  ports: String
  uptimeSeconds: Int
  podType: String
  machineId: String
  templateId: String
  locked: Boolean
  lastStartedAt: String
  createdAt: String
  machine: PodMachineInfo
  runtime: PodRuntime
}

type PodMachineInfo {
  gpuDisplayName: String
  gpuTypeId: String
  location: String
  dataCenterId: String
  podHostId: String
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
            "id": "user_sim",
            "email": "sim@example.invalid",
            "pods": lambda info: [views.pod_graphql(store, pod) for pod in store.live_pods()],
        }

    def pod(info: Any, input: dict[str, Any] | None = None) -> dict[str, Any] | None:
        found = store.get_pod((input or {}).get("podId", ""))
        if found is None or found.terminated_at is not None:
            return None
        return views.pod_graphql(store, found)

    def pod_stop(info: Any, input: dict[str, Any]) -> dict[str, Any]:
        found = _live(store, input["podId"])
        if found.status in ("EXITED", "ERROR"):
            raise GraphQLError("Pod is not running")
        store.stop(found, "Exited by user")
        return views.pod_graphql(store, found)

    def pod_resume(info: Any, input: dict[str, Any]) -> dict[str, Any]:
        found = _live(store, input["podId"])
        if found.status not in ("EXITED", "ERROR"):
            raise GraphQLError("Pod is already running")
        if found.gpu_type in store.config.out_of_stock_gpu_types:
            raise GraphQLError("There are not enough free GPUs on the host machine to start this pod.")
        store.start(found)
        return views.pod_graphql(store, found)

    def pod_terminate(info: Any, input: dict[str, Any] | None = None) -> bool:
        found = _live(store, (input or {}).get("podId", ""))
        store.terminate(found, "user")
        return True

    return {"myself": myself, "pod": pod, "podStop": pod_stop, "podResume": pod_resume, "podTerminate": pod_terminate}


def _live(store: Any, pod_id: str) -> Any:
    found = store.get_pod(pod_id)
    if found is None or found.terminated_at is not None:
        raise GraphQLError("Pod not found")
    return found


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
