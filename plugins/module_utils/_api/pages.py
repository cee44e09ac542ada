# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Walking a cursor-paged REST v2 list (pure Python; docs/dev/api-notes.md, "Paged lists").

RunPod's v2 lists (``GET /v2/pods``, ``/v2/serverless``, ``/v2/templates``, ``/v2/serverless/{id}/releases`` and
``/builds``) answer ``{<key>: [...], "pagination": {"nextCursor", "hasNextPage"}}``. A page can be short or even
empty while ``hasNextPage`` is true (the pod list drops cluster members after cutting the page), so only
``hasNextPage`` ends a walk. An answer without ``pagination`` is a whole list (the August 2026 document, and the
lists RunPod does not page). ``walk`` takes the read of one page as a callable, so it does no I/O itself: the
client's pacing, retries and error mapping stay where they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class PagingError(ValueError):
    """An answer a walk cannot follow: not an object, items not a list, or a cursor that loops or is missing."""


class Walk(NamedTuple):
    items: list[Any]
    pages: int  # answers read, the first included


def walk(fetch: Callable[[str | None], Any], key: str, *, max_pages: int | None = None,
         enough: int | None = None) -> Walk:
    """Every item of the list under ``key``, following ``nextCursor`` while ``hasNextPage`` is true.

    ``fetch(None)`` reads the first page, ``fetch(cursor)`` the page after it. Raises ``PagingError`` on an
    answer that is not ``{key: [...], ...}``, on ``hasNextPage`` true without a cursor, on a cursor seen before
    (a server loop would otherwise be followed forever) and, when ``max_pages`` is given, on a longer walk.
    ``enough`` stops once that many items were read (the newest builds: a page may be shorter than asked).
    """
    items: list[Any] = []
    seen: set[str] = set()
    cursor: str | None = None
    pages = 0
    while True:
        answer = fetch(cursor)
        pages += 1
        if not isinstance(answer, dict) or not isinstance(answer.get(key), list):
            raise PagingError(f"page {pages} of the list has no {key!r} list")
        items.extend(answer[key])
        cursor = next_cursor(answer, pages)
        if cursor is None or (enough is not None and len(items) >= enough):
            return Walk(items, pages)
        if cursor in seen:
            raise PagingError(f"page {pages} of the list repeats an earlier cursor (the pages loop)")
        seen.add(cursor)
        if max_pages is not None and pages >= max_pages:
            raise PagingError(f"the list has more than {max_pages} pages")


def next_cursor(answer: dict[str, Any], page: int = 1) -> str | None:
    """The cursor of the page after ``answer``, or None when it is the last one (or the list is not paged)."""
    pagination = answer.get("pagination")
    if pagination is None:
        return None
    if not isinstance(pagination, dict):
        raise PagingError(f"page {page} of the list has a pagination that is not an object")
    if pagination.get("hasNextPage") is not True:
        return None
    cursor = pagination.get("nextCursor")
    if not isinstance(cursor, str) or not cursor:
        raise PagingError(f"page {page} of the list says a next page exists but gives no cursor")
    return cursor
