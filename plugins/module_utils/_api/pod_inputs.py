# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The pod's and the cluster's input models and their GPU checks against the catalog."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import (
    _ContainerInput,
    _raise,
    field_validator,
    model_validator,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import (
    MAX_GPU_COUNT,
    MAX_VCPU_COUNT,
    check_count,
    check_range,
    check_within,
    name_problem,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate

# Options that only mean something for a pod create: given without image/template_id, the task is a broken create.
CREATE_INTENT_OPTIONS = (
    "gpu_type_ids", "cpu_flavor_ids", "vcpu_count", "data_center_ids", "network_volume_id",
    "allowed_cuda_versions", "min_cuda_version", "gpu_requirements", "max_price_per_hr",
)
FLEET_MAX_COUNT = 100
FLEET_MAX_CONCURRENCY = 50
CLUSTER_NODES = (2, 250)
MANUFACTURERS = ("NVIDIA", "AMD")  # the catalog's GpuManufacturer values a GPU can be asked by


def unknown_gpu_problem(gpu_type_ids, option="gpu_type_ids"):
    """Why ``gpu_type_ids`` name a GPU type RunPod does not have (with the known ids by model name); or None."""
    unknown, hint = _catalog.unknown_gpu_types(list(gpu_type_ids or []))
    return f"unknown GPU type(s) in {option}: {', '.join(map(repr, unknown))}; {hint}" if unknown else None


def gpu_choice_problem(params, ids_option):
    """What ``gpu_requirements`` and ``max_price_per_hr`` break (``ids_option``: the GPU type option), or None."""
    p = params
    wanted, cap = p.get("gpu_requirements"), p.get("max_price_per_hr")
    if wanted is not None and p.get(ids_option):
        return (f"{ids_option} and gpu_requirements are mutually exclusive: name the GPU types, or say what a GPU type "
                "must be and let the catalog's prices order the candidates.")
    if p.get("compute_type") == "CPU" and (wanted is not None or cap is not None):
        return "gpu_requirements and max_price_per_hr apply to GPU pods only; remove them for compute_type: CPU."
    if cap is not None and not (isinstance(cap, (int, float)) and 0 < cap < float("inf")):
        return f"max_price_per_hr must be a number of USD per hour above 0, got {cap!r}."
    if wanted is None:
        return None
    for option in ("min_ram_per_gpu_gb", "min_vcpus_per_gpu"):  # host floors, sent in a pod create's ``gpu``
        floor = wanted.get(option)
        if floor is not None and ids_option == "gpu_type_id":
            return f"gpu_requirements.{option} applies to pods only: RunPod's cluster create takes no such floor."
        if floor is not None and floor < 1:
            return f"gpu_requirements.{option} must be 1 or more, got {floor}."
    low, high = wanted.get("min_memory_gb"), wanted.get("max_memory_gb")
    for option, value in (("min_memory_gb", low), ("max_memory_gb", high)):
        if value is not None and value < 0:
            return f"gpu_requirements.{option} must be 0 or more GB, got {value}."
    if low is not None and high is not None and low > high:
        return f"gpu_requirements.min_memory_gb ({low}) is above max_memory_gb ({high}): no GPU can meet both."
    maker = wanted.get("manufacturer")
    if maker is not None and str(maker).upper() not in MANUFACTURERS:
        return f"gpu_requirements.manufacturer must be one of {', '.join(MANUFACTURERS)}, got {maker!r}."
    return unknown_gpu_problem(wanted.get("exclude"), "gpu_requirements.exclude")


def fleet_problem(values):
    """Why the fleet options (``count``) cannot work, else None."""
    count, concurrency = values.get("count"), values.get("create_concurrency")
    try:
        check_range("create_concurrency", concurrency, 1, FLEET_MAX_CONCURRENCY)
        check_range("count", count, 1, FLEET_MAX_COUNT)
    except ValueError as error:
        return f"{error}."
    if count is None:
        return None
    if values.get("id"):
        return "count manages the pods {name}-1 .. {name}-N found by name, so it cannot be combined with id."
    if not values.get("name"):
        return "count needs name: the pods are named {name}-1 .. {name}-N."
    # The longest member name must be a valid name too (checked here, before any member exists).
    return name_problem(f"{values['name']}-{count}", option=f"name with count {count} (the pod names {{name}}-K)")


def pod_problem(values):
    """The first cross-option rule a pod task breaks, else None."""
    p = values
    problem = _catalog.cpu_pod_problem(p) or fleet_problem(p)
    if problem:
        return problem
    if p.get("wait") and p.get("wait_for") in ("ssh", "login") and not p.get("ssh"):
        return (f"wait_for: {p.get('wait_for')} waits for the pod's sshd, so it cannot be combined with ssh: false. "
                "Set ssh: true, or wait_for: running.")
    if p.get("wait_for") == "login":
        if not p.get("ssh_private_key_file"):
            return ("wait_for: login logs in with ssh_private_key_file, which was not given. Give the private key "
                    "whose public half reaches the pod (ssh_public_key), or use wait_for: ssh.")
        if p.get("count") is not None:
            return "wait_for: login waits for one pod; with count, use wait_for: ssh."
    cpu = str(p.get("compute_type") or "").upper() == "CPU"
    cuda = _catalog.cuda_problems(p.get("allowed_cuda_versions"), p.get("min_cuda_version"), cpu, "pod",
                                  "remove them for compute_type: CPU")
    problem = (unknown_gpu_problem(p.get("gpu_type_ids")) or _catalog.gpu_on_cpu_pod_problem(p)
               or gpu_choice_problem(p, "gpu_type_ids") or (cuda or [None])[0])
    if problem:
        return problem
    if p.get("state") != "absent" and not (p.get("image") or p.get("template_id")):
        intent = [option for option in CREATE_INTENT_OPTIONS if p.get(option)]
        if intent:
            return (f"creating a pod needs image or template_id, but only {', '.join(intent)} were given. "
                    "Add image (or template_id).")
    return None


class PodInput(_ContainerInput):
    volume_gb: int | None = None
    gpu_count: int | None = None
    vcpu_count: int | None = None
    data_center_ids: list[str] | None = None
    ssh_public_key: str | None = None
    id: str | None = None
    state: str | None = None
    image: str | None = None
    template_id: str | None = None
    compute_type: str | None = None
    gpu_type_ids: list[str] | None = None
    cpu_flavor_ids: list[str] | None = None
    network_volume_id: str | None = None
    allowed_cuda_versions: list[str] | None = None
    min_cuda_version: str | None = None
    wait: bool | None = None
    wait_for: str | None = None
    ssh_private_key_file: str | None = None
    ssh: bool | None = None
    count: int | None = None
    create_concurrency: int | None = None
    gpu_requirements: dict | None = None
    max_price_per_hr: float | None = None
    create_timeout: Any = None
    stop_after: Any = None
    terminate_after: Any = None
    idle_stop_after: Any = None
    idle_below: Any = None

    @field_validator("create_timeout")
    @classmethod
    def _create_timeout(cls, value):
        if value is not None:
            try:
                _duration.parse(value)
            except ValueError as error:
                raise ValueError(f"invalid create_timeout: {error}") from None
        return value

    @field_validator("gpu_count")
    @classmethod
    def _gpus(cls, value):
        return check_count("gpu_count", value, 1, MAX_GPU_COUNT)

    @field_validator("vcpu_count")
    @classmethod
    def _vcpus(cls, value):
        check_count("vcpu_count", value, 2, MAX_VCPU_COUNT)
        if value is not None and value & (value - 1):
            raise ValueError(f"vcpu_count must be a power of two (got {value})")
        return value

    @model_validator(mode="after")
    def _together(self):
        _podstate.options_env(self.__dict__)  # the lease's rules (docs/costs.md): ValueError
        _raise(pod_problem(self.__dict__))
        return self

    @classmethod
    def create_problem(cls, params):
        # What a pod is placed on is ``PodSpec``'s to check: a backend refuses a spec it cannot place, whoever built it.
        if not (params.get("image") or params.get("template_id")):
            return "creating a pod needs image or template_id. Add image (or template_id)."
        return None


class ClusterInput(_ContainerInput):
    """A cluster's options: its nodes are pods, so their containers and volumes take the pods' rules."""

    create_needs = ("name", ("image", "template_id"), ("gpu_type_id", "gpu_requirements"), "pod_count")
    volume_gb: int | None = None
    data_center_ids: list[str] | None = None
    ssh_public_key: str | None = None
    pod_count: int | None = None
    gpu_count_per_pod: int | None = None
    gpu_type_id: str | None = None
    wait: bool | None = None
    ssh: bool | None = None
    gpu_requirements: dict | None = None
    max_price_per_hr: float | None = None
    state: str | None = None
    terminate_after: Any = None

    @field_validator("pod_count")
    @classmethod
    def _nodes(cls, value):
        return check_within(value, CLUSTER_NODES, "pod_count must be {low} to {high}, got {value}.")

    @field_validator("gpu_count_per_pod")
    @classmethod
    def _gpus(cls, value):
        return check_within(value, (1, float("inf")), "gpu_count_per_pod must be at least 1.")

    @field_validator("gpu_type_id")
    @classmethod
    def _gpu_type(cls, value):
        _raise(value and unknown_gpu_problem([value], "gpu_type_id"))
        return value

    @model_validator(mode="after")
    def _together(self):
        if self.wait and not self.ssh:
            raise ValueError("wait: true waits until every node answers SSH, so it needs ssh: true.")
        _raise(gpu_choice_problem(self.__dict__, "gpu_type_id"))
        _podstate.options_env(self.__dict__)
        return self
