# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scenarios set up in a running simulator through its admin API."""

from __future__ import annotations

import time
from typing import Any

import httpx

FOREVER = 10_000_000  # simulated seconds: a pod that stays in its current step for the whole test
# The test account has one SSH key registered (PUT /v2/account/ssh-keys), as a RunPod user who set up SSH does:
# v2 pods created with startSsh (and seeded pods) get it as PUBLIC_KEY, so their sshd starts. Nobody holds its
# private half: tests that log in pass their own key; tests about a keyless account clear the registration.
ACCOUNT_SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com"


def list_reads(sim: Any, path: str = "/v2/pods") -> list[dict[str, Any]]:
    """The reads of the paged list at ``path`` in the request log, one per walk of its pages: its GETs without a
    cursor (every page after the first carries one), so a count of them does not depend on the page size."""
    return [entry for entry in sim.admin.requests()
            if entry["method"] == "GET" and entry["path"] == path and "cursor=" not in entry["query"]]


def register_account_keys(sim: Any, keys: list[str]) -> None:
    """Replace the account's registered SSH keys through the API (``[]`` leaves the account without any)."""
    response = httpx.put(
        f"{sim.urls['api_v2']}/account/ssh-keys",
        json={"keys": keys},
        headers={"Authorization": f"Bearer {sim.api_key}"},
        timeout=10,
    )
    response.raise_for_status()


def fresh_account(sim: Any, **settings: Any) -> None:
    """The simulator as a test starts on it: reset, the account's SSH key registered, then ``settings`` applied
    (``sim.admin.configure``); a test that runs the same playbook twice (both wait paths) starts each run so."""
    sim.admin.reset()
    register_account_keys(sim, [ACCOUNT_SSH_KEY])
    if settings:
        sim.admin.configure(**settings)


def staggered_pods(sim: Any, count: int = 20, *, first: float = 5.0, step: float = 0.25, prefix: str = "batch",
                   running: float | None = None, **behaviour: Any) -> tuple[list[str], list[float]]:
    """Seed ``count`` PROVISIONING pods that answer on ssh ``first``, ``first + step``, ... real seconds from
    now (5 s, 5.25 s, ... 9.75 s by default: ansible's start-up takes about 3 s). New pods stay PROVISIONING
    until their own delays are set, so none races ahead of the seed. Returns the ids and, per pod, the earliest
    ``time.time()`` at which it can answer (its delay counted from before the request that set it: the simulator
    starts the delay when it handles that request, which a loaded machine may do a while later). With ``running``,
    every pod is RUNNING with its port mapped that many seconds from now and its sshd answers as above (the wait
    probes it first); ``behaviour``: more per-pod overrides (``ssh_host_key_log``)."""
    scale = sim.admin.config()["time_scale"]
    sim.admin.configure(provisioning_delay=FOREVER)
    ids = sim.admin.seed(count, status="PROVISIONING", name_prefix=prefix, ports=["22/tcp"])
    ready_at = []
    for index, pod_id in enumerate(ids):
        delay = first + step * index
        ready_at.append(time.time() + delay)
        up = delay if running is None else running
        sim.admin.set_pod_behaviour(pod_id, provisioning_delay=up / scale, starting_delay=0,
                                    ssh_delay=(delay - up) / scale, **behaviour)
    return ids, ready_at


def queue_endpoint(sim: Any, name: str = "smoke", workers_min: int = 1, workers_max: int = 3) -> str:
    """A queue endpoint created through REST v2 and made known to the invoke service at once (no propagation
    lag), whose jobs may run a simulated day before the endpoint's execution timeout ends them. Its job outcomes
    are scripted with ``sim.admin.job_script``."""
    body = {"name": name, "type": "QUEUE", "image": "worker:1", "gpu": {"pools": ["ADA_24"]}, "timeout": 86_400_000,
            "workers": {"min": workers_min, "max": workers_max}, "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}}
    created = httpx.post(f"{sim.urls['api_v2']}/serverless", json=body,
                         headers={"Authorization": f"Bearer {sim.api_key}"}, timeout=30)
    created.raise_for_status()
    endpoint_id = created.json()["id"]
    sim.admin.propagate(endpoint_id)
    return endpoint_id
