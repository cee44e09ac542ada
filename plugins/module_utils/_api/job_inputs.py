# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The input rules of a serverless job (``runpod.cloud.endpoint_job``); the policy ranges: docs/dev/api-notes.md,
"Serverless jobs"."""

from __future__ import annotations

import json
import math
import unicodedata
from urllib.parse import urlsplit

from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import _raise, name_problem
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.duration import parse as parse_duration

# (option, body key, lowest, highest) in seconds; RunPod takes milliseconds.
POLICY_RANGES = (
    ("execution_timeout", "executionTimeout", 5.0, 7 * 86400.0),
    ("ttl", "ttl", 10.0, 7 * 86400.0),
)
MAX_INPUT_BYTES = 10 * 1024 * 1024  # RunPod's payload limit for /run (/runsync allows 20 MB)
MAX_JOB_ID_LENGTH = 200
MAX_WEBHOOK_LENGTH = 2048
STATES = ("present", "cancelled")


def _has_control(text):
    return any(unicodedata.category(character) in ("Cc", "Cf") for character in text)


def job_id_problem(value, option="id"):
    if not value:
        return f"{option} must not be empty"
    if value != value.strip() or any(character.isspace() for character in value) or _has_control(value):
        return f"{option} {value!r} must not contain whitespace or control characters (a job id has none)"
    if "/" in value or len(value) > MAX_JOB_ID_LENGTH:
        return f"{option} {value!r} is not a job id (no '/', at most {MAX_JOB_ID_LENGTH} characters)"
    return None


def webhook_problem(value):
    text = str(value)
    parts = urlsplit(text)
    if text != text.strip() or _has_control(text) or " " in text:
        return f"webhook {text!r} must not contain whitespace or control characters"
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return f"webhook {text!r} must be an absolute http or https URL, such as https://example.com/runpod-done"
    if parts.username or parts.password:
        return "webhook must not carry a user name or password in the URL (RunPod would store and show it)"
    if len(text) > MAX_WEBHOOK_LENGTH:
        return f"webhook must be at most {MAX_WEBHOOK_LENGTH} characters (it has {len(text)})"
    return None


def policy(params):
    """The ``policy`` object of the request body (``executionTimeout``/``ttl`` in ms, ``lowPriority``), or None."""
    body = {}
    for option, key, low, high in POLICY_RANGES:
        value = params.get(option)
        if value is None:
            continue
        try:
            seconds = parse_duration(value)
        except ValueError as exc:
            raise ValueError(f"invalid {option}: {exc}") from None
        if not math.isfinite(seconds) or not low <= seconds <= high:
            raise ValueError(f"{option} must be between {low:g} seconds and 7 days (RunPod's range), got {value!r}")
        body[key] = round(seconds * 1000)
    if params.get("low_priority") is not None:
        body["lowPriority"] = bool(params["low_priority"])
    return body or None


def _input_problem(value):
    if not isinstance(value, dict):
        return f"input must be a mapping (the job's input object), got {type(value).__name__}"
    try:
        size = len(json.dumps(value, allow_nan=False).encode("utf-8"))
    except (TypeError, ValueError) as exc:
        return f"input must be plain JSON data (mappings, lists, strings, numbers, booleans, null): {exc}"
    if size > MAX_INPUT_BYTES:
        return f"input is {size} bytes as JSON; RunPod accepts at most {MAX_INPUT_BYTES} bytes for /run"
    return None


def job_request(params):
    """``{"endpoint_id", "endpoint_name", "job_id", "state", "body"}`` (the ``/run`` body and where it goes) from the
    module's params; raises ``ValueError`` with the first broken rule."""
    endpoint_id, endpoint_name = params.get("endpoint_id"), params.get("endpoint_name")
    job_id, job_input, state = params.get("id"), params.get("input"), params.get("state") or "present"
    request = {"endpoint_id": endpoint_id, "endpoint_name": endpoint_name, "job_id": job_id, "state": state}
    if (endpoint_id is None) == (endpoint_name is None):
        raise ValueError("give exactly one of endpoint_id and endpoint_name (the endpoint that runs the job)")
    _raise(job_id_problem(endpoint_id, "endpoint_id") if endpoint_id is not None else name_problem(
        endpoint_name, "endpoint_name"))
    if state not in STATES:
        raise ValueError(f"state must be one of {', '.join(STATES)}, got {state!r}")
    if job_id is not None and job_input is not None:
        raise ValueError("give either input (submit a new job) or id (an existing job), not both")
    if job_id is None and state == "cancelled":
        raise ValueError("state=cancelled needs id, the job to cancel (a task with input always submits a new job)")
    if job_id is None and job_input is None:
        raise ValueError("give input (submit a new job) or id (read, wait for or cancel an existing job)")
    if job_id is not None:
        _raise(job_id_problem(job_id))
        extras = [option for option in ("execution_timeout", "ttl", "low_priority", "webhook")
                  if params.get(option) is not None]
        if extras:
            raise ValueError(f"{', '.join(extras)} apply to a new job (with input), not to an existing one (id)")
        return {**request, "body": None}
    webhook = params.get("webhook")
    _raise(_input_problem(job_input) or (webhook is not None and webhook_problem(webhook)))
    body = {"input": job_input, "policy": policy(params), "webhook": webhook}
    return {**request, "body": {key: value for key, value in body.items() if value is not None}}
