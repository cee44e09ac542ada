# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The shared normalisers of container settings (pure Python): env, ports and docker args, written once.

Pods, cluster nodes, templates and endpoints compare what a task asks for with what RunPod reports through these
functions only, so a setting that is unchanged for one resource is unchanged for all (docs/dev/api-notes.md:
``ports`` are ``port/protocol`` strings RunPod keeps as a set; ``22/tcp`` is declared when SSH is wanted).
"""

from __future__ import annotations

import shlex


def env_strings(env: dict | None) -> dict[str, str]:
    """``env`` as RunPod stores it: string keys and string values (``None`` is the empty string)."""
    return {str(key): "" if value is None else str(value) for key, value in (env or {}).items()}


def port_list(ports: list | str | None) -> list[str]:
    """Declared ports as a list of trimmed entries, from a list or a comma-separated string; blanks dropped."""
    if isinstance(ports, str):
        ports = ports.split(",")
    if not isinstance(ports, list | tuple):
        return []
    return [str(port).strip() for port in ports if port is not None and str(port).strip()]


def declares_port(ports: list | str | None, number: int) -> bool:
    """True when any declared port's part before ``/`` is ``number`` (``22``, ``22/tcp``, even ``22/udp``)."""
    return any(port.split("/", 1)[0].strip() == str(number) for port in port_list(ports))


def with_ssh_port(ports: list | None, start_ssh: bool) -> list[str]:
    """The declared ports, trimmed, plus ``22/tcp`` when SSH is wanted and port 22 is not declared yet."""
    ports = port_list(ports)
    if start_ssh and not declares_port(ports, 22):
        ports.append("22/tcp")
    return ports


def port_set(ports: list | str | None) -> list[str]:
    """Ports as RunPod compares them: a set of ``port/protocol`` entries (order, case and repeats do not count)."""
    return sorted({port.lower() for port in port_list(ports)})


def same_ports(have: list | str | None, wanted: list | str | None) -> bool:
    return port_set(have) == port_set(wanted)


def split_args(value: str | None) -> list[str]:
    """Docker args as the shell splits them (``""`` and ``None`` are no args; a string shlex cannot split is one)."""
    if not value:
        return []
    try:
        return shlex.split(value)
    except ValueError:
        return [value]


def same_args(have: str | None, wanted: str | None) -> bool:
    return split_args(have) == split_args(wanted)


def same_command(current: list | None, wanted: list | None) -> bool:
    """Whether an exec-form ``cmd``/``entrypoint`` read back (None: the answer has none) is the one wanted; an empty
    list and none are the same (no command of that form)."""
    return [str(item) for item in current or []] == [str(item) for item in wanted or []]
