# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The shared argument specs (each paired with a doc fragment in plugins/doc_fragments) and the wait options."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ansible.module_utils.basic import env_fallback

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration

# Secrets wherever a module has them: ``no_log=True`` (``secret``), and the log maskers hide their values.
SECRET_OPTIONS = ("api_key", "password", "value")


def secret(name: str, **spec: Any) -> dict:
    """The spec of the secret option ``name`` (one of ``SECRET_OPTIONS``): ``no_log`` set here, not by hand."""
    if name not in SECRET_OPTIONS:
        raise ValueError(f"{name} is not in SECRET_OPTIONS")
    return dict(spec, no_log=True)


# Paired with plugins/doc_fragments/auth.py: change both together.
AUTH_ARGUMENT_SPEC = dict(
    api_key=secret("api_key", type="str", fallback=(env_fallback, ["RUNPOD_API_KEY"])),
    # Deprecated: REST v2 is the only API left, and any other value fails with _backend.V1_RETIRED.
    api_version=dict(
        type="str", fallback=(env_fallback, ["RUNPOD_API_VERSION"]),
        removed_in_version="1.0.0", removed_from_collection="runpod.cloud",
    ),
    api_url=dict(type="str", fallback=(env_fallback, ["RUNPOD_API_URL"])),
    serverless_url=dict(type="str", fallback=(env_fallback, ["RUNPOD_SERVERLESS_URL"])),
    validate_certs=dict(type="bool", default=True),
    request_timeout=dict(type="float", default=30.0),
)

# Paired with plugins/doc_fragments/wait.py (DOCUMENTATION).
WAIT_ARGUMENT_SPEC = dict(
    wait=dict(type="bool", default=False),
    wait_timeout=dict(type="raw", default="10m"),
    wait_interval=dict(type="raw", default="5s"),
)

# Paired with plugins/doc_fragments/wait.py (POD).
POD_WAIT_ARGUMENT_SPEC = dict(
    wait_for=dict(type="str", choices=["ssh", "running"], default="ssh"),
)

# Paired with plugins/doc_fragments/wait.py (HOST_KEYS): pod_info and cluster (the pod module documents its own).
HOST_KEY_ARGUMENT_SPEC = dict(
    host_key_checking=dict(type="str", choices=["strict", "log", "off"], default="log"),
    known_hosts_dir=dict(type="path", default="~/.cache/runpod.cloud/known_hosts"),  # read by the action plugin
)

# Paired with plugins/doc_fragments/gpu_choice.py: a GPU type by requirement and a list-price cap (pod, cluster).
GPU_CHOICE_ARGUMENT_SPEC = dict(
    gpu_requirements=dict(
        type="dict",
        options=dict(
            min_memory_gb=dict(type="int"),
            max_memory_gb=dict(type="int"),
            manufacturer=dict(type="str"),
            exclude=dict(type="list", elements="str"),
            min_ram_per_gpu_gb=dict(type="int"),
            min_vcpus_per_gpu=dict(type="int"),
        ),
    ),
    max_price_per_hr=dict(type="float"),
)
# Paired with plugins/doc_fragments/info_selection.py (pod_info documents its own): every ``_info`` module's
# selection (``RunPodModule.select``).
INFO_SELECTION_SPEC = dict(
    id=dict(type="str"),
    name=dict(type="str"),
)
INFO_MUTUALLY_EXCLUSIVE = [("id", "name")]

CONNECTION_KEYS = tuple(AUTH_ARGUMENT_SPEC)

# Paired with plugins/doc_fragments/lookup.py: a resource module's lookup and state (``ResourceModule``).
LOOKUP_ARGUMENT_SPEC = dict(
    INFO_SELECTION_SPEC, state=dict(type="str", choices=["present", "absent"], default="present")
)

# Paired with plugins/doc_fragments/container.py (DOCUMENTATION): pod, cluster, endpoint and template.
CONTAINER_ARGUMENT_SPEC = dict(
    image=dict(type="str"),
    env=dict(type="dict"),
    # Env name -> secret name: a secret's name is no secret (the no_log heuristic would flag the word).
    secret_env=dict(type="dict", no_log=False),
    ports=dict(type="list", elements="str"),
    container_disk_gb=dict(type="int"),
    docker_args=dict(type="str"),
    cmd=dict(type="list", elements="str"),
    entrypoint=dict(type="list", elements="str"),
)

# Paired with plugins/doc_fragments/container.py (REGISTRY): pod, endpoint, template.
REGISTRY_ARGUMENT_SPEC = dict(registry_id=dict(type="str"))

# Paired with plugins/doc_fragments/container.py (POD): pod, and every node of a cluster.
POD_CONTAINER_ARGUMENT_SPEC = dict(
    volume_gb=dict(type="int"),
    volume_mount_path=dict(type="str"),
    network_volume_id=dict(type="str"),
    data_center_ids=dict(type="list", elements="str"),
    ssh=dict(type="bool", default=True),
    ssh_public_key=dict(type="str", no_log=False),
)

# The pod module's fleet options (``_module/fleet.py``); paired with its DOCUMENTATION.
FLEET_ARGUMENT_SPEC = dict(
    count=dict(type="int"),
    create_concurrency=dict(type="int", default=10),
)

# The most lines per source the info modules' ``logs`` option may ask for (0 reads none).
MAX_INFO_LINES = 5000


def argument_spec(*parts: dict, **own: dict) -> dict:
    """Merge deep copies of the shared specs with a module's own options."""
    merged = {}
    for part in parts:
        merged.update(copy.deepcopy(part))
    merged.update(own)
    return merged


@dataclass
class WaitSettings:
    """Validated wait options, parsed before any API call so bad input never bills anybody."""

    wait: bool
    timeout: float
    interval: float
    wait_for: str | None = None


def info_lines(owner: Any) -> int:
    """The info modules' ``logs`` option (here: a task asking for no logs never imports ``log_report``)."""
    lines = owner.params.get("logs") or 0
    if not 0 <= lines <= MAX_INFO_LINES:
        owner.fail(f"logs must be between 0 and {MAX_INFO_LINES} (lines per source), got {lines}", code="bad_request")
    return lines


# How long a task's calls wait for RunPod's quota (docs/pods.md, "Fleets and RunPod's quotas").
DEFAULT_CREATE_TIMEOUT = "10m"
# The pod module's option (fleets too); paired with its DOCUMENTATION (create_timeout).
CREATE_TIMEOUT_SPEC = dict(create_timeout=dict(type="raw", default=DEFAULT_CREATE_TIMEOUT))


def set_budget(backend: Any, seconds: float, label: str) -> None:
    """Start the budget on the backend's client (a test double without a client has nothing to set)."""
    setter = getattr(getattr(backend, "client", None), "set_budget", None)
    if setter is not None:
        setter(seconds, label)


def start_create_budget(runner: Any) -> None:
    """Before the first call of a create task: its creates wait for the quota at most the create budget."""
    params, settings = runner.params, runner.wait_settings
    if settings is not None and settings.wait:
        seconds, label = settings.timeout, f"wait_timeout {params.get('wait_timeout')}"
    else:
        value = params.get("create_timeout") if params.get("create_timeout") is not None else DEFAULT_CREATE_TIMEOUT
        seconds, label = _duration.parse(value), f"create_timeout {value}"
    set_budget(runner.backend, seconds, label)


def report_pauses(runner: Any, backend: Any) -> None:
    """Each pause for the quota becomes one line: the waiter's ``progress`` on the controller, else a warning."""
    keeper = getattr(getattr(backend, "client", None), "quota", None)
    if keeper is None:
        return

    def report(line: str) -> None:
        progress = getattr(getattr(runner, "waiter", None), "progress", None)
        (progress or runner.warn)(line)

    keeper.report = report
