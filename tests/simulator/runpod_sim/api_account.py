# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Network volumes, container registry credentials and billing on REST v2, plus the billing seed.

``/v2/network-volumes``, ``/v2/registries``, ``/v2/billing[/<family>]``. Responses carry exactly the
fields of the published schemas. Admin: ``POST /_sim/billing {"charges": [...]}`` adds ledger entries (see
``account.validate_charge``), ``GET`` lists them, ``DELETE`` clears them.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .account import (
    AGGREGATE_FIELDS,
    CHARGE_COMPONENTS,
    BillingError,
    Charge,
    NetworkVolume,
    Registry,
    Window,
    bucket_next,
    bucket_of,
    charges_in,
    money,
    resolve_window,
    rfc3339,
    utc_now,
    validate_charge,
)
from .app import ApiError, Ctx, Reply, Sim
from .schemas import validate_v2
from .store import DATA_CENTERS, new_id

# v2 per-family route: (family, filter parameter, unique-count metadata key).
V2_FAMILIES = {
    "pods": ("pods", "podId", "uniquePodCount"),
    "serverless": ("serverless", "serverlessId", "uniqueServerlessCount"),
    "network-volumes": ("network_volumes", "networkVolumeId", "uniqueNetworkVolumeCount"),
    "clusters": ("clusters", "clusterId", "uniqueClusterCount"),
}
COMPONENT_FIELDS = {
    "gpu": "gpuAmount",
    "cpu": "cpuAmount",
    "disk": "diskAmount",
    "fee": "feeAmount",
    "standard": "standardAmount",
    "high_performance": "highPerformanceAmount",
    "networking": "networkingAmount",
}


def register(sim: Sim) -> None:
    sim.route("GET", "/v2/network-volumes", v2_list_volumes)
    sim.route("POST", "/v2/network-volumes", v2_create_volume)
    sim.route("GET", "/v2/network-volumes/{volume_id}", v2_get_volume)
    sim.route("PATCH", "/v2/network-volumes/{volume_id}", v2_update_volume)
    sim.route("DELETE", "/v2/network-volumes/{volume_id}", v2_delete_volume)
    sim.route("GET", "/v2/registries", v2_list_registries)
    sim.route("POST", "/v2/registries", v2_create_registry)
    sim.route("GET", "/v2/registries/{registry_id}", v2_get_registry)
    sim.route("DELETE", "/v2/registries/{registry_id}", v2_delete_registry)
    sim.route("GET", "/v2/billing", v2_billing_all)
    sim.route("GET", "/v2/billing/endpoints", v2_billing_endpoints)
    for segment in V2_FAMILIES:
        sim.route("GET", f"/v2/billing/{segment}", _v2_family_handler(segment))
    sim.route("GET", "/_sim/billing", admin_list_charges, auth=False)
    sim.route("POST", "/_sim/billing", admin_add_charges, auth=False)
    sim.route("DELETE", "/_sim/billing", admin_clear_charges, auth=False)


async def _v2_body(ctx: Ctx, schema: str) -> dict[str, Any]:
    body = await ctx.json(default={})
    errors = validate_v2(schema, body)
    if errors:
        raise ApiError(422, "Request validation failed.", errors)
    return body


# -- network volumes -------------------------------------------------------------------------------------------
def volume_v2(volume: NetworkVolume) -> dict[str, Any]:
    return {
        "id": volume.id,
        "name": volume.name,
        "size": volume.size,
        "dataCenter": volume.data_center,
        "type": volume.type,
    }


def _volume(sim: Sim, ctx: Ctx, not_found: str) -> NetworkVolume:
    volume = sim.store.network_volumes.get(ctx.params["volume_id"])
    if volume is None:
        raise ApiError(404, not_found)
    return volume


def _new_volume(sim: Sim, name: str, size: int, data_center: str, volume_type: str | None) -> NetworkVolume:
    if data_center not in DATA_CENTERS:
        raise ApiError(400, f"unknown data center {data_center!r} (known: {', '.join(DATA_CENTERS)})")
    volume = NetworkVolume(id=new_id(10), name=name, size=size, data_center=data_center, type=volume_type or "STANDARD")
    sim.store.network_volumes[volume.id] = volume
    return volume


def volume_placement(sim: Sim, volume_id: str | None, data_center_ids: list[str]) -> list[str]:
    """The data center preferences of a pod that mounts ``volume_id``: the volume's own data center only."""
    if not volume_id:
        return data_center_ids
    volume = sim.store.network_volumes.get(volume_id)
    if volume is None:
        raise ApiError(400, f"network volume {volume_id} not found")
    if data_center_ids and volume.data_center not in data_center_ids:
        raise ApiError(
            400,
            f"network volume {volume_id} is in {volume.data_center}, which is not among the requested data centers "
            f"({', '.join(data_center_ids)})",
        )
    return [volume.data_center]


def _resize(volume: NetworkVolume, body: dict[str, Any]) -> None:
    if "size" in body and int(body["size"]) < volume.size:
        raise ApiError(
            400, f"network volume size cannot be decreased (current size {volume.size} GB, requested {body['size']} GB)"
        )
    if "name" in body:
        volume.name = body["name"]
    if "size" in body:
        volume.size = int(body["size"])


def _delete_volume(sim: Sim, volume: NetworkVolume) -> None:
    store = sim.store
    pods = sorted(pod.id for pod in store.live_pods() if pod.network_volume_id == volume.id)
    endpoints = sorted(ep.id for ep in store.endpoints.values() if volume.id in ep.network_volumes)
    if pods or endpoints:
        users = [f"pod {pod_id}" for pod_id in pods] + [f"endpoint {ep_id}" for ep_id in endpoints]
        raise ApiError(
            400,
            f"network volume {volume.id} is attached to {', '.join(users)}; "
            f"terminate or detach them before deleting the volume",
        )
    store.network_volumes.pop(volume.id, None)


async def v2_list_volumes(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"networkVolumes": [volume_v2(v) for v in sim.store.network_volumes.values()]})


async def v2_create_volume(sim: Sim, ctx: Ctx) -> Reply:
    body = await _v2_body(ctx, "CreateNetworkVolumeRequest")
    volume = _new_volume(sim, body["name"], int(body["size"]), body["dataCenter"], body.get("type"))
    return Reply(201, volume_v2(volume))


async def v2_get_volume(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, volume_v2(_volume(sim, ctx, "network volume not found")))


async def v2_update_volume(sim: Sim, ctx: Ctx) -> Reply:
    volume = _volume(sim, ctx, "network volume not found")
    _resize(volume, await _v2_body(ctx, "UpdateNetworkVolumeRequest"))
    return Reply(200, volume_v2(volume))


async def v2_delete_volume(sim: Sim, ctx: Ctx) -> Reply:
    _delete_volume(sim, _volume(sim, ctx, "network volume not found"))
    return Reply(204)


# -- container registry credentials ----------------------------------------------------------------------------
def registry_view(registry: Registry) -> dict[str, Any]:
    return {"id": registry.id, "name": registry.name}


def _registry(sim: Sim, ctx: Ctx, not_found: str) -> Registry:
    registry = sim.store.registries.get(ctx.params["registry_id"])
    if registry is None:
        raise ApiError(404, not_found)
    return registry


def _new_registry(sim: Sim, body: dict[str, Any]) -> Registry:
    # Names are unique.
    if any(r.name == body["name"] for r in sim.store.registries.values()):
        raise ApiError(400, f"a container registry credential named {body['name']!r} already exists")
    registry = Registry(id=new_id(25), name=body["name"], username=body["username"], password=body["password"])
    sim.store.registries[registry.id] = registry
    return registry


def _delete_registry(sim: Sim, registry: Registry) -> None:
    store = sim.store
    pods = sorted(pod.id for pod in store.live_pods() if pod.registry == registry.id)
    if pods:
        raise ApiError(
            400, f"container registry credential {registry.id} is used by pod(s) {', '.join(pods)} to pull images"
        )
    for template in store.templates.values():
        if template.registry == registry.id:
            template.registry = None
    store.registries.pop(registry.id, None)


async def v2_list_registries(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"registries": [registry_view(r) for r in sim.store.registries.values()]})


async def v2_create_registry(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(201, registry_view(_new_registry(sim, await _v2_body(ctx, "CreateRegistryRequest"))))


async def v2_get_registry(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, registry_view(_registry(sim, ctx, "registry not found")))


async def v2_delete_registry(sim: Sim, ctx: Ctx) -> Reply:
    _delete_registry(sim, _registry(sim, ctx, "registry not found"))
    return Reply(204)


# -- billing -----------------------------------------------------------------------------------------------
def _window(ctx: Ctx) -> Window:
    try:
        return resolve_window(ctx.query, utc_now())
    except BillingError as exc:
        raise ApiError(400, str(exc)) from None


def _query_echo(window: Window) -> dict[str, Any]:
    return {"startTime": rfc3339(window.start), "endTime": rfc3339(window.end), "bucketSize": window.bucket_size}


def _span(start: Any, window: Window) -> dict[str, str]:
    return {"startTime": rfc3339(start), "endTime": rfc3339(bucket_next(start, window.bucket_size))}


def _aggregate_amounts(charges: list[Charge]) -> dict[str, float]:
    amounts = dict.fromkeys(["totalAmount", *AGGREGATE_FIELDS.values()], 0.0)
    for charge in charges:
        for component, value in charge.amounts.items():
            amounts[AGGREGATE_FIELDS[(charge.kind, component)]] += value
            amounts["totalAmount"] += value
    return {key: money(value) for key, value in amounts.items()}


def _family_amounts(family: str, charges: list[Charge]) -> dict[str, float]:
    amounts = {"totalAmount": 0.0}
    for component in CHARGE_COMPONENTS[family]:
        if component in COMPONENT_FIELDS:
            amounts[COMPONENT_FIELDS[component]] = 0.0
    for charge in charges:
        for component, value in charge.amounts.items():
            amounts["totalAmount"] += value
            if component in COMPONENT_FIELDS:
                amounts[COMPONENT_FIELDS[component]] += value
    return {key: money(value) for key, value in amounts.items()}


def _per_bucket(charges: list[Charge], window: Window) -> dict[Any, list[Charge]]:
    grouped: dict[Any, list[Charge]] = defaultdict(list)
    for charge in charges:
        grouped[bucket_of(charge, window)].append(charge)
    return grouped


async def v2_billing_all(sim: Sim, ctx: Ctx) -> Reply:
    window = _window(ctx)
    charges = charges_in(sim.store.billing, None, window)
    grouped = _per_bucket(charges, window)
    records = [
        {**_span(start, window), **_aggregate_amounts(grouped.get(start, []))} for start, _end in window.buckets()
    ]
    metadata = {"query": _query_echo(window), "recordCount": len(records), "totals": _aggregate_amounts(charges)}
    return Reply(200, {"records": records, "metadata": metadata})


async def v2_billing_endpoints(sim: Sim, ctx: Ctx) -> Reply:
    window = _window(ctx)
    charges = charges_in(sim.store.billing, "endpoints", window)
    grouped = _per_bucket(charges, window)
    records = [
        {**_span(start, window), **_family_amounts("endpoints", grouped.get(start, []))}
        for start, _end in window.buckets()
    ]
    metadata = {
        "query": _query_echo(window),
        "recordCount": len(records),
        "totals": _family_amounts("endpoints", charges),
    }
    return Reply(200, {"records": records, "metadata": metadata})


def _v2_family_handler(segment: str) -> Any:
    family, filter_name, unique_key = V2_FAMILIES[segment]

    async def handler(sim: Sim, ctx: Ctx) -> Reply:
        window = _window(ctx)
        wanted = ctx.query.get(filter_name) or None
        charges = [
            c for c in charges_in(sim.store.billing, family, window) if wanted is None or c.resource_id == wanted
        ]
        grouped: dict[tuple[Any, str], list[Charge]] = defaultdict(list)
        for charge in charges:
            grouped[(bucket_of(charge, window), charge.resource_id)].append(charge)
        records = [
            {**_span(start, window), **_family_amounts(family, grouped[(start, rid)]), filter_name: rid}
            for start, rid in sorted(grouped)
        ]
        metadata = {
            "query": {**_query_echo(window), filter_name: wanted},
            "recordCount": len(records),
            unique_key: len({c.resource_id for c in charges}),
            "totals": _family_amounts(family, charges),
        }
        return Reply(200, {"records": records, "metadata": metadata})

    return handler


# -- admin: the billing ledger ---------------------------------------------------------------------------------
def _charge_view(charge: Charge) -> dict[str, Any]:
    return {
        "time": rfc3339(charge.at),
        "kind": charge.kind,
        "resource_id": charge.resource_id,
        **charge.amounts,
        "gpu_type_id": charge.gpu_type_id,
        "time_billed_ms": charge.time_billed_ms,
        "disk_gb": charge.disk_gb,
    }


async def admin_list_charges(sim: Sim, ctx: Ctx) -> Reply:
    return Reply(200, {"charges": [_charge_view(c) for c in sim.store.billing]})


async def admin_add_charges(sim: Sim, ctx: Ctx) -> Reply:
    try:
        body = await ctx.json(default={})
    except ApiError:
        raise ApiError(400, "bad JSON in the admin request body") from None
    entries = body.get("charges") if isinstance(body, dict) else None
    if not isinstance(entries, list):
        raise ApiError(400, 'the body must be {"charges": [...]}')
    now = utc_now()
    try:
        charges = [validate_charge(entry, now) for entry in entries]
    except BillingError as exc:
        raise ApiError(400, str(exc)) from None
    sim.store.billing.extend(charges)
    return Reply(200, {"added": len(charges), "charges": [_charge_view(c) for c in charges]})


async def admin_clear_charges(sim: Sim, ctx: Ctx) -> Reply:
    sim.store.billing.clear()
    return Reply(200, {"cleared": True})
