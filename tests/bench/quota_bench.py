# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The quota section of ``make bench`` (issue 35 and 45, docs/pods.md "Fleets and RunPod's quotas"): fleets of 10,
60, 100 and 200 pods under the v2 document's example policy (60 a minute), in real time, against the floor.

Each run gets its own simulator at ``time_scale`` 1 enforcing the policy's fixed windows (a window opens with the
first request after the last one closed). The *floor* is the least time any client could take: the windows the N
creates and the name lookups before them need (one list read per task: a fleet task of up to 100 pods, or each
task of a loop; ``report.quota_floor``) plus one pod's boot (create latency, PROVISIONING, STARTING, sshd), both counted
from the run's first API request. Approaches: ``fleet`` (``count``, at most 100 per task: 200 pods are two tasks
sharing the quota, one batch wait each; the default) and ``loop`` (a loop of single ``pod`` tasks, then one
``pod_info`` batch wait; opt-in, it takes several minutes more at 200 pods). Per run: the time to all-created and to
all-ready, the floors, the requests, the 429s, and whether every pod was created once.

Knobs: ``BENCH_QUOTA_SIZES=10,60`` and ``BENCH_QUOTA_APPROACHES=fleet,loop`` pick the runs;
``BENCH_QUOTA_POLICY`` replaces the policy (a smoke test: ``'"minute";q=2;w=4'`` with ``BENCH_QUOTA_SIZES=3``).

Usage alone: ``python tests/bench/quota_bench.py [--out DIR]`` (writes ``DIR/quota.csv``, default
``tests/output/bench``: the page shows only the CSVs of one ``make bench`` run).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
from benchlib import GPU, IMAGE
from report import quota_floor

from runpod_sim.quota import EXAMPLE_POLICY, parse_policy
from runpod_sim.testing import start_simulator

SIZES = [int(n) for n in (os.environ.get("BENCH_QUOTA_SIZES") or "10,60,100,200").split(",")]
APPROACHES = (os.environ.get("BENCH_QUOTA_APPROACHES") or "fleet").split(",")
# The fleet with the host key check on (issue 54: no 429, within 15 s of the floor of the requests it needs, its log
# reads included), at these sizes only (by default 100 when the sweep has it): each pod adds a request.
_CHECKED = os.environ.get("BENCH_QUOTA_CHECKED_SIZES")
CHECKED_SIZES = [int(n) for n in (_CHECKED if _CHECKED is not None else "100" * (100 in SIZES)).split(",") if n]
POLICY = os.environ.get("BENCH_QUOTA_POLICY") or EXAMPLE_POLICY
# One pod's boot in these simulators, from its create request: the create latency, then each phase.
BOOT = {"create_latency": 1.0, "provisioning_delay": 5.0, "starting_delay": 5.0, "ssh_delay": 2.0}
BOOT_S = sum(BOOT.values())
TIMEOUT = 900
MAX_COUNT = 100  # runpod.cloud.pod's count limit


def _fleets(n: int, base: str) -> list[dict[str, Any]]:
    fleets, left, index = [], n, 1
    while left > 0:
        count = min(MAX_COUNT, left)
        fleets.append({"base": f"{base}{index}", "count": count})
        left, index = left - count, index + 1
    return fleets


def run_one(approach: str, n: int, policy: str = POLICY) -> dict[str, Any]:
    windows = parse_policy(policy)
    with start_simulator(time_scale=1.0, rate_limit=policy, log_level="error",
                         create_latency=BOOT["create_latency"]) as sim:
        # The image starts its own sshd (no account key in this simulator), so wait_for=ssh can succeed.
        # The port is mapped at RUNNING (port_map_delay 0), so the boot is the sum of BOOT.
        sim.admin.configure(provisioning_delay=BOOT["provisioning_delay"], starting_delay=BOOT["starting_delay"],
                            ssh_delay=BOOT["ssh_delay"], port_map_delay=0.0, own_sshd_images=[IMAGE])
        checks = n if approach == "fleet_checked" else 0  # one container-log read per pod
        if approach in ("fleet", "fleet_checked"):
            fleets = _fleets(n, "q")
            names = [f"{f['base']}-{k}" for f in fleets for k in range(1, f["count"] + 1)]
            extra: dict[str, Any] = {"bench_fleets": fleets,
                                     "bench_host_key_checking": "log" if checks else "off"}
            playbook, task = "quota_fleet.yml", "Create and wait"
            lookups = len(fleets)  # each fleet task lists the account once before it creates (names are adopted)
        else:
            names = [f"q-{k}" for k in range(1, n + 1)]
            extra = {"bench_names": names}
            playbook, task = "quota_loop.yml", "Batch wait"
            lookups = n  # each pod task looks its name up before it creates
        extra.update(bench_image=IMAGE, bench_gpus=[GPU], bench_timeout=TIMEOUT)
        run = benchlib.run_playbook(sim, playbook, extra, timeout=TIMEOUT * 2)
        log = sorted((e for e in sim.admin.requests() if e.get("surface") == "v2"), key=lambda e: e["started_at"])
        live = [p["name"] for p in sim.admin.pods() if not p.get("terminated")]
    created = [e for e in log if e["method"] == "POST" and e["status"] == 201]
    start = log[0]["started_at"] if log else run.started
    last_create = max((e["finished_at"] for e in created), default=None)
    window = run.task_window(task)
    ready = window[1] if window and run.rc == 0 else None
    # The least requests before the last create: the creates and the name lookups idempotency needs (at 60 pods the
    # lookup makes 61 requests, which one window of 60 cannot hold).
    floor_requests = n + lookups
    floor_created = quota_floor(floor_requests, windows)
    # With the check, the last request is a log read: it can go once its window opens and its pod has booted.
    floor_ready = max(quota_floor(floor_requests, windows, BOOT_S), quota_floor(floor_requests + checks, windows))
    return {
        "approach": approach,
        "n": n,
        "rc": run.rc,
        "created": len(created),
        # Every name exactly once among the live pods, and one 201 per pod: nothing created twice or missing.
        "created_once": len(created) == n and sorted(live) == sorted(names),
        "all_created_s": round(last_create - start, 1) if last_create is not None else "",
        "floor_requests": floor_requests + checks,
        "floor_created_s": floor_created,
        "all_ready_s": round(ready - start, 1) if ready is not None else "",
        "floor_s": floor_ready,
        "over_floor_s": round(ready - start - floor_ready, 1) if ready is not None else "",
        "requests": len(log),
        "rate_limited_429": sum(1 for e in log if e["status"] == 429),
        "boot_s": BOOT_S,
        "policy": policy,
        "command": run.command,
    }


def expected_seconds(sizes: list[int] = SIZES, approaches: list[str] = APPROACHES, policy: str = POLICY) -> float:
    """A rough duration for the banner: the floor of each run's requests (the creates and about ten reads; a loop
    makes three requests a pod) plus Ansible's start and its own time a pod (0.1 s in a fleet, where it overlaps
    the windows; 1.5 s in a loop of tasks), on 2 cores."""
    windows = parse_policy(policy)
    cost = {"fleet": (1, 0.1), "loop": (3, 1.5)}
    total = 0.0
    for n in sizes:
        for approach in approaches:
            requests, per_pod = cost.get(approach, cost["loop"])
            total += quota_floor(requests * n + 10, windows, BOOT_S) + 10 + per_pod * n
    return total + sum(quota_floor(2 * n + 10, windows, BOOT_S) + 10 + 0.1 * n for n in CHECKED_SIZES)


def sweep(log=print) -> list[dict[str, Any]]:
    rows = []
    runs = [(n, approach) for n in SIZES for approach in APPROACHES] + [(n, "fleet_checked") for n in CHECKED_SIZES]
    for n, approach in runs:
        began = time.time()
        row = run_one(approach, n)
        rows.append(row)
        log("quota %s n=%d rc=%s created=%s once=%s: all created %s s (floor %s s), all ready %s s (floor %s s, "
            "%s over), %d requests, %d 429s (%.0f s)" % (
                approach, n, row["rc"], row["created"], row["created_once"], row["all_created_s"],
                row["floor_created_s"], row["all_ready_s"], row["floor_s"], row["over_floor_s"],
                row["requests"], row["rate_limited_429"], time.time() - began))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(benchlib.REPO_ROOT / "tests" / "output" / "bench"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = sweep()
    with open(out / "quota.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
