# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The input rules: every rule a module's options must pass before any API call, written once: the models all
share here (``_Input``, ``NamedInput``, ``TemplateInput``), each resource's beside it (``pod_inputs``,
``endpoint_inputs``, ``account_inputs``, ``job_inputs``), so a task imports only its own.

Each ``*Input`` model names the options a module takes that a rule applies to: one option's rules are field
validators (written with the checks of ``_api.values``), rules that tie options together are the model's
validator, and what RunPod cannot do is ``_api.capabilities``. ``_module.base.input_problem`` validates a
module's params against its model and returns the broken rules' message; a module calls it (``input_model``)
before any API call. What a create needs is the model's too (``create_needs``, ``create_problem``), asked by
``ResourceModule`` once the lookup found nothing, before the create. The user-facing list of every rule is
docs/docsite/rst/guide_input_checks.rst.
"""

from __future__ import annotations

from typing import ClassVar

from ansible_collections.runpod.cloud.plugins.module_utils._api.compat import (
    BaseModel,
    ConfigDict,
    field_validator,
    model_validator,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import (
    MAX_STORAGE_GB,
    MIN_PERSISTENT_VOLUME_GB,
    check_count,
    check_data_center_ids,
    check_env,
    check_ports,
    check_secret_env,
    name_problem,
    public_key_problem,
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


class TemplateInput(_ContainerInput):
    """A template's options: the container rules only."""
