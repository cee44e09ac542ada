# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A container's command in its two forms (``BaseContainerConfig``, autumn 2026): the stored ``args`` string and
the exec-form ``entrypoint`` and ``cmd`` arrays it encodes.

``args`` is either a bare shell string (CMD, split into arguments) or a JSON object
``{"entrypoint": [...], "cmd": [...]}``. Answers carry ``args`` as stored plus both arrays. A request may send
``args``, the arrays, or both when they describe the same command (a read-modify-write client sends back what it
read); an omitted array keeps its current value and ``[]`` clears it.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from .app import ApiError


def decode(args: str | None) -> tuple[list[str], list[str]]:
    """``(entrypoint, cmd)`` of a stored ``args``."""
    text = (args or "").strip()
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and set(parsed) <= {"entrypoint", "cmd"} and all(
            isinstance(value, list) and all(isinstance(item, str) for item in value) for value in parsed.values()
        ):
            return list(parsed.get("entrypoint", [])), list(parsed.get("cmd", []))
    if not text:
        return [], []
    try:
        return [], shlex.split(text)
    except ValueError:  # unbalanced quotes: the shell form split on blanks
        return [], text.split()


def encode(entrypoint: list[str], cmd: list[str]) -> str:
    """The stored form of the arrays ("" when both are empty)."""
    if not entrypoint and not cmd:
        return ""
    value: dict[str, Any] = {}
    if entrypoint:
        value["entrypoint"] = list(entrypoint)
    value["cmd"] = list(cmd)
    return json.dumps(value, separators=(",", ":"))


def merged_args(body: dict[str, Any], current: str | None) -> str | None:
    """The ``args`` to store after a request ``body`` (None: the body leaves the command alone).

    Raises 400 when ``args`` and the arrays describe different commands.
    """
    given = {key for key in ("args", "entrypoint", "cmd") if key in body}
    if not given:
        return None
    if given == {"args"}:
        return str(body["args"])
    base_entrypoint, base_cmd = decode(body.get("args", current))
    entrypoint = list(body.get("entrypoint", base_entrypoint))
    cmd = list(body.get("cmd", base_cmd))
    if "args" in body:
        if (base_entrypoint, base_cmd) != (entrypoint, cmd):
            raise ApiError(400, "args and entrypoint/cmd describe different commands; send one form or matching ones")
        return str(body["args"])
    return encode(entrypoint, cmd)


def command_fields(args: str | None) -> dict[str, Any]:
    """``entrypoint`` and ``cmd`` for an answer."""
    entrypoint, cmd = decode(args)
    return {"entrypoint": entrypoint, "cmd": cmd}
