# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The input models all modules share (``_Input``, ``NamedInput``, ``TemplateInput``); each resource's are beside
them, so a task imports only its own (docs/dev/architecture.md, "Input rules"). pydantic is import-guarded: without
it the models still import (the sanity import test) and ``RunPodModule`` fails early with ``missing_required_lib``.
"""

from __future__ import annotations

import traceback
from typing import ClassVar

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

try:
    from pydantic import BaseModel, ConfigDict, field_validator, model_validator
except ImportError:  # pragma: no cover - exercised by the sanity import test
    HAS_PYDANTIC = False
    PYDANTIC_IMPORT_ERROR: str | None = traceback.format_exc()

    def field_validator(*fields, **kwargs):  # type: ignore[no-redef]
        return lambda function: function

    def model_validator(**kwargs):  # type: ignore[no-redef]
        return lambda function: function

    class BaseModel:  # type: ignore[no-redef]
        """Stand-in so this file imports without pydantic."""

    def ConfigDict(**kwargs):  # type: ignore[no-redef]  # noqa: N802
        return kwargs

else:
    HAS_PYDANTIC = True
    PYDANTIC_IMPORT_ERROR = None


# The checks a value gets before pydantic reads it (they normalise it), and the smallest size of each storage option.
_BEFORE = {"ports": check_ports, "env": check_env, "secret_env": check_secret_env,
           "data_center_ids": check_data_center_ids}
_LOWEST_GB = {"container_disk_gb": 1, "volume_gb": MIN_PERSISTENT_VOLUME_GB}


def _raise(problem):
    if problem:
        raise ValueError(problem)


class _Input(BaseModel):
    """A module's options as the user gave them; validating one raises with the broken rules' messages."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built when first used, as _View
    # What a create needs (each an option, or a tuple of options one of which is enough) and what its message adds.
    create_needs: ClassVar[tuple] = ()
    create_hint: ClassVar[str] = ""

    @classmethod
    def create_problem(cls, params: dict) -> str | None:
        """What a create with ``params`` lacks, ending "no <kind> named <name> exists, and ...", else None."""
        needs = [(need,) if isinstance(need, str) else need for need in cls.create_needs]
        missing = [" or ".join(options) for options in needs if not any(params.get(option) for option in options)]
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
            raise ValueError(f"docker_args and {' and '.join(given)} are two forms of the container's one command: "
                             "give docker_args (a shell string) or cmd/entrypoint (exec-form lists), not both.")
        return self

    @field_validator("name", check_fields=False)
    @classmethod
    def _name(cls, value):
        _raise(value is not None and name_problem(value))
        return value

    @field_validator("ports", "env", "secret_env", "data_center_ids", mode="before", check_fields=False)
    @classmethod
    def _checked(cls, value, info):
        return _BEFORE[info.field_name](value)

    @field_validator("container_disk_gb", "volume_gb", check_fields=False)
    @classmethod
    def _gigabytes(cls, value, info):
        if info.field_name == "volume_gb" and value == 0:
            return value  # no volume
        return check_count(info.field_name, value, _LOWEST_GB[info.field_name], MAX_STORAGE_GB, " GB")

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
