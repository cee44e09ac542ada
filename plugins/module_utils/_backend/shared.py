# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What the resource objects share: ``quote_id``, ``walk_pages`` (a paged list read whole), ``Collection``,
``mounts_body``; and ``SshKeys``, here rather than in a file of their own, which a pod task would ship besides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import as_dict, as_list

# Far beyond any account (1000 entries a page): a server that hands out new cursors forever must not hold a task.
MAX_PAGES = 10_000
SSH_KEYS_PATH = "account/ssh-keys"


def quote_id(resource_id: object) -> str:
    """A resource id made safe for a URL path segment."""
    return quote(str(resource_id), safe="")


def walk_pages(client: Any, path: str, key: str, noun: str, *, params: dict | None = None,
               attempts: int | None = None, bare: bool = False, pages: list | None = None,
               enough: int | None = None) -> list:
    """Every entry of the paged list at ``path`` (under ``key``, nulls skipped), each page with the same ``params``;
    a failed page raises (a partial list would make a wait count the missing entries as gone). ``bare`` takes a bare
    array as the whole list, ``pages`` gets every answer, ``enough`` is ``walk``'s."""

    def fetch(cursor: str | None) -> Any:
        query = {**(params or {}), **({} if cursor is None else {"cursor": cursor})}
        answer = client.request("GET", path, params=query or None, attempts=attempts)
        if bare and isinstance(answer, list):
            answer = {key: answer}
        elif isinstance(answer, dict) and key in answer and answer[key] is None:
            answer = {**answer, key: []}
        if pages is not None:
            pages.append(answer)
        return answer

    try:
        items = walk(fetch, key, enough=enough)
    except PagingError as error:
        raise RunPodError("bad_response", None, f"GET /{path}: {error} (expected a list of {noun}s)") from None
    return [entry for entry in items if entry is not None]


class Collection:
    """The calls every REST v2 collection at ``path`` has (its list under ``key``, ``noun`` in errors, ``table`` reading
    an entry); a resource class holds one and delegates to it (composition, not inheritance)."""

    def __init__(self, client: Any, path: str, key: str, noun: str, table: Any) -> None:
        self.client, self.path, self.key, self.noun, self.table = client, path, key, noun, table

    def at(self, resource_id: object) -> str:
        return f"{self.path}/{quote_id(resource_id)}"

    def list(self, attempts: int | None = None, *, params: dict | None = None) -> Any:
        entries = walk_pages(self.client, self.path, self.key, self.noun, params=params, attempts=attempts, bare=True)
        return [self.table.read(raw) for raw in entries]

    def get(self, resource_id: str, attempts: int | None = None) -> Any:
        """One entry by id (404 raises ``not_found``)."""
        return self.table.read(self.client.request("GET", self.at(resource_id), attempts=attempts))

    def find(self, name: str, attempts: int | None = None) -> Any:
        return [entry for entry in self.list(attempts) if entry.name == name]

    def patch(self, resource_id: str, body: dict) -> Any:
        return self.table.read(self.client.request("PATCH", self.at(resource_id), json=body))

    def delete(self, resource_id: str) -> None:
        self.client.request("DELETE", self.at(resource_id))


def mounts_body(volume_gb: int | None, volume_mount_path: str | None, network_volume_id: str | None) -> dict | None:
    """The REST v2 ``mounts`` block of a pod or cluster create (None when nothing is mounted)."""
    if network_volume_id:
        return {"network": [{"volumeId": network_volume_id, "path": volume_mount_path or "/workspace"}]}
    if volume_gb:
        return {"persistent": {"size": int(volume_gb), "path": volume_mount_path or "/workspace"}}
    return None


class SshKeys:
    """The account's SSH public keys (``/account/ssh-keys``)."""

    def __init__(self, client):
        self.client = client

    def list(self):
        payload = as_dict(self.client.request("GET", SSH_KEYS_PATH))
        if not isinstance(payload.get("keys"), list):
            raise RunPodError("bad_response", None, f'expected {{"keys": [...]}} from GET /{SSH_KEYS_PATH}')
        return [str(key) for key in as_list(payload["keys"])]

    def replace(self, keys):
        """PUT the whole list (RunPod has no add or remove of one key)."""
        payload = as_dict(self.client.request("PUT", SSH_KEYS_PATH, json={"keys": list(keys)}))
        return [str(key) for key in as_list(payload.get("keys"))]


class PagingError(ValueError):
    """An answer a walk cannot follow: not an object, items not a list, or a cursor that loops or is missing."""


def walk(fetch: Callable[[str | None], Any], key: str, *, max_pages: int = MAX_PAGES,
         enough: int | None = None) -> list[Any]:
    """Every item under ``key`` of the pages ``fetch(cursor)`` reads, following ``nextCursor`` while ``hasNextPage`` is
    true (a short or empty page is not the last: docs/dev/api-notes.md, 7.1); ``enough`` stops early. Raises
    ``PagingError`` on an answer it cannot follow or a cursor loop."""
    items: list[Any] = []
    seen: set[str] = set()
    pages = 0
    cursor: str | None = None
    while True:
        answer = fetch(cursor)
        pages += 1
        if not isinstance(answer, dict) or not isinstance(answer.get(key), list):
            raise PagingError(f"page {pages} of the list has no {key!r} list")
        items.extend(answer[key])
        cursor = next_cursor(answer, pages)
        if cursor is None or (enough is not None and len(items) >= enough):
            return items
        if cursor in seen:
            raise PagingError(f"page {pages} of the list repeats an earlier cursor (the pages loop)")
        seen.add(cursor)
        if pages >= max_pages:
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
