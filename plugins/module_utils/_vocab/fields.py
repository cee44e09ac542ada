# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Field tables: each field of a resource declared once (``Col``), and what follows from the rows (``Table``): the
view class and its reader, the spec class, the create and update bodies, what a task changes, the diff, the planned
view and the result; docs/dev/architecture.md, "Field tables". Reads are lenient: a missing, null or mistyped field
gives the row's empty value, never an exception (only a resource without an ``id`` is a ``bad_response``). The
container settings' normalisers live here too, so a setting unchanged for one resource is unchanged for all.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.api_error import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import Field, Record


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
    """An exec-form ``cmd``/``entrypoint``: an empty list and none (an answer without one) are the same."""
    return [str(item) for item in current or []] == [str(item) for item in wanted or []]


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
    text = None if value is None else str(value).strip()
    return text or None


def as_dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list:
    """A list without its ``null`` entries."""
    return [item for item in value if item is not None] if isinstance(value, list) else []


def env_dict(value: object) -> dict[str, str]:
    """``env`` as a str->str dict from an object, a ``[{key, value}]`` list or a ``KEY=VALUE`` list."""
    if isinstance(value, dict):
        return env_strings(value)
    result = {}
    for item in value if isinstance(value, list) else []:
        if isinstance(item, dict) and "key" in item:
            result[str(item["key"])] = "" if item.get("value") is None else str(item.get("value"))
        elif isinstance(item, str) and "=" in item:
            key, text = item.split("=", 1)
            result[key] = text
    return result


def name_text(value: object) -> str:
    return as_str(value) or ""


def upper(value: object) -> str:
    return (as_str(value) or "").upper()


def upper_or_none(value: object) -> str | None:
    return upper(value) or None


def count(value: object) -> int:
    """A count that is 0 when missing."""
    return as_int(value) or 0


def str_list(value: object) -> list[str]:
    return [str(item) for item in as_list(value)]


def ref_id(value: object) -> str | None:
    """The id of a reference sent either as the id itself or as an object with an ``id``."""
    return as_str(value if isinstance(value, str) else as_dict(value).get("id"))


def filled(value: object) -> bool:
    """True for a non-empty object (a ``runtime`` block that says something; ``{}`` counts as null)."""
    return isinstance(value, dict) and bool(value)


def id_list(value: object) -> list[str]:
    """The ids of a list of ``{id, ...}`` objects (REST v2 endpoint ``cpu`` entries)."""
    return [text for text in (as_str(as_dict(item).get("id")) for item in as_list(value)) if text]


def command_list(value: object) -> list[str] | None:
    """An exec-form ``cmd``/``entrypoint``: a list of strings; None when the answer has none (an older answer)."""
    return None if value is None else [str(item) for item in as_list(value)]


def listed(value: Any) -> list | None:
    return None if value is None else list(value)


def dig(value: Any, keys: list[str]) -> Any:
    """The value at ``keys`` (a number indexes a list without its nulls); None where the path breaks."""
    for key in keys:
        if key.isdigit():
            items = as_list(value)
            value = items[int(key)] if int(key) < len(items) else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value


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
    if isinstance(payload, dict) and key in payload:
        payload = [] if payload[key] is None else payload[key]
    if isinstance(payload, list):
        return as_list(payload)
    raise RunPodError("bad_response", None, f"expected a list of {kind}s in the response")


def sendable(value: Any, creating: bool) -> bool:
    """Whether a field is sent: set, and on create not an empty value (on update an explicit empty value clears)."""
    return value is not None and not (creating and value in ({}, [], ""))


def _put(body: dict, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        body = body.setdefault(key, {})
    body[last] = value


def _equal(current: Any, wanted: Any) -> bool:
    return current == wanted


Reader = Callable[[Any], Any]


class Col:
    """One field of a resource, declared once; each part and what follows from it: docs/dev/architecture.md, "Field
    tables". A tuple ``read`` is fallbacks (the first truthy converted value, as ``a or b``); ``diff=True`` compares
    with ``==``; ``option=True`` is the field's own name; a ``default`` of ``list``/``dict`` is a fresh one."""

    __slots__ = ("body", "clear", "create", "default", "given", "in_spec", "name", "norm", "option", "planned", "read",
                 "same", "secret", "send", "shown", "update")

    def __init__(self, name: str, read: Any = None, convert: Reader | None = None, *, body: str | None = None,
                 create: bool = True, update: bool = False, send: Reader | None = None, option: Any = None,
                 diff: Any = None, given: Callable[[Any], bool] | None = None, planned: bool = False,
                 shown: bool = False, default: Any = None, norm: Reader | None = None, secret: bool = False,
                 spec: bool | None = None, clear: Any = None) -> None:
        self.name, self.body, self.send, self.norm = name, body, send, norm
        self.create, self.update = bool(body) and create, bool(body) and update
        self.option = name if option is True else option
        self.same = _equal if diff is True else diff
        self.given = given or (lambda value: value is not None)
        self.planned, self.shown = planned, shown
        self.read: Reader | None = None
        if callable(read) and not isinstance(read, str):
            self.read = read
        elif read is not None:
            paths = [path.split(".") for path in ((read,) if isinstance(read, str) else read)]
            self.read = _path_reader(paths, convert or (lambda value: value))
        self.default, self.secret, self.clear = default, secret, clear
        self.in_spec = bool(self.option) if spec is None else spec

    def fill(self, spec: bool = False) -> Any:
        """The field's value when none is given: a spec's is ``default``, a view's the reader's answer to a missing
        value (a fresh list or dict where that is one)."""
        empty = self.default if spec or self.read is None else self.read({})
        if self.secret:
            return Field(default=empty, repr=False)
        if empty in (list, dict) or isinstance(empty, list | dict):
            return Field(default_factory=empty if empty in (list, dict) else type(empty))
        return empty


def _path_reader(paths: list[list[str]], convert: Reader) -> Reader:
    def read(payload: Any) -> Any:
        value = None
        for keys in paths:
            value = convert(dig(payload, keys))
            if value:
                return value
        return value

    read.paths = [".".join(keys) for keys in paths]  # type: ignore[attr-defined]  # the document test reads them
    return read


class Table:
    """A resource's rows and what follows from them. ``kind`` names the resource in messages (None: an answer part
    without an id); ``view`` names the view class (``self.View``); ``types`` annotates nested records in it."""

    def __init__(self, kind: str | None, view: str, rows: tuple, module: str, types: dict | None = None) -> None:
        self.kind, self.rows = kind, rows
        self.by_name = {row.name: row for row in rows}
        # A view has what RunPod returns and what its result shows (an endpoint's ``template_id``, applied once and
        # not returned, keeps its spec default); never a write-only field.
        shown = [row for row in rows if row.read is not None or row.shown]
        self.View: Any = _record_class(view, Record, shown, module, types, with_id=kind is not None)
        self.diffed = tuple(row.name for row in rows if row.same is not None)
        self.planned = tuple(row.name for row in rows if row.planned)
        self.shown = tuple(row.name for row in rows if row.shown)

    def spec(self, name: str, base: type = Record, module: str | None = None, required: tuple = ("name",)) -> Any:
        """The spec class on ``base``: a field per row with an option or ``spec`` (``required`` ones: no default)."""
        rows = [row for row in self.rows if row.in_spec]
        return _record_class(name, base, rows, module or base.__module__, None, with_id=False, required=required,
                             spec=True)

    # -- reads -------------------------------------------------------------------------------------------------
    def values(self, payload: Any) -> dict[str, Any]:
        values = {} if self.kind is None else {"id": require_id(payload, self.kind)}
        return values | {row.name: row.read(payload) for row in self.rows if row.read is not None}

    def read(self, payload: Any) -> Any:
        return self.View(**self.values(payload))

    # -- writes ------------------------------------------------------------------------------------------------
    def body(self, fields: dict, creating: bool) -> dict:
        """The request body of ``fields`` (``{field: value}``): every row sent at that step whose value is
        ``sendable``, under its key path, through its ``send``. A field the step cannot send is a ValueError."""
        step = "create" if creating else "update"
        refused = sorted(field for field in fields if not getattr(self.by_name.get(field), step, False))
        if refused:
            raise ValueError(f"REST v2 cannot {step} {self.kind} field(s): {', '.join(refused)}")
        body: dict = {}
        for field, value in fields.items():
            row = self.by_name[field]
            value = row.clear if value is None and not creating else value
            if sendable(value, creating):
                _put(body, row.body or field, value if row.send is None else row.send(value))
        return body

    def create_fields(self, spec: Any) -> dict:
        """``{field: value}`` of the spec's fields a create sends."""
        return {row.name: getattr(spec, row.name) for row in self.rows if row.create}

    def wanted(self, params: dict) -> dict:
        """``{field: value}`` of the options the task sets (None: not set), each through its row's ``norm``."""
        return {row.name: params[row.option] if row.norm is None else row.norm(params[row.option])
                for row in self.rows if row.option and params.get(row.option) is not None}

    def changes(self, wanted: dict, current: Any) -> dict:
        """``{field: wanted}`` for every diffed field the task asks for (``given``) that ``current`` does not have."""
        rows = [self.by_name[name] for name in self.diffed if name in wanted]
        return {row.name: wanted[row.name] for row in rows
                if row.given(wanted[row.name]) and not row.same(getattr(current, row.name), wanted[row.name])}

    def result(self, item: Any) -> dict:
        """The ``shown`` fields of a view, a spec or a field dict (a planned resource: its id is None)."""
        get = item.get if isinstance(item, dict) else lambda name: getattr(item, name, None)
        shown = {"id": get("id")} if self.kind is not None else {}
        shown.update({name: _plain(get(name)) for name in self.shown})
        return shown

    def option_at(self, key: str) -> str:
        """The option that fills body key ``key`` (the key itself when no row sends it)."""
        return next((row.option for row in self.rows if row.body == key and row.option), key)

    def describe(self, item: Any) -> dict | None:
        """``result``, with None for None (a resource not found, a task that planned nothing)."""
        return None if item is None else self.result(item)


def _plain(value: Any) -> Any:
    """A result value: lists and dicts copied (a result never shares a view's containers)."""
    return list(value) if isinstance(value, list | tuple) else dict(value) if isinstance(value, dict) else value


def _record_class(name: str, base: type, rows: list, module: str, types: dict | None, with_id: bool,
                  required: tuple = (), spec: bool = False) -> Any:
    annotations: dict[str, str] = {"id": "str"} if with_id else {}
    namespace: dict[str, Any] = {"__module__": module, "__annotations__": annotations}
    for row in rows:
        annotations[row.name] = (types or {}).get(row.name, "Any")
        if row.name not in required:
            namespace[row.name] = row.fill(spec)
    return type(name, (base,), namespace)
