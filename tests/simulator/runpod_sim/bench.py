# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``python -m runpod_sim.bench``: seed N pods into a fresh simulator and measure listing time and RSS."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import httpx

from .testing import SimProcess, start_simulator


def _rss_kib(pid: int) -> dict[str, int]:
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _ignored, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values


def measure_listing(
    sim: SimProcess, pods: int = 1000, reads: int = 15, ports: list[str] | None = None
) -> dict[str, Any]:
    """Seed ``pods`` RUNNING pods, then list them ``reads`` times on REST v2; times in milliseconds."""
    started = time.perf_counter()
    sim.admin.seed(pods, ports=ports if ports is not None else ["8888/http", "22/tcp"])
    seed_ms = (time.perf_counter() - started) * 1000
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    results: dict[str, Any] = {"pods": pods, "seed_ms": round(seed_ms, 1)}
    with httpx.Client(base_url=sim.urls["base"], headers=headers, timeout=30) as client:
        client.get("/v2/pods")  # warm-up
        sim.admin.clear_requests()
        wall = []
        for _ignored in range(reads):
            begin = time.perf_counter()
            response = client.get("/v2/pods")
            wall.append((time.perf_counter() - begin) * 1000)
            response.raise_for_status()
        server = [entry["duration_ms"] for entry in sim.admin.requests()]
        results["v2"] = {
            "listed": len(response.json()["pods"]),
            "bytes": len(response.content),
            "server_median_ms": round(statistics.median(server), 1),
            "server_max_ms": round(max(server), 1),
            "wall_median_ms": round(statistics.median(wall), 1),
            "wall_max_ms": round(max(wall), 1),
        }
    results["rss_kib"] = _rss_kib(sim.process.pid)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m runpod_sim.bench")
    parser.add_argument("--pods", type=int, default=1000)
    parser.add_argument("--reads", type=int, default=15)
    args = parser.parse_args()
    with start_simulator(time_scale=0.01) as sim:
        print(json.dumps(measure_listing(sim, args.pods, args.reads), indent=2))


if __name__ == "__main__":
    main()
