# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers shared by the simulator tests (a unique module name: every conftest is imported as ``conftest``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

GPU = "NVIDIA GeForce RTX 4090"


def pod_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "pod-a",
        "image": "ubuntu:22.04",
        "gpu": {"id": GPU, "count": 1},
        "ports": ["22/tcp", "8888/http"],
    }
    body.update(overrides)
    return {key: value for key, value in body.items() if value is not None}  # None drops a default


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.02) -> Any:
    """Poll ``predicate`` until it returns something truthy (a deadline, not a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("condition not met before the deadline")
        time.sleep(interval)
