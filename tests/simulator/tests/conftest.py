# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures for the simulator's own tests: one simulator process per session, reset before each test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from simhelpers import pod_body

from runpod_sim.testing import SimProcess, start_simulator


@pytest.fixture(scope="session")
def sim() -> Iterator[SimProcess]:
    process = start_simulator(time_scale=0.01)
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(autouse=True)
def _clean(request: pytest.FixtureRequest) -> Iterator[None]:
    """Reset before each test; after it, fail on any response the OpenAPI document does not allow."""
    if "sim" not in request.fixturenames:
        yield
        return
    process = request.getfixturevalue("sim")
    process.admin.reset()
    yield
    process.admin.assert_contract()


def _client(base: str, api_key: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return httpx.Client(base_url=base, headers=headers, timeout=10)


@pytest.fixture
def v2(sim: SimProcess) -> Iterator[httpx.Client]:
    with _client(sim.urls["api_v2"], sim.api_key) as client:
        yield client


@pytest.fixture
def create_pod(v2: httpx.Client) -> Callable[..., dict[str, Any]]:
    def create(**overrides: Any) -> dict[str, Any]:
        response = v2.post("/pods", json=pod_body(**overrides))
        assert response.status_code == 201, response.text
        return response.json()

    return create


@pytest.fixture
def running_pod(sim: SimProcess, v2: httpx.Client, create_pod: Callable[..., dict[str, Any]]) -> Callable[..., dict]:
    """Create a pod and return its v2 JSON once RUNNING with port 22 listening (unless the behaviour refuses)."""

    def make(**overrides: Any) -> dict[str, Any]:
        pod = create_pod(**overrides)
        behaviour = sim.admin.pod(pod["id"])["ssh_behaviour"]
        serves_22 = "22/tcp" in pod["ports"] and behaviour != "refused"
        declares_22 = "22/tcp" in pod["ports"]
        sim.admin.wait_pod(
            pod["id"], "RUNNING", listening=True if serves_22 else None, mapped=True if declares_22 else None
        )
        return v2.get(f"/pods/{pod['id']}").json()

    return make
