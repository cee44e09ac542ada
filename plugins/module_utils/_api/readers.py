# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""How an answer is read: lenient value readers and the table reader (``Table``) the view tables are made of.

Reads are lenient: a missing, null or mistyped field gives the view's empty value, never an exception; only a
resource without an ``id`` is a ``bad_response`` (``require_id``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.normalize import env_strings
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.views import SshAddress

# -- lenient value readers --------------------------------------------------------------------------------------


def as_int(value: Any) -> int | None:
    """An int from an int, float or digit string; None otherwise (bools are not counts)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def as_float(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def as_str(value: object) -> str | None:
    """A non-empty string or None."""
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def as_dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list:
    """A list without its ``null`` entries."""
    if not isinstance(value, list):
        return []
    return [item for item in value if item is not None]


def env_dict(value: object) -> dict[str, str]:
    """``env`` as a str->str dict from an object, a ``[{key, value}]`` list or a ``KEY=VALUE`` list."""
    result = {}
    if isinstance(value, dict):
        result.update(env_strings(value))
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and "key" in item:
                result[str(item["key"])] = "" if item.get("value") is None else str(item.get("value"))
            elif isinstance(item, str) and "=" in item:
                key, text = item.split("=", 1)
                result[key] = text
    return result


def port_list(value: object) -> list[str]:
    """Declared ports as a list of strings, from a list or a comma-separated string."""
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return [str(item).strip() for item in as_list(value) if str(item).strip()]


def name_text(value: object) -> str:
    return as_str(value) or ""


def upper(value: object) -> str:
    return (as_str(value) or "").upper()


def upper_or_none(value: object) -> str | None:
    return upper(value) or None


def count(value: object) -> int:
    """A count that is 0 when missing."""
    return as_int(value) or 0


def flag(value: object) -> bool:
    return bool(value)


def str_list(value: object) -> list[str]:
    return [str(item) for item in as_list(value)]


def ref_id(value: object) -> str | None:
    """The id of a reference sent either as the id itself or as an object with an ``id``."""
    return as_str(value if isinstance(value, str) else as_dict(value).get("id"))


def id_list(value: object) -> list[str]:
    """The ids of a list of ``{id, ...}`` objects (REST v2 endpoint ``cpu`` entries)."""
    return [text for text in (as_str(as_dict(item).get("id")) for item in as_list(value)) if text]


def filled(value: object) -> bool:
    """True for a non-empty object (a ``runtime`` block that says something; ``{}`` counts as null)."""
    return isinstance(value, dict) and bool(value)


def status_counts(value: object) -> dict[str, int]:
    return {str(key).upper(): count(number) for key, number in as_dict(value).items()}


def flashboot_mode(value: object) -> bool | None:
    """REST v2 ``flashboot`` (``FLASHBOOT``/``OFF``) as on/off."""
    mode = as_str(value)
    return None if mode is None else mode.upper() != "OFF"


def ssh_address(value: object) -> SshAddress | None:
    """``SshAddress`` from a v2 ``ssh.direct``/``ssh.proxy`` block; None when it is null or incomplete."""
    block = as_dict(value)
    host = as_str(block.get("host")) or as_str(block.get("ip"))
    port = as_int(block.get("port"))
    if not host or not port:
        return None
    user = as_str(block.get("username")) or as_str(block.get("user")) or "root"
    command = as_str(block.get("command")) or f"ssh {user}@{host} -p {port}"
    return SshAddress(host=host, port=port, user=user, command=command)


# -- the table reader -------------------------------------------------------------------------------------------

Getter = Callable[[Any], Any]


def dig(value: Any, keys: list[str]) -> Any:
    """The value at ``keys`` (a number indexes a list without its nulls); None where the path breaks."""
    for key in keys:
        if key.isdigit():
            items = as_list(value)
            value = items[int(key)] if int(key) < len(items) else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value


def _path_getter(path: str) -> Getter:
    keys = path.split(".") if path else []
    return lambda payload: dig(payload, keys)


class via:  # noqa: N801 - read as a function in the tables
    """A cell read from ``paths`` with its own ``convert``: the first path whose converted value is truthy (as
    ``a or b``), else the last one's. A path is dotted (``mounts.network.0.path``)."""

    def __init__(self, convert: Callable[[Any], Any], *paths: str):
        self.convert = convert
        self.paths = paths
        self._getters = [_path_getter(path) for path in paths]

    def __call__(self, payload: Any) -> Any:
        value = None
        for getter in self._getters:
            value = self.convert(getter(payload))
            if value:
                return value
        return value


class Table:
    """How one view is read: ``rows`` of ``(view field, convert, cell)``.

    A cell is a path or a tuple of paths converted with the row's ``convert`` (see ``via``), or a function
    ``payload -> value`` for what a path cannot say. ``kind`` names the resource in the ``bad_response`` of a payload
    without an id (None: the view has no id).
    """

    def __init__(self, view: type, kind: str | None, rows: tuple):
        self.view = view
        self.kind = kind
        self.cells: list[tuple[str, Getter]] = []
        for field, convert, cell in rows:
            if isinstance(cell, str | tuple):
                cell = via(convert, *((cell,) if isinstance(cell, str) else cell))
            self.cells.append((field, cell))

    def values(self, payload: Any) -> dict[str, Any]:
        """The view's fields read from ``payload``."""
        values = {} if self.kind is None else {"id": require_id(payload, self.kind)}
        for field, get in self.cells:
            values[field] = get(payload)
        return values

    def read(self, payload: Any) -> Any:
        return self.view(**self.values(payload))


# -- readers of whole responses -----------------------------------------------------------------------------------


def require_id(payload: object, kind: str) -> str:
    """The ``id`` of a resource payload, or ``bad_response`` naming what was missing."""
    if not isinstance(payload, dict):
        raise RunPodError("bad_response", None, f"expected a {kind} object, got {type(payload).__name__}")
    resource_id = payload.get("id")
    if not isinstance(resource_id, str) or not resource_id:
        raise RunPodError("bad_response", None, f"the API returned a {kind} without an id")
    return resource_id


def pick_list(payload: object, key: str, kind: str) -> list:
    """Entries of a list response: a wrapped ``{key: [...]}`` or a bare array; nulls skipped."""
    if isinstance(payload, list):
        return as_list(payload)
    if isinstance(payload, dict) and isinstance(payload.get(key), list):
        return as_list(payload[key])
    if isinstance(payload, dict) and payload.get(key) is None and key in payload:
        return []
    raise RunPodError("bad_response", None, f"expected a list of {kind}s in the response")
