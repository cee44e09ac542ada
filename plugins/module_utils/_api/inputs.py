# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The input rules: every rule a module's options must pass before any API call, written once here.

Each ``*Input`` model names the options a module takes that a rule applies to; ``input_problem`` validates a module's
params against its model and returns the first broken rule's message. The user-facing list of every rule is
docs/docsite/rst/guide_input_checks.rst.
"""

from __future__ import annotations

import math
import re
import unicodedata

from ansible_collections.runpod.cloud.plugins.module_utils._api.compat import BaseModel, ConfigDict, field_validator
from ansible_collections.runpod.cloud.plugins.module_utils._api.models import spec_problem

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
