# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The input rules: every rule a module's options must pass before any API call, written once here.

Each ``*Input`` model names the options a module takes that a rule applies to: one option's rules are field
validators (written with the checks of ``_api.values``), rules that tie options together are the model's
validator, and what RunPod cannot do is ``_api.capabilities``. ``_module.checks.input_problem`` validates a
module's params against its model and returns the broken rules' message; a module calls it (``input_model``)
before any API call. What a create needs is the model's too (``create_needs``, ``create_problem``), asked by
``ResourceModule`` once the lookup found nothing, before the create. The user-facing list of every rule is
docs/docsite/rst/guide_input_checks.rst.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ansible_collections.runpod.cloud.plugins.module_utils._api import capabilities as _can
from ansible_collections.runpod.cloud.plugins.module_utils._api.compat import (
    BaseModel,
    ConfigDict,
    field_validator,
    model_validator,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import (
    MAX_GPU_COUNT,
    MAX_STORAGE_GB,
    MAX_VCPU_COUNT,
    MIN_PERSISTENT_VOLUME_GB,
    check_count,
    check_data_center_ids,
    check_env,
    check_ports,
    check_range,
    check_secret_env,
    check_within,
    gpu_choice_problem,
    gpu_pool_problem,
    name_problem,
    public_key_problem,
    range_problems,
    unknown_gpu_problem,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration

# Options that only mean something for a pod create: given without image/template_id, the task is a broken create.
CREATE_INTENT_OPTIONS = (
    "gpu_type_ids", "cpu_flavor_ids", "vcpu_count", "data_center_ids", "network_volume_id",
    "allowed_cuda_versions", "min_cuda_version", "gpu_requirements", "max_price_per_hr",
)
FLEET_MAX_COUNT = 100
FLEET_MAX_CONCURRENCY = 50
CLUSTER_NODES = (2, 250)
# Serverless endpoint counts: (option, lowest, highest or None).
ENDPOINT_RANGES = (
    ("gpu_count", 1, None),
    ("workers_min", 0, None),
    ("workers_max", 0, None),
    ("idle_timeout", 1, 3600),
    ("execution_timeout_ms", 1, None),
)


def _raise(problem):
    if problem:
        raise ValueError(problem)


class _Input(BaseModel):
    """A module's options as the user gave them; validating one raises with the broken rules' messages."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built when first used, as _View
    # What a create needs: each entry an option, or a tuple of options of which one is enough; and what the
    # message adds (``create_problem``).
    create_needs: ClassVar[tuple] = ()
    create_hint: ClassVar[str] = ""

    @classmethod
    def create_problem(cls, params: dict) -> str | None:
        """What a create with ``params`` lacks, as the end of "no <kind> named <name> exists, and ...", else None.

        Every missing need in one message, the same in every module: ``creating one needs a, b or c and d``.
        """
        missing = []
        for need in cls.create_needs:
            options = (need,) if isinstance(need, str) else need
            if not any(params.get(option) for option in options):
                missing.append(" or ".join(options))
        if not missing:
            return None
        listed = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
        return f"creating one needs {listed}{cls.create_hint}"

    @model_validator(mode="after")
    def _one_command_form(self):
        # docker_args is the shell form of the command that cmd/entrypoint give in exec form: RunPod stores one
        # command, so both would fight (a 400, or a diff on every run).
        given = [option for option in ("cmd", "entrypoint") if getattr(self, option, None) is not None]
        if getattr(self, "docker_args", None) is not None and given:
            raise ValueError(
                f"docker_args and {' and '.join(given)} are two forms of the container's one command: give "
                "docker_args (a shell string) or cmd/entrypoint (exec-form lists), not both."
            )
        return self

    @field_validator("name", check_fields=False)
    @classmethod
    def _name(cls, value):
        if value is not None:
            _raise(name_problem(value))
        return value

    @field_validator("ports", mode="before", check_fields=False)
    @classmethod
    def _ports(cls, value):
        return check_ports(value)

    @field_validator("env", mode="before", check_fields=False)
    @classmethod
    def _env(cls, value):
        return check_env(value)

    @field_validator("secret_env", mode="before", check_fields=False)
    @classmethod
    def _secret_env(cls, value):
        return check_secret_env(value)

    @field_validator("container_disk_gb", check_fields=False)
    @classmethod
    def _disk(cls, value):
        return check_count("container_disk_gb", value, 1, MAX_STORAGE_GB, " GB")

    @field_validator("data_center_ids", mode="before", check_fields=False)
    @classmethod
    def _data_centers(cls, value):
        return check_data_center_ids(value)

    @field_validator("volume_gb", check_fields=False)
    @classmethod
    def _volume(cls, value):
        if value == 0:
            return value  # no volume
        return check_count("volume_gb", value, MIN_PERSISTENT_VOLUME_GB, MAX_STORAGE_GB, " GB")

    @field_validator("ssh_public_key", check_fields=False)
    @classmethod
    def _public_key(cls, value):
        _raise(public_key_problem(value, "ssh_public_key"))
        return value


class NamedInput(_Input):
    """The name rules alone: registry credentials (a name is how a rerun finds them)."""

    name: str | None = None


class _ContainerInput(_Input):
    """The options of a container (``_ContainerSettings``) the user gives, in the order their rules are checked."""

    name: str | None = None
    ports: list[str] | None = None
    env: dict[str, str] | None = None
    secret_env: dict[str, str] | None = None
    container_disk_gb: int | None = None
    docker_args: str | None = None
    cmd: list[str] | None = None
    entrypoint: list[str] | None = None


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
    problem = _can.cpu_pod_problem(p) or fleet_problem(p)
    if problem:
        return problem
    if p.get("wait") and p.get("wait_for") in ("ssh", "login") and not p.get("ssh"):
        return (
            f"wait_for: {p.get('wait_for')} waits for the pod's sshd, so it cannot be combined with ssh: false. "
            "Set ssh: true, or wait_for: running."
        )
    if p.get("wait_for") == "login":
        if not p.get("ssh_private_key_file"):
            return (
                "wait_for: login logs in with ssh_private_key_file, which was not given. Give the private key whose "
                "public half reaches the pod (ssh_public_key), or use wait_for: ssh."
            )
        if p.get("count") is not None:
            return "wait_for: login waits for one pod; with count, use wait_for: ssh."
    cpu = str(p.get("compute_type") or "").upper() == "CPU"
    cuda = _can.cuda_problems(p.get("allowed_cuda_versions"), p.get("min_cuda_version"), cpu, "pod",
                              "remove them for compute_type: CPU")
    problem = (
        unknown_gpu_problem(p.get("gpu_type_ids")) or _can.gpu_on_cpu_pod_problem(p)
        or gpu_choice_problem(p, "gpu_type_ids") or (cuda or [None])[0]
    )
    if problem:
        return problem
    if p.get("state") != "absent" and not (p.get("image") or p.get("template_id")):
        intent = [option for option in CREATE_INTENT_OPTIONS if p.get(option)]
        if intent:
            return (
                f"creating a pod needs image or template_id, but only {', '.join(intent)} "
                "were given. Add image (or template_id)."
            )
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
        _raise(pod_problem(self.__dict__))
        return self

    @classmethod
    def create_problem(cls, params):
        """A pod create needs a container, an image or a template (what it is placed on is ``PodSpec``'s to check:
        a backend refuses a spec it cannot place, whoever built it)."""
        if not (params.get("image") or params.get("template_id")):
            return "creating a pod needs image or template_id. Add image (or template_id)."
        return None


class TemplateInput(_ContainerInput):
    """A template's options: the container rules only."""


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

    @field_validator("pod_count")
    @classmethod
    def _nodes(cls, value):
        return check_within(value, CLUSTER_NODES, "pod_count must be {low} to {high}, got {value}.")

    @field_validator("gpu_count_per_pod")
    @classmethod
    def _gpus(cls, value):
        if value is not None and value < 1:
            raise ValueError("gpu_count_per_pod must be at least 1.")
        return value

    @field_validator("gpu_type_id")
    @classmethod
    def _gpu_type(cls, value):
        _raise(value and unknown_gpu_problem([value], "gpu_type_id", "NVIDIA H100 80GB HBM3"))
        return value

    @model_validator(mode="after")
    def _together(self):
        if self.wait and not self.ssh:
            raise ValueError("wait: true waits until every node answers SSH, so it needs ssh: true.")
        _raise(gpu_choice_problem(self.__dict__, "gpu_type_id"))
        return self


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
    problems += _can.cuda_problems(p.get("allowed_cuda_versions"), p.get("min_cuda_version"), cpu, "endpoint",
                                   "a CPU endpoint (cpu_flavor_ids) has none")
    problems += _can.scaler_problems(p)
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
