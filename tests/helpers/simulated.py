# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scenarios set up in a running simulator through its admin API."""

from __future__ import annotations

import time
from typing import Any

FOREVER = 10_000_000  # simulated seconds: a pod that stays in its current step for the whole test


def staggered_pods(sim: Any, count: int = 20, *, first: float = 5.0, step: float = 0.25,
                   prefix: str = "batch") -> tuple[list[str], list[float]]:
    """Seed ``count`` PROVISIONING pods that answer on ssh ``first``, ``first + step``, ... real seconds from
    now (5 s, 5.25 s, ... 9.75 s by default: ansible's start-up takes about 3 s). New pods stay PROVISIONING
    until their own delays are set, so none races ahead of the seed. Returns the ids and, per pod, the
    ``time.time()`` at which it answers."""
    scale = sim.admin.config()["time_scale"]
    sim.admin.configure(provisioning_delay=FOREVER)
    ids = sim.admin.seed(count, status="PROVISIONING", name_prefix=prefix, ports=["22/tcp"])
    ready_at = []
    for index, pod_id in enumerate(ids):
        delay = first + step * index
        sim.admin.set_pod_behaviour(pod_id, provisioning_delay=delay / scale, starting_delay=0, ssh_delay=0)
        ready_at.append(time.time() + delay)
    return ids, ready_at
