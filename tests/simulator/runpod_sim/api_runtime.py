# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The serverless runtime API (``/invoke/v2/{endpoint_id}/...``) for queue endpoints, as runpod-api.md section 2
documents it: ``/run``, ``/runsync?wait=<ms>``, ``/status/{job}``, ``/stream/{job}``, ``/cancel/{job}``,
``/retry/{job}``, ``/purge-queue`` (``/health`` is in ``api_v2``), plus ``/status-sync/{job}?wait=<ms>``, which
runpod-sdk 1.1.2's ``runSync`` calls although the document does not list it. Jobs live in ``jobs.py``.

Admin: ``POST /_sim/endpoints/{id}/jobs`` sets the endpoint's job script (``jobs.validate_script``),
``GET /_sim/endpoints/{id}/jobs`` lists its jobs with their inputs, ``GET /_sim/jobs/{job_id}`` shows one.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .app import ApiError, Ctx, Reply, Sim
from .jobs import ACTIVE, FAILED, TERMINAL, TIMED_OUT, Job, ScriptError, admin_view, job_body, validate_script

BODY_KEYS = ("input", "webhook", "policy", "s3Config")
DEFAULT_WAIT_MS = 90000
MAX_WAIT_MS = 300000
# How often a held /runsync or /status-sync looks at its job again (real seconds).
HOLD_STEP = 0.01


def register(sim: Sim) -> None:
    base = "/invoke/v2/{endpoint_id}"
    sim.route("POST", f"{base}/run", run)
    sim.route("POST", f"{base}/runsync", runsync)
    sim.route("GET", f"{base}/status/{{job_id}}", status)
    sim.route("GET", f"{base}/status-sync/{{job_id}}", status_sync)
    sim.route("GET", f"{base}/stream/{{job_id}}", stream)
    sim.route("POST", f"{base}/cancel/{{job_id}}", cancel)
    sim.route("POST", f"{base}/retry/{{job_id}}", retry)
    sim.route("POST", f"{base}/purge-queue", purge_queue)
    sim.route("POST", "/_sim/endpoints/{endpoint_id}/jobs", admin_script, auth=False)
    sim.route("GET", "/_sim/endpoints/{endpoint_id}/jobs", admin_jobs, auth=False)
    sim.route("GET", "/_sim/jobs/{job_id}", admin_job, auth=False)


def _endpoint(sim: Sim, ctx: Ctx) -> Any:
    """The endpoint as the invoke service knows it: 404 during the propagation lag, after deletion, and for a
    load-balancer endpoint (it has no queue)."""
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None or sim.store.now() < endpoint.visible_at or endpoint.type != "QUEUE":
        raise ApiError(404, "endpoint not found")
    return endpoint


def _job(sim: Sim, ctx: Ctx) -> Job:
    endpoint = _endpoint(sim, ctx)
    job = sim.store.jobs.get(endpoint.id, ctx.params["job_id"])
    if job is None:
        raise ApiError(404, "job not found")
    return job


def _wait_ms(ctx: Ctx) -> int:
    raw = ctx.query.get("wait")
    if raw is None or raw == "":
        return DEFAULT_WAIT_MS
    try:
        wait = int(raw)
    except ValueError:
        raise ApiError(400, f"wait must be a whole number of milliseconds, got {raw!r}") from None
    if wait < 0:
        raise ApiError(400, "wait must not be negative")
    return min(wait, MAX_WAIT_MS)


def _non_negative_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


async def _request(ctx: Ctx) -> tuple[Any, dict[str, Any], str | None]:
    """``(input, policy, webhook)`` of a ``/run`` or ``/runsync`` body (runpod-api.md section 2)."""
    body = await ctx.json(default=None)
    if not isinstance(body, dict) or "input" not in body:
        raise ApiError(400, 'the request body must be a JSON object with an "input" key')
    if not isinstance(body["input"], dict):
        raise ApiError(400, "input must be a JSON object")
    unknown = sorted(set(body) - set(BODY_KEYS))
    if unknown:
        raise ApiError(400, f"unknown request keys: {', '.join(unknown)}")
    policy = body.get("policy") or {}
    if not isinstance(policy, dict):
        raise ApiError(400, "policy must be a JSON object")
    for key in ("executionTimeout", "ttl"):
        if key in policy and not _non_negative_int(policy[key]):
            raise ApiError(400, f"policy.{key} must be a whole number of milliseconds")
    if "lowPriority" in policy and not isinstance(policy["lowPriority"], bool):
        raise ApiError(400, "policy.lowPriority must be a boolean")
    webhook = body.get("webhook")
    if webhook is not None and not isinstance(webhook, str):
        raise ApiError(400, "webhook must be a URL string")
    return body["input"], policy, webhook


async def _hold(sim: Sim, job: Job, wait_ms: int) -> None:
    """Hold the request until ``job`` is terminal or ``wait_ms`` (simulated) have passed."""
    deadline = sim.store.now() + sim.store.scaled(wait_ms / 1000.0)
    while job.status not in TERMINAL and sim.store.now() < deadline:
        await asyncio.sleep(min(HOLD_STEP, max(0.0, deadline - sim.store.now())))
        sim.store.advance()


def _sync_body(sim: Sim, job: Job) -> dict[str, Any]:
    if job.status in TERMINAL:
        return job_body(sim.store.jobs, job)
    return {"id": job.id, "status": job.status}


async def run(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    job_input, policy, webhook = await _request(ctx)
    job = sim.store.jobs.submit(endpoint, job_input, policy, webhook)
    return Reply(200, {"id": job.id, "status": "IN_QUEUE"})


async def runsync(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    wait_ms = _wait_ms(ctx)
    job_input, policy, webhook = await _request(ctx)
    job = sim.store.jobs.submit(endpoint, job_input, policy, webhook, sync=True)
    await _hold(sim, job, wait_ms)
    return Reply(200, _sync_body(sim, job))


async def status(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, job_body(sim.store.jobs, _job(sim, ctx)))


async def status_sync(sim: Sim, ctx: Ctx) -> Reply:
    job = _job(sim, ctx)
    await _hold(sim, job, _wait_ms(ctx))
    return Reply(200, job_body(sim.store.jobs, job))


async def stream(sim: Sim, ctx: Ctx) -> Reply:
    """The chunks produced since the last ``/stream`` read of this job."""
    job = _job(sim, ctx)
    chunks = sim.store.jobs.stream_chunks(job)
    fresh = chunks[job.streamed:]
    job.streamed = max(job.streamed, len(chunks))
    return Reply(200, {"status": job.status, "stream": [{"output": chunk} for chunk in fresh]})


async def cancel(sim: Sim, ctx: Ctx) -> Reply:
    """An active job ends CANCELLED; a job already terminal keeps its status (the answer says which)."""
    job = _job(sim, ctx)
    sim.store.jobs.cancel(job)
    return Reply(200, {"id": job.id, "status": job.status})


async def retry(sim: Sim, ctx: Ctx) -> Reply:
    job = _job(sim, ctx)
    if job.status not in (FAILED, TIMED_OUT):
        raise ApiError(400, f"job {job.id} is {job.status}: only a FAILED or TIMED_OUT job can be retried")
    sim.store.jobs.retry(job)
    return Reply(200, {"id": job.id, "status": "IN_QUEUE"})


async def purge_queue(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    return Reply(200, {"removed": sim.store.jobs.purge(endpoint.id), "status": "completed"})


# -- admin -----------------------------------------------------------------------------------------------------
def _admin_endpoint(sim: Sim, ctx: Ctx) -> Any:
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None:
        raise ApiError(404, f"no endpoint {ctx.params['endpoint_id']}")
    return endpoint


async def admin_script(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _admin_endpoint(sim, ctx)
    try:
        body = await ctx.json(default={})
        sim.store.jobs.scripts[endpoint.id] = validate_script(body)
    except ScriptError as exc:
        raise ApiError(400, str(exc)) from None
    except ApiError as exc:
        raise ApiError(400, "bad JSON in the admin request body") from exc
    return Reply(200, {"endpoint_id": endpoint.id, "script": sim.store.jobs.scripts[endpoint.id]})


async def admin_jobs(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _admin_endpoint(sim, ctx)
    book = sim.store.jobs
    jobs = [admin_view(book, job) for job in book.jobs.values() if job.endpoint_id == endpoint.id]
    active = sum(1 for job in book.jobs.values() if job.endpoint_id == endpoint.id and job.status in ACTIVE)
    return Reply(200, {"jobs": jobs, "active": active, "script": book.scripts.get(endpoint.id, {})})


async def admin_job(sim: Sim, ctx: Ctx) -> Reply:
    job = sim.store.jobs.jobs.get(ctx.params["job_id"])
    if job is None:
        raise ApiError(404, f"no job {ctx.params['job_id']}")
    return Reply(200, admin_view(sim.store.jobs, job))
