# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``make bench``: one run of every benchmark, written into docs/benchmarks/ (CSVs, meta.json, PNGs) and rendered
as docs/benchmarks.md.

Usage: ``python tests/bench/run_bench.py [--out docs] [--timings FILE]``. A run first removes every file the last run
wrote (report.RUN_FILES), so the page never mixes runs; every CSV row carries this run's ``run_id``. Knobs (each
one makes the page say "reduced run"): ``BENCH_QUICK=1`` (N = 1 and 10, fewer rounds), ``BENCH_SIZES=1:3,10:2``
(N:repeats), ``BENCH_APPROACHES=pod_wait_fixed,pod_wait``, ``BENCH_SECTIONS=sweep,quota`` (or ``all``: the default
sections plus ``correctness`` and ``price``), ``BENCH_CASES=stockout`` (correctness cases), ``BENCH_QUOTA_SIZES``,
``BENCH_QUOTA_APPROACHES`` and ``BENCH_QUOTA_POLICY`` (quota_bench.py); ``BENCH_NOTE`` adds a note.
``--timings`` takes the figures of tests/bench/timing from the same ``make bench`` (the Makefile passes them).
Nothing here is edited by hand afterwards: the page is generated from the CSVs this run wrote.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
import import_cost
import price
import quota_bench
import report
from approaches import APPROACHES, RunRecord
from benchlib import REPO_ROOT, WAIT_INTERVAL, BannerWatcher, boot_schedule, prepare

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
# The approaches side by side (report.MAIN); pod_wait_fixed, pod_batch_fixed and pod_async on request.
SWEEP_APPROACHES = ["naive", "reference", "pod_wait", "pod_batch", "pod_count"]
if os.environ.get("BENCH_APPROACHES"):  # e.g. "pod_wait_fixed,pod_wait" (a reduced run)
    SWEEP_APPROACHES = os.environ["BENCH_APPROACHES"].split(",")
# A wait of length T may make at most T / wait_interval + READ_SLACK API reads (the first and the final one included).
READ_SLACK = 3
# One repeat per N keeps the whole make bench near 25 minutes on 2 cores (run_bench.expected_seconds).
if QUICK:
    SIZES = {1: 1, 10: 1}  # N -> repeats
    LIST_PODS, LIST_RUNS, OVERHEAD_ROUNDS, IMPORT_ROUNDS = 1000, 1, 2, 3
else:
    SIZES = {1: 1, 10: 1, 50: 1, 100: 1}
    LIST_PODS, LIST_RUNS, OVERHEAD_ROUNDS, IMPORT_ROUNDS = 1000, 3, 5, 9
if os.environ.get("BENCH_SIZES"):  # e.g. "1:3,10:2,50:1" (N:repeats)
    SIZES = {int(k): int(v) for k, v in (item.split(":") for item in os.environ["BENCH_SIZES"].split(","))}
SWEEP_TIMEOUT = 300.0
_KNOB_NAMES = ("BENCH_QUICK", "BENCH_SIZES", "BENCH_APPROACHES", "BENCH_SECTIONS", "BENCH_CORRECTNESS", "BENCH_CASES",
               "BENCH_QUOTA_SIZES", "BENCH_QUOTA_APPROACHES", "BENCH_QUOTA_POLICY")
_KNOBS = [f"{key}={os.environ[key]}" for key in _KNOB_NAMES if os.environ.get(key)]
COMMAND = "make bench" + (" (%s)" % " ".join(_KNOBS) if _KNOBS else "")
HARNESS = "tests/bench/run_bench.py"


def log(msg: str) -> None:
    print("[bench %s] %s" % (time.strftime("%H:%M:%S"), msg), flush=True)


def wait_for_banners(watcher: BannerWatcher, names: list[str], limit: float = 5.0) -> dict[str, float]:
    """Give the watcher a moment for pods an approach gave up on or reported before the watcher saw them."""
    deadline = time.time() + limit
    while time.time() < deadline:
        seen = watcher.banner_by_name()
        if all(name in seen for name in names):
            return seen
        time.sleep(0.05)
    return watcher.banner_by_name()


def classify_requests(entries: list[dict[str, Any]], start: float, end: float) -> dict[str, int]:
    counts = {"total": 0, "create": 0, "list_read": 0, "pod_read": 0, "log_read": 0, "other": 0}
    for entry in entries:
        if not start <= entry["started_at"] <= end:
            continue
        counts["total"] += 1
        path, method = entry["path"], entry["method"]
        if method == "POST" and path.rstrip("/") == "/v2/pods":
            counts["create"] += 1
        elif method == "GET" and path.rstrip("/") == "/v2/pods":
            counts["list_read"] += 1
        elif method == "GET" and path.startswith("/v2/pods/") and path.endswith("/logs"):
            counts["log_read"] += 1  # the live log line's reads (a thread of their own), not the wait's
        elif method == "GET" and path.startswith("/v2/pods/"):
            counts["pod_read"] += 1
        else:
            counts["other"] += 1
    return counts


# -- section 1: the sweep (latency, requests, wall time) -------------------------------------------------------
def sweep(sim, watcher: BannerWatcher, out: Path) -> tuple[list[dict], list[dict]]:
    pod_rows: list[dict] = []
    run_rows: list[dict] = []
    for n, repeats in SIZES.items():
        for rep in range(repeats):
            boots = boot_schedule(1000 * n + rep, n)
            for approach in SWEEP_APPROACHES:
                names = ["%s-n%d-r%d-%03d" % (approach.replace("_", ""), n, rep, i) for i in range(n)]
                if approach == "pod_count":  # count names the pods {name}-1 .. {name}-N
                    names = ["%s-n%d-r%d-%d" % (approach.replace("_", ""), n, rep, i + 1) for i in range(n)]
                prepare(sim, names, boots)
                sim.admin.configure(ssh_behaviour="banner")
                watcher.reset()
                load = os.getloadavg()[0]
                log("sweep N=%d rep=%d %s" % (n, rep, approach))
                record: RunRecord = APPROACHES[approach](sim, names, SWEEP_TIMEOUT)
                sshd = wait_for_banners(watcher, names)
                ids = watcher.ids_by_name()
                entries = benchlib.api_requests(sim)
                counts = classify_requests(entries, record.started - 1, record.finished + 1)
                row = _run_row(approach, n, rep, record, sshd, counts, entries, load)
                run_rows.append(row)
                if not record.ok:
                    log("  not ok: %s" % (list(record.failed.items())[:3],))
                    (out / "benchmarks" / "last_failure.log").write_text(record.log_tail)
                logged = _one_pod_wait(entries, record) if n == 1 and approach in ONE_TASK else {}
                for index, name in enumerate(names):
                    reported = record.ready_at.get(name)
                    polls, wait_t = record.waits.get(name, record.waits.get("*", ("", "")))
                    pod_rows.append(
                        {
                            "approach": approach,
                            "n": n,
                            "rep": rep,
                            "pod": name,
                            "pod_id": ids.get(name, ""),
                            "sshd_after_create_schedule": round(boots[index].sshd_after_create, 3),
                            "running_to_sshd_schedule": round(boots[index].ssh_delay, 3),
                            "sshd_answered_rel": _rel(sshd.get(name), record.started),
                            "reported_ready_rel": _rel(reported, record.started),
                            "latency": _diff(reported, sshd.get(name)),
                            "async_job_done_latency": _diff(record.job_done_at.get(name), sshd.get(name)),
                            "failed": record.failed.get(name, ""),
                            "wait_polls": polls,
                            "wait_T": "" if wait_t == "" else round(wait_t, 3),
                            "wait_read_budget": "" if wait_t == "" else round(wait_t / WAIT_INTERVAL + READ_SLACK, 2),
                            "wait_reads_logged": logged[name][0] if name in logged else "",
                            "engine_latency": _engine_latency(approach, logged[name][1] if name in logged else None,
                                                              wait_t, sshd.get(name)),
                        }
                    )
                log(
                    "  wall %.1fs, last ready - slowest sshd %s s, requests %d"
                    % (row["wall_all_reported"] or -1, row["gap_to_slowest_sshd"], counts["total"])
                )
    return pod_rows, run_rows


# The approaches whose one task creates and waits: the reads after its create are its wait's (and one check).
ONE_TASK = ("pod_wait", "pod_wait_fixed", "pod_count")


def _one_pod_wait(entries: list[dict[str, Any]], record: RunRecord) -> dict[str, tuple[int, float]]:
    """One-pod runs of a ONE_TASK approach: the wait's reads as the simulator logged them (GETs of pods after the
    create's answer, up to the report, less the one list read right after the create that catches a same-name
    create by another task, issue 21), an independent check of the count the module reported; and when the wait
    began (the create's response)."""
    if len(record.names) != 1 or not record.ready_at:
        return {}
    name = record.names[0]
    creates = [e for e in entries if e["method"] == "POST" and e["path"].rstrip("/") == "/v2/pods"]
    if not creates:
        return {}
    begin, end = max(e["finished_at"] for e in creates), record.ready_at[name]
    # The live log line's reads (``/logs``, a thread of its own) are not the wait's reads.
    reads = [e for e in entries if e["method"] == "GET" and e["path"].startswith("/v2/pods")
             and not e["path"].endswith("/logs") and begin <= e["started_at"] <= end]
    return {name: (max(0, len(reads) - 1), begin)}


def _engine_latency(approach: str, wait_start: float | None, wait_t: Any, sshd: float | None) -> float | str:
    """Single waits in one-pod runs: when the module's engine saw the banner (the wait's start plus its own
    length T) minus sshd's first banner, i.e. the detection latency before Ansible returns the task."""
    if approach not in ("pod_wait", "pod_wait_fixed") or wait_start is None or wait_t == "" or sshd is None:
        return ""
    return round(wait_start + float(wait_t) - sshd, 3)


def _rel(t: float | None, start: float) -> float | str:
    return "" if t is None else round(t - start, 3)


def _diff(a: float | None, b: float | None) -> float | str:
    return "" if a is None or b is None else round(a - b, 3)


def _run_row(approach, n, rep, record: RunRecord, sshd, counts, entries, load) -> dict[str, Any]:
    reported = [record.ready_at[name] for name in record.names if name in record.ready_at]
    slowest = max((sshd[name] for name in record.names if name in sshd), default=None)
    last = max(reported) if len(reported) == len(record.names) and reported else None
    row = {
        "approach": approach,
        "n": n,
        "rep": rep,
        "ok": record.ok,
        "wall_all_reported": round(last - record.started, 3) if last else "",
        "slowest_sshd_rel": round(slowest - record.started, 3) if slowest else "",
        "gap_to_slowest_sshd": round(last - slowest, 3) if last and slowest else "",
        "run_wall": round(record.finished - record.started, 3),
        "requests_total": counts["total"],
        "creates": counts["create"],
        "list_reads": counts["list_read"],
        "pod_reads": counts["pod_read"],
        "log_reads": counts["log_read"],
        "reads_per_pod": round((counts["list_read"] + counts["pod_read"]) / n, 2),
        "wait_T": "",
        "wait_reads": "",
        "wait_log_reads": "",
        "wait_read_budget": "",
        "load1_at_start": round(load, 2),
        "command": record.command,
        "creates_answered_s": "",
        "module_peak_rss_mb": "",
        "module_cpu_s": "",
    }
    if record.module:
        row["module_peak_rss_mb"] = record.module.get("peak_rss_mb", "")
        row["module_cpu_s"] = record.module.get("cpu_s", "")
    if approach == "pod_count" and record.wait_window:
        # One task creates and waits: every create answered within X s of the task's start, and the wait is the
        # rest of the task (from the last create's answer on).
        creates = [e for e in entries if e["method"] == "POST" and e["path"].rstrip("/") == "/v2/pods"
                   and record.wait_window[0] - 1 <= e["started_at"] <= record.wait_window[1]]
        if creates:
            answered = max(e["finished_at"] for e in creates)
            row["creates_answered_s"] = round(answered - record.wait_window[0], 3)
            record.wait_window = (answered, record.wait_window[1])
    if record.wait_window:
        t0, t1 = record.wait_window
        wait_counts = classify_requests(entries, t0, t1)
        row["wait_T"] = round(t1 - t0, 3)
        row["wait_reads"] = wait_counts["list_read"] + wait_counts["pod_read"]
        row["wait_log_reads"] = wait_counts["log_read"]
        row["wait_read_budget"] = round((t1 - t0) / WAIT_INTERVAL + READ_SLACK, 2)
    return row


# -- section 2: pod_info over 1,000 pods vs a bare uri GET -------------------------------------------------------
def list_bench(sim) -> list[dict]:
    rows = []
    sim.admin.reset()
    sim.admin.configure(ssh_behaviour="banner")
    sim.admin.seed(LIST_PODS, ports=["8888/http", "22/tcp"], name_prefix="listbench")
    for run_index in range(LIST_RUNS):
        log("list %d pods, run %d" % (LIST_PODS, run_index))
        run = benchlib.run_playbook(sim, "list_pods.yml", {"bench_pod_count": LIST_PODS})
        bare = run.task_window("Bare uri list")
        info = run.task_window("Collection pod_info")
        if run.rc != 0 or not bare or not info:
            log("  list run failed: %s" % run.log[-1500:])
            continue
        rows.append(
            {
                "run": run_index,
                "pods": LIST_PODS,
                "uri_task_s": round(bare[1] - bare[0], 3),
                "pod_info_task_s": round(info[1] - info[0], 3),
                "ratio": round((info[1] - info[0]) / (bare[1] - bare[0]), 3),
                "load1": round(os.getloadavg()[0], 2),
                "command": run.command,
            }
        )
    return rows


# -- section 3: per-task overhead (wall time, peak RSS of the module process) ------------------------------------
def overhead_bench(sim) -> list[dict]:
    sim.admin.reset()
    sim.admin.seed(1, ports=["8888/http"], name_prefix="overhead")
    workdir = Path(tempfile.mkdtemp(prefix="runpod_bench_mem_"))
    mem_file = workdir / "mem.jsonl"
    shim = workdir / "python-measured"
    shim.write_text(
        "#!/bin/sh\nexec %s %s \"$@\"\n" % (benchlib.PYTHON, Path(__file__).resolve().parent / "measure_python.py")
    )
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    log("overhead: %d rounds of uri vs pod_info" % OVERHEAD_ROUNDS)
    run = benchlib.run_playbook(
        sim,
        "overhead.yml",
        {"bench_rounds": OVERHEAD_ROUNDS, "bench_interpreter": str(shim)},
        env_extra={"RUNPOD_BENCH_MEM": str(mem_file), "RUNPOD_BENCH_PYTHON": benchlib.PYTHON},
    )
    if run.rc != 0:
        log("  overhead run failed: %s" % run.log[-1500:])
    records = [json.loads(line) for line in mem_file.read_text().splitlines()] if mem_file.exists() else []
    task_times: dict[str, list[float]] = {"uri": [], "pod_info": []}
    starts: dict[str, list[float]] = {}
    for event in run.events:
        if event["ev"] == "task_start" and event["task"] in ("Overhead uri", "Overhead pod_info"):
            starts.setdefault(event["task"], []).append(event["t"])
        if event["ev"] == "ok" and event.get("task") in ("Overhead uri", "Overhead pod_info"):
            key = "uri" if event["task"] == "Overhead uri" else "pod_info"
            task_times[key].append(event["t"] - starts[event["task"]][len(task_times[key])])
    rows = []
    for module in ("uri", "pod_info"):
        mods = [r for r in records if r["module"] == module]
        for index, rec in enumerate(mods):
            rows.append(
                {
                    "module": module,
                    "round": index,
                    "task_wall_s": round(task_times[module][index], 3) if index < len(task_times[module]) else "",
                    "module_process_wall_s": round(rec["wall"], 3),
                    "module_cpu_s": round(rec["user"] + rec["sys"], 3),
                    "peak_rss_mb": round(rec["maxrss_mb"], 1),
                    "command": run.command,
                }
            )
    return rows


# -- section 4: correctness ----------------------------------------------------------------------------------------
# pod_async runs the same module as pod_wait; left out to keep the section short.
CORRECTNESS_APPROACHES = (
    os.environ.get("BENCH_CORRECTNESS") or "naive,reference,pod_wait,pod_batch,endpoint_naive,endpoint_wait"
).split(",")
# Serverless approaches answer one case: after an image change, is "ready" reported on old workers only?
ENDPOINT_APPROACHES = {"endpoint_naive": "naive", "endpoint_wait": "module"}
# Cases of the section; BENCH_CASES=stockout runs only that one and merges its columns into correctness.csv
# (image_change: the serverless approaches only, e.g. BENCH_CASES=image_change BENCH_CORRECTNESS=endpoint_naive,...).
CORRECTNESS_CASES = ("listeners", "burst", "retry", "rerun", "stockout", "image_change")
CASES = set((os.environ.get("BENCH_CASES") or ",".join(CORRECTNESS_CASES)).split(","))
# Known to the collection's GPU list and priced in the simulator; emptied for the stock-out case.
SOLD_OUT = ["NVIDIA H100 80GB HBM3", "NVIDIA A100 80GB PCIe"]
BEHAVIOURS = {
    # name suffix -> (sim overrides, what it tests)
    "acceptclose": ({"ssh_behaviour": "accept_close"}, "accept-then-close"),
    "notssh": ({"ssh_behaviour": "not_ssh"}, "non-SSH answer"),
    "late": ({"ssh_behaviour": "banner", "ssh_delay": 9.0}, "RUNNING 9 s before sshd"),
    "asyncssh": ({"ssh_behaviour": "sshd"}, "real sshd, banner not OpenSSH"),
}


def _fault_after_create(sim, name: str, spec: dict[str, Any], then: dict[str, Any] | None = None) -> threading.Thread:
    """Inject ``spec`` as soon as a pod named ``name`` exists (so the fault lands on the wait's reads)."""

    def inject() -> None:
        admin = benchlib.SimAdmin(sim.urls["admin"])
        try:
            deadline = time.time() + 120
            while time.time() < deadline:
                if any(p["name"] == name for p in admin.pods()):
                    admin.inject_fault(**spec)
                    return
                time.sleep(0.05)
        finally:
            admin.close()

    thread = threading.Thread(target=inject, daemon=True)
    thread.start()
    return thread


def endpoint_ship(sim, approach: str) -> dict[str, Any]:
    """Change an endpoint's image and read the worker list the moment the approach says ready: wrong when no
    worker of the new release is idle or running then (only old workers serve). Workers boot in 6 s and one old
    worker is replaced every 10 s (simulated, time scale 1)."""
    sim.admin.reset()
    sim.admin.configure(worker_boot_delay=6, rollout_step=10)
    log("correctness %s: ready after an image change" % approach)
    mode = ENDPOINT_APPROACHES[approach]
    run = benchlib.run_playbook(sim, "endpoint_ship.yml", {"bench_mode": mode, "bench_endpoint": "ship-" + mode})
    result: dict[str, Any] = {"approach": approach}
    # "Judge" prints the worker list read right after the approach said ready: fresh=<new release idle or
    # running> stale=<workers still on the old image>.
    judged = [e["res"].get("msg", "") for e in run.task_events("Judge", ("ok",))]
    if run.rc != 0 or not judged:
        result["ship_error"] = "playbook rc=%d" % run.rc
        return result
    counts = dict(part.split("=") for part in judged[0].split())
    result["ready_on_old_workers_after_image_change"] = int(counts["fresh"]) == 0
    result["stale_workers_when_ready"] = int(counts["stale"])
    result["command"] = run.command
    return result


def correctness(sim, watcher: BannerWatcher) -> list[dict]:
    rows = []
    for approach in CORRECTNESS_APPROACHES:
        if approach in ENDPOINT_APPROACHES:
            if "image_change" in CASES:
                rows.append(endpoint_ship(sim, approach))
                log("  %s" % rows[-1])
            continue
        runner = APPROACHES[approach]
        tag = approach.replace("_", "")
        result: dict[str, Any] = {"approach": approach}
        if "stockout" in CASES:
            result.update(_stock_out_case(sim, runner, tag))
        if "listeners" not in CASES:
            rows.append(result)
            log("  %s" % result)
            continue
        # 1. Listener behaviours, all at once (short timeout: a wrong "ready" comes fast, a right one never does).
        names = ["c%s-%s" % (tag, key) for key in BEHAVIOURS]
        boots = boot_schedule(7, len(names), prov=(1, 1), start=(1, 1), ssh=(1, 1))
        prepare(sim, names, boots, {n: BEHAVIOURS[k][0] for n, k in zip(names, BEHAVIOURS, strict=True)})
        watcher.reset()
        log("correctness %s: listener behaviours" % approach)
        record = runner(sim, names, 16.0)
        sshd = wait_for_banners(watcher, [names[2]], 2)
        ready = _ready_set(record, watcher)
        for name, key in zip(names, BEHAVIOURS, strict=True):
            result["ready_on_" + key] = name in ready
        late = names[2]
        result["late_ready_minus_sshd"] = _diff(record.ready_at.get(late), sshd.get(late))
        result["late_reported_before_sshd"] = (
            late in record.ready_at and (late not in sshd or record.ready_at[late] < sshd[late])
        )
        # 2. A burst of three 503s on the wait's reads.
        name = "c%s-burst" % tag
        prepare(sim, [name], boot_schedule(8, 1, prov=(1, 1), start=(1, 1), ssh=(2, 2)))
        sim.admin.configure(ssh_behaviour="banner")
        log("correctness %s: 503 burst" % approach)
        _fault_after_create(sim, name, {"route": "/v2/pods.*", "kind": "status", "method": "GET", "status": 503,
                                        "count": 3})
        record = runner(sim, [name], 60.0)
        result["survives_503_burst"] = record.ok
        result["burst_503_served"] = sum(1 for e in benchlib.api_requests(sim) if e["status"] == 503)
        # 3. One 429 with Retry-After: 8 (longer than the 5 s interval) on a wait read.
        name = "c%s-retry" % tag
        prepare(sim, [name], boot_schedule(9, 1, prov=(1, 1), start=(1, 1), ssh=(2, 2)))
        sim.admin.configure(ssh_behaviour="banner")
        log("correctness %s: 429 Retry-After 8" % approach)
        _fault_after_create(sim, name, {"route": "/v2/pods.*", "kind": "status", "method": "GET", "status": 429,
                                        "retry_after": 8, "count": 1})
        record = runner(sim, [name], 60.0)
        gap = _retry_gap(benchlib.api_requests(sim))
        result["retry_after_gap_s"] = "" if gap is None else round(gap, 2)
        result["honours_retry_after"] = gap is not None and gap >= 8.0 - 0.05
        result["ready_after_429"] = record.ok
        # 4. Rerun after a timed-out wait: does a second pod appear?
        name = "c%s-rerun" % tag
        prepare(sim, [name], [benchlib.Boot(60.0, 5.0, 1.0)])
        log("correctness %s: rerun after timeout" % approach)
        first = runner(sim, [name], 6.0)  # the modules refuse wait_timeout < wait_interval (5 s)
        second = runner(sim, [name], 6.0)
        live = [p for p in sim.admin.pods() if p["name"] == name and not p["terminated"]]
        result["first_run_timed_out"] = not first.ok
        result["second_run_timed_out"] = not second.ok
        result["pods_after_rerun"] = len(live)
        result["duplicate_on_rerun"] = len(live) > 1
        result["command"] = first.command
        rows.append(result)
        log("  %s" % result)
    return rows


def _stock_out_case(sim, runner, tag: str) -> dict[str, Any]:
    """5. The first two preferred GPU types are sold out: does the approach land a pod, and with how many POSTs?"""
    name = "c%s-stockout" % tag
    prepare(sim, [name], boot_schedule(10, 1, prov=(1, 1), start=(1, 1), ssh=(1, 1)))
    sim.admin.configure(ssh_behaviour="banner", out_of_stock_gpu_types=SOLD_OUT)
    log("correctness %s: first two GPU types out of stock" % runner.__name__)
    runner(sim, [name], 60.0, gpus=[*SOLD_OUT, benchlib.GPU])
    posts = [e for e in benchlib.api_requests(sim) if e["method"] == "POST" and e["path"].endswith("/pods")]
    live = [p for p in sim.admin.pods() if p["name"] == name and not p["terminated"]]
    return {"lands_first_two_out": len(live) == 1, "first_two_out_posts": len(posts),
            "first_two_out_post_statuses": " ".join(str(e["status"]) for e in posts)}


def _ready_set(record: RunRecord, watcher: BannerWatcher) -> set[str]:
    """Names the approach treated as ready. A batch that timed out names the pods it still waited for
    (``wait.last_states``); the others it had found ready."""
    if record.approach != "pod_batch" or record.ok:
        return set(record.ready_at)
    ids = watcher.ids_by_name()
    not_ready: set[str] = set()
    found = False
    for line in (Path(record.workdir) / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        if event.get("task") == "Batch wait" and event["ev"] == "failed":
            states = (event["res"].get("wait") or {}).get("last_states") or {}
            found = True
            # last_states holds every pod; the ready ones read "ssh reachable at ..."
            not_ready = {
                name
                for name, pod_id in ids.items()
                if pod_id in states and not states[pod_id].startswith("ssh reachable")
            }
    if not found:
        return set()
    return {name for name in record.names if name not in not_ready}


def _retry_gap(entries: list[dict[str, Any]]) -> float | None:
    entries = sorted(entries, key=lambda e: e["started_at"])
    for index, entry in enumerate(entries):
        if entry["status"] == 429:
            later = [e for e in entries[index + 1 :] if e["method"] == "GET"]
            if later:
                return later[0]["started_at"] - entry["finished_at"]
            return None
    return None


# -- main ------------------------------------------------------------------------------------------------------------
def write_csv(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    keys: list[str] = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=keys, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _source_commit() -> str:
    """The commit the measured code came from, marked when the work tree had changes."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, check=False).stdout
    commit = git("rev-parse", "--short", "HEAD").strip()
    changes = git("status", "--porcelain").splitlines()
    dirty = any(not line.startswith("??") and "docs/benchmarks" not in line for line in changes)
    return commit + ("+local changes" if dirty else "")


# The default sections (the sweep runs first, on the quietest machine); ``all`` adds the rest.
DEFAULT_SECTIONS = ("sweep", "quota", "list", "overhead", "import_cost")
ALL_SECTIONS = (*DEFAULT_SECTIONS, "correctness", "price")


def selected_sections() -> list[str]:
    wanted = os.environ.get("BENCH_SECTIONS") or ",".join(DEFAULT_SECTIONS)
    if wanted == "all":
        return list(ALL_SECTIONS)
    unknown = set(wanted.split(",")) - set(ALL_SECTIONS)
    if unknown:
        raise SystemExit("BENCH_SECTIONS: unknown %s (known: %s, or all)"
                         % (", ".join(sorted(unknown)), ", ".join(ALL_SECTIONS)))
    return [section for section in ALL_SECTIONS if section in wanted.split(",")]


def expected_seconds(sections: list[str]) -> float:
    """A rough duration of this run (bench-timing not included), from earlier runs on 2 idle cores: a sweep run
    takes about 25 s plus 0.6 s a pod (the boot schedule's slowest pod, then Ansible's per-pod cost)."""
    cost = {
        "sweep": sum(k * len(SWEEP_APPROACHES) * (25 + 0.6 * n) for n, k in SIZES.items()),
        "quota": quota_bench.expected_seconds(),
        "list": 10 + 8 * LIST_RUNS,
        "overhead": 10 + 4 * OVERHEAD_ROUNDS,
        "import_cost": 10 + 3 * IMPORT_ROUNDS,
        "correctness": 300,
        "price": 60,
    }
    return sum(cost[section] for section in sections)


def _timings(path: str | None, run_id: str, began: float) -> dict[str, Any] | None:
    """The figures tests/bench/timing wrote in the same ``make bench`` (the Makefile removes the file first; one
    older than an hour before this run is not this make's and is ignored), stamped with this run's id."""
    if not path or not Path(path).exists():
        return None
    if Path(path).stat().st_mtime < began - 3600:
        log("timings: %s is older than an hour, not from this make bench: left out" % path)
        return None
    return {"run_id": run_id, "source": "tests/bench/timing (make bench-timing, same make bench)",
            "figures": json.loads(Path(path).read_text())}


# make bench runs the wall-clock budgets first; the 1-minute load they leave decays by half in about 42 s.
SETTLE_SECONDS = 180


def settle_load() -> None:
    """Wait (at most SETTLE_SECONDS) for the 1-minute load to fall to the idle mark, so the load the page records
    is the machine's, not the budgets' that make bench ran just before; a busy machine stays busy and the page
    says so."""
    waited = 0
    while os.getloadavg()[0] > report.IDLE_LOAD and waited < SETTLE_SECONDS:
        if waited == 0:
            log("waiting up to %d s for the 1-minute load (%.2f) to settle below %.1f"
                % (SETTLE_SECONDS, os.getloadavg()[0], report.IDLE_LOAD))
        time.sleep(5)  # waiting for the machine, not for simulated time
        waited += 5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(benchlib.REPO_ROOT / "docs"))
    parser.add_argument("--timings", help="tests/bench/timing's figures from the same make bench (timings.json)")
    args = parser.parse_args()
    out = Path(args.out)
    bench = out / "benchmarks"
    bench.mkdir(parents=True, exist_ok=True)
    sections = selected_sections()
    settle_load()
    began = time.time()
    commit = _source_commit()
    run_id = "%s-%s" % (time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(began)), commit.replace("+local changes", "+dirty"))
    machine_before = benchlib.machine_info()
    expected = expected_seconds(sections)
    log("run %s: %s, sections %s; expected about %.0f min on 2 idle cores" % (
        run_id, COMMAND, ",".join(sections), expected / 60))
    log("machine: %s" % machine_before)
    if machine_before["loadavg"][0] > report.IDLE_LOAD:
        log("WARNING: 1-minute load %.2f at the start: the machine is not idle, the page will say so"
            % machine_before["loadavg"][0])
    removed = report.clear(bench)
    if removed:
        log("removed the last run's files: %s" % ", ".join(removed))
    report.write(out, None, plots=False)  # until this run ends (or if it fails), the page says there is no run

    def save(name: str, rows: list[dict]) -> list[dict]:
        write_csv(bench / name, [{"run_id": run_id, **row} for row in rows])
        return rows

    if {"sweep", "list", "overhead", "correctness", "price"} & set(sections):
        sim = benchlib.start_sim()
        watcher = BannerWatcher(sim.urls["admin"])
        watcher.start()
        try:
            if "sweep" in sections:
                pods, runs = sweep(sim, watcher, out)
                save("latency.csv", pods)
                save("sweep.csv", runs)
            if "list" in sections:
                save("list1000.csv", list_bench(sim))
            if "overhead" in sections:
                save("overhead.csv", overhead_bench(sim))
            if "correctness" in sections:
                save("correctness.csv", correctness(sim, watcher))
            if "price" in sections:
                save("price.csv", price.price_bench(sim, log))
        finally:
            watcher.stop()
            sim.stop()
    if "quota" in sections:  # its own simulators, in real time (quota_bench.py)
        save("quota.csv", quota_bench.sweep(log))
    if "import_cost" in sections:  # its own simulator (import_cost.py)
        log("import cost: %d rounds of ping, uri and pod_info" % IMPORT_ROUNDS)
        save("import_cost.csv", import_cost.measure(IMPORT_ROUNDS)[0])
    timings = _timings(args.timings, run_id, began)
    if timings:
        (bench / "timings.json").write_text(json.dumps(timings, indent=2, sort_keys=True) + "\n")
    meta = {
        "run_id": run_id,
        "command": COMMAND,
        "knobs": _KNOBS,
        "quick": QUICK,
        "sizes": {str(n): k for n, k in SIZES.items()},
        "approaches": SWEEP_APPROACHES,
        "quota": {"sizes": quota_bench.SIZES, "approaches": quota_bench.APPROACHES, "policy": quota_bench.POLICY},
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(began)),
        "duration_s": round(time.time() - began, 1),
        "expected_s": round(expected),
        "machine_before": machine_before,
        "machine_after": benchlib.machine_info(),
        "sections": sections,
        "all_sections": list(ALL_SECTIONS),
        "note": os.environ.get("BENCH_NOTE", ""),
        "commit": commit,
    }
    (bench / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    report.write(out, meta)
    log("done in %.0f s (expected %.0f s): %s" % (time.time() - began, expected, out / "benchmarks.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
