# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The endpoint module's rules (pure Python): what the options ask for, what the API would refuse, what differs.

Kept out of ``plugins/modules/endpoint.py`` so the module reads as docs, argument spec and hooks.
Field names are the ``_models.EndpointSpec`` vocabulary.
"""

from __future__ import annotations

import re

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._engine.describe import ENDPOINT_FIELDS

# Compared without regard to order.
SET_FIELDS = ("gpu_pools", "gpu_type_ids", "data_center_ids", "cpu_flavor_ids", "allowed_cuda_versions", "ports")
# Options compared one to one with the EndpointView field of the same name.
SIMPLE_FIELDS = tuple(field for field in ENDPOINT_FIELDS if field not in ("id", "name", "created_at", *SET_FIELDS))
CUDA_VERSION = re.compile(r"^\d+\.\d+$")


def gpu_selection(gpu_type_ids):
    """``("gpu_pools", pools)``: the serverless pools of the GPU types (pool ids pass as they are). Raises ValueError
    for a type the catalog does not know."""
    unknown, hint = _catalog.unknown_gpu_types([gpu for gpu in gpu_type_ids if gpu not in _catalog.GPU_POOLS])
    if unknown:
        raise ValueError(
            f"unknown GPU type(s) {', '.join(repr(gpu) for gpu in unknown)} in gpu_type_ids, so they cannot be "
            f"mapped to a serverless GPU pool{'; ' + hint if hint else ''} (pool ids such as ADA_24 are accepted "
            f"directly)"
        )
    return "gpu_pools", _catalog.pools_for(gpu_type_ids)


def scaler_number(value, scaler_type):
    """The scaler value as the API stores it: a whole number for REQUEST_COUNT."""
    if value is None:
        return None
    if (scaler_type or "").upper() == "REQUEST_COUNT":
        return int(value)
    return float(value)


def _range_problems(params):
    problems = []
    for option, low, high in (
        ("gpu_count", 1, None),
        ("workers_min", 0, None),
        ("workers_max", 0, None),
        ("idle_timeout", 1, 3600),
        ("execution_timeout_ms", 1, None),
        ("container_disk_gb", 1, None),
    ):
        value = params.get(option)
        if value is None:
            continue
        if value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            problems.append(f"{option} must be {bound}, got {value}")
    if params.get("scaler_value") is not None and params["scaler_value"] <= 0:
        problems.append(f"scaler_value must be positive, got {params['scaler_value']}")
    low, high = params.get("workers_min"), params.get("workers_max")
    if low is not None and high is not None and low > high:
        problems.append(f"workers_min ({low}) must not be larger than workers_max ({high})")
    vcpus = params.get("vcpu_count")
    if vcpus is not None and (vcpus < 2 or vcpus & (vcpus - 1)):
        problems.append(f"vcpu_count must be a power of two, at least 2, got {vcpus}")
    return problems


def _cuda_problems(params):
    problems = []
    allowed, floor = params.get("allowed_cuda_versions"), params.get("min_cuda_version")
    bad = [version for version in allowed or () if not CUDA_VERSION.match(version)]
    if floor and not CUDA_VERSION.match(floor):
        bad.append(floor)
    if bad:
        problems.append(f"CUDA versions are major.minor, such as 12.8; got {', '.join(repr(v) for v in bad)}")
    if allowed and floor:
        problems.append(
            "allowed_cuda_versions (an exact set) and min_cuda_version (a floor) are mutually exclusive; RunPod "
            "refuses both at once, so give one of them"
        )
    if params.get("cpu_flavor_ids") and (allowed or floor):
        problems.append("CUDA constraints apply to GPU endpoints only; a CPU endpoint (cpu_flavor_ids) has none")
    return problems


def _combination_problems(params):
    """The rules that tie options together."""
    problems = []
    scaler = (params.get("scaler_type") or "").upper()
    if scaler == "REQUEST_COUNT" and params.get("idle_timeout") is not None:
        problems.append(
            "idle_timeout cannot be set beside scaler_type REQUEST_COUNT: RunPod refuses idleTimeout for that "
            "scaler; remove idle_timeout"
        )
    if params.get("type") == "LOAD_BALANCER" and scaler == "QUEUE_DELAY":
        problems.append("a LOAD_BALANCER endpoint scales on REQUEST_COUNT only; scaler_type QUEUE_DELAY is refused")
    return problems


def validate_params(params):
    """Problems the API would reject, found before any API call (a list of sentences)."""
    return _range_problems(params) + _cuda_problems(params) + _combination_problems(params)


def wanted_fields(params, gpu):
    """Options the task sets, in ``EndpointSpec`` vocabulary (unset options omitted)."""
    wanted = {field: params[field] for field in SIMPLE_FIELDS if params.get(field) is not None}
    if wanted.get("network_volume_id") == "":
        wanted.pop("network_volume_id")
    for field in ("data_center_ids", "cpu_flavor_ids"):
        if params.get(field):
            wanted[field] = list(params[field])
    for field in ("allowed_cuda_versions", "ports"):
        if params.get(field) is not None:
            wanted[field] = list(params[field])
    if "env" in wanted:
        wanted["env"] = {str(key): "" if value is None else str(value) for key, value in wanted["env"].items()}
    if gpu is not None:
        field, values = gpu
        wanted[field] = values
    return wanted


def create_needs():
    """The options a create needs (``ResourceModule.require_for_create``; a tuple: one of them is enough)."""
    return "name", ("image", "template_id"), ("gpu_type_ids", "cpu_flavor_ids")


class RefusedError(ValueError):
    """A change the API would refuse; the module fails with ``bad_request`` before the PATCH."""


def _compute_changes(current, wanted, changes):
    """CPU selection and CUDA constraints, whose PATCH shape differs from their option shape."""
    is_cpu = bool(current.cpu_flavor_ids)
    if is_cpu and (wanted.get("gpu_pools") or wanted.get("gpu_type_ids")):
        raise RefusedError(
            f"endpoint {current.id} is a CPU endpoint; RunPod cannot change it to GPU workers "
            f"(delete it and create a GPU endpoint)"
        )
    if not is_cpu and wanted.get("cpu_flavor_ids"):
        raise RefusedError(
            f"endpoint {current.id} is a GPU endpoint; RunPod cannot change it to CPU workers "
            f"(delete it and create a CPU endpoint)"
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
    changes = {}
    if params.get("id") and params.get("name") and params["name"] != current.name:
        changes["name"] = params["name"]
    scaler_type = wanted.get("scaler_type") or current.scaler_type
    for field, value in wanted.items():
        have = getattr(current, field)
        if field == "template_id":
            continue  # an endpoint keeps no template (applied once at create), so there is nothing to compare
        if field in SET_FIELDS:
            if sorted(have or []) != sorted(value):
                changes[field] = list(value)
            continue
        if field == "scaler_value":
            value = scaler_number(value, scaler_type)
            have = scaler_number(have, scaler_type)
        if field == "env":
            have = dict(have or {})
        if field in ("docker_args", "min_cuda_version"):
            # "" and none are the same setting; a change to "" is sent as "" (it clears the value on v2).
            if (have or None) != (value or None):
                changes[field] = value
            continue
        if have != value:
            changes[field] = value
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
