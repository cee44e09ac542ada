# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The rules every resource shares (pure Python). The rename rule: a task that names a resource by ``id`` and
gives a ``name`` that differs from the resource's wants it renamed (found by name, the name is already the same)."""

from __future__ import annotations

from typing import Any


def wanted_name(params: dict, current: Any) -> str | None:
    """The new name of ``current`` the task asks for, or None (no id given, no name given, or the same name)."""
    name = params.get("name")
    if params.get("id") and name and name != current.name:
        return name
    return None


def rename_change(params: dict, current: Any) -> dict:
    """``{"name": new name}`` when the task renames ``current`` (see ``wanted_name``), else ``{}``."""
    name = wanted_name(params, current)
    return {"name": name} if name else {}
