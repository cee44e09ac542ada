# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The input models of the account modules (network volumes, registry credentials, secrets, SSH keys) and of the
GPU catalog query."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import (
    NamedInput,
    _Input,
    _raise,
    field_validator,
    model_validator,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import (
    MAX_STORAGE_GB,
    MIN_PERSISTENT_VOLUME_GB,
    check_within,
    key_lines,
    public_key_problem,
    secret_name_problem,
)

NETWORK_VOLUME_GB = (MIN_PERSISTENT_VOLUME_GB, MAX_STORAGE_GB)


class NetworkVolumeInput(NamedInput):
    create_needs = ("name", "size_gb", "data_center_id")
    size_gb: int | None = None

    @field_validator("size_gb")
    @classmethod
    def _size(cls, value):
        return check_within(value, NETWORK_VOLUME_GB, "size_gb must be from {low} to {high} GB, got {value}")


class RegistryInput(NamedInput):
    create_needs = ("name", "username", "password")
    state: str | None = None
    update_password: str | None = None
    username: str | None = None
    password: str | None = None

    @model_validator(mode="after")
    def _credential(self):
        if self.state == "present" and self.update_password == "always":
            missing = [option for option in ("username", "password") if not getattr(self, option)]
            if missing:
                raise ValueError(f"replacing a credential (update_password=always) needs {' and '.join(missing)}")
        return self


class SecretInput(_Input):
    """An account secret's options; the name rule is ``values.secret_name_problem`` (shared with ``secret_env``)."""

    create_needs = ("name", "value")
    name: str | None = None
    value: str | None = None
    description: str | None = None

    @field_validator("name")
    @classmethod
    def _secret_name(cls, value):
        _raise(value is not None and secret_name_problem(value))
        return value

    @field_validator("value")
    @classmethod
    def _value(cls, value):
        # RunPod refuses an empty value; the message never quotes it.
        if value is not None and not value:
            raise ValueError("value must not be empty")
        return value


class SshKeyInput(_Input):
    key: str | None = None
    state: str | None = None
    exclusive: bool | None = None

    @model_validator(mode="after")
    def _keys(self):
        if self.exclusive and self.state == "absent":
            raise ValueError("exclusive applies to state=present only (it makes the list exactly the given keys)")
        if not key_lines(self.key) and not self.exclusive:
            raise ValueError("key has no key line (only blank or # lines); give one public key per line")
        _raise(public_key_problem(self.key, "key"))
        return self


class GpuTypeQueryInput(_Input):
    gpu_count: int | None = None

    @field_validator("gpu_count")
    @classmethod
    def _gpus(cls, value):
        return check_within(value, (1, float("inf")), "gpu_count must be 1 or more, got {value}")
