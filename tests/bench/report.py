# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Turn the CSVs of **one** ``make bench`` run into docs/benchmarks.md and its plots (matplotlib, Agg).

Called by run_bench.py at the end of a run; ``python tests/bench/report.py [--out docs] [--no-plots]`` rebuilds the
page from the CSVs and meta.json in docs/benchmarks/ alone, so every figure traces back to a CSV row. Every row
carries the run's ``run_id`` (meta.json's): a file from another run (or without the column) is refused, so the page
never mixes runs. Without a meta.json the page says that no run was made yet; ``--clear`` removes the run's files
and writes that page. The header, the one-screen summary, the side-by-side tables and the quota sweep are built
here; the detailed sections come from sections.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sections.py beside it, however this file is loaded

import sections
from sections import LABELS, SHORT, num, read_csv, spread

# The approaches side by side (issue 45), in this order; a run may add others (BENCH_APPROACHES).
MAIN = ("naive", "reference", "pod_wait", "pod_batch", "pod_count")
BASES = ("naive", "reference")  # what the collection's approaches are compared with
SUMMARY_N = (1, 10, 100)
# Issue 45: a 100-pod fleet under 60 a minute within 15 s of the floor, "at most a handful" (5) of 429s.
GOAL_QUOTA_N, GOAL_QUOTA_OVER, GOAL_QUOTA_429 = 100, 15.0, 5
IDLE_LOAD = 0.5  # a 1-minute load average above this at the start: the machine was not idle
# The v2 document's example policy (tests/simulator/runpod_sim/quota.py, runpod-api.md 1.7).
EXAMPLE_POLICY = '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400'
CSVS = ("sweep.csv", "latency.csv", "list1000.csv", "overhead.csv", "import_cost.csv", "correctness.csv",
        "price.csv", "quota.csv")
PLOTS = ("latency.png", "requests.png", "walltime.png")
# Everything a run writes into docs/benchmarks/; a new run removes all of it first.
RUN_FILES = (*CSVS, *PLOTS, "meta.json", "timings.json", "last_failure.log")
NO_RUN = ("**No run yet: run `make bench`** on an idle machine (about %s; tests/bench/README.md). The page is "
          "generated from the CSVs and `meta.json` that one run writes into `docs/benchmarks/`.")
EXPECTED_FULL = "25 minutes on 2 cores"


# -- pure figures ------------------------------------------------------------------------------------------------
def quota_floor(n: int, windows: Iterable[tuple[str, int, float]], boot: float = 0.0) -> float:
    """The least seconds from a run's first request until ``n`` creates are through the quota's fixed windows, plus
    ``boot`` (one pod's boot after its last create). A window ``(name, quota, seconds)`` opens with the first
    request after the previous one closed and admits ``quota`` requests; sending each request as soon as every
    window admits it is the fastest schedule. With one window that is ``(ceil(n / quota) - 1) * seconds``; with
    several, a full long window can move the short ones' openings, so the schedule is played out."""
    limits = list(windows)
    opened: list[tuple[float, int] | None] = [None] * len(limits)  # per window: (opened at, requests in it)
    now = 0.0
    for _request in range(max(n, 0)):
        blocked = True
        while blocked:  # the earliest moment every window admits one more request
            blocked = False
            for (_name, quota, seconds), state in zip(limits, opened, strict=True):
                if state is not None and now < state[0] + seconds and state[1] >= quota:
                    now, blocked = state[0] + seconds, True
        opened = [(now, 1) if state is None or now >= state[0] + seconds else (state[0], state[1] + 1)
                  for (_name, _quota, seconds), state in zip(limits, opened, strict=True)]
    return round(now + boot, 1)


def ratio(value: float | None, base: float | None) -> float | None:
    """``value / base``, or None when either is missing or the base is not positive."""
    if value is None or base is None or base <= 0:
        return None
    return value / base


def fmt_ratio(value: float | None) -> str:
    return "n/a" if value is None else "%.2fx" % value


def medians(runs: list[dict[str, str]], metric: str) -> dict[tuple[str, int], float]:
    """``{(approach, N): median of metric over its repeats}`` (rows without a value left out)."""
    values: dict[tuple[str, int], list[float]] = {}
    for row in runs:
        value = num(row.get(metric))
        if value is not None:
            values.setdefault((row["approach"], int(row["n"])), []).append(value)
    return {key: statistics.median(v) for key, v in values.items()}


def ratios(runs: list[dict[str, str]], metric: str, subjects: Iterable[str], bases: Iterable[str] = BASES
           ) -> dict[tuple[str, str, int], float | None]:
    """``{(subject, base, N): median(subject) / median(base)}`` for every N both ran, all from ``runs`` (one run)."""
    med = medians(runs, metric)
    out: dict[tuple[str, str, int], float | None] = {}
    for subject in subjects:
        for base in bases:
            for (approach, n), value in sorted(med.items()):
                if approach == subject and (base, n) in med and subject != base:
                    out[(subject, base, n)] = ratio(value, med[(base, n)])
    return out


def foreign_files(bench: Path, meta: dict[str, Any] | None) -> list[str]:
    """The files in ``bench`` the run of ``meta`` did not write: a CSV with a row of another ``run_id`` (or without
    the column), a timings.json of another run; without a meta.json, every CSV."""
    wanted = (meta or {}).get("run_id")
    found = []
    for name in CSVS:
        path = bench / name
        if not path.exists():
            continue
        ids = {row.get("run_id") or "no run_id" for row in read_csv(path)} or {"no rows"}
        if not wanted or ids != {wanted}:
            found.append("%s (run %s)" % (name, ", ".join(sorted(ids))))
    timings = bench / "timings.json"
    if timings.exists():
        other = json.loads(timings.read_text()).get("run_id") or "no run_id"
        if other != wanted:
            found.append("timings.json (run %s)" % other)
    return found


def load_warning(meta: dict[str, Any]) -> str | None:
    """A warning when the 1-minute load at the start shows the machine was busy (or was not recorded)."""
    load = (meta.get("machine_before") or {}).get("loadavg") or []
    if not load:
        return "**Warning: the load at the start was not recorded**: whether the machine was idle is unknown."
    if load[0] > IDLE_LOAD:
        return ("**Warning: the machine was not idle**: its 1-minute load average was %.2f at the start (above %.1f), "
                "so the timings below include other work; rerun `make bench` on an idle machine."
                % (load[0], IDLE_LOAD))
    return None


def _present(runs: list[dict[str, str]]) -> list[str]:
    measured = {row["approach"] for row in runs}
    return [a for a in MAIN if a in measured] + [a for a in LABELS if a in measured and a not in MAIN]


def _sizes(runs: list[dict[str, str]]) -> list[int]:
    return sorted({int(row["n"]) for row in runs})


def _cell(value: float | None, fmt: str = "%.1f") -> str:
    return "n/a" if value is None else fmt % value


def summary(runs: list[dict[str, str]], quota: list[dict[str, str]], timings: dict[str, Any]) -> list[str]:
    """The one-screen table at the top: time to all SSH-ready per approach at N = 1, 10, 100 (or the sizes the run
    had), the gap past the slowest sshd, the requests and the ratios at the largest N; the quota sweep against the
    floor; the wall-clock budgets of the same ``make bench``."""
    lines = ["## Summary", ""]
    approaches, sizes = _present(runs), _sizes(runs)
    if approaches:
        top = sizes[-1]
        shown = sorted({n for n in SUMMARY_N if n in sizes} | {top})
        wall, gap, requests = medians(runs, "wall_all_reported"), medians(runs, "gap_to_slowest_sshd"), medians(
            runs, "requests_total")
        lines.append("Time until all N pods answer SSH, from the start of each run (s; the same boot schedule per pod "
                     "for every approach), and at N = %d: the time past the slowest pod's sshd, the API requests and "
                     "the time against the naive playbook and the reference loop." % top)
        lines.append("")
        lines.append("| approach | %s | past slowest sshd, N = %d (s) | API requests, N = %d | N = %d time vs naive / "
                     "reference |" % (" | ".join("N = %d" % n for n in shown), top, top, top))
        lines.append("|---|" + "---|" * (len(shown) + 3))
        for approach in approaches:
            versus = " / ".join(fmt_ratio(ratio(wall.get((approach, top)), wall.get((base, top))))
                                if approach != base else "-" for base in BASES)
            lines.append("| %s | %s | %s | %s | %s |" % (
                SHORT.get(approach, approach), " | ".join(_cell(wall.get((approach, n))) for n in shown),
                _cell(gap.get((approach, top)), "%.2f"), _cell(requests.get((approach, top)), "%.0f"), versus))
        lines.append("")
    if quota:
        policy = quota[0].get("policy", "")
        lines.append("Fleets under the quota policy `%s`, real time, from the first API request (s); the floor is "
                     "the windows the creates and their name lookups need plus one pod's boot:" % policy)
        lines.append("")
        lines.append("| approach | pods | all ready | floor | over the floor | 429s | every pod created once |")
        lines.append("|---|---|---|---|---|---|---|")
        for row in quota:
            lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                row["approach"], row["n"], row.get("all_ready_s") or "not ready (rc %s)" % row.get("rc"),
                row["floor_s"], row.get("over_floor_s") or "n/a", row["rate_limited_429"],
                _yes(row.get("created_once", ""))))
        lines.append("")
    figures = timings.get("figures") or {}
    lines += host_key_cost(figures)
    if figures:
        lines.append("Wall-clock budgets of the same `make bench` (`tests/bench/timing`): %s." % "; ".join(
            "%s: %s" % (name, ", ".join("%s %s" % (k, v) for k, v in sorted(values.items())))
            for name, values in sorted(figures.items())))
        lines.append("")
    if len(lines) == 2:
        lines += ["Nothing measured in this run.", ""]
    return lines


HOST_KEY_ONE = "host key check, one pod, "
HOST_KEY_MODES = ("check off", "prints fingerprints", "prints none")


def host_key_cost(figures: dict[str, Any]) -> list[str]:
    """The host key check's cost (issue 54, ``tests/bench/timing/test_host_key_cost.py``): one pod's wait past its
    sshd under each mode side by side, and what the check adds to ``off``; none when the run did not measure it."""
    rows = [(mode, figures.get(HOST_KEY_ONE + mode)) for mode in HOST_KEY_MODES]
    if not any(values for _mode, values in rows):
        return []
    lines = ["The host key check, from one run: a `pod` wait on one pod (found by its id), from its sshd answering to "
             "the wait ending (s; RUNNING first, default `wait_interval`), and what the check adds to `off` (p50):", "",
             "| image | p50 | p95 | check's cost (p50) | runs |", "|---|---|---|---|---|"]
    base = (figures.get(HOST_KEY_ONE + "check off") or {}).get("p50_s")
    for mode, values in rows:
        values = values or {}
        p50 = values.get("p50_s")
        cost = "%.2f" % (p50 - base) if mode != "check off" and None not in (base, p50) else "-"
        cells = (mode, values.get("p50_s", "n/a"), values.get("p95_s", "n/a"), cost, values.get("runs", "n/a"))
        lines.append("| %s | %s | %s | %s | %s |" % cells)
    batch = figures.get("host key check, pod_info batch wait, 10 pods printing none") or {}
    if batch:
        lines += ["", "A 10-pod `pod_info` wait with the check on, every pod printing no fingerprints, ended %s s "
                  "after the last pod's sshd answered." % batch.get("seconds_after_last_sshd", "n/a")]
    return [*lines, ""]


def _yes(value: str) -> str:
    return {"True": "yes", "False": "**no**"}.get(value, value or "n/a")


def side_by_side(runs: list[dict[str, str]]) -> list[str]:
    """Every approach at every N: the time to all SSH-ready and past the slowest sshd, then the ratios of the
    collection's approaches against the naive playbook and the reference loop (time and API requests)."""
    approaches, sizes = _present(runs), _sizes(runs)
    if not approaches:
        return []
    lines = ["## Side by side: time until all N pods answer SSH", ""]
    lines.append("From the start of the run (ansible-playbook launched, or the Python threads started) to the moment "
                 "the approach reported the last pod ready, and that moment minus the slowest pod's first banner. "
                 "Median over repeats [min-max]. Produced by `make bench` (section `sweep`); rows in "
                 "[`sweep.csv`](benchmarks/sweep.csv).")
    lines.append("")
    lines.append("![wall time](benchmarks/walltime.png)")
    lines.append("")
    lines.append("| approach | " + " | ".join("N = %d: all ready / past slowest sshd (s)" % n for n in sizes) + " |")
    lines.append("|---|" + "---|" * len(sizes))
    for approach in approaches:
        cells = []
        for n in sizes:
            sel = [r for r in runs if r["approach"] == approach and int(r["n"]) == n]
            cells.append("%s / %s" % (spread([num(r["wall_all_reported"]) for r in sel], "%.1f").split(" (")[0],
                                      spread([num(r["gap_to_slowest_sshd"]) for r in sel], "%.2f").split(" (")[0])
                         if sel else "not run")
        lines.append("| %s | %s |" % (SHORT.get(approach, approach), " | ".join(cells)))
    lines.append("")
    subjects = [a for a in approaches if a not in BASES]
    time_ratios = ratios(runs, "wall_all_reported", subjects)
    request_ratios = ratios(runs, "requests_total", subjects)
    if time_ratios:
        lines.append("Ratios within this run (medians): time to all SSH-ready, and API requests, of each of the "
                     "collection's approaches over the naive playbook's and the reference loop's at the same N. Below "
                     "1 is faster, or fewer requests.")
        lines.append("")
        lines.append("| approach | vs | " + " | ".join("N = %d: time / requests" % n for n in sizes) + " |")
        lines.append("|---|---|" + "---|" * len(sizes))
        for subject in subjects:
            for base in BASES:
                if not any((subject, base, n) in time_ratios for n in sizes):
                    continue
                lines.append("| %s | %s | %s |" % (SHORT.get(subject, subject), SHORT.get(base, base), " | ".join(
                    "%s / %s" % (fmt_ratio(time_ratios.get((subject, base, n))),
                                 fmt_ratio(request_ratios.get((subject, base, n)))) for n in sizes)))
        lines.append("")
    return lines


def quota_section(rows: list[dict[str, str]]) -> list[str]:
    if not rows:
        return []
    first = rows[0]
    lines = ["## Fleets under RunPod's quota", ""]
    lines.append(
        "Each run has its own simulator enforcing the quota policy `%s` (%s) with fixed windows, in **real time** "
        "(`time_scale` 1). Times count from the run's first API request. *Floor*: the windows the N creates and the "
        "name lookups before them need (one list read per task, which idempotency requires: R = N + 1 requests for "
        "a fleet task; a window opens with the first request after the last one closed: under 60 a minute the last "
        "of `ceil(R / 60)` windows opens `ceil(R / 60) - 1` minutes after the first request) plus one pod's boot "
        "in this simulator (%s s: create latency, PROVISIONING, STARTING, sshd); *floor for the creates*: the "
        "windows alone. "
        "`fleet` is `runpod.cloud.pod` with `count` (200 pods: two tasks of 100 sharing the quota), `loop` a loop "
        "of single `pod` tasks then one `pod_info` batch wait (docs/pods.md, \"Fleets and RunPod's quotas\"). "
        "*Created once*: one 201 per pod and every name exactly once among the live pods. Produced by `make bench` "
        "(section `quota`, `tests/bench/quota_bench.py`); rows in [`quota.csv`](benchmarks/quota.csv)." % (
            first["policy"], "the v2 document's example: 60 a minute" if first["policy"] == EXAMPLE_POLICY else
            "**not** the v2 document's example", first.get("boot_s", "?")))
    lines.append("")
    lines.append("| approach | pods | all created (s) | floor for the creates (s) | all ready (s) | floor (s) | "
                 "over the floor (s) | requests (floor's) | 429s | created once | rc |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s |" % (
            row["approach"], row["n"], row["all_created_s"], row["floor_created_s"], row["all_ready_s"],
            row["floor_s"], row["over_floor_s"], row["requests"], row.get("floor_requests") or "?",
            row["rate_limited_429"],
            _yes(row.get("created_once", "")), row["rc"]))
    lines.append("")
    goal = quota_goal(rows)
    if goal:
        lines += [goal, ""]
    return lines


def quota_goal(rows: list[dict[str, str]], n: int = GOAL_QUOTA_N) -> str | None:
    """Issue 45's goal for a fleet of ``n`` under the policy: within GOAL_QUOTA_OVER s of the floor, at most
    GOAL_QUOTA_429 429s, every pod created once; the verdict of each ``fleet`` run of that size."""
    runs = [r for r in rows if r["approach"] == "fleet" and int(r["n"]) == n]
    if not runs:
        return None
    verdicts = []
    for row in runs:
        over, rejected = num(row.get("over_floor_s")), num(row.get("rate_limited_429")) or 0
        met = over is not None and over <= GOAL_QUOTA_OVER and rejected <= GOAL_QUOTA_429 and row.get(
            "created_once") == "True"
        verdicts.append("%s s over the floor, %d 429s, created once: %s: **%s**" % (
            "n/a" if over is None else "%.1f" % over, rejected, _yes(row.get("created_once", "")),
            "met" if met else "missed"))
    return "Goal (issue 45): a fleet of %d finishes within %.0f s of the floor, with at most %d 429s and every pod " \
        "created once. Measured: %s." % (n, GOAL_QUOTA_OVER, GOAL_QUOTA_429, "; ".join(verdicts))


# -- the page ------------------------------------------------------------------------------------------------------
def _header(meta: dict[str, Any]) -> list[str]:
    m0, m1 = meta.get("machine_before") or {}, meta.get("machine_after") or {}
    lines = [
        "**One run.** Every figure below comes from **`%s`** at commit `%s`, started %s, %.0f s in total (run id "
        "`%s`). Raw data beside this page: [`docs/benchmarks/`](benchmarks/) (`meta.json` and one CSV per "
        "section; every row carries the run id and names the command that produced it)." % (
            meta.get("command"), meta.get("commit"), meta.get("started"), meta.get("duration_s") or 0,
            meta.get("run_id")),
        "",
        "**Machine**: %s cores (%s), %s GB RAM, Python %s, ansible-core %s. **Load average** (1/5/15 min): %s at the "
        "start, %s at the end. All traffic is loopback to the local simulator (`tests/simulator`), never RunPod." % (
            m0.get("cores"), m0.get("cpu_model", "?"), m0.get("memory_gb", "?"), m0.get("python"),
            m0.get("ansible_core"), "/".join(map(str, m0.get("loadavg", []))) or "not recorded",
            "/".join(map(str, m1.get("loadavg", []))) or "not recorded"),
        "",
    ]
    warning = load_warning(meta)
    if warning:
        lines += ["> " + warning, ""]
    if meta.get("knobs"):
        lines += ["> **Reduced run** (%s): not the published figures; the published page comes from a plain "
                  "`make bench`." % " ".join(meta["knobs"]), ""]
    skipped = [s for s in meta.get("all_sections", []) if s not in meta.get("sections", [])]
    lines.append("Sections run: %s.%s" % (", ".join("`%s`" % s for s in meta.get("sections", [])), (
        " Not run: %s (`BENCH_SECTIONS=all` runs them)." % ", ".join("`%s`" % s for s in skipped)) if skipped else ""))
    lines.append("")
    if meta.get("note"):
        lines += ["**Note on this run**: %s" % meta["note"], ""]
    return lines


def render(bench: Path, meta: dict[str, Any] | None, plots: bool = True) -> str:
    """The page's text from ``bench`` (docs/benchmarks/); SystemExit when a file there is not from the run of
    ``meta``."""
    lines = ["# Benchmarks: waiting for pods, side by side", "",
             "<!-- Generated by tests/bench/report.py from docs/benchmarks/ (one `make bench` run). Do not edit by "
             "hand: rerun `make bench`, or `python tests/bench/report.py` to rebuild this page from the CSVs. -->", ""]
    foreign = foreign_files(bench, meta)
    if foreign:
        raise SystemExit("docs/benchmarks/ mixes runs: %s %s not from the run in meta.json (%s). Rerun `make bench` "
                         "(it replaces every file), or `python tests/bench/report.py --clear`." % (
                             ", ".join(foreign), "is" if len(foreign) == 1 else "are",
                             (meta or {}).get("run_id", "no meta.json")))
    if meta is None:
        return "\n".join([*lines, NO_RUN % EXPECTED_FULL, ""])
    data = {name: read_csv(bench / name) for name in CSVS}
    pods, runs = data["latency.csv"], data["sweep.csv"]
    timings = json.loads((bench / "timings.json").read_text()) if (bench / "timings.json").exists() else {}
    if plots and runs:
        sections.plot_latency(pods, bench / "latency.png")
        sections.plot_requests(runs, bench / "requests.png")
        sections.plot_walltime(runs, bench / "walltime.png")
    lines += _header(meta)
    lines += summary(runs, data["quota.csv"], timings)
    add = lines.append
    if runs:
        sections.method(add, meta, {r["approach"] for r in runs} | {r["approach"] for r in data["correctness.csv"]})
        lines += side_by_side(runs)
        sections.goals(add, pods, runs, data["list1000.csv"])
        sections.latency_section(add, pods)
        sections.cadence_section(add, pods, runs)
        sections.requests_section(add, runs)
        sections.fleet(add, runs, pods)
    lines += quota_section(data["quota.csv"])
    if data["list1000.csv"]:
        sections.list_section(add, data["list1000.csv"])
    if data["overhead.csv"]:
        sections.overhead_section(add, data["overhead.csv"])
    sections.import_cost(add, data["import_cost.csv"])
    if data["correctness.csv"]:
        sections.correctness(add, data["correctness.csv"])
    if data["price.csv"]:
        sections.price(add, data["price.csv"])
    sections.caveats(add)
    return "\n".join(lines) + "\n"


def write(out: Path, meta: dict[str, Any] | None = None, plots: bool = True) -> None:
    """Write out/benchmarks.md (and, with ``plots``, the PNGs) from out/benchmarks/; ``meta`` defaults to its
    meta.json (none: the page says no run was made yet)."""
    bench = out / "benchmarks"
    if meta is None and (bench / "meta.json").exists():
        meta = json.loads((bench / "meta.json").read_text())
    text = render(bench, meta, plots)
    (out / "benchmarks.md").write_text(text)


def clear(bench: Path) -> list[str]:
    """Remove what a run wrote into ``bench`` (before a new run, or to publish "no run yet"); the removed names."""
    removed = []
    for name in RUN_FILES:
        if (bench / name).exists():
            (bench / name).unlink()
            removed.append(name)
    return removed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "docs"))
    parser.add_argument("--no-plots", action="store_true",
                        help="rebuild the page only, keep the PNGs as they are (no matplotlib needed)")
    parser.add_argument("--clear", action="store_true",
                        help="remove the run's files from docs/benchmarks/ and write the 'no run yet' page")
    args = parser.parse_args()
    out = Path(args.out)
    if args.clear:
        print("removed: %s" % (", ".join(clear(out / "benchmarks")) or "nothing"))
    write(out, plots=not args.no_plots)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
