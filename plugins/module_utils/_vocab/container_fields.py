# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The container rows a pod, a cluster node, a template and an endpoint share (``container_rows``): sent, compared,
planned and shown alike wherever they appear."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import (
    Col,
    as_dict,
    as_int,
    as_list,
    as_str,
    command_list,
    env_dict,
    env_strings,
    listed,
    port_list,
    same_args,
    same_command,
    same_ports,
)


def docker_args(payload: Any) -> str | None:
    """The start command as one string: ``args``, else (an older answer) ``entrypoint`` and ``cmd`` joined."""
    args = payload.get("args") if isinstance(payload, dict) else None
    if isinstance(args, str):
        return args.strip() or None
    parts = [str(item) for item in as_list(as_dict(payload).get("entrypoint")) + as_list(as_dict(payload).get("cmd"))]
    return " ".join(parts) or None


def same_env(current: Any, wanted: Any) -> bool:
    return dict(current or {}) == dict(wanted or {})


def container_rows(update: bool = True, diff: bool = True, planned: Any = False, shown: Any = False,
                   empty: bool = True) -> tuple:
    """The container settings as rows, with the flags the resource gives them (each resource sends, compares, plans
    and shows them alike). ``docker_args`` goes as ``args`` ("" clears it); its exec form as ``cmd``/``entrypoint``
    lists ([] clears). A spec's ``env`` and ``ports`` are empty when not given, or None without ``empty`` (an
    endpoint's template applies then). ``planned`` and ``shown`` are flags, or the names they hold for."""

    def row(name, read, convert, body, send, same, norm=None):
        default = {"env": dict, "ports": list}.get(name) if empty else None
        return Col(name, read, convert, body=body, send=send, diff=same if diff else None, norm=norm,
                   default=default, update=update, option=True, clear="" if name == "docker_args" else None,
                   planned=planned is True or name in (planned or ()), shown=shown is True or name in (shown or ()))

    return (
        row("image", "image", as_str, "image", None, True),
        row("docker_args", docker_args, None, "args", lambda args: args or "", same_args),
        row("cmd", "cmd", command_list, "cmd", list, same_command, list),
        row("entrypoint", "entrypoint", command_list, "entrypoint", list, same_command, list),
        row("container_disk_gb", "disk", as_int, "disk", int, True),
        row("ports", "ports", port_list, "ports", listed, same_ports, port_list),
        row("env", "env", env_dict, "env", env_strings, same_env, env_strings),
        row("registry_id", "registry", as_str, "registry", None, True),
    )
