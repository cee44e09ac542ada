# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The reads every REST v2 collection has, written once: list them, get one by id, find the ones with a name.

A backend class takes them as its methods, one line a resource::

    list_templates, get_template, find_templates = collection_reads("templates_path", "templates", "template",
                                                                    TEMPLATE)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from ansible_collections.runpod.cloud.plugins.module_utils._api.readers import pick_list


def quote_id(resource_id: object) -> str:
    """A resource id made safe for a URL path segment."""
    return quote(str(resource_id), safe="")


def collection_reads(path_attribute: str, key: str, noun: str, table: Any) -> tuple[
        Callable[..., list], Callable[..., Any], Callable[..., list]]:
    """``(list, get, find)`` of one collection, as methods of a class whose instances have a ``client``
    (``_api.client.Client``) and the attribute ``path_attribute`` naming the collection's path (so a backend class
    names its paths). ``key`` is the key of the list answer, ``noun`` the word its errors use, and ``table`` the
    ``_payloads`` table that reads one entry into a view."""

    def list_all(self: Any, attempts: int | None = None) -> list:
        """Every entry (one list read)."""
        payload = self.client.request("GET", getattr(self, path_attribute), attempts=attempts)
        return [table.read(raw) for raw in pick_list(payload, key, noun)]

    def get(self: Any, resource_id: str, attempts: int | None = None) -> Any:
        """One entry by id (one read; 404 raises ``not_found``)."""
        path = f"{getattr(self, path_attribute)}/{quote_id(resource_id)}"
        return table.read(self.client.request("GET", path, attempts=attempts))

    def find(self: Any, name: str, attempts: int | None = None) -> list:
        """The entries named exactly ``name`` (one list read)."""
        return [entry for entry in list_all(self, attempts) if entry.name == name]

    return list_all, get, find
