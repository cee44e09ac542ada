# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Response checks against RunPod's REST v2 document: every body the simulator serves on ``/v2``.

Each response is matched to its operation in the document (method + path template, then status, then media
type) and its body is checked twice: against the response schema (types, required, enums), and for properties
the schema does not declare. The document leaves ``additionalProperties`` open, but a field RunPod does not
document is one the collection must not read, so here an undeclared property is a violation.

Routes are found from the document, not from the simulator's route table, so a route added later is checked
without any change here. Not checked: the serverless data plane (no document), responses altered by a
scripted fault, and the schemas of 4xx answers the document lists without a body. A status the operation
does not list is a violation when it is a success and the operation lists other successes.
Long arrays are checked on their first ``SAMPLE`` items.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime
from typing import Any

import jsonschema

from .schemas import _registry, v2_document

SAMPLE = 5
_DOCS = {"v2": ("urn:runpod:v2", "", v2_document)}
_METHODS = ("get", "put", "post", "patch", "delete")


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


@functools.cache
def _operations(surface: str) -> list[tuple[str, re.Pattern[str], str]]:
    """(method, path regex, JSON pointer of the operation), literal paths before templated ones."""
    _uri, prefix, load = _DOCS[surface]
    found = []
    for template, item in load()["paths"].items():
        regex = re.compile("^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(prefix + template)) + "$")
        for method in _METHODS:
            if method in item:
                found.append((method.upper(), regex, f"/paths/{_escape(template)}/{method}", template.count("{")))
    found.sort(key=lambda entry: entry[3])
    return [entry[:3] for entry in found]


def _pointer(document: Any, pointer: str) -> Any:
    node = document
    for part in pointer.lstrip("/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _resolve(document: Any, node: Any, pointer: str) -> tuple[Any, str]:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        pointer = node["$ref"][1:]
        node = _pointer(document, pointer)
    return node, pointer


@functools.cache
def _validator(uri: str, pointer: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$ref": f"{uri}#{pointer}"}, registry=_registry())


def _sample(value: Any) -> Any:
    if isinstance(value, list):
        return [_sample(item) for item in value[:SAMPLE]]
    if isinstance(value, dict):
        return {key: _sample(item) for key, item in value.items()}
    return value


def check(method: str, path: str, status: int, content_type: str, body: Any) -> list[str]:
    """Violations of the document by one response (empty when it conforms or no document covers the path)."""
    surface = "v2" if path.startswith("/v2/") else None
    if surface is None:
        return []
    uri, _prefix, load = _DOCS[surface]
    document = load()
    where = f"{method} {path} -> {status}"
    operation = next(
        (pointer for verb, regex, pointer in _operations(surface) if verb == method and regex.match(path)), None
    )
    if operation is None:  # a 404/405 for a route RunPod does not have is the right answer
        return [] if status in (404, 405) else [f"{where}: the {surface} document has no such operation"]
    responses = _pointer(document, operation)["responses"]
    key = next((k for k in (str(status), f"{status // 100}XX", "default") if k in responses), None)
    if key is None:
        # A 2xx the operation does not list is wrong, unless it lists no success at all.
        documents_success = any(str(code).startswith("2") for code in responses)
        flagged = 200 <= status < 300 and documents_success
        return [f"{where}: status {status} is not documented for this operation"] if flagged else []
    response, response_pointer = _resolve(document, responses[key], f"{operation}/responses/{key}")
    content = response.get("content")
    if not content:
        return [] if body is None or status >= 400 else [f"{where}: the document describes no body, got one"]
    if body is None:
        return [f"{where}: the document describes a body, got none"]
    media = content_type.split(";")[0].strip()
    if media not in content:
        return [f"{where}: media type {media!r} is not documented ({', '.join(content)})"]
    schema_pointer = f"{response_pointer}/content/{_escape(media)}/schema"
    sampled = _sample(body)
    errors = [
        f"{where}: ${_json_path(error.absolute_path)}: {error.message}"
        for error in _validator(uri, schema_pointer).iter_errors(sampled)
        if not _known_quirk(path, error)
    ]
    undeclared: list[str] = []
    _undeclared(document, content[media]["schema"], sampled, "$", undeclared)
    errors.extend(f"{where}: {text}" for text in undeclared)
    return errors[:20]


# Quirks RunPod's own clients report against the document, which the simulator models on purpose (config
# ``quirk_template_mounts_omitted``): a template with no mounts omits the required ``mounts``.
_TEMPLATE_PATH = re.compile(r"^/v2/templates(/[^/]+)?$")


def _known_quirk(path: str, error: Any) -> bool:
    return (
        error.validator == "required"
        and error.message == "'mounts' is a required property"
        and bool(_TEMPLATE_PATH.match(path))
    )


def _json_path(parts: Any) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts)


def _branches(document: Any, schema: Any, instance: Any) -> list[dict[str, Any]]:
    """The schema and every subschema that applies to ``instance`` (allOf, and the anyOf/oneOf branches it fits)."""
    schema, _ignored = _resolve(document, schema, "")
    if not isinstance(schema, dict):
        return []
    found = [schema]
    for sub in schema.get("allOf", []):
        found.extend(_branches(document, sub, instance))
    for key in ("anyOf", "oneOf"):
        subs = schema.get(key) or []
        fitting = [sub for sub in subs if _fits(document, sub, instance)]
        for sub in fitting or subs:
            found.extend(_branches(document, sub, instance))
    return found


def _fits(document: Any, schema: Any, instance: Any) -> bool:
    """A cheap discriminator for anyOf/oneOf: null vs object, required keys present, const/enum values agree."""
    schema, _ignored = _resolve(document, schema, "")
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    if instance is None:
        return kind == "null" or (isinstance(kind, list) and "null" in kind)
    if kind == "null":
        return False
    if not isinstance(instance, dict):
        return True
    parts = [schema] + [_resolve(document, sub, "")[0] for sub in schema.get("allOf", [])]
    for part in parts:
        if not isinstance(part, dict):
            continue
        if not set(part.get("required", [])) <= set(instance):
            return False
        for name, sub in (part.get("properties") or {}).items():
            sub, _ignored = _resolve(document, sub, "")
            if name in instance and isinstance(sub, dict):
                if "const" in sub and instance[name] != sub["const"]:
                    return False
                if "enum" in sub and instance[name] not in sub["enum"]:
                    return False
    return True


def _undeclared(document: Any, schema: Any, instance: Any, where: str, out: list[str]) -> None:
    branches = _branches(document, schema, instance)
    if isinstance(instance, dict):
        declared: dict[str, list[Any]] = {}
        extra: list[Any] = []
        open_object = not any("properties" in branch for branch in branches)
        for branch in branches:
            for name, sub in (branch.get("properties") or {}).items():
                declared.setdefault(name, []).append(sub)
            more = branch.get("additionalProperties")
            if isinstance(more, dict):
                extra.append(more)
            elif more is True:
                open_object = True
        for name, value in instance.items():
            subs = declared.get(name) or extra
            if subs:
                for sub in subs:
                    _undeclared(document, sub, value, f"{where}.{name}", out)
            elif not open_object:
                out.append(f"{where}: property '{name}' is not in the document")
    elif isinstance(instance, list):
        for branch in branches:
            items = branch.get("items")
            if isinstance(items, dict):
                for index, value in enumerate(instance):
                    _undeclared(document, items, value, f"{where}[{index}]", out)


# The document describes a log event's ``data`` in prose (``{source, line, ts}``, ``source`` a ``LogSource``) and its
# ``id`` as the event's ``ts``; this is that description as a schema, no other key allowed.
LOG_EVENT_SCHEMA = {
    "type": "object",
    "required": ["ts", "source", "line"],
    "additionalProperties": False,
    "properties": {
        "ts": {"type": "string", "format": "date-time"},
        "source": {"$ref": "urn:runpod:v2#/components/schemas/LogSource"},
        "line": {"type": "string"},
    },
}


@functools.cache
def _log_event_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        LOG_EVENT_SCHEMA, registry=_registry(), format_checker=jsonschema.FormatChecker()
    )


def check_log_event(path: str, event: Any) -> list[str]:
    """Violations of the document by one event of a log stream (its ``data``; its ``id`` is its ``ts``)."""
    where = f"GET {path} event"
    problems = [f"{where}: ${_json_path(error.absolute_path)}: {error.message}"
                for error in _log_event_validator().iter_errors(event)]
    if isinstance(event, dict) and isinstance(event.get("ts"), str):
        try:
            datetime.fromisoformat(event["ts"].replace("Z", "+00:00"))
        except ValueError:
            problems.append(f"{where}: $.ts: {event['ts']!r} is not an RFC 3339 date-time")
    return problems[:20]
