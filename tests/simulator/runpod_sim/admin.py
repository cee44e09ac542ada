# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The admin API under ``/_sim/`` (no API key): reset, config, faults, pod behaviour, out-of-band actions, seed, log.

Bad input answers 400 ``{"error": "<what is wrong>"}``; it never crashes the simulator.
"""

from __future__ import annotations

import re
import time
from typing import Any

from . import __version__, views
from .app import ApiError, Ctx, Reply, Sim
from .faults import validate_health_sequence
from .store import (
    DEFAULT_GPU_TYPE,
    EXITED,
    RUNNING,
    TERMINATED,
    ConfigError,
    Pod,
    apply_config,
    new_id,
    validate_pod_overrides,
)


def register(sim: Sim) -> None:
    for method, path, handler in (
        ("GET", "/_sim", info),
        ("GET", "/_sim/", info),
        ("POST", "/_sim/reset", reset),
        ("GET", "/_sim/config", get_config),
        ("PATCH", "/_sim/config", patch_config),
        ("POST", "/_sim/config", patch_config),
        ("GET", "/_sim/faults", list_faults),
        ("POST", "/_sim/faults", add_fault),
        ("DELETE", "/_sim/faults", clear_faults),
        ("DELETE", "/_sim/faults/{fault_id}", delete_fault),
        ("GET", "/_sim/requests", list_requests),
        ("GET", "/_sim/contract", list_contract_violations),
        ("DELETE", "/_sim/contract", clear_contract_violations),
        ("DELETE", "/_sim/requests", clear_requests),
        ("GET", "/_sim/pods", list_pod_states),
        ("GET", "/_sim/pods/{pod_id}", pod_state),
        ("DELETE", "/_sim/pods/{pod_id}", oob_delete),
        ("POST", "/_sim/pods/{pod_id}/behaviour", set_behaviour),
        ("POST", "/_sim/pods/{pod_id}/stop", oob_stop),
        ("POST", "/_sim/pods/{pod_id}/terminate", oob_terminate),
        ("POST", "/_sim/pods/{pod_id}/delete", oob_delete),
        ("POST", "/_sim/pods/{pod_id}/outbid", oob_outbid),
        ("POST", "/_sim/pods/{pod_id}/error", oob_error),
        ("POST", "/_sim/pods/{pod_id}/utilization", set_utilization),
        ("POST", "/_sim/pods/{pod_id}/age", age_pod),
        ("POST", "/_sim/seed", seed),
        ("POST", "/_sim/endpoints/{endpoint_id}/health-sequence", set_health_sequence),
        ("POST", "/_sim/endpoints/{endpoint_id}/workers", set_worker_statuses),
        ("POST", "/_sim/endpoints/{endpoint_id}/propagate", propagate_endpoint),
        ("POST", "/_sim/endpoints/{endpoint_id}/boot", boot_workers),
        ("POST", "/_sim/rate-limit/advance", advance_rate_limit),
    ):
        sim.route(method, path, _guard(handler), auth=False)


def _guard(handler: Any) -> Any:
    async def wrapped(sim: Sim, ctx: Ctx) -> Reply:
        try:
            return await handler(sim, ctx)
        except ConfigError as exc:
            raise ApiError(400, str(exc)) from None
        except ApiError as exc:
            if exc.status == 400 and exc.detail == "request body is not valid JSON":
                raise ApiError(400, "bad JSON in the admin request body") from None
            raise

    return wrapped


async def _object(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json(default={})
    if not isinstance(body, dict):
        raise ConfigError("the request body must be a JSON object")
    return body


def _pod(sim: Sim, ctx: Ctx) -> Pod:
    pod = sim.store.pods.get(ctx.params["pod_id"])
    if pod is None:
        raise ApiError(404, f"no pod {ctx.params['pod_id']}")
    return pod


async def info(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(
        200,
        {
            "simulator": "runpod_sim",
            "version": __version__,
            "urls": sim.urls(),
            "started_at": sim.started_at,
        },
    )


async def reset(sim: Sim, ctx: Ctx) -> Reply:
    """Everything back to the startup state: resources, listeners, faults, rate window, request log and config."""
    sim.store.reset()
    sim.faults.clear()
    sim.limiter.reset()
    sim.requests.clear()
    sim.contract_violations.clear()
    sim.logbook.reset()
    await sim.listeners.reconcile()
    return Reply(200, {"reset": True, "config": sim.store.config.to_dict()})


async def get_config(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, sim.store.config.to_dict())


async def patch_config(sim: Sim, ctx: Ctx) -> Reply:
    apply_config(sim.store.config, await _object(ctx))
    return Reply(200, sim.store.config.to_dict())


async def list_faults(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"faults": [rule.to_dict() for rule in sim.faults.rules]})


async def add_fault(sim: Sim, ctx: Ctx) -> Reply:
    spec = await _object(ctx)
    rule = sim.faults.add(spec)
    if rule.kind == "health_sequence":
        # Health sequences belong to the endpoint, not to a route.
        sim.faults.remove(rule.id)
        endpoint = sim.store.endpoints.get(rule.params["endpoint_id"])
        if endpoint is None:
            raise ApiError(404, f"no endpoint {rule.params['endpoint_id']}")
        endpoint.health_sequence = list(rule.params["sequence"])
    return Reply(201, rule.to_dict())


async def clear_faults(sim: Sim, ctx: Ctx) -> Reply:
    sim.faults.clear()
    return Reply(200, {"faults": []})


async def delete_fault(sim: Sim, ctx: Ctx) -> Reply:
    try:
        fault_id = int(ctx.params["fault_id"])
    except ValueError:
        raise ConfigError("fault id must be an integer") from None
    if not sim.faults.remove(fault_id):
        raise ApiError(404, f"no fault {fault_id}")
    return Reply(204)


async def list_requests(sim: Sim, ctx: Ctx) -> Reply:
    entries = sim.requests.entries
    since = ctx.query.get("since")
    if since is not None:
        try:
            since_seq = int(since)
        except ValueError:
            raise ConfigError("since must be an integer sequence number") from None
        entries = [entry for entry in entries if entry["seq"] > since_seq]
    method = ctx.query.get("method")
    if method:
        entries = [entry for entry in entries if entry["method"] == method.upper()]
    path = ctx.query.get("path")
    if path:
        try:
            pattern = re.compile(path)
        except re.error as exc:
            raise ConfigError(f"bad path pattern {path!r}: {exc}") from None
        entries = [entry for entry in entries if pattern.search(entry["path"])]
    return Reply(200, {"requests": entries})


async def list_contract_violations(sim: Sim, ctx: Ctx) -> Reply:
    """Responses served on /v2 that the OpenAPI document does not allow (see contract.py)."""
    return Reply(200, {"violations": list(sim.contract_violations)})


async def clear_contract_violations(sim: Sim, ctx: Ctx) -> Reply:
    sim.contract_violations.clear()
    return Reply(200, {"violations": []})


async def clear_requests(sim: Sim, ctx: Ctx) -> Reply:
    sim.requests.clear()
    return Reply(200, {"requests": []})


def _pod_state(sim: Sim, pod: Pod) -> dict[str, Any]:
    store = sim.store
    return {
        "id": pod.id,
        "name": pod.name,
        "status": pod.status,
        "last_status_change": pod.last_status_change,
        "terminated": pod.terminated_at is not None,
        "port_map": {str(k): v for k, v in pod.port_map.items()},
        "listeners": sim.listeners.port_state(pod.id),
        "ssh_behaviour": store.ssh_behaviour(pod),
        "overrides": dict(pod.overrides),
        # The env the container booted with: secrets resolved at its last boot (None before the first one).
        "boot_env": dict(pod.boot_env) if pod.boot_env is not None else None,
        "home": str(sim.listeners.home_dir(pod.id)),
        # The real sshd's host keys (none before its first start) and what it logs and lets in.
        **sim.listeners.host_key_state(pod.id),
        "ssh_host_key_log": store.pod_setting(pod, "ssh_host_key_log"),
        "ssh_login": store.pod_setting(pod, "ssh_login"),
    }


async def list_pod_states(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"pods": [_pod_state(sim, pod) for pod in sim.store.pods.values()]})


async def pod_state(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, _pod_state(sim, _pod(sim, ctx)))


async def set_behaviour(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    sim.store.set_overrides(pod, validate_pod_overrides(await _object(ctx)))
    await sim.listeners.reconcile()
    return Reply(200, _pod_state(sim, pod))


async def oob_stop(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    body = await _object(ctx)
    reason = str(body.get("reason") or "Exited by Runpod")
    if pod.status == TERMINATED:
        raise ApiError(409, "pod is terminated")
    sim.store.stop(pod, reason)
    await sim.listeners.reconcile()
    return Reply(200, _pod_state(sim, pod))


async def oob_error(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    if pod.status == TERMINATED:
        raise ApiError(409, "pod is terminated")
    sim.store.fail(pod)
    await sim.listeners.reconcile()
    return Reply(200, _pod_state(sim, pod))


async def oob_terminate(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    sim.store.terminate(pod, "Runpod")
    await sim.listeners.reconcile()
    return Reply(200, _pod_state(sim, pod))


async def oob_outbid(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    body = await _object(ctx)
    desired = body.get("desired_status", TERMINATED)
    if desired not in (EXITED, TERMINATED):
        raise ConfigError("desired_status must be EXITED or TERMINATED")
    sim.store.outbid(pod, desired)
    await sim.listeners.reconcile()
    return Reply(200, _pod_state(sim, pod))


def _percent(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
        raise ConfigError(f"{name} must be a percent from 0 to 100, got {value!r}")
    return value


async def set_utilization(sim: Sim, ctx: Ctx) -> Reply:
    """``{"gpus": [util, ...] or [{"util", "memoryUtil"}, ...], "cpu": n, "memory": n}``: what the pod's runtime
    reports from now on (a shorter GPU list repeats its last entry); kept in ``pod.utilization``."""
    pod = _pod(sim, ctx)
    body = await _object(ctx)
    unknown = set(body) - {"gpus", "cpu", "memory"}
    if unknown or not isinstance(body.get("gpus", []), list):
        raise ConfigError("utilization takes gpus (a list), cpu and memory")
    gpus = [entry if isinstance(entry, dict) else {"util": entry} for entry in body.get("gpus", [])]
    use = {key: _percent(key, body[key]) for key in ("cpu", "memory") if key in body}
    if "gpus" in body:
        use["gpus"] = [{"util": _percent("gpus[].util", gpu.get("util", 0)),
                        "memoryUtil": _percent("gpus[].memoryUtil", gpu.get("memoryUtil", 0))} for gpu in gpus]
    pod.utilization = {**pod.utilization, **use}
    sim.listeners.write_utilization(pod)
    return Reply(200, {"id": pod.id, "utilization": pod.utilization})


async def age_pod(sim: Sim, ctx: Ctx) -> Reply:
    """``{"seconds": s}``: the pod was created s seconds earlier than it was (its ``createdAt`` moves back), so a
    lease counted from it runs out without a test waiting for it."""
    pod = _pod(sim, ctx)
    seconds = (await _object(ctx)).get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise ConfigError("seconds must be a non-negative number")
    pod.created_at -= seconds
    return Reply(200, {"id": pod.id, "createdAt": pod.created_at})


async def oob_delete(sim: Sim, ctx: Ctx) -> Reply:
    pod = _pod(sim, ctx)
    sim.store.delete(pod)
    await sim.listeners.reconcile()
    return Reply(200, {"id": pod.id, "deleted": True})


async def seed(sim: Sim, ctx: Ctx) -> Reply:
    """Create N pods at once, RUNNING by default, for listing benchmarks and inventory tests."""
    body = await _object(ctx)
    unknown = set(body) - {"count", "status", "name_prefix", "ports", "gpu_type", "image", "env", "age_seconds"}
    if unknown:
        raise ConfigError(f"unknown seed key(s): {', '.join(sorted(unknown))}")
    count = body.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 20000:
        raise ConfigError("count must be an integer between 1 and 20000")
    status = body.get("status", RUNNING)
    if status not in (RUNNING, "PROVISIONING", EXITED):
        raise ConfigError("status must be RUNNING, PROVISIONING or EXITED")
    ports = body.get("ports", ["8888/http"])
    if not isinstance(ports, list):
        raise ConfigError('ports must be a list like ["8888/http", "22/tcp"]')
    prefix = str(body.get("name_prefix", "seed"))
    env = {str(key): str(value) for key, value in (body.get("env") or {}).items()}
    if "PUBLIC_KEY" not in env and sim.store.account_ssh_keys:
        # Seeded pods stand for pods this account created with startSsh: they carry its registered keys.
        env["PUBLIC_KEY"] = "\n".join(sim.store.account_ssh_keys)
    age = body.get("age_seconds", 0)
    if isinstance(age, bool) or not isinstance(age, (int, float)) or age < 0:
        raise ConfigError("age_seconds must be a non-negative number (how long ago the pods were created)")
    ids = []
    now = time.time() - age
    for index in range(count):
        pod = Pod(
            id=new_id(),
            name=f"{prefix}-{index:05d}",
            image=str(body.get("image", "runpod/pytorch:2.8.0-py3.11-cuda12.8.1-cudnn-devel-ubuntu22.04")),
            created_at=now,
            gpu_type=str(body.get("gpu_type", DEFAULT_GPU_TYPE)),
            ports=[str(port) for port in ports],
            env=dict(env),
        )
        sim.store.add_pod(pod, initial_status=RUNNING if status == RUNNING else "PROVISIONING")
        if status == EXITED:
            sim.store.stop(pod, "Exited by user")
        ids.append(pod.id)
    await sim.listeners.reconcile()
    return Reply(201, {"ids": ids})


def _endpoint(sim: Sim, ctx: Ctx) -> Any:
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None:
        raise ApiError(404, f"no endpoint {ctx.params['endpoint_id']}")
    return endpoint


async def set_health_sequence(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    body = await _object(ctx)
    endpoint.health_sequence = list(validate_health_sequence(body.get("sequence")))
    return Reply(200, {"id": endpoint.id, "sequence": endpoint.health_sequence})


async def set_worker_statuses(sim: Sim, ctx: Ctx) -> Reply:
    """Force worker statuses: {"statuses": ["IDLE", "UNHEALTHY", ...]} (one per worker, creating workers as needed)."""
    endpoint = _endpoint(sim, ctx)
    body = await _object(ctx)
    statuses = body.get("statuses")
    allowed = {"RUNNING", "IDLE", "INITIALIZING", "THROTTLED", "UNHEALTHY"}
    if not isinstance(statuses, list) or not all(status in allowed for status in statuses):
        raise ConfigError(f"statuses must be a list of worker statuses ({', '.join(sorted(allowed))})")
    saved_min = endpoint.workers_min
    endpoint.workers_min = len(statuses)
    sim.store.scale_workers(endpoint)
    endpoint.workers_min = saved_min
    for worker, status in zip(endpoint.workers, statuses, strict=False):
        worker.status_override = status
    return Reply(200, views.workers_v2(sim.store, endpoint))


async def propagate_endpoint(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    endpoint.visible_at = sim.store.now()
    return Reply(200, {"id": endpoint.id, "visible": True})


async def boot_workers(sim: Sim, ctx: Ctx) -> Reply:
    """End the boot (``worker_boot_delay``) of every allocated worker now; an old worker a booted replacement
    stands in for retires now too. A test steps the lifecycle instead of racing the scaled clock."""
    endpoint = _endpoint(sim, ctx)
    sim.store.boot_workers(endpoint)
    return Reply(200, views.workers_v2(sim.store, endpoint))


async def advance_rate_limit(sim: Sim, ctx: Ctx) -> Reply:
    """``{"seconds": s}``: the rate-limit windows' clock moves s real seconds ahead (reset puts it back)."""
    body = await _object(ctx)
    seconds = body.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise ConfigError("seconds must be a number of seconds, 0 or more")
    sim.limiter.advance(float(seconds))
    return Reply(200, {"advanced": float(seconds), "offset": sim.limiter.offset})
