# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Response checks for the serverless runtime API (``/invoke/v2/{endpoint}/...``), which RunPod's REST v2
document does not describe: the shapes are those of /work/shared/docs/runpod-api.md section 2 ("Serverless data
plane"), written here as JSON schemas. An undocumented property is a violation, as in ``contract.py``.

Documented there: ``/run`` ``{"id", "status": "IN_QUEUE"}``; ``/runsync`` the job id and ``IN_QUEUE``/
``IN_PROGRESS`` when not terminal yet, else the ``/status`` shape; ``/status/{job}`` ``{"id", "status",
"delayTime", "executionTime", "output"?, "error"?}`` (times in ms); ``/stream/{job}`` ``{"status", "stream":
[{"output": ...}]}``; ``/cancel/{job}`` ``{"id", "status": "CANCELLED"}``; ``/health`` ``{"jobs": {...},
"workers": {...}}`` (every key optional). Not described there, so only checked for being objects with the
keys the simulator chose: ``/retry/{job}`` (``{"id", "status"}``, as ``/cancel``), ``/purge-queue``
(``{"removed", "status"}``) and ``/status-sync/{job}`` (the ``/status`` shape; runpod-sdk 1.1.2 calls it).
Errors are ``{"error": text}``.
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema

STATUSES = ["IN_QUEUE", "IN_PROGRESS", "RUNNING", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]
_COUNT = {"type": "integer", "minimum": 0}
_MS = {"type": "integer", "minimum": 0}
JOB = {
    "type": "object",
    "required": ["id", "status", "delayTime", "executionTime"],
    "properties": {
        "id": {"type": "string", "minLength": 1},
        "status": {"enum": STATUSES},
        "delayTime": _MS,
        "executionTime": _MS,
        "output": {},
        "error": {"type": "string"},
    },
    "additionalProperties": False,
}
PENDING = {
    "type": "object",
    "required": ["id", "status"],
    "properties": {"id": {"type": "string", "minLength": 1}, "status": {"enum": ["IN_QUEUE", "IN_PROGRESS"]}},
    "additionalProperties": False,
}
SCHEMAS: dict[str, Any] = {
    "run": {**PENDING, "properties": {**PENDING["properties"], "status": {"const": "IN_QUEUE"}}},
    "runsync": {"oneOf": [PENDING, {**JOB, "properties": {**JOB["properties"],
                                                          "status": {"enum": ["COMPLETED", "FAILED", "CANCELLED",
                                                                              "TIMED_OUT"]}}}]},
    "status": JOB,
    "status-sync": JOB,
    "stream": {
        "type": "object",
        "required": ["status", "stream"],
        "properties": {
            "status": {"enum": STATUSES},
            "stream": {"type": "array", "items": {"type": "object", "required": ["output"],
                                                  "properties": {"output": {}}, "additionalProperties": False}},
        },
        "additionalProperties": False,
    },
    "cancel": {
        "type": "object",
        "required": ["id", "status"],
        "properties": {"id": {"type": "string"}, "status": {"enum": STATUSES}},
        "additionalProperties": False,
    },
    "retry": {
        "type": "object",
        "required": ["id", "status"],
        "properties": {"id": {"type": "string"}, "status": {"const": "IN_QUEUE"}},
        "additionalProperties": False,
    },
    "purge-queue": {
        "type": "object",
        "required": ["removed", "status"],
        "properties": {"removed": _COUNT, "status": {"type": "string"}},
        "additionalProperties": False,
    },
    "health": {
        "type": "object",
        "properties": {
            "jobs": {
                "type": "object",
                "properties": {key: _COUNT for key in ("completed", "failed", "inProgress", "inQueue", "retried")},
                "additionalProperties": False,
            },
            "workers": {
                "type": "object",
                "properties": {
                    key: _COUNT for key in ("idle", "initializing", "ready", "running", "throttled", "unhealthy")
                },
                "additionalProperties": False,
            },
        },
        "additionalProperties": False,
    },
}
ERROR = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}},
         "additionalProperties": False}
_PATH = re.compile(r"^/invoke/v2/[^/]+/(?P<op>run|runsync|health|purge-queue|(?:status|status-sync|stream|cancel|retry)"
                   r"(?=/[^/]+$))(?:/[^/]+)?$")
_METHOD = {"run": "POST", "runsync": "POST", "health": "GET", "purge-queue": "POST", "status": "GET",
           "status-sync": "GET", "stream": "GET", "cancel": "POST", "retry": "POST"}


def operation(method: str, path: str) -> str | None:
    """The runtime operation a request names (``run``, ``status``, ...), or None."""
    match = _PATH.match(path)
    if match is None or _METHOD[match.group("op")] != method.upper():
        return None
    return match.group("op")


def check(method: str, path: str, status: int, body: Any) -> list[str]:
    """Problems of one runtime response; ``[]`` when runpod-api.md section 2 allows it."""
    op = operation(method, path)
    if op is None:
        return [] if status in (404, 405) else [f"{method} {path}: {status} on a path the runtime API does not have"]
    schema = SCHEMAS[op] if 200 <= status < 300 else ERROR
    if 200 <= status < 300 and status != 200:
        return [f"{method} {path}: the runtime API answers 200, not {status}"]
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{method} {path} {status}: {error.message} at {list(error.absolute_path)}"
            for error in validator.iter_errors(body)]
