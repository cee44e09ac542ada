# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The container rows a pod, a cluster node, a template and an endpoint share (``container_rows``): sent, compared,
planned and shown alike wherever they appear; and the template's table (``TEMPLATE``), those rows and two more."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import fields as _f
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table


def docker_args(payload: Any) -> str | None:
    """The start command as one string: ``args``, else (an older answer) ``entrypoint`` and ``cmd`` joined."""
    payload = _f.as_dict(payload)
    args = payload.get("args")
    if isinstance(args, str):
        return args.strip() or None
    parts = [str(item) for item in _f.as_list(payload.get("entrypoint")) + _f.as_list(payload.get("cmd"))]
    return " ".join(parts) or None


def same_env(current: Any, wanted: Any) -> bool:
    return dict(current or {}) == dict(wanted or {})


def container_rows(update: bool = True, diff: bool = True, planned: Any = False, shown: Any = False,
                   empty: bool = True) -> tuple:
    """The container settings as rows, with the flags the resource gives them. ``docker_args`` goes as ``args``
    ("" clears it); its exec form as ``cmd``/``entrypoint`` lists ([] clears). A spec's ``env`` and ``ports`` are
    empty when not given, or None without ``empty`` (an endpoint's template applies then). ``planned`` and ``shown``
    are flags, or the names they hold for."""

    def row(name, read, convert, body, send, same, norm=None):
        default = {"env": dict, "ports": list}.get(name) if empty else None
        return Col(name, read, convert, body=body, send=send, diff=same if diff else None, norm=norm,
                   default=default, update=update, option=True, clear="" if name == "docker_args" else None,
                   planned=planned is True or name in (planned or ()), shown=shown is True or name in (shown or ()))

    return (
        row("image", "image", _f.as_str, "image", None, True),
        row("docker_args", docker_args, None, "args", lambda args: args or "", _f.same_args),
        row("cmd", "cmd", _f.command_list, "cmd", list, _f.same_command, list),
        row("entrypoint", "entrypoint", _f.command_list, "entrypoint", list, _f.same_command, list),
        row("container_disk_gb", "disk", _f.as_int, "disk", int, True),
        row("ports", "ports", _f.port_list, "ports", _f.listed, _f.same_ports, _f.port_list),
        row("env", "env", _f.env_dict, "env", _f.env_strings, same_env, _f.env_strings),
        row("registry_id", "registry", _f.as_str, "registry", None, True),
    )


TEMPLATE = Table("template", "TemplateView", (
    Col("name", "name", _f.name_text, body="name", update=True, option=True, shown=True),
    *container_rows(shown=True),
    Col("serverless", "serverless", bool, body="serverless", update=True, option=True, diff=True, shown=True,
        default=False),
), __name__)
TemplateView = TEMPLATE.View
TemplateSpec = TEMPLATE.spec("TemplateSpec", required=("name", "image"), module=__name__)
describe_template = TEMPLATE.describe
