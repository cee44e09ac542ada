# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The quota section of ``make bench`` (``BENCH_SECTIONS=quota``; issue 35, docs/pods.md "Fleets and RunPod's
quotas"): fleets of 10, 60, 100 and 200 pods under the v2 document's example policy, against the quota's floor.

Each run gets its own simulator on a scaled clock (``QUOTA_TIME_SCALE``, 0.1: a minute window is 6 s), so every
time here is in simulated seconds (the request log's wall times divided by the scale): the floor does not depend on
the machine. Approaches: ``fleet`` (``count``, at most 100 per task: 200 pods are two tasks sharing the quota, one
batch wait each) and ``loop`` (a loop of single ``pod`` tasks, then one ``pod_info`` batch wait). Per run: the time
to all-created and to all-ready, the floor (the least time the windows allow for the requests the run made), the
requests and the 429s. ``BENCH_QUOTA_SIZES=10,60`` and ``BENCH_QUOTA_APPROACHES=fleet`` reduce it.

Usage alone: ``python tests/bench/quota_bench.py [--out docs]`` (writes ``benchmarks/quota.csv``).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
from benchlib import GPU, IMAGE

from runpod_sim.quota import EXAMPLE_POLICY, parse_policy
from runpod_sim.testing import start_simulator

QUOTA_TIME_SCALE = float(os.environ.get("QUOTA_TIME_SCALE", "0.1"))
SIZES = [int(n) for n in (os.environ.get("BENCH_QUOTA_SIZES") or "10,60,100,200").split(",")]
APPROACHES = (os.environ.get("BENCH_QUOTA_APPROACHES") or "fleet,loop").split(",")
TIMEOUT = 900
MAX_COUNT = 100  # runpod.cloud.pod's count limit


def floor_seconds(requests: int, policy: str = EXAMPLE_POLICY) -> float:
    """The least simulated time fixed windows allow for ``requests`` (each window admits q per w seconds)."""
    return max([(math.ceil(requests / quota) - 1) * seconds for _name, quota, seconds in parse_policy(policy)] or [0])


def _fleets(n: int, base: str) -> list[dict[str, Any]]:
    fleets, left, index = [], n, 1
    while left > 0:
        count = min(MAX_COUNT, left)
        fleets.append({"base": f"{base}{index}", "count": count})
        left, index = left - count, index + 1
    return fleets


def run_one(approach: str, n: int) -> dict[str, Any]:
    with start_simulator(time_scale=QUOTA_TIME_SCALE, rate_limit=EXAMPLE_POLICY, log_level="error") as sim:
        # The image starts its own sshd (no account key in this simulator), so wait_for=ssh can succeed.
        sim.admin.configure(provisioning_delay=5, starting_delay=5, own_sshd_images=[IMAGE])
        if approach == "fleet":
            fleets = _fleets(n, "q")
            names = [f"{f['base']}-{k}" for f in fleets for k in range(1, f["count"] + 1)]
            extra = {"bench_fleets": fleets}
            playbook = "quota_fleet.yml"
        else:
            names = [f"q-{k}" for k in range(1, n + 1)]
            extra = {"bench_names": names}
            playbook = "quota_loop.yml"
        extra.update(bench_image=IMAGE, bench_gpus=[GPU], bench_timeout=TIMEOUT)
        run = benchlib.run_playbook(sim, playbook, extra, timeout=TIMEOUT * 2)
        log = [entry for entry in sim.admin.requests() if entry.get("surface") == "v2"]
        created = [e for e in log if e["method"] == "POST" and e["status"] == 201]
        start = log[0]["started_at"] if log else run.started
        scale = QUOTA_TIME_SCALE
        last_create = max((e["finished_at"] for e in created), default=None)
        before_last_create = sum(1 for e in log if last_create is not None and e["started_at"] <= last_create)
        return {
            "approach": approach,
            "n": n,
            "rc": run.rc,
            "created": len(created),
            "all_created_s": round((last_create - start) / scale, 1) if created else "",
            "all_ready_s": round((log[-1]["finished_at"] - start) / scale, 1) if log and run.rc == 0 else "",
            # The least time the windows allow for the requests made until the last create, and for all of them.
            "floor_created_s": floor_seconds(before_last_create),
            "floor_all_s": floor_seconds(len(log)),
            "requests": len(log),
            "rate_limited_429": sum(1 for e in log if e["status"] == 429),
            "time_scale": scale,
            "policy": EXAMPLE_POLICY,
            "command": run.command,
        }


def sweep() -> list[dict[str, Any]]:
    rows = []
    for n in SIZES:
        for approach in APPROACHES:
            began = time.time()
            row = run_one(approach, n)
            rows.append(row)
            print("[quota] %s n=%d rc=%s created=%s in %s s (floor %s s), ready %s s, %d requests, %d 429s (%.0f s)" % (
                approach, n, row["rc"], row["created"], row["all_created_s"], row["floor_created_s"],
                row["all_ready_s"], row["requests"], row["rate_limited_429"], time.time() - began), flush=True)
    return rows


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(benchlib.REPO_ROOT / "docs"))
    args = parser.parse_args()
    out = Path(args.out) / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "quota.csv", sweep())
    return 0


if __name__ == "__main__":
    sys.exit(main())
