# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Account secrets (``/v2/account/secrets``): write-only values pods reference as ``{{ RUNPOD_SECRET_<name> }}``.

What the autumn 2026 document says and this models: the value is never returned (``valueLastUpdatedAt`` says when
it last changed); names are unique (case-insensitively here, as ``?name=`` matches), immutable, follow
``^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$``, are at most 191 characters and do not start with ``RUNPOD``; a value is under
16 MiB of UTF-8 and a description at most 65,535 bytes; a clash answers 409; a PATCH needs one property and
applies the value, then the description, in two steps that are not atomic. The list is not paged.

A pod resolves the placeholders in its env when it boots (``Pod.boot_env``, set on RUNNING), so a running pod
keeps the value it booted with until its next start or restart; a serverless worker resolves them when it is
allocated (``Worker.boot_env``), so a rotation reaches the workers of the next release or scale-up. A placeholder
naming no secret stays as written.

Admin (no API key): ``GET /_sim/secrets/{id or name}`` shows the value (tests check a rotation);
``GET /_sim/endpoints/{id}/workers`` the allocated workers with their ``boot_env``;
``POST /_sim/secrets/faults`` ``{"description_step": {"count": n, "status": s}}`` makes the next n PATCHes that
carry a description fail at that step, after their value rotated (status default 500).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from .app import ApiError, Ctx, Reply, Sim
from .schemas import validate_v2
from .store import Store, new_id, rfc3339

VALUE_LIMIT = 16 * 1024 * 1024  # bytes; a value must be strictly smaller
DESCRIPTION_LIMIT = 65535  # bytes
RESERVED_PREFIX = "RUNPOD"
PLACEHOLDER = re.compile(r"\{\{\s*RUNPOD_SECRET_([A-Za-z0-9_.\-/]+)\s*\}\}")


@dataclass
class Secret:
    id: str
    name: str
    value: str
    description: str | None
    created_at: float
    value_updated_at: float


def secret_v2(secret: Secret) -> dict[str, Any]:
    """The document's ``Secret``: never the value."""
    return {
        "id": secret.id,
        "name": secret.name,
        "description": secret.description,
        "createdAt": rfc3339(secret.created_at),
        "valueLastUpdatedAt": rfc3339(secret.value_updated_at),
    }


def by_name(store: Store, name: str) -> Secret | None:
    folded = name.casefold()
    return next((secret for secret in store.secrets.values() if secret.name.casefold() == folded), None)


def resolve_env(store: Store, env: dict[str, str]) -> dict[str, str]:
    """``env`` as a booting container sees it: every ``{{ RUNPOD_SECRET_<name> }}`` replaced by that secret's
    current value (a name with no secret is left as written)."""

    def value(match: re.Match[str]) -> str:
        secret = by_name(store, match.group(1))
        return secret.value if secret is not None else match.group(0)

    return {key: PLACEHOLDER.sub(value, text) for key, text in env.items()}


def register(sim: Sim) -> None:
    sim.route("GET", "/v2/account/secrets", list_secrets)
    sim.route("POST", "/v2/account/secrets", create_secret)
    sim.route("GET", "/v2/account/secrets/{secret_id}", get_secret)
    sim.route("PATCH", "/v2/account/secrets/{secret_id}", update_secret)
    sim.route("DELETE", "/v2/account/secrets/{secret_id}", delete_secret)
    sim.route("GET", "/_sim/secrets", admin_list, auth=False)
    sim.route("GET", "/_sim/secrets/{secret_id}", admin_get, auth=False)
    sim.route("POST", "/_sim/secrets/faults", admin_faults, auth=False)
    sim.route("GET", "/_sim/endpoints/{endpoint_id}/workers", admin_workers, auth=False)


async def _body(ctx: Ctx, schema: str) -> dict[str, Any]:
    body = await ctx.json(default={})
    errors = validate_v2(schema, body)
    if isinstance(body, dict):
        # The document counts bytes of UTF-8 where its schema can only count characters.
        value, description = body.get("value"), body.get("description")
        if isinstance(value, str) and len(value.encode()) >= VALUE_LIMIT:
            errors.append("$.value: must be smaller than 16 MiB of UTF-8 text")
        if isinstance(description, str) and len(description.encode()) > DESCRIPTION_LIMIT:
            errors.append("$.description: must be at most 65535 bytes of UTF-8 text")
    if errors:
        raise ApiError(422, "Request validation failed.", sorted(dict.fromkeys(errors)))
    return body


def _secret(sim: Sim, ctx: Ctx) -> Secret:
    secret = sim.store.secrets.get(ctx.params["secret_id"])
    if secret is None:
        raise ApiError(404, "secret not found")
    return secret


async def list_secrets(sim: Sim, ctx: Ctx) -> Reply:
    name = ctx.query.get("name")
    found = list(sim.store.secrets.values())
    if name is not None:
        found = [secret for secret in found if secret.name.casefold() == name.casefold()]
    return Reply(200, {"secrets": [secret_v2(secret) for secret in found]})


async def get_secret(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, secret_v2(_secret(sim, ctx)))


async def create_secret(sim: Sim, ctx: Ctx) -> Reply:
    body = await _body(ctx, "CreateSecretRequest")
    name = body["name"]
    if name.upper().startswith(RESERVED_PREFIX):
        raise ApiError(400, f"secret name {name!r} uses the reserved prefix RUNPOD")
    if by_name(sim.store, name) is not None:
        raise ApiError(409, f"a secret named {name!r} already exists")
    now = time.time()
    secret = Secret(new_id(12), name, body["value"], body.get("description"), now, now)
    sim.store.secrets[secret.id] = secret
    return Reply(201, secret_v2(secret))


async def update_secret(sim: Sim, ctx: Ctx) -> Reply:
    secret = _secret(sim, ctx)
    body = await _body(ctx, "UpdateSecretRequest")
    # Two steps, as RunPod applies them: the value first, then the description; a failure of the second
    # leaves the first done.
    if "value" in body:
        secret.value = body["value"]
        secret.value_updated_at = time.time()
    if "description" in body:
        fault = sim.store.secret_faults.get("description_step")
        if fault and fault["count"] > 0:
            fault["count"] -= 1
            raise ApiError(int(fault["status"]), "the secret's description could not be updated")
        secret.description = body["description"]
    return Reply(200, secret_v2(secret))


async def delete_secret(sim: Sim, ctx: Ctx) -> Reply:
    sim.store.secrets.pop(_secret(sim, ctx).id, None)
    return Reply(204)


# -- admin ---------------------------------------------------------------------------------------------------------
def _admin_view(secret: Secret) -> dict[str, Any]:
    return {**secret_v2(secret), "value": secret.value, "valueLastUpdatedEpoch": secret.value_updated_at}


async def admin_list(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"secrets": [_admin_view(secret) for secret in sim.store.secrets.values()]})


async def admin_get(sim: Sim, ctx: Ctx) -> Reply:
    key = ctx.params["secret_id"]
    secret = sim.store.secrets.get(key) or by_name(sim.store, key)
    if secret is None:
        return Reply(404, {"error": f"no secret {key}"})
    return Reply(200, _admin_view(secret))


async def admin_workers(sim: Sim, ctx: Ctx) -> Reply:
    """The endpoint's allocated workers with the env each booted with."""
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None:
        return Reply(404, {"error": f"no endpoint {ctx.params['endpoint_id']}"})
    workers = [
        {"id": worker.id, "version": worker.version, "boot_env": dict(worker.boot_env)}
        for worker in sim.store.live_workers(endpoint)
    ]
    return Reply(200, {"workers": workers})


async def admin_faults(sim: Sim, ctx: Ctx) -> Reply:
    body = await ctx.json(default={})
    step = body.get("description_step") if isinstance(body, dict) else None
    valid = (
        isinstance(body, dict)
        and set(body) <= {"description_step"}
        and isinstance(step, dict)
        and set(step) <= {"count", "status"}
        and isinstance(step.get("count", 1), int)
        and step.get("count", 1) >= 0
        and isinstance(step.get("status", 500), int)
        and 400 <= step.get("status", 500) <= 599
    )
    if not valid:
        return Reply(400, {"error": 'expected {"description_step": {"count": n >= 0, "status": 4xx or 5xx}}'})
    sim.store.secret_faults["description_step"] = {"count": step.get("count", 1), "status": step.get("status", 500)}
    return Reply(200, {"description_step": dict(sim.store.secret_faults["description_step"])})
