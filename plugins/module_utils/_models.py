# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Normalized views of RunPod resources, identical whichever API backend produced them."""

from __future__ import annotations

import math
import re
import traceback
import unicodedata

try:
    from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
except ImportError:  # pragma: no cover - exercised by the sanity import test
    HAS_PYDANTIC = False
    PYDANTIC_IMPORT_ERROR: str | None = traceback.format_exc()

    def field_validator(*fields, **kwargs):  # type: ignore[no-redef]
        return lambda function: function

    class BaseModel:  # type: ignore[no-redef]
        """Stand-in so this file imports without pydantic; modules fail early via missing_required_lib."""

    def ConfigDict(**kwargs):  # type: ignore[no-redef]  # noqa: N802
        return kwargs

    def Field(default=None, **kwargs):  # type: ignore[no-redef]  # noqa: N802
        return default

    def model_validator(**kwargs):  # type: ignore[no-redef]
        return lambda function: function

else:
    HAS_PYDANTIC = True
    PYDANTIC_IMPORT_ERROR = None


class _View(BaseModel):
    # Backends build views from API payloads they have already normalized; unknown keys never reach here.
    # defer_build: a model's validator is built when first used, not at import; each module process uses a few
    # of the 30 models (about 4% of a pod_info task's module CPU, measured against the eager build).
    model_config = ConfigDict(extra="ignore", frozen=False, defer_build=True)


class PortMapping(_View):
    """One runtime port: container port ``private`` published as ``ip:public``."""

    private: int
    public: int | None = None
    ip: str | None = None
    type: str | None = None


class SshAddress(_View):
    host: str
    port: int
    user: str = "root"
    command: str = ""


class _ContainerSettings(_View):
    """The container settings a pod, a cluster node, a template and an endpoint share: declared once here."""

    container_disk_gb: int | None = None
    ports: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    docker_args: str | None = None
    # Container registry credential the image is pulled with (REST v2 ``registry``).
    registry_id: str | None = None


class _PodContainer(_ContainerSettings):
    """What the container of a pod (or of a cluster node) starts from and mounts: pod and cluster specs, pod views."""

    image: str | None = None
    template_id: str | None = None
    volume_gb: int | None = None
    volume_mount_path: str | None = None
    network_volume_id: str | None = None


class PodView(_PodContainer):
    id: str
    name: str = ""
    # The API's lifecycle value (REST v2 ``status``).
    status: str = ""
    actions: list[str] = Field(default_factory=list)
    # ``runtime`` was non-null (and non-empty) in the read.
    runtime_reported: bool = False
    uptime_seconds: int | None = None
    compute_type: str = "GPU"
    gpu_type: str | None = None
    gpu_count: int = 0
    cpu_flavor: str | None = None
    vcpu_count: int | None = None
    cloud_type: str | None = None
    cost_per_hr: float | None = None
    data_center_id: str | None = None
    runtime_ports: list[PortMapping] = Field(default_factory=list)
    # v2 ``ssh.direct`` as RunPod computed it; authoritative when present.
    ssh_direct: SshAddress | None = None
    ssh_proxy: SshAddress | None = None
    created_at: str | None = None
    started_at: str | None = None
    locked: bool = False
    # REST v2 ``cluster`` of a cluster member (None on a standalone pod): rank and overlay address come late.
    cluster_id: str | None = None
    cluster_rank: int | None = None
    cluster_role: str | None = None
    cluster_ip: str | None = None


def declares_port(ports: list[str] | None, number: int) -> bool:
    """True when any declared port's part before ``/`` is ``number`` (``22``, ``22/tcp``, even ``22/udp``)."""
    return any(str(item).split("/", 1)[0].strip() == str(number) for item in ports or [])


def with_ssh_port(ports: list[str] | None, start_ssh: bool) -> list[str]:
    """The declared ports, trimmed, plus ``22/tcp`` when SSH is wanted and port 22 is not declared yet."""
    ports = [str(port).strip() for port in ports or [] if str(port).strip()]
    if start_ssh and not declares_port(ports, 22):
        ports.append("22/tcp")
    return ports


# vcpuCount of a CPU pod when the task gives none (REST v2 requires one).
DEFAULT_VCPUS = 2


def cpu_pod_problem(values):
    """Why a CPU pod's ``values`` cannot be created (REST v2 has no persistent pod volume on a CPU pod); or None.

    The vCPU count rules (2 or more, a power of two) are ``PodInput``'s.
    """
    if str(values.get("compute_type") or "").upper() != "CPU":
        return None
    if values.get("volume_gb"):
        return (
            "a CPU pod cannot have a pod volume on REST v2 (volume_gb); attach a network volume "
            "(network_volume_id) or remove volume_gb."
        )
    return None


def spec_problem(error: Exception) -> str:
    """The message of a spec's validation error, without pydantic's decoration."""
    errors = getattr(error, "errors", None)
    if not callable(errors):
        return str(error)
    return "; ".join(str(entry.get("msg", "")).removeprefix("Value error, ") for entry in errors())


class PodSpec(_PodContainer):
    """What a user asked for, in the collection's vocabulary; each backend translates it to its body.

    The create rules live here, once: a create needs an image or a template and a type to place the pod on,
    and ``start_ssh`` declares ``22/tcp``; a CPU pod gets ``DEFAULT_VCPUS`` unless told otherwise (REST v2
    requires a count). A CPU pod's own limit is ``cpu_pod_problem``.
    """

    name: str
    compute_type: str = "GPU"
    gpu_type_ids: list[str] = Field(default_factory=list)
    gpu_count: int = 1
    cpu_flavor_ids: list[str] = Field(default_factory=list)
    vcpu_count: int | None = None
    cloud_type: str = "SECURE"
    data_center_ids: list[str] = Field(default_factory=list)
    start_ssh: bool = True
    allowed_cuda_versions: list[str] = Field(default_factory=list)
    min_cuda_version: str | None = None

    @model_validator(mode="after")
    def _create_rules(self):
        if not (self.image or self.template_id):
            raise ValueError("creating a pod needs image or template_id. Add image (or template_id).")
        if self.compute_type.upper() == "CPU":
            if not self.cpu_flavor_ids:
                raise ValueError("creating a CPU pod needs cpu_flavor_ids (e.g. ['cpu3c']).")
            if self.vcpu_count is None:
                self.vcpu_count = DEFAULT_VCPUS
        elif not self.gpu_type_ids:
            raise ValueError("creating a GPU pod needs gpu_type_ids (e.g. ['NVIDIA GeForce RTX 4090']).")
        self.ports = with_ssh_port(self.ports, self.start_ssh)
        return self

    def candidates(self) -> list[str]:
        """The types to try, in order: GPU type ids, or CPU flavor ids for a CPU pod."""
        return list(self.cpu_flavor_ids if self.compute_type.upper() == "CPU" else self.gpu_type_ids)


class Health(_View):
    """Serverless ``/health`` counters; missing counters are 0."""

    idle: int = 0
    initializing: int = 0
    ready: int = 0
    running: int = 0
    throttled: int = 0
    unhealthy: int = 0
    jobs: dict[str, int] = Field(default_factory=dict)


class Worker(_View):
    id: str
    status: str
    is_stale: bool = False
    version: int | None = None


class WorkerSummary(_View):
    workers: list[Worker] = Field(default_factory=list)
    # The endpoint's current version (REST v2 ``endpointVersion``); a worker on another one is stale.
    endpoint_version: int | None = None
    running: int = 0
    idle: int = 0
    initializing: int = 0
    throttled: int = 0
    unhealthy: int = 0
    total: int = 0


class _EndpointSettings(_ContainerSettings):
    """What a user sets on a serverless endpoint; the view adds what RunPod assigns."""

    template_id: str | None = None
    gpu_type_ids: list[str] = Field(default_factory=list)
    # REST v2 selects GPUs by pool (AMPERE_16, ADA_24, ...); the module maps GPU type ids onto pools.
    gpu_pools: list[str] = Field(default_factory=list)
    gpu_count: int | None = None
    workers_min: int | None = None
    workers_max: int | None = None
    idle_timeout: int | None = None
    scaler_type: str | None = None
    scaler_value: float | None = None
    flashboot: bool | None = None
    network_volume_id: str | None = None
    data_center_ids: list[str] = Field(default_factory=list)
    execution_timeout_ms: int | None = None
    # REST v2: the endpoint's own container settings (``_ContainerSettings``; ``registry_id`` is REST v2 only) and
    # routing type. ``env`` and ``ports`` stay None where the endpoint sets none (its template's apply).
    type: str | None = None
    image: str | None = None
    env: dict[str, str] | None = None  # type: ignore[assignment]
    ports: list[str] | None = None  # type: ignore[assignment]
    # CPU endpoints (REST v2 ``cpu`` entries); empty for GPU endpoints.
    cpu_flavor_ids: list[str] = Field(default_factory=list)
    vcpu_count: int | None = None
    allowed_cuda_versions: list[str] | None = None
    min_cuda_version: str | None = None


class EndpointSpec(_EndpointSettings):
    name: str


class EndpointView(_EndpointSettings):
    id: str
    name: str = ""
    created_at: str | None = None


class Rollout(_View):
    """REST v2 ``RolloutSummary``: how far the endpoint's current version has replaced the old workers."""

    in_progress: bool = False
    workers_on_latest: int = 0
    workers_total: int = 0
    percent_on_latest: int = 0


class EndpointRelease(_View):
    """The endpoint's current release (``GET /v2/serverless/{id}/releases``, newest entry) and its rollout."""

    version: int | None = None
    source: str | None = None
    id: str | None = None
    created_at: str | None = None
    rollout: Rollout = Field(default_factory=Rollout)


class _TemplateSettings(_ContainerSettings):
    serverless: bool = False


class TemplateSpec(_TemplateSettings):
    name: str
    image: str


class TemplateView(_TemplateSettings):
    id: str
    name: str = ""
    image: str | None = None


class ClusterSpec(_PodContainer):
    """A cluster as asked for: the homogeneous compute shape plus the container settings of every member."""

    name: str
    type: str = "TRAINING"
    gpu_type_id: str
    gpu_count_per_pod: int = 1
    pod_count: int = 2
    data_center_ids: list[str] = Field(default_factory=list)
    start_ssh: bool = True


class ClusterView(_View):
    """REST v2 ``Cluster``; the members themselves come from ``list_cluster_pods``."""

    id: str
    name: str = ""
    type: str = ""
    gpu_type_id: str | None = None
    gpu_count_per_pod: int | None = None
    pod_count: int | None = None
    template_id: str | None = None
    data_center_id: str | None = None
    network_cidr: str | None = None
    vxlan_id: int | None = None
    vxlan_port: int | None = None
    primary_pod_id: str | None = None
    primary_status: str | None = None
    primary_ssh_endpoint: str | None = None
    pods_total: int = 0
    pods_by_status: dict[str, int] = Field(default_factory=dict)
    created_at: str | None = None


# -- account resources (see _account.py) ------------------------------------------------------------------------


class NetworkVolumeSpec(_View):
    name: str
    size_gb: int
    data_center_id: str
    # STANDARD or HIGH_PERFORMANCE; None lets RunPod pick the data center's default tier.
    type: str | None = None


class NetworkVolumeView(_View):
    id: str
    name: str = ""
    size_gb: int | None = None
    data_center_id: str | None = None
    # None when RunPod does not report the tier.
    type: str | None = None


class RegistrySpec(_View):
    """A registry credential to create; the password never shows in a repr."""

    name: str
    username: str = Field(default="", repr=False)
    password: str = Field(default="", repr=False)


class RegistryView(_View):
    """A container registry credential; RunPod never returns its username or password."""

    id: str
    name: str = ""


class BillingReport(_View):
    """Spend of one resource kind over a bucketed window; amounts in USD, keys snake_case without ``Amount``."""

    kind: str
    bucket_size: str
    # The window RunPod resolved.
    start_time: str | None = None
    end_time: str | None = None
    resource_id: str | None = None
    totals: dict[str, float] = Field(default_factory=dict)
    # ``{"start_time", "end_time", "resource_id", <amounts>}`` per bucket (and per resource on per-resource kinds).
    records: list[dict] = Field(default_factory=list)


# -- user input: rules checked before any API call -------------------------------------------------------------
# Each rule is written once and says what is wrong and how to fix it. Limits come from RunPod's API documents
# where they give one; the others are the collection's own ceilings. The user-facing list of every rule is
# docs/docsite/rst/guide_input_checks.rst.

NAME_MAX_LENGTH = 191  # REST v2 documents no limit; kept from the retired REST v1 document (PodCreateInput.name)
PORT_PROTOCOLS = ("http", "tcp")
MAX_GPU_COUNT = 16
MAX_STORAGE_GB = 4096  # the largest storage size the API documents (a network volume)
MIN_PERSISTENT_VOLUME_GB = 10  # REST v2 PersistentMount.size minimum
MAX_VCPU_COUNT = 512
ENV_KEY = re.compile(r"\A[A-Za-z_][A-Za-z0-9_]*\Z")
PORT_ENTRY = re.compile(r"\A(\d+)/([^/]*)\Z")
DATA_CENTER_ID = re.compile(r"\A[A-Z]{2,4}-[A-Z]{2,4}-[0-9]{1,3}\Z")


def name_problem(value, option="name"):
    """Why ``value`` cannot name a RunPod resource, or None.

    Names are read back without surrounding whitespace, so such a name would never be found again by a lookup:
    every run would create another resource, and ``state: absent`` would never delete it.
    """
    if not value:
        return f"{option} must not be empty"
    if value != value.strip():
        return (
            f"{option} {value!r} has leading or trailing whitespace (a YAML | block adds a newline); names read "
            "back from RunPod carry none, so the resource could never be found by this name again. Remove it."
        )
    if any(unicodedata.category(character) in ("Cc", "Cf") for character in value):
        return f"{option} {value!r} contains a control character or an invisible formatting character"
    if len(value) > NAME_MAX_LENGTH:
        return f"{option} must be at most {NAME_MAX_LENGTH} characters (it has {len(value)})"
    return None


def port_problem(entry):
    match = PORT_ENTRY.match(entry)
    if entry.isdigit():
        return f"ports entry {entry!r} needs a protocol: write it as {entry}/tcp or {entry}/http"
    if match is None:
        return f"ports entry {entry!r} must be <port>/<protocol>, such as 8888/http or 22/tcp"
    if not 1 <= int(match.group(1)) <= 65535:
        return f"ports entry {entry!r}: the port must be 1 to 65535"
    if match.group(2) not in PORT_PROTOCOLS:
        return f"ports entry {entry!r}: the protocol must be http or tcp"
    return None


def check_ports(ports):
    """``ports`` as given (entries trimmed); raises ValueError for a malformed entry or a port declared twice."""
    if ports is None:
        return None
    cleaned: list[str] = []
    seen: dict[int, str] = {}
    for entry in ports:
        entry = str(entry).strip()
        problem = port_problem(entry)
        if problem:
            raise ValueError(problem)
        number = int(entry.split("/", 1)[0])
        if number in seen:
            raise ValueError(f"port {number} is declared more than once in ports ({seen[number]}, {entry})")
        seen[number] = entry
        cleaned.append(entry)
    return cleaned


def check_env(env):
    """``env`` as str -> str; raises ValueError for a key that is not a variable name or a non-scalar value."""
    if env is None:
        return None
    if not isinstance(env, dict):
        raise ValueError(f"env must be a mapping of variable names to strings, got {type(env).__name__}")
    result = {}
    for key, value in env.items():
        if not isinstance(key, str) or not ENV_KEY.match(key):
            raise ValueError(
                f"env key {key!r} is not a valid environment variable name (letters, digits and _, not starting "
                "with a digit)"
            )
        if isinstance(value, bool) or not isinstance(value, (str, int, float)) or (
            isinstance(value, float) and not math.isfinite(value)
        ):
            raise ValueError(
                f"env value of {key} must be a string (or a number), got {type(value).__name__} {value!r}; quote "
                "it in YAML, or serialize structured data yourself (for example with to_json)"
            )
        result[key] = value if isinstance(value, str) else str(value)
    return result


def check_count(option, value, low, high, unit=""):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{option} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{option} must be at least {low}{unit} (got {value})")
    if value > high:
        raise ValueError(f"{option} must be at most {high}{unit} (got {value})")
    return value


def check_data_center_ids(values):
    if values is None:
        return None
    for value in values:
        if not isinstance(value, str) or not DATA_CENTER_ID.match(value):
            raise ValueError(
                f"data_center_ids entry {value!r} is not a RunPod data center id such as US-TX-3 or EU-RO-1"
            )
    return list(values)


class _Input(BaseModel):
    """A module's options as the user gave them; validating one raises with the first broken rule's message."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built when first used, as _View

    @field_validator("name", check_fields=False)
    @classmethod
    def _name(cls, value):
        if value is not None:
            problem = name_problem(value)
            if problem:
                raise ValueError(problem)
        return value

    @field_validator("ports", mode="before", check_fields=False)
    @classmethod
    def _ports(cls, value):
        return check_ports(value)

    @field_validator("env", mode="before", check_fields=False)
    @classmethod
    def _env(cls, value):
        return check_env(value)

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


class NamedInput(_Input):
    """The name rules alone: network volumes and registry credentials (a name is how a rerun finds them)."""

    name: str | None = None


class _ContainerInput(_Input):
    """The options of a container (``_ContainerSettings``) the user gives, in the order their rules are checked."""

    name: str | None = None
    ports: list[str] | None = None
    env: dict[str, str] | None = None
    container_disk_gb: int | None = None


class PodInput(_ContainerInput):
    volume_gb: int | None = None
    gpu_count: int | None = None
    vcpu_count: int | None = None
    data_center_ids: list[str] | None = None

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


class TemplateInput(_ContainerInput):
    """A template's options: the container rules only."""


class ClusterInput(_ContainerInput):
    """A cluster's options: its nodes are pods, so their containers and volumes take the pods' rules."""

    volume_gb: int | None = None
    data_center_ids: list[str] | None = None


class EndpointInput(_Input):
    name: str | None = None
    data_center_ids: list[str] | None = None


def input_problem(model, params):
    """``(validated input, None)`` or ``(None, message)`` for a module's params checked against ``model``."""
    try:
        return model.model_validate({key: params.get(key) for key in model.model_fields}), None
    except ValueError as error:
        return None, spec_problem(error)
