# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""pydantic, import-guarded: the names ``models`` and ``inputs`` build on, or stand-ins that let them import without
pydantic (a module then fails early with ``missing_required_lib``; the sanity import test runs without it)."""

from __future__ import annotations

import traceback

try:
    from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
except ImportError:  # pragma: no cover - exercised by the sanity import test
    HAS_PYDANTIC = False
    PYDANTIC_IMPORT_ERROR: str | None = traceback.format_exc()

    def field_validator(*fields, **kwargs):  # type: ignore[no-redef]
        return lambda function: function

    class BaseModel:  # type: ignore[no-redef]
        """Stand-in so this file imports without pydantic; modules fail early via missing_required_lib."""

    def ConfigDict(**kwargs):  # type: ignore[no-redef]  # noqa: N802
        return kwargs

    def Field(default=None, **kwargs):  # type: ignore[no-redef]  # noqa: N802
        return default

    def model_validator(**kwargs):  # type: ignore[no-redef]
        return lambda function: function

else:
    HAS_PYDANTIC = True
    PYDANTIC_IMPORT_ERROR = None


__all__ = [
    "HAS_PYDANTIC",
    "PYDANTIC_IMPORT_ERROR",
    "BaseModel",
    "ConfigDict",
    "Field",
    "field_validator",
    "model_validator",
]
