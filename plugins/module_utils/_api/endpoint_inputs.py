# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""A serverless endpoint's input model (``EndpointInput``) and its rules."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import _Input, _raise, model_validator
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import range_problems

# Serverless endpoint counts: (option, lowest, highest or None).
ENDPOINT_RANGES = (
    ("gpu_count", 1, None),
    ("workers_min", 0, None),
    ("workers_max", 0, None),
    ("idle_timeout", 1, 3600),
    ("execution_timeout_ms", 1, None),
)


def gpu_pool_problem(gpu_type_ids):
    """Why ``gpu_type_ids`` of a serverless endpoint cannot be mapped to GPU pools (pool ids pass); or None."""
    unknown, hint = _catalog.unknown_gpu_types([gpu for gpu in gpu_type_ids or [] if gpu not in _catalog.GPU_POOLS])
    if not unknown:
        try:
            _catalog.pools_for(gpu_type_ids or [])
        except ValueError as error:  # a known type that serverless does not offer
            return str(error)
        return None
    return (f"unknown GPU type(s) {', '.join(map(repr, unknown))} in gpu_type_ids, so they cannot be mapped to a "
            f"serverless GPU pool{'; ' + hint if hint else ''} (pool ids such as ADA_24 are accepted directly)")


def endpoint_problems(values):
    """Every rule a serverless endpoint's options break (the API would refuse each), as a list of sentences."""
    p = values
    problems = range_problems(p, ENDPOINT_RANGES)
    if p.get("scaler_value") is not None and p["scaler_value"] <= 0:
        problems.append(f"scaler_value must be positive, got {p['scaler_value']}")
    low, high = p.get("workers_min"), p.get("workers_max")
    if low is not None and high is not None and low > high:
        problems.append(f"workers_min ({low}) must not be larger than workers_max ({high})")
    vcpus = p.get("vcpu_count")
    if vcpus is not None and (vcpus < 2 or vcpus & (vcpus - 1)):
        problems.append(f"vcpu_count must be a power of two, at least 2, got {vcpus}")
    cpu = bool(p.get("cpu_flavor_ids"))
    problems += _catalog.cuda_problems(p.get("allowed_cuda_versions"), p.get("min_cuda_version"), cpu, "endpoint",
                                       "a CPU endpoint (cpu_flavor_ids) has none")
    problems += _catalog.scaler_problems(p)
    unknown = gpu_pool_problem(p.get("gpu_type_ids"))
    return problems + ([unknown] if unknown else [])


class EndpointInput(_Input):
    create_needs = ("name", ("image", "template_id"), ("gpu_type_ids", "cpu_flavor_ids"))
    create_hint = " (template_id is the id of a serverless template, see runpod.cloud.template)"
    name: str | None = None
    data_center_ids: list[str] | None = None
    container_disk_gb: int | None = None
    secret_env: dict[str, str] | None = None
    type: str | None = None
    gpu_type_ids: list[str] | None = None
    gpu_count: int | None = None
    cpu_flavor_ids: list[str] | None = None
    vcpu_count: int | None = None
    allowed_cuda_versions: list[str] | None = None
    min_cuda_version: str | None = None
    workers_min: int | None = None
    workers_max: int | None = None
    idle_timeout: int | None = None
    execution_timeout_ms: int | None = None
    scaler_type: str | None = None
    scaler_value: float | None = None
    docker_args: str | None = None
    cmd: list[str] | None = None
    entrypoint: list[str] | None = None

    @model_validator(mode="after")
    def _together(self):
        _raise("; ".join(endpoint_problems(self.__dict__)))
        return self
