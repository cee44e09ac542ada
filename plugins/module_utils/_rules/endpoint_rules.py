# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The endpoint module's rules of several fields (one field's are ``_vocab/endpoint_fields.ENDPOINT``'s)."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import rename_change
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import ENDPOINT


def gpu_selection(gpu_type_ids):
    """``("gpu_pools", pools)``: the serverless pools of the GPU types (pool ids pass as they are)."""
    return "gpu_pools", _catalog.pools_for(gpu_type_ids)


def scaler_number(value, scaler_type):
    """The scaler value as the API stores it: a whole number for REQUEST_COUNT."""
    if value is None:
        return None
    return int(value) if (scaler_type or "").upper() == "REQUEST_COUNT" else float(value)


def wanted_fields(params, gpu):
    """Options the task sets, in ``EndpointSpec`` vocabulary (``gpu``: ``gpu_selection``'s pools)."""
    wanted = ENDPOINT.wanted(params)
    wanted.pop("name", None)  # a rename is ``rename_change``'s
    wanted.pop("gpu_type_ids", None)  # asked for as their pools (``gpu``)
    for field in ("network_volume_id", "data_center_ids", "cpu_flavor_ids"):
        if not wanted.get(field):
            wanted.pop(field, None)  # empty asks for nothing
    if gpu is not None:
        wanted[gpu[0]] = gpu[1]
    return wanted


class RefusedError(ValueError):
    """A change the API would refuse; the module fails with ``bad_request`` before the PATCH."""


def _compute_changes(current, wanted, changes):
    """CPU selection and CUDA constraints, whose PATCH shape differs from their option shape."""
    is_cpu = bool(current.cpu_flavor_ids)
    if (wanted.get("gpu_pools") or wanted.get("gpu_type_ids")) if is_cpu else wanted.get("cpu_flavor_ids"):
        kind, other = ("CPU", "GPU") if is_cpu else ("GPU", "CPU")
        raise RefusedError(
            f"endpoint {current.id} is a {kind} endpoint; RunPod cannot change it to {other} workers "
            f"(delete it and create a {other} endpoint)"
        )
    if "cpu_flavor_ids" in changes or "vcpu_count" in changes:
        # The PATCH replaces the whole CPU selection: flavors and vCPU count go together.
        changes["cpu_flavor_ids"] = list(wanted.get("cpu_flavor_ids") or current.cpu_flavor_ids)
        changes["vcpu_count"] = wanted.get("vcpu_count") or current.vcpu_count
    if changes.get("allowed_cuda_versions") and current.min_cuda_version and "min_cuda_version" not in wanted:
        raise RefusedError(
            f"endpoint {current.id} has min_cuda_version {current.min_cuda_version}, which RunPod keeps beside a "
            f"new allowed_cuda_versions and then refuses both; set min_cuda_version: '' to clear it"
        )
    if changes.get("min_cuda_version") and current.allowed_cuda_versions and "allowed_cuda_versions" not in wanted:
        raise RefusedError(
            f"endpoint {current.id} has allowed_cuda_versions {', '.join(current.allowed_cuda_versions)}, which "
            f"RunPod keeps beside a new min_cuda_version and then refuses both; set allowed_cuda_versions: [] "
            f"to clear them"
        )


def endpoint_changes(current, wanted, params):
    """``{field: wanted value}`` for every wanted field that differs from ``current``; raises ``RefusedError``."""
    changes = rename_change(params, current)
    scaler_type = wanted.get("scaler_type") or current.scaler_type
    changes.update(ENDPOINT.changes(wanted, current))
    if wanted.get("scaler_value") is not None:  # compared as the scaler type stores it
        value = scaler_number(wanted["scaler_value"], scaler_type)
        if value != scaler_number(current.scaler_value, scaler_type):
            changes["scaler_value"] = value
    if "type" in changes:
        raise RefusedError(
            f"endpoint {current.id} is a {current.type} endpoint and RunPod cannot change the type of an "
            f"endpoint (delete it and create a {changes['type']} one)"
        )
    if (scaler_type or "").upper() == "REQUEST_COUNT" and "idle_timeout" in changes:
        raise RefusedError(
            f"endpoint {current.id} scales on REQUEST_COUNT, beside which RunPod refuses idle_timeout; remove "
            f"idle_timeout (or change scaler_type to QUEUE_DELAY in the same task)"
        )
    _compute_changes(current, wanted, changes)
    if "scaler_value" in changes and "scaler_type" not in changes:
        # RunPod replaces the whole scaling block: send the type the endpoint keeps.
        changes["scaler_type"] = scaler_type
    return changes
