# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What the resource objects share: ``quote_id``, ``Collection`` (list, get by id, find by name) and the body helpers
(``BODY_KEYS``, ``body_keys``, ``given``, ``only``, ``sendable``, ``mounts_body``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ansible_collections.runpod.cloud.plugins.module_utils._api.readers import pick_list
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.normalize import env_strings


def quote_id(resource_id: object) -> str:
    """A resource id made safe for a URL path segment."""
    return quote(str(resource_id), safe="")


class Collection:
    """The reads every REST v2 collection has: ``list``, ``get`` by id, ``find`` by name. A resource object holds
    one (``path`` the collection's path, ``key`` the list answer's key, ``noun`` the word its errors use, ``table``
    the ``_api/payloads`` table reading one entry into a view) and hands its methods out as its own."""

    def __init__(self, client: Any, path: str, key: str, noun: str, table: Any) -> None:
        self.client, self.path, self.key, self.noun, self.table = client, path, key, noun, table

    def at(self, resource_id: object) -> str:
        return f"{self.path}/{quote_id(resource_id)}"

    def list(self, attempts: int | None = None) -> Any:
        """Every entry (one list read)."""
        payload = self.client.request("GET", self.path, attempts=attempts)
        return [self.table.read(raw) for raw in pick_list(payload, self.key, self.noun)]

    def get(self, resource_id: str, attempts: int | None = None) -> Any:
        """One entry by id (one read; 404 raises ``not_found``)."""
        return self.table.read(self.client.request("GET", self.at(resource_id), attempts=attempts))

    def find(self, name: str, attempts: int | None = None) -> Any:
        """The entries named exactly ``name`` (one list read)."""
        return [entry for entry in self.list(attempts) if entry.name == name]


# -- request bodies ------------------------------------------------------------------------------------------


def mounts_body(volume_gb: int | None, volume_mount_path: str | None, network_volume_id: str | None) -> dict | None:
    """The REST v2 ``mounts`` block of a pod or cluster create (None when nothing is mounted)."""
    if network_volume_id:
        return {"network": [{"volumeId": network_volume_id, "path": volume_mount_path or "/workspace"}]}
    if volume_gb:
        return {"persistent": {"size": int(volume_gb), "path": volume_mount_path or "/workspace"}}
    return None


def listed(value: Any) -> list | None:
    return None if value is None else list(value)


# The container settings pods, templates and endpoints all send as one key each: field -> (convert, key); the key may
# come with its own convert. A resource's own keys are its file's (``pods.POD_KEYS``, ``templates.TEMPLATE_KEYS``);
# each body builder chooses the fields it sends and when (RunPod rejects keys it does not know:
# docs/dev/api-notes.md, section 3.2).
BODY_KEYS: dict[str, tuple] = {
    "name": (None, "name"),
    "image": (None, "image"),
    "container_disk_gb": (int, "disk"),
    "ports": (listed, "ports"),
    "env": (env_strings, "env"),
    # The start command is one string; "" clears it.
    "docker_args": (None, ("args", lambda args: args or "")),
    "registry_id": (None, "registry"),
}


def body_keys(values: dict, own: dict | None = None) -> dict:
    """``values`` (spec field -> value: the fields the caller sends) under REST v2's keys, converted; ``own`` holds
    the resource's keys beside ``BODY_KEYS``."""
    body = {}
    for field, value in values.items():
        convert, key = (own or {}).get(field) or BODY_KEYS[field]
        if isinstance(key, tuple):
            key, convert = key
        body[key] = value if convert is None else convert(value)
    return body


def given(spec: Any, fields: tuple, keep: Any = bool) -> dict:
    """The ``fields`` of ``spec`` a create sends: those whose value passes ``keep`` (set and not empty by default)."""
    return {field: getattr(spec, field) for field in fields if keep(getattr(spec, field))}


def only(fields: dict, allowed: tuple, message: str) -> dict:
    """``fields`` when every key is ``allowed``; else ValueError ``<message>: <the others>``."""
    unknown = sorted(set(fields) - set(allowed))
    if unknown:
        raise ValueError(f"{message}: {', '.join(unknown)}")
    return fields


def sendable(value: Any, creating: bool) -> bool:
    """Whether a field of a create or an update body is sent: set, and on create not an empty default (on update an
    explicit empty value clears)."""
    return value is not None and not (creating and value in ({}, [], ""))
