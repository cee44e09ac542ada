"""Fixtures shared by the module unit tests."""

from __future__ import annotations

import pytest
from ansible.module_utils import _internal
from ansible.module_utils.common import warnings as module_warnings


@pytest.fixture(autouse=True)
def module_side_warnings(monkeypatch):
    """Run modules as they run on a target: warnings land in the result, not on the controller's display.

    Importing controller code (the inventory plugin's tests do) flips ansible-core's process-wide
    ``is_controller`` flag, after which ``module.warn`` would print instead of returning ``warnings``.
    """
    monkeypatch.setattr(_internal, "is_controller", False)
    # Warnings are collected process-wide; each module run in a test starts with none.
    monkeypatch.setattr(module_warnings, "_global_warnings", {})
    monkeypatch.setattr(module_warnings, "_global_deprecations", {})
