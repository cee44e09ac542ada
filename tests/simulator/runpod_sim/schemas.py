# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Request-body validation against RunPod's own REST v2 OpenAPI document (a copy in ``spec/``, see ``spec/SOURCES.md``).

v2 uses JSON Schema 2020-12 with ``unevaluatedProperties: false``, so unknown keys come back as 422 with
``errors`` such as ``$: additional properties 'bogus' not allowed``, as the real service words them.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

SPEC_DIR = Path(__file__).resolve().parent / "spec"
V2_SPEC_FILE = SPEC_DIR / "runpod-rest-v2-openapi.json"
_V2_URI = "urn:runpod:v2"


@functools.cache
def v2_document() -> dict[str, Any]:
    return json.loads(V2_SPEC_FILE.read_text())


@functools.cache
def _registry() -> referencing.Registry:
    v2 = referencing.Resource.from_contents(v2_document(), default_specification=referencing.jsonschema.DRAFT202012)
    return referencing.Registry().with_resources([(_V2_URI, v2)])


@functools.cache
def _validator(uri: str, schema_name: str) -> jsonschema.Draft202012Validator:
    schema = {"$ref": f"{uri}#/components/schemas/{schema_name}"}
    return jsonschema.Draft202012Validator(schema, registry=_registry())


def v2_validator(schema_name: str) -> jsonschema.Draft202012Validator:
    return _validator(_V2_URI, schema_name)


def _json_path(error: jsonschema.ValidationError) -> str:
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


_UNEXPECTED = re.compile(r"\((.*) (?:was|were) unexpected\)")


def _declared_properties(schema: Any, seen: set[int] | None = None) -> set[str]:
    """Every property name a schema declares through allOf/anyOf/oneOf/if/then and $ref (v2 document)."""
    seen = seen if seen is not None else set()
    if not isinstance(schema, dict) or id(schema) in seen:
        return set()
    seen.add(id(schema))
    names = set(schema.get("properties", {}))
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = v2_document()
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        names |= _declared_properties(target, seen)
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []):
            names |= _declared_properties(sub, seen)
    for key in ("if", "then", "else"):
        names |= _declared_properties(schema.get(key), seen)
    return names


def _describe(error: jsonschema.ValidationError) -> list[str]:
    where = _json_path(error)
    if error.validator in ("unevaluatedProperties", "additionalProperties"):
        match = _UNEXPECTED.search(error.message)
        names = re.findall(r"'([^']+)'", match.group(1) if match else error.message)
        # A failing allOf branch drops its annotations, so declared keys can show up as "unevaluated": skip them.
        declared = _declared_properties(error.schema)
        names = [name for name in names if name not in declared]
        return [f"{where}: additional properties '{name}' not allowed" for name in names]
    if error.validator == "required":
        return [f"{where}: {error.message.replace(' is a required property', '')} is required"]
    return [f"{where}: {error.message}"]


def validate_v2(schema_name: str, body: Any) -> list[str]:
    """Return the v2-style error list (empty when the body is valid)."""
    errors: list[str] = []
    for error in sorted(v2_validator(schema_name).iter_errors(body), key=lambda e: list(e.absolute_path)):
        leaves = _leaf_errors(error)
        for leaf in leaves:
            errors.extend(_describe(leaf))
    return sorted(dict.fromkeys(errors))


def _leaf_errors(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    # allOf/oneOf wrap the useful failure; report the innermost ones.
    if error.context:
        leaves = []
        for sub in error.context:
            leaves.extend(_leaf_errors(sub))
        return leaves
    return [error]
