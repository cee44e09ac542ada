# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What an error answer says: its code (from the HTTP status) and its human message (from the body)."""

from __future__ import annotations

import json as jsonlib

# HTTP status -> error code (docs/dev/api-notes.md, section 2; 422 is REST v2's schema violation).
STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    422: "unprocessable",
    429: "rate_limited",
}
RAW_BODY_LIMIT = 300


def code_for_status(status):
    if status in STATUS_CODES:
        return STATUS_CODES[status]
    if status >= 500:
        return "server_error"
    return "api_error"


def _text(value):
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    return jsonlib.dumps(value, sort_keys=True)


def message_from_body(status, body_text):
    """The human message of an error body: ``error`` -> ``message`` -> ``detail`` -> raw body -> generic.

    Returns ``(message, errors)``; ``errors`` is the problem+json ``errors`` list (validation details).
    """
    errors = []
    parsed = None
    if body_text:
        try:
            parsed = jsonlib.loads(body_text)
        except ValueError:
            parsed = None
    if isinstance(parsed, dict):
        raw_errors = parsed.get("errors")
        if isinstance(raw_errors, list):
            errors = [_text(item.get("message") if isinstance(item, dict) else item) for item in raw_errors]
            errors = [item for item in errors if item]
        for key in ("error", "message", "detail", "title"):
            text = _text(parsed.get(key))
            if text:
                if errors and key in ("detail", "title"):
                    text = f"{text}: {'; '.join(errors)}"
                return text, errors
        if errors:
            return "; ".join(errors), errors
    if body_text and body_text.strip() and not isinstance(parsed, (dict, list)):
        return body_text.strip()[:RAW_BODY_LIMIT], errors
    return f"api request failed with status {status}", errors
