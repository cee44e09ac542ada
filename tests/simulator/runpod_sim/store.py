# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one store behind every surface: pods, templates, endpoints, their timed lifecycle and the sim config.

REST v2 answers are *views* of these records (see ``views.py``).
Time: lifecycle deadlines use ``time.monotonic()``; every configured delay is multiplied by ``time_scale``
when it is scheduled, so ``time_scale=0.01`` turns a 2-minute boot into 1.2 s.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import functools
import secrets
import string
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .account import Charge, NetworkVolume, Registry
from .jobs import JobBook

# The six v2 lifecycle values.
PROVISIONING = "PROVISIONING"
STARTING = "STARTING"
RUNNING = "RUNNING"
EXITED = "EXITED"
ERROR = "ERROR"
TERMINATED = "TERMINATED"

# What POST /v2/pods/{id}/action accepts per status (runpod-api.md 1.2).
ACTIONS_BY_STATUS: dict[str, tuple[str, ...]] = {
    PROVISIONING: ("stop", "terminate"),
    STARTING: ("stop", "terminate"),
    RUNNING: ("stop", "restart", "terminate"),
    EXITED: ("start", "terminate"),
    ERROR: ("start", "terminate"),
    TERMINATED: (),
}

SSH_BEHAVIOURS = ("refused", "accept_close", "not_ssh", "banner", "sshd")
# The real sshd's container log (RunPod's start script prints ``SSH host keys:`` and each key's ``ssh-keygen -lf``
# line): the block of the keys it presents, nothing, the block of other keys (a pod that is not the one logged), or
# sshd's start and the rest of the start script with no key (an image's own script: ``service ssh start``).
SSH_HOST_KEY_LOGS = ("print", "none", "wrong", "started")
# Whom the real sshd lets in: the keys PUBLIC_KEY brought (key), nobody because no key reached authorized_keys
# (no_key: an image that ignores PUBLIC_KEY), or nobody as root (root_refused: PermitRootLogin no).
SSH_LOGINS = ("key", "no_key", "root_refused")
# When an answer's RateLimit is counted: as the request arrives, or as the answer leaves (a gateway that writes the
# headers after the handler, so r also counts the requests that arrived while this one was handled).
RATE_LIMIT_COUNTED_AT = ("arrival", "answer")
_CHOICES = {"ssh_behaviour": SSH_BEHAVIOURS, "ssh_host_key_log": SSH_HOST_KEY_LOGS, "ssh_login": SSH_LOGINS,
            "rate_limit_counted_at": RATE_LIMIT_COUNTED_AT}

# Per-GPU secure-cloud price (USD/h) for the GPU types tests commonly name; others cost DEFAULT_GPU_PRICE.
GPU_PRICES = {
    "NVIDIA GeForce RTX 4090": 0.69,
    "NVIDIA GeForce RTX 3090": 0.43,
    "NVIDIA RTX A4000": 0.25,
    "NVIDIA RTX A5000": 0.27,
    "NVIDIA RTX A6000": 0.49,
    "NVIDIA A40": 0.40,
    "NVIDIA L4": 0.43,
    "NVIDIA L40S": 0.86,
    "NVIDIA A100 80GB PCIe": 1.64,
    "NVIDIA A100-SXM4-80GB": 1.74,
    "NVIDIA H100 80GB HBM3": 2.99,
    "NVIDIA H100 PCIe": 2.39,
    "NVIDIA H200": 3.59,
    "AMD Instinct MI300X OAM": 2.49,
}
PRICE_KEYS = ("secure", "community", "billed")
DEFAULT_GPU_PRICE = 0.50
# The community-cloud list price as a share of the secure on-demand price; the simulator's own rule.
COMMUNITY_SHARE = 0.8
CPU_PRICE_PER_VCPU = 0.03
DEFAULT_GPU_TYPE = "NVIDIA GeForce RTX 4090"
DATA_CENTERS = ("US-TX-3", "EU-RO-1", "CA-MTL-1", "US-IL-1", "EU-SE-1")

_ID_ALPHABET = string.ascii_lowercase + string.digits


def new_id(length: int = 14) -> str:
    return "".join(secrets.choice(_ID_ALPHABET) for _ignored in range(length))


@functools.lru_cache(maxsize=65536)
def _rfc3339_second(second: int) -> str:
    return datetime.fromtimestamp(second, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def rfc3339(epoch: float | None) -> str | None:
    # Cached per whole second: listing 1,000 pods formats 2,000 timestamps.
    return None if epoch is None else _rfc3339_second(int(epoch))


@functools.lru_cache(maxsize=4096)
def parse_ports(ports: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """``("8888/http", "22/tcp")`` -> ``((8888, "http"), (22, "tcp"))``; entries without a number are skipped."""
    parsed = []
    for entry in ports:
        number, _ignored, proto = str(entry).partition("/")
        if number.strip().isdigit():
            parsed.append((int(number.strip()), (proto or "tcp").strip().lower()))
    return tuple(parsed)


def js_date(epoch: float) -> str:
    """The date text RunPod writes into ``lastStatusChange`` (a JS ``Date.toString()``)."""
    return datetime.fromtimestamp(epoch, tz=UTC).strftime("%a %b %d %Y %H:%M:%S GMT+0000 (Coordinated Universal Time)")


@dataclass
class SimConfig:
    """Knobs changed through ``/_sim/config``. Delays are in simulated seconds (scaled by ``time_scale``)."""

    time_scale: float = 1.0
    provisioning_delay: float = 5.0
    starting_delay: float = 10.0
    ssh_delay: float = 0.0
    ssh_behaviour: str = "sshd"
    ssh_host_key_log: str = "print"
    ssh_login: str = "key"
    propagation_lag: float = 3.0
    worker_boot_delay: float = 5.0
    # 0 (default): off. N > 0: a worker that boots ends its boot at its endpoint's Nth /health read while it boots,
    # before that read is answered, so a test steps the boot to a poll of the wait instead of racing the clock
    # (then both of one poll's reads, /health and the worker list, see it booted).
    worker_boot_health_reads: int = 0
    # How long a REST v2 pod create takes to answer; RunPod needs about a second. Creates overlap:
    # each waits on its own, and the store is changed only after the wait, in one step (no await inside).
    create_latency: float = 1.0
    # After a release (a PATCH that changed the endpoint), one stale worker is replaced every rollout_step
    # seconds; each old worker serves until its replacement is ready.
    rollout_step: float = 2.0
    # RunPod's quota (quota.py): a RateLimit-Policy text such as '"minute";q=60;w=60, "hour";q=3000;w=3600,
    # "day";q=50000;w=86400' ("example" is that one); "" (default) is off, unless a per-window key below is set.
    rate_limit: str = ""
    # Authenticated API requests per 60 s window (0: off, the default); see also the hour and day windows.
    rate_limit_per_minute: int = 0
    # When an answer's RateLimit ``r`` is counted (RATE_LIMIT_COUNTED_AT): "arrival" (default) or "answer".
    rate_limit_counted_at: str = "arrival"
    out_of_stock_gpu_types: list[str] = field(default_factory=list)
    # Per-pod overrides applied at create time to pods with this exact name: {"name": {"ssh_behaviour": ...}}.
    name_overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Images that start sshd on their own (keys baked in). Every other image follows RunPod's convention:
    # sshd starts only when a PUBLIC_KEY reached the container (env, or account keys injected by startSsh).
    own_sshd_images: list[str] = field(default_factory=list)
    # Check every /v2 response against the document (contract.py) and record violations.
    validate_responses: bool = True
    # Seconds after RUNNING before the host publishes the pod's port mappings (runtime ports, ssh.direct).
    port_map_delay: float = 3.0
    # sshd's version line arrives in two pieces, the second this many seconds after the first.
    banner_delay: float = 1.0
    # Free GPUs per GPU type and data center; gpu_stock overrides it: {"<type>": {"<dc>" or "*": count}}.
    gpu_stock_default: int = 64
    gpu_stock: dict[str, dict[str, int]] = field(default_factory=dict)
    # List prices per GPU type, overriding the built-in ones: {"<type>": {"secure": x, "community": y, "billed": z}};
    # "billed" is the per-GPU rate a new pod of the type is billed (its cost) when it differs from the list price.
    gpu_prices: dict[str, dict[str, float]] = field(default_factory=dict)
    # Account balance in USD; at 0 or below, creating or starting a pod answers 402.
    balance: float = 100.0
    # GPU types (pods) and serverless pools (endpoints) this account may not use: 403.
    restricted_gpu_types: list[str] = field(default_factory=lambda: ["NVIDIA B200"])
    restricted_pools: list[str] = field(default_factory=lambda: ["BLACKWELL_180"])
    # Data centers whose machines have no public IP: tcp ports map on a private address only.
    private_ip_data_centers: list[str] = field(default_factory=lambda: ["EU-SE-1"])
    # Requests per window (simulated seconds, so scaled by time_scale); 0 turns a window off.
    rate_limit_per_hour: int = 0
    rate_limit_per_day: int = 0
    # The server-side page size of every cursor-paged list (paging.py): the document's default, 1000; a test sets
    # 2 or 3 so every list crosses pages. It caps the page; the client's ``limit`` still applies below it.
    page_size: int = 1000
    # Quirks RunPod's own clients report (not in the document), modelled unless turned off: an endpoint created
    # without ``timeout`` reads back 0, and a template with no mounts omits ``mounts`` from its answers.
    quirk_endpoint_timeout_zero: bool = True
    quirk_template_mounts_omitted: bool = True

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


CONFIG_FIELDS = {f.name: f for f in dataclasses.fields(SimConfig)}
POD_OVERRIDE_KEYS = (
    "provisioning_delay",
    "starting_delay",
    "ssh_delay",
    "ssh_behaviour",
    "port_map_delay",
    "banner_delay",
    "ssh_host_key_log",
    "ssh_login",
)


class ConfigError(ValueError):
    """Bad admin input; the admin API answers 400 with the message."""


def _check_choice(key: str, value: Any) -> None:
    if value not in _CHOICES[key]:
        raise ConfigError(f"unknown {key} {value!r}; expected one of {', '.join(_CHOICES[key])}")


def validate_pod_overrides(overrides: Any) -> dict[str, Any]:
    if not isinstance(overrides, dict):
        raise ConfigError("pod overrides must be a JSON object")
    clean: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in POD_OVERRIDE_KEYS:
            raise ConfigError(f"unknown pod override {key!r}; expected one of {', '.join(POD_OVERRIDE_KEYS)}")
        if key in _CHOICES:
            _check_choice(key, value)
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ConfigError(f"{key} must be a non-negative number of seconds")
        clean[key] = value
    return clean


def apply_config(config: SimConfig, changes: Any) -> None:
    """Validate everything first, then apply, so a bad key leaves the config untouched."""
    if not isinstance(changes, dict):
        raise ConfigError("config must be a JSON object")
    staged = copy.deepcopy(config)
    for key, value in changes.items():
        if key not in CONFIG_FIELDS:
            raise ConfigError(f"unknown config key {key!r}; known keys: {', '.join(sorted(CONFIG_FIELDS))}")
        if key in _CHOICES:
            _check_choice(key, value)
        elif key in (
            "out_of_stock_gpu_types",
            "own_sshd_images",
            "restricted_gpu_types",
            "restricted_pools",
            "private_ip_data_centers",
        ):
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise ConfigError(f"{key} must be a list of strings")
        elif key == "rate_limit":
            if not isinstance(value, str):
                raise ConfigError('rate_limit must be a RateLimit-Policy text, e.g. "example" or ""')
            from .quota import parse_policy

            parse_policy(value)  # raises ConfigError with the reason
        elif key == "page_size":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
                raise ConfigError("page_size must be an integer from 1 to 1000")
        elif key in ("validate_responses", "quirk_endpoint_timeout_zero", "quirk_template_mounts_omitted"):
            if not isinstance(value, bool):
                raise ConfigError(f"{key} must be a boolean")
        elif key == "name_overrides":
            if not isinstance(value, dict):
                raise ConfigError("name_overrides must be an object of pod name -> overrides")
            value = {str(name): validate_pod_overrides(item) for name, item in value.items()}
        elif key in (
            "rate_limit_per_minute",
            "rate_limit_per_hour",
            "rate_limit_per_day",
            "gpu_stock_default",
            "worker_boot_health_reads",
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{key} must be a non-negative integer")
        elif key == "gpu_stock":
            if not isinstance(value, dict) or not all(
                isinstance(per_dc, dict)
                and all(
                    isinstance(count, int) and not isinstance(count, bool) and count >= 0 for count in per_dc.values()
                )
                for per_dc in value.values()
            ):
                raise ConfigError('gpu_stock must be {"<gpu type>": {"<data center>" or "*": <free GPUs>}}')
        elif key == "gpu_prices":
            if not isinstance(value, dict) or not all(
                isinstance(prices, dict)
                and set(prices) <= set(PRICE_KEYS)
                and all(
                    isinstance(price, (int, float)) and not isinstance(price, bool) and price >= 0
                    for price in prices.values()
                )
                for prices in value.values()
            ):
                raise ConfigError('gpu_prices must be {"<gpu type>": {"secure"|"community"|"billed": <USD/h>}}')
        elif key == "balance":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError("balance must be a number")
            value = float(value)
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ConfigError(f"{key} must be a non-negative number")
            if key == "time_scale" and value <= 0:
                raise ConfigError("time_scale must be greater than 0")
            value = float(value)
        setattr(staged, key, value)
    for key in CONFIG_FIELDS:
        setattr(config, key, getattr(staged, key))


@dataclass
class Pod:
    id: str
    name: str
    image: str
    created_at: float
    gpu_type: str | None = DEFAULT_GPU_TYPE
    gpu_count: int = 1
    cpu_flavor: str | None = None
    vcpu_count: int = 0
    memory_gb: int = 0
    args: str = ""
    disk_gb: int = 50
    volume_gb: int = 0
    volume_mount_path: str = "/workspace"
    network_volume_id: str | None = None
    ports: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    registry: str | None = None
    cloud: str = "SECURE"
    # The per-GPU rate this pod is billed, fixed at create (Store.billed_price); None: the built-in price.
    billed_per_gpu: float | None = None
    locked: bool = False
    global_networking: bool = False
    data_center_preferences: list[str] = field(default_factory=list)
    status: str = PROVISIONING
    data_center_id: str | None = None
    placed_data_center: str | None = None  # chosen at create from the stock; shown once the machine is assigned
    machine_id: str | None = None
    proxy_user: str | None = None
    cuda_version: str | None = None
    started_at: float | None = None  # wall clock of the last start
    running_since: float | None = None  # monotonic, for uptime
    last_status_change: str = ""
    terminated_at: float | None = None
    hidden: bool = False  # deleted out of band: 404 everywhere
    next_at: float | None = None  # monotonic deadline of the next lifecycle step
    ssh_ready_at: float | None = None
    ports_at: float | None = None  # monotonic: when the host publishes the port mappings
    # private port -> public port for tcp ports (real loopback sockets) and http ports (proxy numbers).
    port_map: dict[int, int] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    listen_wanted: bool = False
    # Membership {"id", "rank", "role"?, "ip"} of a cluster member (api_v2_clusters.py); None if standalone.
    cluster: dict[str, Any] | None = None
    # The env as the container saw it at its last boot: ``{{ RUNPOD_SECRET_<name> }}`` values resolved then
    # (api_secrets.py); a running pod keeps it when a secret rotates, until its next start or restart.
    boot_env: dict[str, str] | None = None
    # RunPod's pod-scoped RUNPOD_API_KEY, in the env of the pod's processes: it acts on this pod only (app.py).
    api_key: str = field(default_factory=lambda: "rpa_pod_" + secrets.token_hex(16))
    # What runtime.gpus[].util/.memoryUtil, cpu.util and memory.util report while running (admin-scripted; the
    # simulated pods' nvidia-smi reads it too): {"gpus": [{"util", "memoryUtil"}], "cpu": n, "memory": n}.
    utilization: dict[str, Any] = field(default_factory=dict)
    # Insertion order (Store.sequence): breaks ties between pods created in the same instant when paging.
    seq: int = 0
    # Bumped on every attribute assignment (and by touch() for in-place changes): keys the view cache.
    revision: int = 0

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name != "revision":
            object.__setattr__(self, "revision", self.__dict__.get("revision", 0) + 1)

    def touch(self) -> None:
        self.revision += 1

    @property
    def actions(self) -> list[str]:
        actions = list(ACTIONS_BY_STATUS[self.status])
        if self.locked and "stop" in actions:
            actions.remove("stop")
        return actions

    @property
    def is_gpu(self) -> bool:
        return self.cpu_flavor is None

    def cost_per_hr(self) -> float:
        if self.status in (EXITED, TERMINATED):
            return 0.0
        if self.is_gpu:
            per_gpu = self.billed_per_gpu
            if per_gpu is None:
                per_gpu = GPU_PRICES.get(self.gpu_type or "", DEFAULT_GPU_PRICE)
            return round(per_gpu * self.gpu_count, 3)
        return round(CPU_PRICE_PER_VCPU * self.vcpu_count, 3)

    def declared_ports(self) -> list[tuple[int, str]]:
        return list(parse_ports(tuple(self.ports)))

    def declares_ssh(self) -> bool:
        return any(number == 22 and proto == "tcp" for number, proto in self.declared_ports())


@dataclass
class Template:
    id: str
    name: str
    image: str
    args: str = ""
    disk_gb: int = 50
    volume_gb: int = 0
    volume_mount_path: str = "/workspace"
    ports: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    registry: str | None = None
    category: str = "NVIDIA"
    public: bool = False
    serverless: bool = False
    start_ssh: bool = True
    start_jupyter: bool = True
    allowed_cuda_versions: list[str] = field(default_factory=list)
    # Created implicitly for an endpoint given an image; deleted with it.
    bound_endpoint_id: str | None = None


@dataclass
class Worker:
    id: str
    created_at: float  # wall clock
    ready_at: float  # monotonic
    gpu_type: str | None
    data_center_id: str
    status_override: str | None = None
    version: int = 1  # the endpoint version (release) the worker runs
    image: str | None = None
    start_at: float = 0.0  # monotonic: a scheduled replacement is not allocated before
    retire_at: float | None = None  # monotonic: an old worker leaves once its replacement is ready
    replaced_by: str | None = None
    # The env the worker booted with: secrets resolved when it was allocated (api_secrets.py); a rotation
    # reaches only the workers allocated after it (a release's replacements, a scale-up).
    boot_env: dict[str, str] = field(default_factory=dict)


@dataclass
class Endpoint:
    id: str
    name: str
    created_at: float
    visible_at: float  # monotonic: when the invoke service learns the id
    type: str = "QUEUE"
    template_id: str | None = None
    gpu_pools: list[str] = field(default_factory=list)
    gpu_type_ids: list[str] = field(default_factory=list)
    gpu_count: int = 1
    excluded_types: list[str] = field(default_factory=list)
    allowed_cuda_versions: list[str] = field(default_factory=list)
    min_cuda_version: str | None = None
    cpu: list[dict[str, Any]] = field(default_factory=list)
    workers_min: int = 0
    workers_max: int = 3
    idle_timeout: int = 10
    scaler_type: str = "QUEUE_DELAY"
    scaler_value: float = 4
    flashboot: str = "OFF"
    timeout_ms: int = 300000  # what jobs run under (jobs.py)
    # Whether a create or PATCH set ``timeout``: one that never did reads back 0 (the quirk, views.py), while its
    # jobs still run under the 300000 ms default.
    timeout_given: bool = True
    data_center_ids: list[str] = field(default_factory=list)
    network_volumes: list[str] = field(default_factory=list)
    workers: list[Worker] = field(default_factory=list)
    health_sequence: list[Any] = field(default_factory=list)
    health_reads_while_booting: int = 0  # counted for worker_boot_health_reads
    version: int = 1
    # Release history, oldest first: {"id", "version", "source", "buildId", "createdAt" (epoch), "diff"}.
    releases: list[dict[str, Any]] = field(default_factory=list)
    # GitHub builds, oldest first (api_builds.py): {"id", "status", "commitHash", ..., "seq"}.
    builds: list[dict[str, Any]] = field(default_factory=list)


class Store:
    """All simulated resources plus the timed lifecycle; mutated only from the event loop thread."""

    def __init__(self, config: SimConfig, listeners: Any = None) -> None:
        self.startup_config = copy.deepcopy(config)
        self.config = config
        self.listeners = listeners  # ListenerManager; None in pure unit use
        if listeners is not None:
            # The real sshd asks at each login whom it lets in, and at each start what it prints.
            listeners.pod_setting = self.pod_setting
        self.pods: dict[str, Pod] = {}
        self.templates: dict[str, Template] = {}
        self.endpoints: dict[str, Endpoint] = {}
        self.account_ssh_keys: list[str] = []
        self.clusters: dict[str, Any] = {}  # api_v2_clusters.Cluster records
        self.cluster_settings: dict[str, Any] = {}  # admin knobs of api_v2_clusters (reset with the store)
        # Network volumes, registry credentials and the billing ledger: see account.py.
        self.network_volumes: dict[str, NetworkVolume] = {}
        self.registries: dict[str, Registry] = {}
        self.billing: list[Charge] = []
        self.secrets: dict[str, Any] = {}  # api_secrets.Secret records by id
        self.secret_faults: dict[str, Any] = {}  # scripted failures of a secret PATCH's second step (api_secrets.py)
        self._sequence = 0
        self._order: dict[str, int] = {}  # id -> insertion number, for records without their own (paging)
        self._timed: dict[str, Pod] = {}  # pods with a pending lifecycle step
        self._scheduled: list[tuple[float, Any]] = []  # (monotonic deadline, action()) for scripted events
        self.view_cache: dict[str, tuple[int, dict[str, Any]]] = {}  # pod id -> (revision, rendered v2 pod)
        self.jobs = JobBook(self)  # serverless jobs (jobs.py)

    # -- time -------------------------------------------------------------------------------------------------
    @staticmethod
    def now() -> float:
        return time.monotonic()

    def scaled(self, seconds: float) -> float:
        return float(seconds) * self.config.time_scale

    async def create_pause(self) -> None:
        """The create latency (``create_latency``), slept before a create touches the store."""
        if self.config.create_latency > 0:
            await asyncio.sleep(self.scaled(self.config.create_latency))

    def pod_setting(self, pod: Pod, key: str) -> Any:
        return pod.overrides.get(key, getattr(self.config, key))

    # -- reset ------------------------------------------------------------------------------------------------
    def reset(self) -> None:
        for pod in self.pods.values():
            self._release_ports(pod)
        self.pods.clear()
        self.templates.clear()
        self.endpoints.clear()
        self.account_ssh_keys.clear()
        self.clusters.clear()
        self.cluster_settings.clear()
        self.network_volumes.clear()
        self.registries.clear()
        self.billing.clear()
        self.secrets.clear()
        self.secret_faults.clear()
        self._order.clear()
        self._timed.clear()
        self._scheduled.clear()
        self.view_cache.clear()
        self.jobs.reset()
        fresh = copy.deepcopy(self.startup_config)
        for key in CONFIG_FIELDS:
            setattr(self.config, key, getattr(fresh, key))

    def sequence(self) -> int:
        """The next insertion number: paging orders records created in the same instant by it."""
        self._sequence += 1
        return self._sequence

    def order_of(self, record_id: str) -> int:
        """A record's insertion number, given on first use; the callers walk dicts in insertion order, so the
        numbers follow creation order (templates and endpoints have no timestamp of their own to sort by)."""
        if record_id not in self._order:
            self._order[record_id] = self.sequence()
        return self._order[record_id]

    # -- pods -------------------------------------------------------------------------------------------------
    def live_pods(self) -> list[Pod]:
        """Pods that list endpoints show: not deleted and not terminated."""
        return [pod for pod in self.pods.values() if not pod.hidden and pod.terminated_at is None]

    def get_pod(self, pod_id: str) -> Pod | None:
        pod = self.pods.get(pod_id)
        if pod is None or pod.hidden:
            return None
        return pod

    def add_pod(self, pod: Pod, *, initial_status: str = PROVISIONING) -> Pod:
        overrides = self.config.name_overrides.get(pod.name)
        if overrides:
            pod.overrides = {**overrides, **pod.overrides}
        pod.last_status_change = f"Rented by User: {js_date(pod.created_at)}"
        pod.seq = self.sequence()
        self.pods[pod.id] = pod
        if initial_status == RUNNING:
            self._assign_machine(pod)
            self._enter_running(pod, self.now(), mapped_now=True)
            pod.ssh_ready_at = self.now()
            self._advance_pod(pod, self.now())
        else:
            pod.status = PROVISIONING
            pod.next_at = self.now() + self.scaled(self.pod_setting(pod, "provisioning_delay"))
            self._timed[pod.id] = pod
        return pod

    def schedule(self, delay: float, action: Any) -> None:
        """Run ``action()`` once ``delay`` simulated seconds from now have passed (scripted scenarios)."""
        self._scheduled.append((self.now() + self.scaled(delay), action))

    def advance(self) -> None:
        """Apply every lifecycle step and scripted event whose deadline has passed, in the order of their deadlines.

        Nothing reads the store between two requests, so a scripted event that fell due after a pod's placement
        must still find the pod placed, however long the gap since the last request (cheap: only pods with
        pending steps are visited).
        """
        moment = self.now()
        if self._scheduled:
            due = sorted((entry for entry in self._scheduled if entry[0] <= moment), key=lambda entry: entry[0])
            if due:
                self._scheduled = [entry for entry in self._scheduled if entry[0] > moment]
                for deadline, action in due:
                    self._advance_timed(deadline)
                    action()
        self._advance_timed(moment)
        self.jobs.advance(moment)

    def next_due(self) -> float | None:
        """The earliest deadline ``advance`` will act on: a scripted event, a pod's next lifecycle step or a job's
        end (monotonic; None: nothing scheduled). The ticker sleeps until then instead of polling."""
        moments = [deadline for deadline, _action in self._scheduled]
        for pod in self._timed.values():
            moments += [pod.next_at, pod.ports_at, pod.ssh_ready_at]
        moments.append(self.jobs.next_end())
        return min((moment for moment in moments if moment is not None), default=None)

    def _advance_timed(self, now: float) -> None:
        for pod in list(self._timed.values()):
            self._advance_pod(pod, now)

    def _advance_pod(self, pod: Pod, now: float) -> None:
        while True:
            if pod.status == PROVISIONING and pod.next_at is not None and now >= pod.next_at:
                self._assign_machine(pod)
                pod.status = STARTING
                pod.next_at = pod.next_at + self.scaled(self.pod_setting(pod, "starting_delay"))
                continue
            if pod.status == STARTING and pod.next_at is not None and now >= pod.next_at:
                self._enter_running(pod, pod.next_at)
                continue
            break
        if pod.status == RUNNING and pod.ports_at is not None and now >= pod.ports_at:
            pod.ports_at = None
            self._map_ports(pod)
            self._sync_listeners(pod)
        if pod.status == RUNNING and pod.ssh_ready_at is not None and now >= pod.ssh_ready_at:
            pod.ssh_ready_at = None
            pod.listen_wanted = True
            self._sync_listeners(pod)
        pending = pod.ssh_ready_at is not None or pod.ports_at is not None
        if pod.status in (PROVISIONING, STARTING) or (pod.status == RUNNING and pending):
            self._timed[pod.id] = pod
        else:
            self._timed.pop(pod.id, None)

    def _assign_machine(self, pod: Pod) -> None:
        if pod.machine_id is None:
            pod.machine_id = new_id(12)
            pod.proxy_user = f"{pod.id}-{secrets.token_hex(4)}"
            preferences = pod.data_center_preferences or list(DATA_CENTERS)
            pod.data_center_id = pod.placed_data_center or preferences[0]
            pod.cuda_version = "12.8" if pod.is_gpu else None

    def _enter_running(self, pod: Pod, at: float, *, mapped_now: bool = False) -> None:
        pod.status = RUNNING
        if pod.boot_env is None:  # a (re)boot resolves the secrets; cleared by start and restart
            from .api_secrets import resolve_env

            pod.boot_env = resolve_env(self, pod.env)
        pod.next_at = None
        pod.started_at = time.time() - max(0.0, self.now() - at)
        pod.running_since = at
        if mapped_now or pod.port_map:  # a restart keeps the host's mappings
            self._map_ports(pod)
        else:
            # The host publishes the mappings some seconds after the container runs (runtime.ports stays empty).
            pod.ports_at = at + self.scaled(self.pod_setting(pod, "port_map_delay"))
        pod.ssh_ready_at = at + self.scaled(self.pod_setting(pod, "ssh_delay"))

    def _map_ports(self, pod: Pod) -> None:
        wanted = dict(pod.declared_ports())
        for private in list(pod.port_map):
            if private not in wanted:
                self._release_port(pod, private)
        for private, proto in wanted.items():
            if private in pod.port_map:
                continue
            if proto == "http" or self.listeners is None:
                pod.port_map[private] = 60000 + secrets.randbelow(5000)
            else:
                pod.port_map[private] = self.listeners.reserve(pod.id, private)
        pod.touch()

    def _release_port(self, pod: Pod, private: int) -> None:
        pod.port_map.pop(private, None)
        pod.touch()
        if self.listeners is not None:
            self.listeners.release(pod.id, private)

    def _release_ports(self, pod: Pod) -> None:
        for private in list(pod.port_map):
            self._release_port(pod, private)
        pod.listen_wanted = False
        if self.listeners is not None:
            self.listeners.release_all(pod.id)

    def ssh_behaviour(self, pod: Pod) -> str:
        """What answers on port 22: RunPod images start sshd only when a PUBLIC_KEY reached the container."""
        behaviour = self.pod_setting(pod, "ssh_behaviour")
        keyless = not pod.env.get("PUBLIC_KEY", "").strip()
        if behaviour == "sshd" and keyless and pod.image not in self.config.own_sshd_images:
            return "refused"
        return behaviour

    def _sync_listeners(self, pod: Pod) -> None:
        if self.listeners is not None:
            self.listeners.want(
                pod,
                pod.listen_wanted and pod.status == RUNNING,
                self.ssh_behaviour(pod),
                self.scaled(self.pod_setting(pod, "banner_delay")),
            )

    def update_ports(self, pod: Pod, ports: list[str]) -> None:
        pod.ports = list(ports)
        if pod.status == RUNNING:
            self._map_ports(pod)
            self._sync_listeners(pod)

    def set_overrides(self, pod: Pod, overrides: dict[str, Any]) -> None:
        pod.overrides.update(overrides)
        now = self.now()
        # A new delay applies to the step in progress, measured from now.
        if pod.status == PROVISIONING and "provisioning_delay" in overrides:
            pod.next_at = now + self.scaled(overrides["provisioning_delay"])
        if pod.status == STARTING and "starting_delay" in overrides:
            pod.next_at = now + self.scaled(overrides["starting_delay"])
        if pod.status == RUNNING and "port_map_delay" in overrides and pod.ports_at is not None:
            pod.ports_at = now + self.scaled(overrides["port_map_delay"])
        if pod.status == RUNNING and "ssh_delay" in overrides and not pod.listen_wanted:
            pod.ssh_ready_at = now + self.scaled(overrides["ssh_delay"])
            self._timed[pod.id] = pod
        if "ssh_behaviour" in overrides or "banner_delay" in overrides:
            self._sync_listeners(pod)
        self._advance_pod(pod, now)

    # Lifecycle actions shared by REST v2 and the admin API.
    def stop(self, pod: Pod, reason: str = "Exited by user") -> None:
        pod.status = EXITED
        pod.next_at = None
        pod.ssh_ready_at = None
        pod.ports_at = None
        pod.running_since = None
        pod.last_status_change = f"{reason}: {js_date(time.time())}"
        self._release_ports(pod)
        self._timed.pop(pod.id, None)

    def fail(self, pod: Pod, reason: str = "Exited by Runpod") -> None:
        self.stop(pod, reason)
        pod.status = ERROR

    def start(self, pod: Pod) -> None:
        """Resume a stopped pod on its host: it skips PROVISIONING."""
        pod.status = STARTING
        pod.boot_env = None
        pod.last_status_change = f"Rented by User: {js_date(time.time())}"
        pod.next_at = self.now() + self.scaled(self.pod_setting(pod, "starting_delay"))
        self._timed[pod.id] = pod

    def restart(self, pod: Pod) -> None:
        """Restart the container in place: the host port mapping survives, the listener goes down until RUNNING."""
        pod.status = STARTING
        pod.boot_env = None
        pod.running_since = None
        pod.listen_wanted = False
        self._sync_listeners(pod)
        if self.listeners is not None:
            self.listeners.stop_processes(pod.id)
        pod.next_at = self.now() + self.scaled(self.pod_setting(pod, "starting_delay"))
        self._timed[pod.id] = pod

    def terminate(self, pod: Pod, by: str = "user") -> None:
        self.stop(pod, f"Terminated by {by}")
        pod.status = TERMINATED
        pod.terminated_at = time.time()

    def outbid(self, pod: Pod, desired_status: str = TERMINATED) -> None:
        self.stop(pod, "Outbid")
        if desired_status == TERMINATED:
            pod.status = TERMINATED

    def delete(self, pod: Pod) -> None:
        self.terminate(pod, "user")
        pod.hidden = True
        self.pods.pop(pod.id, None)

    # -- GPU prices and stock ---------------------------------------------------------------------------------
    def list_price(self, gpu_type: str, cloud: str = "SECURE") -> float:
        """The catalog's per-GPU list price of ``gpu_type`` for ``cloud`` (SECURE or COMMUNITY): the
        ``gpu_prices`` override, else the built-in price (community: COMMUNITY_SHARE of it)."""
        override = self.config.gpu_prices.get(gpu_type, {})
        secure = float(override.get("secure", GPU_PRICES.get(gpu_type, DEFAULT_GPU_PRICE)))
        if str(cloud).upper() != "COMMUNITY":
            return secure
        return float(override.get("community", round(secure * COMMUNITY_SHARE, 3)))

    def billed_price(self, gpu_type: str, cloud: str = "SECURE") -> float:
        """The per-GPU rate a new pod is billed: ``gpu_prices``' ``billed`` when set, else the list price."""
        override = self.config.gpu_prices.get(gpu_type, {})
        return float(override.get("billed", self.list_price(gpu_type, cloud)))

    def gpu_stock(self, gpu_type: str, data_center: str) -> int:
        if gpu_type in self.config.out_of_stock_gpu_types:
            return 0
        per_dc = self.config.gpu_stock.get(gpu_type, {})
        return int(per_dc.get(data_center, per_dc.get("*", self.config.gpu_stock_default)))

    def gpus_in_use(self, gpu_type: str, data_center: str, *, besides: Pod | None = None) -> int:
        return sum(
            pod.gpu_count
            for pod in self.pods.values()
            if pod is not besides
            and pod.gpu_type == gpu_type
            and pod.placed_data_center == data_center
            and pod.status in (PROVISIONING, STARTING, RUNNING)
        )

    def place_gpu_pod(self, gpu_type: str, count: int, preferences: list[str]) -> str | None:
        """The first preferred data center (all when none) with ``count`` free GPUs of the type, or None."""
        for data_center in preferences or list(DATA_CENTERS):
            if self.gpu_stock(gpu_type, data_center) - self.gpus_in_use(gpu_type, data_center) >= count:
                return data_center
        return None

    def can_resume(self, pod: Pod) -> bool:
        """A stopped GPU pod resumes on its own host only if that data center still has its GPUs free."""
        where = pod.placed_data_center
        if not pod.is_gpu or where is None:
            return True
        free = self.gpu_stock(pod.gpu_type or "", where) - self.gpus_in_use(pod.gpu_type or "", where, besides=pod)
        return free >= pod.gpu_count

    # -- endpoints ---------------------------------------------------------------------------------------------
    def add_endpoint(self, endpoint: Endpoint) -> Endpoint:
        self.endpoints[endpoint.id] = endpoint
        endpoint.releases.append(
            {"id": new_id(8), "version": endpoint.version, "source": "MANUAL", "createdAt": time.time(), "diff": []}
        )
        self.scale_workers(endpoint)
        return endpoint

    def _new_worker(self, endpoint: Endpoint, start_at: float) -> Worker:
        from .api_secrets import resolve_env

        template = self.templates.get(endpoint.template_id or "")
        return Worker(
            id=new_id(14),
            created_at=time.time() + max(0.0, start_at - self.now()) / self.config.time_scale,
            ready_at=start_at + self.scaled(self.config.worker_boot_delay),
            gpu_type=(endpoint.gpu_type_ids or [DEFAULT_GPU_TYPE])[0] if not endpoint.cpu else None,
            data_center_id=(endpoint.data_center_ids or list(DATA_CENTERS))[0],
            version=endpoint.version,
            image=template.image if template is not None else None,
            start_at=start_at,
            boot_env=resolve_env(self, template.env) if template is not None else {},
        )

    def scale_workers(self, endpoint: Endpoint) -> None:
        """Keep ``workers_min`` workers that are not retiring (new ones run the current version)."""
        self.live_workers(endpoint)
        active = [worker for worker in endpoint.workers if worker.retire_at is None]
        for _missing in range(endpoint.workers_min - len(active)):
            endpoint.workers.append(self._new_worker(endpoint, self.now()))
        for extra in active[max(endpoint.workers_min, 0) :]:
            endpoint.workers.remove(extra)

    def live_workers(self, endpoint: Endpoint) -> list[Worker]:
        """The allocated workers now: retired ones are dropped, scheduled replacements not yet listed."""
        now = self.now()
        endpoint.workers[:] = [w for w in endpoint.workers if w.retire_at is None or w.retire_at > now]
        return [worker for worker in endpoint.workers if worker.start_at <= now]

    def new_release(
        self, endpoint: Endpoint, diff: list[dict[str, Any]], *, source: str = "MANUAL", build_id: str | None = None
    ) -> None:
        """A PATCH (or a COMPLETED build) changed the endpoint: a new version, and a rolling replacement of every
        stale worker."""
        now = self.now()
        self.live_workers(endpoint)
        # Replacements of the previous release not started yet are cancelled (their old workers stay).
        cancelled = {w.id for w in endpoint.workers if w.start_at > now}
        endpoint.workers[:] = [w for w in endpoint.workers if w.id not in cancelled]
        for worker in endpoint.workers:
            if worker.replaced_by in cancelled:
                worker.retire_at = worker.replaced_by = None
        endpoint.version += 1
        endpoint.releases.append(
            {
                "id": new_id(8),
                "version": endpoint.version,
                "source": source,
                "buildId": build_id,
                "createdAt": time.time(),
                "diff": diff,
            }
        )
        step = self.scaled(self.config.rollout_step)
        stale = [w for w in endpoint.workers if w.retire_at is None and w.version != endpoint.version]
        for index, worker in enumerate(stale):
            replacement = self._new_worker(endpoint, now + index * step)
            worker.retire_at, worker.replaced_by = replacement.ready_at, replacement.id
            endpoint.workers.append(replacement)

    def boot_workers(self, endpoint: Endpoint) -> set[str]:
        """End the boot of every allocated worker now; an old worker a booted replacement stands in for retires now
        too. Returns the ids of the workers booted."""
        now = self.now()
        booted = set()
        for worker in self.live_workers(endpoint):
            if worker.ready_at > now:
                worker.ready_at = now
                booted.add(worker.id)
        for worker in endpoint.workers:
            if worker.replaced_by in booted:
                worker.retire_at = now
        self.live_workers(endpoint)  # drops the retired ones
        return booted

    def count_health_read(self, endpoint: Endpoint) -> None:
        """A /health read: with worker_boot_health_reads set, the Nth read while a worker boots ends the boot."""
        reads = self.config.worker_boot_health_reads
        now = self.now()
        if not reads or not any(worker.ready_at > now for worker in self.live_workers(endpoint)):
            return
        endpoint.health_reads_while_booting += 1
        if endpoint.health_reads_while_booting >= reads:
            endpoint.health_reads_while_booting = 0
            self.boot_workers(endpoint)

    def worker_status(self, worker: Worker) -> str:
        if worker.status_override:
            return worker.status_override
        if worker.id in self.jobs.busy:
            return "RUNNING"  # taking a job (jobs.py)
        return "IDLE" if self.now() >= worker.ready_at else "INITIALIZING"

    def delete_endpoint(self, endpoint: Endpoint) -> None:
        self.jobs.drop_endpoint(endpoint.id)
        self.endpoints.pop(endpoint.id, None)
        if endpoint.template_id:
            template = self.templates.get(endpoint.template_id)
            if template is not None and template.bound_endpoint_id == endpoint.id:
                self.templates.pop(template.id, None)

    def template_in_use(self, template_id: str) -> bool:
        return any(ep.template_id == template_id for ep in self.endpoints.values())
