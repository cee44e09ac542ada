# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cursor pagination as RunPod's autumn 2026 v2 document describes it (``Pagination``, ``PaginationCursor``).

A list answer carries ``pagination: {nextCursor, hasNextPage}``; the client passes ``nextCursor`` back verbatim as
``cursor``. The cursor here is keyset-based: it names the sort key of the last item of the page, so items created
or deleted between two page reads neither repeat nor shift the rest. It is bound to the operation and the query
parameters that issued it (not to ``limit``, which a client may change between pages); a cursor of another
operation, of other parameters, or one that does not decode answers 422 as the document says. The cursor is
signed with a per-process key, so a hand-edited one is "malformed" too (RunPod calls its cursors opaque).

The server-side page size (config ``page_size``, default the document's 1000) caps every page, so a test can make
any list cross pages; the client's ``limit`` still applies below it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .app import ApiError

Item = TypeVar("Item")
DEFAULT_LIMIT = 1000
MAX_LIMIT = 1000
BUILDS_DEFAULT_LIMIT = 100
BUILDS_MAX_LIMIT = 100

_KEY = secrets.token_bytes(16)  # per process: a cursor from another simulator run is foreign
_MAC_LENGTH = 8


class CursorError(ValueError):
    """A cursor that does not decode, or was issued for another operation or other parameters."""


def encode_cursor(operation: str, params: dict[str, Any], key: Sequence[Any], *, secret: bytes = _KEY) -> str:
    payload = json.dumps({"o": operation, "p": params, "k": list(key)}, separators=(",", ":"), sort_keys=True)
    raw = payload.encode()
    mac = hmac.new(secret, raw, hashlib.sha256).digest()[:_MAC_LENGTH]
    return base64.urlsafe_b64encode(mac + raw).decode().rstrip("=")


def decode_cursor(cursor: str, operation: str, params: dict[str, Any], *, secret: bytes = _KEY) -> list[Any]:
    """The sort key the cursor resumes after; CursorError when malformed or foreign."""
    try:
        blob = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError):
        raise CursorError("the cursor is malformed") from None
    mac, raw = blob[:_MAC_LENGTH], blob[_MAC_LENGTH:]
    expected = hmac.new(secret, raw, hashlib.sha256).digest()[:_MAC_LENGTH]
    if len(mac) < _MAC_LENGTH or not hmac.compare_digest(mac, expected):
        raise CursorError("the cursor is malformed")
    try:
        payload = json.loads(raw)
    except ValueError:  # pragma: no cover - only a signed payload reaches here
        raise CursorError("the cursor is malformed") from None
    if payload.get("o") != operation or payload.get("p") != params:
        raise CursorError("the cursor was issued for another operation or other parameters")
    return list(payload["k"])


def _refuse(errors: list[str]) -> ApiError:
    return ApiError(422, "Request validation failed.", errors)


def read_limit(query: Any, *, default: int = DEFAULT_LIMIT, most: int = MAX_LIMIT) -> int:
    """The ``limit`` query parameter (``PaginationLimit``: an integer from 1 to ``most``), or ``default``."""
    text = query.get("limit")
    if text is None:
        return default
    try:
        limit = int(text)
    except ValueError:
        raise _refuse([f"$.limit: {text!r} is not of type 'integer'"]) from None
    if limit < 1:
        raise _refuse([f"$.limit: {limit} is less than the minimum of 1"])
    if limit > most:
        raise _refuse([f"$.limit: {limit} is greater than the maximum of {most}"])
    return limit


def page(
    items: list[Item],
    sort_key: Callable[[Item], tuple[Any, ...]],
    query: Any,
    *,
    operation: str,
    params: dict[str, Any],
    page_size: int,
    default: int = DEFAULT_LIMIT,
    most: int = MAX_LIMIT,
) -> tuple[list[Item], dict[str, Any]]:
    """One page of ``items`` in ``sort_key`` order from the query's cursor, and its ``pagination`` block.

    ``sort_key`` must be unique per item and JSON-representable (it travels in the cursor).
    """
    limit = min(read_limit(query, default=default, most=most), max(1, page_size))
    ordered = sorted(items, key=sort_key)
    cursor = query.get("cursor")
    if cursor is not None:
        if cursor == "":
            raise _refuse(["$.cursor: '' should be non-empty"])
        try:
            after = tuple(decode_cursor(cursor, operation, params))
        except CursorError as exc:
            raise _refuse([f"$.cursor: {exc}"]) from None
        ordered = [item for item in ordered if tuple(sort_key(item)) > after]
    chosen = ordered[:limit]
    more = len(ordered) > limit
    next_cursor = encode_cursor(operation, params, sort_key(chosen[-1])) if more else None
    return chosen, {"nextCursor": next_cursor, "hasNextPage": more}
