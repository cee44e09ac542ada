# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Normalized views of RunPod resources and the request specs of creates (plain ``record.Record``s: the readers and
the input rules have checked their values already)."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.normalize import with_ssh_port
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import Field, Record


class _View(Record):
    """Backends build views from API payloads they have already normalized; unknown keys are ignored."""


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
    # The exec form of the start command (autumn 2026; None: not given, or not in the answer).
    cmd: list[str] | None = None
    entrypoint: list[str] | None = None
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
    # The allocated totals across the pod's GPUs (``gpu.vcpuCount``, ``gpu.memory`` in GB; autumn 2026).
    gpu_vcpu_count: int | None = None
    gpu_memory_gb: int | None = None
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


# vcpuCount of a CPU pod when the task gives none (REST v2 requires one).
DEFAULT_VCPUS = 2


def spec_problem(error: Exception) -> str:
    """The message of a spec's validation error, without pydantic's decoration."""
    errors = getattr(error, "errors", None)
    if not callable(errors):
        return str(error)
    return "; ".join(str(entry.get("msg", "")).removeprefix("Value error, ") for entry in errors())


class PodSpec(_PodContainer):
    """What a user asked for, in the collection's vocabulary; each backend translates it to its body.

    A spec has what it is placed on (GPU types or requirements; a CPU pod's flavors: a backend refuses a spec it
    cannot place, whoever built it), ``start_ssh`` declares ``22/tcp``, and a CPU pod gets ``DEFAULT_VCPUS`` unless
    told otherwise (REST v2 requires a count). That a create needs an image or a template is
    ``_api.inputs.PodInput.create_problem``'s, what a CPU pod cannot have ``_api.capabilities``'.
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
    # Instead of gpu_type_ids: what a GPU type must be (docs/gpu-capacity.md); and the list-price cap.
    gpu_requirements: dict | None = None
    max_price_per_hr: float | None = None

    def check(self):
        if self.compute_type.upper() == "CPU":
            if not self.cpu_flavor_ids:
                raise ValueError("creating a CPU pod needs cpu_flavor_ids (e.g. ['cpu3c']).")
            if self.vcpu_count is None:
                self.vcpu_count = DEFAULT_VCPUS
        elif not self.gpu_type_ids and self.gpu_requirements is None:
            raise ValueError(
                "creating a GPU pod needs gpu_type_ids (e.g. ['NVIDIA GeForce RTX 4090']) or gpu_requirements."
            )
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
    started_at: str | None = None


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
    build_id: str | None = None  # the GitHub build that produced it (``source`` GIT_BUILD)


class Build(_View):
    """A GitHub build of an endpoint (``GET /v2/serverless/{id}/builds``): ``status`` one of ``BUILD_STATES``."""

    id: str
    status: str = ""
    error: str | None = None
    commit: str | None = None
    commit_message: str | None = None
    branch: str | None = None
    commit_date: str | None = None
    image: str | None = None
    started_at: str | None = None
    completed_at: str | None = None


BUILD_LIVE = ("PENDING", "BUILDING", "UPLOADING", "TESTING")
BUILD_FAILED = ("FAILED", "TEST_FAILED", "CANCELLED")  # terminal, and no release comes of them
BUILD_STATES = (*BUILD_LIVE, "COMPLETED", *BUILD_FAILED)


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
    # None with gpu_requirements: placement picks the type (``backend.clusters.create_placed``).
    gpu_type_id: str | None = None
    gpu_requirements: dict | None = None
    max_price_per_hr: float | None = None
    gpu_count_per_pod: int = 1
    pod_count: int = 2
    data_center_ids: list[str] = Field(default_factory=list)
    start_ssh: bool = True


class ClusterView(_View):
    """REST v2 ``Cluster``; the members themselves come from ``backend.clusters.pods``."""

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


class SecretSpec(_View):
    """An account secret to create; the value never shows in a repr."""

    name: str
    value: str = Field(default="", repr=False)
    description: str | None = None


class SecretView(_View):
    """An account secret as RunPod returns it: never its value (write-only), only when it last changed."""

    id: str
    name: str = ""
    description: str | None = None
    created_at: str | None = None
    value_last_updated_at: str | None = None


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
