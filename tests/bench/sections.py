# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The detailed sections of docs/benchmarks.md and its plots, each from the CSVs of the one run (report.py puts
the header, the summary and the side-by-side tables above them).
"""

from __future__ import annotations

import csv
import math
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

LABELS = {
    "naive": "naive playbook (uri create, until GET delay 5, wait_for OpenSSH sleep 1)",
    "reference": "reference discipline (our engine, fixed cadence: 1 list read / 5 s, SSH probe only on a read)",
    "pod_wait_fixed": "runpod.cloud.pod wait: true, fixed cadence (one read per 5 s; forks <= 50)",
    "pod_wait": "runpod.cloud.pod wait: true, adaptive cadence (5 s on average; forks <= 50)",
    "pod_batch_fixed": "runpod.cloud.pod wait: false in a loop + one pod_info batch wait, fixed cadence",
    "pod_batch": "runpod.cloud.pod wait: false in a loop + one pod_info batch wait, adaptive cadence",
    "pod_async": "runpod.cloud.pod wait: true under async (poll 0) + async_status (delay 1)",
    "pod_count": "runpod.cloud.pod count: N, wait: true (one task: concurrent creates, one batch wait)",
}
SHORT = {
    "naive": "naive",
    "reference": "reference",
    "pod_wait_fixed": "pod (fixed cadence)",
    "pod_wait": "pod",
    "pod_batch_fixed": "pod + pod_info batch (fixed cadence)",
    "pod_batch": "pod + pod_info batch",
    "pod_async": "pod under async",
    "pod_count": "pod with count",
    "endpoint_naive": "naive /health loop",
    "endpoint_wait": "endpoint wait:true",
}
COLORS = {"naive": "#d62728", "reference": "#7f7f7f", "pod_wait_fixed": "#aec7e8", "pod_wait": "#1f77b4",
          "pod_batch_fixed": "#98df8a", "pod_batch": "#2ca02c", "pod_async": "#9467bd",
          "pod_count": "#ff7f0e"}
SINGLE_WAITS = ["naive", "reference", "pod_wait_fixed", "pod_wait", "pod_async"]
BATCH_WAITS = ["pod_batch_fixed", "pod_batch", "pod_count"]
# Waits whose read count the module reports (wait.polls), checked against T / 5 s + READ_SLACK.
COUNTED_WAITS = ["pod_wait_fixed", "pod_wait", "pod_batch_fixed", "pod_batch", "pod_async", "pod_count"]
CADENCE = {"pod_wait_fixed": "fixed", "pod_batch_fixed": "fixed", "reference": "fixed"}
GOAL_P50, GOAL_P95, GOAL_BATCH_GAP, GOAL_LIST_RATIO = 0.3, 1.1, 1.5, 2.0
# Fleets (pod with count, issue 15): every create answered within 15 s of the task start (at N = 100), list
# reads during the wait within T / 5 s + 2.
GOAL_FLEET_CREATES, FLEET_READ_SLACK = 15.0, 2
READ_SLACK = 3
PLAYBOOK = {
    "naive": "tests/bench/playbooks/naive.yml",
    "reference": "tests/bench/approaches.py::reference (Python, no Ansible)",
    "pod_wait_fixed": "tests/bench/playbooks/pod_wait.yml with RUNPOD_CLOUD_WAIT_CADENCE=fixed",
    "pod_wait": "tests/bench/playbooks/pod_wait.yml",
    "pod_batch_fixed": "tests/bench/playbooks/pod_batch.yml with RUNPOD_CLOUD_WAIT_CADENCE=fixed",
    "pod_batch": "tests/bench/playbooks/pod_batch.yml",
    "pod_async": "tests/bench/playbooks/pod_async.yml",
    "pod_count": "tests/bench/playbooks/pod_count.yml",
}


def _pyplot():
    """matplotlib (requirements-bench.txt) only when a plot is drawn: the page renders without it (--no-plots)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def read_csv(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def num(value: Any) -> float | None:
    try:
        return None if value in ("", None) else float(value)
    except ValueError:
        return None


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def spread(values: list[float], fmt: str = "%.2f") -> str:
    """``median [min-max] (k runs)``, or the single value."""
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    if len(values) == 1:
        return (fmt % values[0]) + " (1 run)"
    median, low, high = fmt % statistics.median(values), fmt % min(values), fmt % max(values)
    return "%s [%s-%s] (%d runs)" % (median, low, high, len(values))


def verdict(value: float | None, goal: float, unit: str = " s") -> str:
    if value is None or math.isnan(value):
        return "not measured"
    if value <= goal:
        return "**met**"
    return "**missed** by %.2f%s (%.0f%% over)" % (value - goal, unit, 100 * (value - goal) / goal)


# -- plots -------------------------------------------------------------------------------------------------------
def plot_latency(pods: list[dict], path: Path) -> None:
    plt = _pyplot()
    data, labels, colors = [], [], []
    for approach in [*SINGLE_WAITS, *BATCH_WAITS]:
        values = [num(r["latency"]) for r in pods if r["approach"] == approach and num(r["latency"]) is not None]
        if values:
            data.append(values)
            labels.append("%s\n(n=%d)" % (SHORT[approach], len(values)))
            colors.append(COLORS[approach])
    if not data:
        return
    fig, ax = plt.subplots(figsize=(9, 4.8))
    parts = ax.boxplot(data, orientation="horizontal", whis=(5, 95), showfliers=True, patch_artist=True)
    for patch, color in zip(parts["boxes"], colors, strict=True):
        patch.set_facecolor(color)
        patch.set_alpha(0.45)
    ax.set_yticks(range(1, len(labels) + 1), labels)
    ax.axvline(GOAL_P50, color="green", linestyle="--", label="goal p50 <= %.1f s" % GOAL_P50)
    ax.axvline(GOAL_P95, color="orange", linestyle="--", label="goal p95 <= %.1f s" % GOAL_P95)
    ax.set_xlabel("readiness detection latency: task return minus sshd's first banner (s); whiskers p5-p95")
    ax.set_title("Detection latency per pod (all sweep runs pooled)")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _by(runs: list[dict], approach: str, key: str) -> dict[int, list[float]]:
    out: dict[int, list[float]] = defaultdict(list)
    for row in runs:
        if row["approach"] == approach and num(row[key]) is not None:
            out[int(row["n"])].append(num(row[key]))
    return out


def plot_requests(runs: list[dict], path: Path) -> None:
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for approach in LABELS:
        series = _by(runs, approach, "requests_total")
        if not series:
            continue
        ns = sorted(series)
        axes[0].plot(ns, [statistics.median(series[n]) for n in ns], "o-", color=COLORS[approach],
                     label=SHORT[approach])
        reads = _by(runs, approach, "reads_per_pod")
        axes[1].plot(ns, [statistics.median(reads[n]) for n in ns], "o-", color=COLORS[approach],
                     label=SHORT[approach])
    for approach in BATCH_WAITS:
        wait = _by(runs, approach, "wait_reads")
        budget = _by(runs, approach, "wait_read_budget")
        if wait:
            ns = sorted(wait)
            axes[0].plot(ns, [statistics.median(wait[n]) for n in ns], "s--", color=COLORS[approach],
                         label="%s: batch wait only" % SHORT[approach])
            axes[0].plot(ns, [statistics.median(budget[n]) for n in ns], ":", color="black",
                         label="bound: T/interval + %d" % READ_SLACK)
    for ax, title in zip(axes, ("API requests per run (creates + reads), median", "API reads per pod, median"),
                         strict=True):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N pods")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_walltime(runs: list[dict], path: Path) -> None:
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for approach in LABELS:
        wall = _by(runs, approach, "wall_all_reported")
        gap = _by(runs, approach, "gap_to_slowest_sshd")
        if not wall:
            continue
        ns = sorted(wall)
        axes[0].plot(ns, [statistics.median(wall[n]) for n in ns], "o-", color=COLORS[approach], label=SHORT[approach])
        slow = _by(runs, approach, "slowest_sshd_rel")
        axes[0].plot(ns, [statistics.median(slow[n]) for n in ns], "x:", color=COLORS[approach], alpha=0.6)
        gns = sorted(gap)
        axes[1].plot(gns, [statistics.median(gap[n]) for n in gns], "o-", color=COLORS[approach],
                     label=SHORT[approach])
    axes[1].axhline(GOAL_BATCH_GAP, color="green", linestyle="--", label="batch goal <= 1.5 s")
    axes[0].set_title("Wall time until all N reported ready (o) / slowest sshd answered (x)", fontsize=9)
    axes[0].set_ylabel("seconds since the run started")
    axes[1].set_title("Last 'ready' report minus slowest pod's first banner", fontsize=9)
    axes[1].set_ylabel("seconds")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("N pods")
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize=7)
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def method(add, meta, measured) -> None:
    add("## What runs")
    add("")
    add("| approach | what it is | driven by |")
    add("|---|---|---|")
    for key, label in LABELS.items():
        if key in measured or not measured:
            add("| `%s` | %s | `%s` |" % (key, label, PLAYBOOK[key]))
    add("")
    add("* One simulator process serves every run. Before each run it is reset and given, per pod name, a boot "
        "schedule drawn from a seeded RNG that looks like RunPod: PROVISIONING 4-20 s, STARTING 2-8 s, then sshd "
        "answers 1-12 s after RUNNING (uniform; the port is mapped at RUNNING: `port_map_delay` 0, where RunPod "
        "can take seconds, which a naive `until: RUNNING` loop does not survive). Within one comparison (same N, "
        "same repeat) every approach gets the **same schedule per pod index**; delays count from each pod's own "
        "create request.")
    add("* **Cadence.** `fixed` reads the API once per `wait_interval` (the reference, forced with "
        "`RUNPOD_CLOUD_WAIT_CADENCE=fixed`); `adaptive` (the default) treats `wait_interval` as the average: a "
        "read that shows the pod STARTING, or RUNNING without its public port 22, is followed by another after "
        "half an interval while a bank of 3 reads lasts; steady phases read once per interval, or up to two "
        "intervals apart while the bank refills; one read stays reserved for the final read at the deadline. "
        "Either way a wait of length T makes at most T / `wait_interval` + %d API reads (fixed: + 2). Once a "
        "read has shown the public port, the SSH probe runs every 0.25 s between reads (probes are not API "
        "reads); a pod whose sshd answers before such a read is detected at that read." % READ_SLACK)
    add("* Port 22 answers with the simulator's `banner` listener (`SSH-2.0-OpenSSH_9.6p1 ...`) in the timing runs: "
        "the simulator's real sshd announces itself as AsyncSSH, which the naive `search_regex: OpenSSH` never "
        "matches (the correctness section shows it), so the naive approach could not be timed against it. The "
        "`pod` tasks run with `own_sshd: true` and `host_key_checking: off` (a banner has no host key to scan).")
    add("* **Ground truth**: a watcher thread in the harness connects to every mapped port every 20 ms and records "
        "the first moment `SSH-` arrives (it learns ports from the simulator's admin API every 100 ms; sshd always "
        "starts >= 1 s after the port is mapped). It is independent of every approach measured.")
    add("* **Reported ready** = the moment Ansible's callback saw the task (or loop item) return ok, on the "
        "controller's clock; for the Python reference, when `until()` plus its post-wait re-read returned. For "
        "`pod_async` it is the `async_status` item that saw the job finished (the job's own end is in "
        "`latency.csv` as `async_job_done_latency`).")
    add("* API requests come from the simulator's request log (admin calls excluded), counted between each run's "
        "start and end. `wait_interval` is 5 s everywhere.")
    sizes = meta.get("sizes") or {}
    add("* Sizes and repeats: %s (N: repeats). Forks = min(N, 50) for per-host plays." % (
        ", ".join("%s: %s" % kv for kv in sizes.items())))
    add("")


def _latencies(pods, approach, n=None):
    return [num(r["latency"]) for r in pods if r["approach"] == approach and num(r["latency"]) is not None
            and (n is None or int(r["n"]) == n)]


def goals(add, pods, runs, lists) -> None:
    add("## Goals")
    add("")
    add("| goal | measured | verdict |")
    add("|---|---|---|")
    fixed = _latencies(pods, "pod_wait_fixed")
    lat = _latencies(pods, "pod_wait")
    ref = (" (fixed cadence: %.2f s)" % pct(fixed, 0.5)) if fixed else ""
    ref95 = (" (fixed cadence: %.2f s, max %.2f s)" % (pct(fixed, 0.95), max(fixed))) if fixed else ""
    if lat:
        p50, p95 = pct(lat, 0.5), pct(lat, 0.95)
        add("| `pod` wait: true (adaptive) detection latency p50 <= %.1f s (%d pods) | %.2f s%s | %s |" % (
            GOAL_P50, len(lat), p50, ref, verdict(p50, GOAL_P50)))
        add("| `pod` wait: true (adaptive) detection latency p95 <= %.1f s | %.2f s (max %.2f s)%s | %s |" % (
            GOAL_P95, p95, max(lat), ref95, verdict(p95, GOAL_P95)))
    engine, engine_fixed = _engine_latencies(pods, "pod_wait"), _engine_latencies(pods, "pod_wait_fixed")
    if engine:
        ref = (" (fixed cadence: %.2f s / %.2f s)" % (pct(engine_fixed, 0.5), pct(engine_fixed, 0.95))
               if engine_fixed else "")
        # A lower bound (see _engine_side): shown beside the goal, never judged by it; the row above is the goal.
        add("| ... the same, engine side (before Ansible returns the task), p50 / p95, a lower bound | "
            "%.2f s / %.2f s (max %.2f s)%s | not judged (the task-side row is the goal) |" % (
                pct(engine, 0.5), pct(engine, 0.95), max(engine), ref))
    for approach in ("pod_wait", "pod_wait_fixed", "pod_async"):
        over = _read_margins(pods, approach)
        if over:
            worst = max(over)
            add("| %s: API reads <= T/5 s + %d in every single wait (%d waits) | worst wait: %+.2f reads vs its "
                "bound | %s |" % (SHORT[approach], READ_SLACK, len(over), worst, "**met**" if worst <= 0 else
                                  "**missed** by %.2f reads" % worst))
    for approach in BATCH_WAITS:
        waits = [(int(r["n"]), num(r["wait_reads"]), num(r["wait_read_budget"])) for r in runs
                 if r["approach"] == approach and num(r["wait_reads"]) is not None]
        if not waits:
            continue
        over = [w - b for _ignored, w, b in waits]
        by_n = defaultdict(list)
        for n, w, _ignored in waits:
            by_n[n].append(w)
        add("| %s: batch wait reads independent of N, <= T/5 s + %d | %s | %s |" % (
            SHORT[approach], READ_SLACK,
            ", ".join("N=%d: %s" % (n, "/".join("%g" % v for v in vs)) for n, vs in sorted(by_n.items())),
            "**met** (every run within its bound)" if max(over) <= 0 else "**missed**: worst run %.2f reads over"
            % max(over)))
    for approach in BATCH_WAITS:
        gaps = [(int(r["n"]), num(r["gap_to_slowest_sshd"])) for r in runs
                if r["approach"] == approach and num(r["gap_to_slowest_sshd"]) is not None]
        if gaps:
            worst = max(g for _ignored, g in gaps)
            sizes = ", ".join(sorted({str(n) for n, _ignored in gaps}, key=int))
            median = statistics.median(g for _ignored, g in gaps)
            add("| %s returns within %.1f s of the slowest pod's sshd (N = %s) | worst %.2f s, median %.2f s |"
                " %s |" % (SHORT[approach], GOAL_BATCH_GAP, sizes, worst, median, verdict(worst, GOAL_BATCH_GAP)))
    ratios = [num(r["ratio"]) for r in lists if num(r["ratio"]) is not None]
    if ratios:
        med = statistics.median(ratios)
        add("| `pod_info` over %s pods <= 2x a bare `uri` GET (ratio within each run) | %s | %s |" % (
            lists[0]["pods"], spread(ratios, "%.2fx"), verdict(med, GOAL_LIST_RATIO, "x")))
    add("")
    tasks = [num(r["latency"]) - _engine(r) for r in pods if r["approach"] in ("pod_wait", "pod_wait_fixed")
             and num(r["latency"]) is not None and _engine(r) is not None]
    if lat and engine and tasks and pct(lat, 0.95) > GOAL_P95 >= pct(engine, 0.95):
        add("**Shortfall and its cause.** The task-level latency goals are missed while the engine meets them: "
            "between the engine seeing the banner and Ansible reporting the task, this run spent p50 %.2f s / "
            "p95 %.2f s (module exit, result transfer and the controller's result processing, with the load "
            "averages above on 2 cores). Compare the cadences on the engine-side figures; the task-level ones "
            "mostly measure the machine." % (pct(tasks, 0.5), pct(tasks, 0.95)))
        add("")


def _read_margins(pods, approach) -> list[float]:
    """Per single wait: its API reads (as the module reported them) minus its bound T/5 s + READ_SLACK."""
    return [num(r["wait_polls"]) - num(r["wait_read_budget"]) for r in pods
            if r["approach"] == approach and num(r.get("wait_polls")) is not None
            and num(r.get("wait_read_budget")) is not None]


def cadence_section(add, pods, runs) -> None:
    counted = {r["approach"] for r in pods if num(r.get("wait_polls")) is not None}
    rows = [a for a in COUNTED_WAITS if a in counted]
    if not rows:
        return
    add("## Read cadence: API reads per wait")
    add("")
    add("Each wait's API reads as the module reported them (`wait.polls`) against its own length T (the wait's "
        "last transition, i.e. when it returned) and the bound T / 5 s + %d. For one-pod runs the simulator's "
        "request log gives an independent count for the approaches whose one task creates and waits (GETs of pods "
        "between the create's answer and the report, without the live line's log reads and the one list read "
        "right after the create that catches a same-name create by another task). Produced by "
        "%s (section `sweep`); rows in [`latency.csv`](%s) (one row per pod; a batch wait's row repeats per "
        "pod)." % (READ_SLACK, "`make bench`", "benchmarks/latency.csv"))
    add("")
    add("| approach | cadence | waits | T (s) median [min-max] | reads per wait median [min-max] | "
        "reads minus bound, worst | one-pod runs: logged reads = reported |")
    add("|---|---|---|---|---|---|---|")
    for approach in rows:
        sel = [r for r in pods if r["approach"] == approach and num(r.get("wait_polls")) is not None]
        if approach in BATCH_WAITS:  # one wait per run
            seen, unique = set(), []
            for r in sel:
                key = (r["n"], r["rep"])
                if key not in seen:
                    seen.add(key)
                    unique.append(r)
            sel = unique
        margins = [num(r["wait_polls"]) - num(r["wait_read_budget"]) for r in sel]
        checked = [r for r in sel if num(r.get("wait_reads_logged")) is not None]
        agree = sum(1 for r in checked if num(r["wait_reads_logged"]) == num(r["wait_polls"]))
        add("| %s | %s | %d | %s | %s | %+.2f | %s |" % (
            SHORT[approach], CADENCE.get(approach, "adaptive"), len(sel),
            spread([num(r["wait_T"]) for r in sel], "%.1f").split(" (")[0],
            spread([num(r["wait_polls"]) for r in sel], "%.0f").split(" (")[0], max(margins),
            "%d of %d" % (agree, len(checked)) if checked else "n/a"))
    add("")


def _engine(row) -> float | None:
    """A single wait's own detection latency: its length T minus the scheduled sshd delay, both counted from the
    pod's create (so before the module exits and Ansible returns the task)."""
    t, sched = num(row.get("wait_T")), num(row.get("sshd_after_create_schedule"))
    return None if t is None or sched is None else t - sched


def _engine_latencies(pods, approach, n=None) -> list[float]:
    return [_engine(r) for r in pods if r["approach"] == approach and _engine(r) is not None
            and (n is None or int(r["n"]) == n)]


def _engine_by_n(pods, approach) -> str:
    ns = sorted({int(r["n"]) for r in pods if r["approach"] == approach})
    return ", ".join("N=%d: %.2f s" % (n, pct(_engine_latencies(pods, approach, n), 0.5)) for n in ns
                     if _engine_latencies(pods, approach, n)) or "n/a"


def _engine_side(add, pods) -> None:
    cells = []
    for approach in ("pod_wait_fixed", "pod_wait"):
        values = _engine_latencies(pods, approach)
        if values:
            cells.append("%s p50 %.2f s, p95 %.2f s, max %.2f s (%d pods)" % (
                SHORT[approach], pct(values, 0.5), pct(values, 0.95), max(values), len(values)))
    if not cells:
        return
    exact = [(num(r["engine_latency"]), _engine(r)) for r in pods
             if num(r.get("engine_latency")) is not None and _engine(r) is not None]
    add("")
    add("**Engine side** (the wait's own length T minus the scheduled sshd delay, both counted from the pod's "
        "create: the detection latency before the module exits and Ansible returns the task). It is only a lower "
        "bound: T starts when the module begins its wait, after the create's answer and the list read that "
        "follows it, the schedule when the simulator created the pod, so it comes out short by that gap, which "
        "grows with the module processes sharing the 2 cores (median by N: %s), and goes below zero. The goal is "
        "judged on the task's return against the banner watcher above: %s.%s" % (
            _engine_by_n(pods, "pod_wait"), "; ".join(cells),
            " In one-pod runs, where the simulator's log dates the create, the exact figure differs from this by "
            "at most %.2f s (%d pods)." % (max(abs(a - b) for a, b in exact), len(exact)) if exact else ""))
    pairs = defaultdict(dict)
    for r in pods:
        if r["approach"] in ("pod_wait_fixed", "pod_wait") and (num(r["running_to_sshd_schedule"]) or 99) < 5.0:
            pairs[(r["n"], r["rep"], r["pod"].rsplit("-", 1)[-1])][r["approach"]] = r
    pairs = {k: v for k, v in pairs.items() if len(v) == 2}
    if not pairs:
        return
    add("")
    add("Where the cadence matters: the pods whose sshd answered less than 5 s (one fixed interval) after RUNNING, "
        "same schedule under both cadences (s):")
    add("")
    add("| N / repeat / pod | sshd after RUNNING | engine side fixed | engine side adaptive | task latency fixed | "
        "task latency adaptive |")
    add("|---|---|---|---|---|---|")
    for key, pair in sorted(pairs.items(), key=lambda kv: num(kv[1]["pod_wait"]["running_to_sshd_schedule"])):
        fixed, adaptive = pair["pod_wait_fixed"], pair["pod_wait"]
        add("| %s / %s / %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            *key, num(fixed["running_to_sshd_schedule"]), _engine(fixed), _engine(adaptive), num(fixed["latency"]),
            num(adaptive["latency"])))


def latency_section(add, pods) -> None:
    add("## Readiness detection latency")
    add("")
    add("Task return minus the moment sshd first answered, per pod, all sweep runs pooled. Produced by %s "
        "(section `sweep`); rows in [`latency.csv`](%s)." % ("`make bench`", "benchmarks/latency.csv"))
    add("")
    add("![detection latency](%s)" % "benchmarks/latency.png")
    add("")
    add("| approach | pods | p50 (s) | p95 (s) | max (s) | p50 by N |")
    add("|---|---|---|---|---|---|")
    for approach in [*SINGLE_WAITS, *BATCH_WAITS]:
        values = _latencies(pods, approach)
        if not values:
            continue
        ns = sorted({int(r["n"]) for r in pods if r["approach"] == approach})
        by_n = ", ".join("N=%d: %.2f" % (n, pct(_latencies(pods, approach, n), 0.5)) for n in ns
                         if _latencies(pods, approach, n))
        row = (SHORT[approach], len(values), pct(values, 0.5), pct(values, 0.95), max(values), by_n)
        add("| %s | %d | %.2f | %.2f | %.2f | %s |" % row)
    _engine_side(add, pods)
    failed = [r for r in pods if r["failed"]]
    add("")
    if failed:
        add("Pods an approach never reported ready (excluded above): %d — %s." % (len(failed), "; ".join(
            "%s/%s: %s" % (r["approach"], r["n"], r["failed"][:80]) for r in failed[:6])))
    else:
        add("Every pod of every sweep run was reported ready.")
    asyncs = [num(r["async_job_done_latency"]) for r in pods if num(r.get("async_job_done_latency")) is not None]
    if asyncs:
        add("")
        add("For `pod_async`, the background job itself ended p50 %.2f s / p95 %.2f s after sshd answered; the rest "
            "of its latency is the `async_status` loop (sequential over the jobs, `delay: 1`)." % (
                pct(asyncs, 0.5), pct(asyncs, 0.95)))
    add("")
    add("For the batch (`pod_info`), every pod's latency is measured against the one task return, so it includes "
        "waiting for the slowest pod; its own goal is the gap to the slowest sshd below.")
    add("")


def requests_section(add, runs) -> None:
    add("## API requests")
    add("")
    add("All API requests the run made (creates and reads, with the live log line's reads of the `pod` tasks: "
        "at most 3 pods' system logs every 5 s, in a thread of their own), and reads per pod (list and pod reads, "
        "without the log reads). Median over repeats [min-max]. "
        "Produced by %s (section `sweep`); rows in [`sweep.csv`](%s)." % ("`make bench`", "benchmarks/sweep.csv"))
    add("")
    add("![requests](%s)" % "benchmarks/requests.png")
    add("")
    ns = sorted({int(r["n"]) for r in runs})
    add("| approach | " + " | ".join("N=%d requests / reads per pod" % n for n in ns) + " |")
    add("|---|" + "---|" * len(ns))
    for approach in LABELS:
        if not any(r["approach"] == approach for r in runs):
            continue
        cells = []
        for n in ns:
            sel = [r for r in runs if r["approach"] == approach and int(r["n"]) == n]
            if not sel:
                cells.append("")
                continue
            cells.append("%s / %s" % (spread([num(r["requests_total"]) for r in sel], "%.0f"),
                                      spread([num(r["reads_per_pod"]) for r in sel], "%.1f").split(" (")[0]))
        add("| %s | %s |" % (SHORT[approach], " | ".join(cells)))
    add("")
    batch = [r for r in runs if r["approach"] in BATCH_WAITS and num(r["wait_reads"]) is not None]
    if batch:
        add("The batch wait alone (`pod_info` task window, reads from the simulator's log): ")
        add("")
        add("| approach | N | wait T (s) | list reads during the wait | bound T/5 s + %d | live line's log reads |"
            % READ_SLACK)
        add("|---|---|---|---|---|---|")
        for row in batch:
            cells = (SHORT[row["approach"]], row["n"], row["wait_T"], row["wait_reads"], row["wait_read_budget"],
                     row.get("wait_log_reads", ""))
            add("| %s | %s | %s | %s | %s | %s |" % cells)
        add("")
        add("`pod` with `wait: false` makes one create and its list reads per pod (the name lookup that keeps it "
            "idempotent; since issue 21 also one after the create, which catches the same name created at the same "
            "moment by another fork), so the *create loop* scales with N; the wait does not.")
        add("")


def fleet(add, runs, pods) -> None:
    rows = sorted((r for r in runs if r["approach"] == "pod_count"), key=lambda r: (int(r["n"]), int(r["rep"])))
    if not rows:
        return
    # The wait's own reads and length T as the module reported them (wait.polls, the wait's end).
    reported = {(r["n"], r["rep"]): (num(r["wait_polls"]), num(r["wait_T"])) for r in pods
                if r["approach"] == "pod_count" and num(r.get("wait_polls")) is not None}
    add("## Fleets: one `pod` task with `count`")
    add("")
    add("`runpod.cloud.pod` with `count: N` and `wait: true` (playbook `%s`): one module process creates the N pods "
        "concurrently (`create_concurrency` 10) and waits once for all of them. The simulator answers every create "
        "after its create latency (1 s at `time_scale=1`), for every approach of this run. *Creates answered* is the "
        "last create's answer minus the task's start. The wait's reads are the module's own count (`wait.polls`) "
        "against its own length T and the bound T / 5 s + %d; the simulator's log gives the list reads from the last "
        "create's answer to the task's end (that window also holds the one list read after the creates that checks "
        "that no other task created the same names). Peak RSS and CPU are the module process's "
        "(`wait4` rusage, `tests/bench/measure_python.py`). Goals: every create answered within %.0f s of the task "
        "start at N = 100, the task returns within %.1f s of the slowest sshd." % (
            PLAYBOOK["pod_count"], FLEET_READ_SLACK, GOAL_FLEET_CREATES, GOAL_BATCH_GAP))
    add("")
    add("| N | rep | ok | creates answered (s) | slowest sshd (s) | wall to all SSH-ready (s) | after slowest sshd (s) "
        "| API requests | wait: reads / T (s) / bound | list reads logged after the creates | module peak RSS (MB) "
        "| module CPU (s) |")
    add("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        polls, length = reported.get((r["n"], r["rep"]), (None, None))
        wait = "" if polls is None else "%d / %.1f / %.1f" % (polls, length, length / 5.0 + FLEET_READ_SLACK)
        add("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["n"], r["rep"], r["ok"], r.get("creates_answered_s", ""), r["slowest_sshd_rel"], r["wall_all_reported"],
            r["gap_to_slowest_sshd"], r["requests_total"], wait, r["wait_reads"], r.get("module_peak_rss_mb", ""),
            r.get("module_cpu_s", "")))
    add("")
    creates = [num(r.get("creates_answered_s")) for r in rows if num(r.get("creates_answered_s")) is not None]
    gaps = [num(r["gap_to_slowest_sshd"]) for r in rows if num(r["gap_to_slowest_sshd"]) is not None]
    over = [polls - (length / 5.0 + FLEET_READ_SLACK) for polls, length in reported.values()]
    largest = max(int(r["n"]) for r in rows)
    add("| goal | measured | verdict |")
    add("|---|---|---|")
    if creates:
        add("| every create answered within %.0f s of the task start (goal set at N = 100; largest N run: %d) | "
            "worst %.2f s | %s |" % (GOAL_FLEET_CREATES, largest, max(creates),
                                     verdict(max(creates), GOAL_FLEET_CREATES)))
    if gaps:
        add("| task returns within %.1f s of the slowest sshd | worst %.2f s | %s |" % (
            GOAL_BATCH_GAP, max(gaps), verdict(max(gaps), GOAL_BATCH_GAP)))
    if over:
        met = "**met**" if max(over) <= 0 else "**missed** by %.2f reads" % max(over)
        add("| list reads during the wait <= T / 5 s + %d (the module's count) | worst %+.2f reads vs its bound "
            "| %s |" % (FLEET_READ_SLACK, max(over), met))
    add("")


def list_section(add, lists) -> None:
    add("## `pod_info` over 1,000 pods vs a bare `uri` GET")
    add("")
    if not lists:
        add("Not run.")
        add("")
        return
    add("The simulator is seeded with %s RUNNING pods; one playbook run does a bare `ansible.builtin.uri` GET of "
        "`/v2/pods` and then one `runpod.cloud.pod_info` (no filter, no wait); task wall times from the callback. "
        "The ratio is computed within each run. Produced by `ansible-playbook tests/bench/playbooks/list_pods.yml` "
        "(run %d times by %s); rows in [`list1000.csv`](%s)." % (
            lists[0]["pods"], len(lists), "`make bench`", "benchmarks/list1000.csv"))
    add("")
    add("| | uri GET (s) | pod_info (s) | ratio |")
    add("|---|---|---|---|")
    add("| median [min-max] | %s | %s | %s |" % (
        spread([num(r["uri_task_s"]) for r in lists]), spread([num(r["pod_info_task_s"]) for r in lists]),
        spread([num(r["ratio"]) for r in lists], "%.2fx")))
    add("")


def overhead_section(add, overhead) -> None:
    add("## Per-task overhead")
    add("")
    if not overhead:
        add("Not run.")
        add("")
        return
    add("One `ansible.builtin.uri` GET and one `runpod.cloud.pod_info` on a one-pod account, alternating in one "
        "playbook run. The module process runs under an interpreter shim (`tests/bench/measure_python.py`) that "
        "records its wall time and peak RSS (`wait4`); the imports of httpx and pydantic are included. Produced by "
        "`ansible-playbook tests/bench/playbooks/overhead.yml`; rows in [`overhead.csv`](benchmarks/overhead.csv).")
    add("")
    add("| module | task wall (s) | module process wall (s) | module CPU (s) | peak RSS (MB) |")
    add("|---|---|---|---|---|")
    for module in ("uri", "pod_info"):
        sel = [r for r in overhead if r["module"] == module]
        add("| `%s` | %s | %s | %s | %s |" % (
            module,
            spread([num(r["task_wall_s"]) for r in sel]),
            spread([num(r["module_process_wall_s"]) for r in sel]),
            spread([num(r["module_cpu_s"]) for r in sel]),
            spread([num(r["peak_rss_mb"]) for r in sel], "%.1f"),
        ))
    uri = [r for r in overhead if r["module"] == "uri"]
    info = [r for r in overhead if r["module"] == "pod_info"]
    if uri and info:
        add("")
        wall = statistics.median(num(r["task_wall_s"]) for r in info if num(r["task_wall_s"])) / statistics.median(
            num(r["task_wall_s"]) for r in uri if num(r["task_wall_s"])
        )
        rss = statistics.median(num(r["peak_rss_mb"]) for r in info) / statistics.median(
            num(r["peak_rss_mb"]) for r in uri
        )
        add("Within this run: `pod_info` took %.2fx the task wall time and %.2fx the peak memory of `uri` "
            "(medians)." % (wall, rss))
    add("")


def import_cost(add, rows) -> None:
    """Module process cost of an ``_info`` task beside ``uri`` for the same GET, over ``ping`` (import_cost.csv)."""
    if not rows:
        return
    add("## Module process cost: `pod_info` beside `uri`")
    add("")
    add("`ansible.builtin.ping`, `ansible.builtin.uri` GET `/v2/pods` and `runpod.cloud.pod_info` (the same GET "
        "through the collection) on a one-pod account, alternating in one playbook run, each module process under the "
        "interpreter shim (`tests/bench/measure_python.py`: its wall and CPU time). `ping` is the floor every module "
        "pays (the interpreter, AnsiballZ, `ansible.module_utils.basic`); each module's cost is its median minus "
        "`ping`'s. Goal (issue 29): `pod_info` costs at most 2x `uri`. Produced by `%s`; rows in "
        "[`import_cost.csv`](%s)." % (rows[0].get("command", "python tests/bench/import_cost.py"),
                                      "benchmarks/import_cost.csv"))
    add("")
    add("| module | runs | process wall (s) | over ping | process CPU (s) | over ping |")
    add("|---|---|---|---|---|---|")
    med = {}
    for module in ("ping", "uri", "pod_info"):
        sel = [r for r in rows if r["module"] == module]
        if not sel:
            return
        med[module] = {key: statistics.median(num(r[key]) for r in sel)
                       for key in ("module_process_wall_s", "module_cpu_s")}
    for module, values in med.items():
        wall, cpu = values["module_process_wall_s"], values["module_cpu_s"]
        add("| `%s` | %d | %.3f | %s | %.3f | %s |" % (
            module, sum(1 for r in rows if r["module"] == module), wall,
            "-" if module == "ping" else "%.3f" % (wall - med["ping"]["module_process_wall_s"]), cpu,
            "-" if module == "ping" else "%.3f" % (cpu - med["ping"]["module_cpu_s"])))
    add("")
    ratios = []
    for key, label in (("module_cpu_s", "CPU"), ("module_process_wall_s", "wall")):
        uri = med["uri"][key] - med["ping"][key]
        info = med["pod_info"][key] - med["ping"][key]
        if uri > 0:
            ratios.append("%.2fx (%s)" % (info / uri, label))
    add("`pod_info` over `uri`, both over `ping`: %s; goal <= 2x: **%s**. Load average at the end of the run: %s." % (
        ", ".join(ratios), "met" if ratios and float(ratios[0].split("x")[0]) <= 2 else "not met",
        rows[-1].get("load1", "?")))
    add("")


def _yn(value: str) -> str:
    return {"True": "yes", "False": "no"}.get(value, value or "n/a")


def _landed(row) -> str:
    if not row.get("first_two_out_posts"):
        return "n/a"
    return "%s (%s POST: %s)" % (_yn(row.get("lands_first_two_out", "")), row["first_two_out_posts"],
                                 row.get("first_two_out_post_statuses") or "-")


def correctness(add, rows) -> None:
    add("## Correctness side by side")
    add("")
    if not rows:
        add("Not run.")
        add("")
        return
    add("Not timings: what each approach concludes. Produced by %s (section `correctness`, one run per "
        "cell group); rows in [`correctness.csv`](%s). Listener cases ran with a 16 s timeout, fault cases with "
        "60 s, the rerun case (pod boot 60 s) run twice with a 6 s timeout (the modules refuse a `wait_timeout` "
        "below the 5 s `wait_interval`)." % ("`make bench`", "benchmarks/correctness.csv"))
    add("")
    add("| question | " + " | ".join(SHORT.get(r["approach"], r["approach"]) for r in rows) + " |")
    add("|---|" + "---|" * len(rows))
    questions = [
        ("reports ready on accept-then-close (wrong if yes)", "ready_on_acceptclose", _yn),
        ("reports ready on a non-SSH answer (wrong if yes)", "ready_on_notssh", _yn),
        ("reports ready on RUNNING before sshd answers (wrong if yes)", "late_reported_before_sshd", _yn),
        ("... its ready report minus sshd's first banner (s)", "late_ready_minus_sshd", lambda v: v or "n/a"),
        ("reports ready on a real sshd whose banner is not OpenSSH (AsyncSSH)", "ready_on_asyncssh", _yn),
        ("survives a burst of three 503s on its reads", "survives_503_burst", _yn),
        ("honours Retry-After: 8 on a 429 (next read >= 8 s later)", "honours_retry_after", _yn),
        ("... gap from the 429 to its next read (s)", "retry_after_gap_s", lambda v: v or "n/a"),
        ("creates a duplicate pod on a rerun after a timed-out wait", "duplicate_on_rerun", _yn),
        ("after an image change, reports ready while only old workers serve (wrong if yes)",
         "ready_on_old_workers_after_image_change", _yn),
        ("... workers still on the old image at that moment", "stale_workers_when_ready", lambda v: v or "n/a"),
    ]
    for text, key, fmt in questions:
        add("| %s | %s |" % (text, " | ".join(fmt(r.get(key, "")) for r in rows)))
    add("| lands a pod when the first two GPU types are out of stock (POSTs made, their statuses) | %s |"
        % " | ".join(_landed(r) for r in rows))
    add("")
    add("The stock-out row: the first two GPU types of the preference list are sold out. `naive` (a `uri` "
        "create) and `reference` (runpodctl's `--gpuType`) name one GPU type, the first preference; the "
        "collection's modules take the list, read the catalog once, skip the sold-out types and send one POST.")
    add("")
    add("`pod_batch` under a timeout counts as having treated a pod ready when its failure result "
        "(`wait.last_states`) no longer lists that pod. The serverless approaches (`naive /health loop`, "
        "`endpoint wait:true`) answer only the image-change question (playbook `endpoint_ship.yml`: two workers, "
        "a new worker boots in 6 s, one old worker replaced every 10 s); the pod questions read n/a for them and "
        "the image-change question n/a for the pod approaches.")
    add("")


def price(add, rows) -> None:
    """The price row (section ``price``, tests/bench/price.py): what the pod costs when the first choice is out."""
    add("## Price of the pod landed when the first choice is out of stock")
    add("")
    if not rows:
        add("Not run.")
        add("")
        return
    add("Not timings: the hourly price of the pod each approach lands on. The user wants any NVIDIA GPU with 48 GB "
        "or more and lists RTX A6000, L40S, A100 80GB PCIe, A40 (not the price order); the A6000 is sold out. "
        "Produced by %s (section `price`, `tests/bench/price.py`); rows in [`price.csv`](%s). Prices are the "
        "simulator's list prices (USD/h, secure cloud, one GPU), the pod's billed `cost`." % (
            "`make bench`", "benchmarks/price.csv"))
    add("")
    add("| approach | lands a pod | GPU type | price per hour (USD) | POSTs (statuses) |")
    add("|---|---|---|---|---|")
    labels = {"naive_loop": "naive loop (`uri` per type in the user's order until a 201)",
              "gpu_type_ids": "`runpod.cloud.pod` `gpu_type_ids` in the user's order",
              "gpu_requirements": "`runpod.cloud.pod` `gpu_requirements` (min_memory_gb 48, NVIDIA)"}
    for row in rows:
        cells = (labels.get(row["approach"], row["approach"]), _yn(row.get("ok", "")), row.get("gpu_type") or "-",
                 row.get("price_per_hr") or "-", row.get("posts") or "0", row.get("post_statuses") or "-")
        add("| %s | %s | %s | %s | %s (%s) |" % cells)
    add("")
    add("Both list-walking approaches land on the second name of the list; `gpu_requirements` reads the catalog's "
        "prices and stock once and lands on the cheapest type in stock that meets the requirements.")
    add("")


def caveats(add) -> None:
    add("## Caveats and gaps")
    add("")
    add("* Detection latency of single waits depends on the gap between RUNNING and sshd: the SSH probe can run "
        "between API reads (every 0.25 s) only once a read has shown the pod RUNNING with a public port; a pod "
        "whose sshd answers before such a read is detected at that read. With the fixed cadence that read comes "
        "up to 5 s after RUNNING, so pods whose sshd answers 1-4 s after RUNNING make the tail. The adaptive "
        "cadence reads every 2.5 s while a pod is STARTING, so RUNNING is seen at most ~2.5 s late when STARTING "
        "was seen at all; a STARTING phase shorter than the 5 s steady gap can fall between two reads, and then "
        "RUNNING is seen up to ~3 s late (the residual tail).")
    add("* Per-host approaches run min(N, 50) forks: at N=100 that is 50 module processes (each with its own list "
        "reads and probes) at once on 2 cores, and the `p50 by N` column shows the CPU contention stretching task "
        "returns. The batch wait is one process whatever N is.")
    add("* The simulator does not record when a pod's sshd started answering, nor randomize boot delays per pod "
        "itself; the harness measures the former with its watcher and sets the latter per name through the "
        "`name_overrides` config at create time.")
    add("* Absolute times include Ansible's own per-task cost on a 2-core machine; compare approaches within one "
        "run (same machine state) rather than across pages.")
    add("")
