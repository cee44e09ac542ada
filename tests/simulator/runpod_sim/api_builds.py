# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""GitHub builds of an endpoint (``/v2/serverless/{id}/builds[/{buildId}]``), driven by the admin API.

RunPod starts a build when a commit lands on a connected repository; nothing in REST v2 starts one, so here a test
adds builds (``POST /_sim/endpoints/{id}/builds``) and moves them through the document's states
(``POST /_sim/endpoints/{id}/builds/{buildId}``, ``{"status": ..., "error"?: ...}``): the live states PENDING,
BUILDING, UPLOADING, TESTING only forward, then one terminal state. COMPLETED makes a new release
(``source: GIT_BUILD``, ``buildId``) running the build's image, whose workers replace the old ones as a PATCH's
release does; FAILED and TEST_FAILED carry an ``error`` (a default one unless the test gives it), CANCELLED one
only if given. A terminal build does not move again (409).
"""

from __future__ import annotations

import time
from typing import Any

from . import paging
from .app import ApiError, Ctx, Reply, Sim
from .store import Endpoint, new_id, rfc3339

LIVE = ("PENDING", "BUILDING", "UPLOADING", "TESTING")
TERMINAL = ("COMPLETED", "FAILED", "CANCELLED", "TEST_FAILED")
DEFAULT_ERRORS = {"FAILED": "build failed: docker build exited with code 1", "TEST_FAILED": "tests failed"}
_FIELDS = ("commitHash", "commitMessage", "branch", "commitDate", "imageName")


def register(sim: Sim) -> None:
    sim.route("GET", "/v2/serverless/{endpoint_id}/builds", list_builds)
    sim.route("GET", "/v2/serverless/{endpoint_id}/builds/{build_id}", get_build)
    sim.route("POST", "/_sim/endpoints/{endpoint_id}/builds", admin_add_build, auth=False)
    sim.route("POST", "/_sim/endpoints/{endpoint_id}/builds/{build_id}", admin_move_build, auth=False)


def build_v2(build: dict[str, Any]) -> dict[str, Any]:
    body = {"id": build["id"], "status": build["status"]}
    body.update({key: build.get(key) for key in _FIELDS})
    body["startedAt"] = rfc3339(build.get("startedAt"))
    body["completedAt"] = rfc3339(build.get("completedAt"))
    body["error"] = build.get("error")
    return body


def _endpoint(sim: Sim, ctx: Ctx, *, admin: bool = False) -> Endpoint:
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None:
        raise ApiError(404, f"no endpoint {ctx.params['endpoint_id']}" if admin else "endpoint not found")
    return endpoint


def _build(endpoint: Endpoint, build_id: str, *, admin: bool = False) -> dict[str, Any]:
    build = next((build for build in endpoint.builds if build["id"] == build_id), None)
    if build is None:
        raise ApiError(404, f"no build {build_id}" if admin else "build not found")
    return build


async def list_builds(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = _endpoint(sim, ctx)
    chosen, pagination = paging.page(
        endpoint.builds,
        lambda build: (-build["seq"],),  # newest first
        ctx.query,
        operation="listEndpointBuilds",
        params={"id": endpoint.id},
        page_size=sim.store.config.page_size,
        default=paging.BUILDS_DEFAULT_LIMIT,
        most=paging.BUILDS_MAX_LIMIT,
    )
    return Reply(200, {"builds": [build_v2(build) for build in chosen], "pagination": pagination})


async def get_build(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, build_v2(_build(_endpoint(sim, ctx), ctx.params["build_id"])))


# -- admin ---------------------------------------------------------------------------------------------------------
async def _object(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json(default={})
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return body


async def admin_add_build(sim: Sim, ctx: Ctx) -> Reply:
    """``{"commitHash"?, "commitMessage"?, "branch"?, "commitDate"?, "imageName"?}``: a new PENDING build."""
    endpoint = _endpoint(sim, ctx, admin=True)
    body = await _object(ctx)
    unknown = set(body) - set(_FIELDS)
    if unknown or not all(isinstance(body[key], str) for key in body):
        raise ApiError(400, f"expected string fields among {', '.join(_FIELDS)}")
    commit = body.get("commitHash") or new_id(7)
    build = {
        "id": f"build_{new_id(10)}",
        "status": "PENDING",
        "commitHash": commit,
        "commitMessage": body.get("commitMessage", "a commit"),
        "branch": body.get("branch", "main"),
        "commitDate": body.get("commitDate", rfc3339(time.time())),
        "imageName": body.get("imageName", f"registry.runpod.net/{endpoint.id}:{commit}"),
        "startedAt": None,
        "completedAt": None,
        "error": None,
        "seq": sim.store.sequence(),
    }
    endpoint.builds.append(build)
    return Reply(201, build_v2(build))


async def admin_move_build(sim: Sim, ctx: Ctx) -> Reply:
    """``{"status": <a later state>, "error"?: text}``; COMPLETED releases the build's image."""
    endpoint = _endpoint(sim, ctx, admin=True)
    build = _build(endpoint, ctx.params["build_id"], admin=True)
    body = await _object(ctx)
    status, error = body.get("status"), body.get("error")
    if set(body) - {"status", "error"} or status not in LIVE + TERMINAL or not isinstance(error, (str, type(None))):
        raise ApiError(400, f"expected {{\"status\": one of {', '.join(LIVE + TERMINAL)}, \"error\"?: text}}")
    if build["status"] in TERMINAL:
        raise ApiError(409, f"build {build['id']} is {build['status']} already")
    if status in LIVE and LIVE.index(status) <= LIVE.index(build["status"]):
        raise ApiError(409, f"build {build['id']} cannot go from {build['status']} back to {status}")
    if error is not None and status not in ("FAILED", "TEST_FAILED", "CANCELLED"):
        raise ApiError(400, "only a FAILED, TEST_FAILED or CANCELLED build carries an error")
    now = time.time()
    if build["startedAt"] is None and status != "PENDING":
        build["startedAt"] = now
    build["status"] = status
    if status in TERMINAL:
        build["completedAt"] = now
        build["error"] = error if error is not None else DEFAULT_ERRORS.get(status)
    if status == "COMPLETED":
        _release(sim, endpoint, build)
    return Reply(200, build_v2(build))


def _release(sim: Sim, endpoint: Endpoint, build: dict[str, Any]) -> None:
    template = sim.store.templates.get(endpoint.template_id or "")
    old = template.image if template is not None else None
    if template is not None:
        template.image = build["imageName"]
    diff = [{"field": "image", "old": old, "new": build["imageName"]}]
    sim.store.new_release(endpoint, diff, source="GIT_BUILD", build_id=build["id"])
    sim.store.scale_workers(endpoint)
