# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/bench/report.py: the quota floor, the ratios, the one-screen summary, and a page from one run only.

A tiny docs tree in tmp_path, the page rendered without plots (no matplotlib needed): milliseconds.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import sys

import pytest
from helpers.paths import REPO_ROOT
from hypothesis import given
from hypothesis import strategies as st

SPEC = importlib.util.spec_from_file_location("bench_report", REPO_ROOT / "tests" / "bench" / "report.py")
report = importlib.util.module_from_spec(SPEC)
sys.modules[SPEC.name] = report
SPEC.loader.exec_module(report)

EXAMPLE = [("minute", 60, 60.0), ("hour", 3000, 3600.0), ("day", 50000, 86400.0)]
RUN = "20261204T103000Z-abc1234"


# -- the quota floor ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "floor"), [(0, 13.0), (1, 13.0), (10, 13.0), (60, 13.0), (61, 73.0), (100, 73.0),
                                          (120, 73.0), (121, 133.0), (200, 193.0)])
def test_the_floor_is_the_windows_the_creates_need_plus_one_boot(n, floor):
    assert report.quota_floor(n, EXAMPLE, boot=13.0) == floor


def test_a_full_long_window_moves_the_short_windows_that_follow():
    # 3000 creates fill the hour in 50 minute windows (the last opens at 2940 s); the 3001st waits for the hour
    # (3600 s), which opens a fresh minute window there: 60 more at 3600 s, the 3061st one minute later.
    assert report.quota_floor(3001, EXAMPLE) == 3600.0
    assert report.quota_floor(3060, EXAMPLE) == 3600.0
    assert report.quota_floor(3061, EXAMPLE) == 3660.0
    assert report.quota_floor(5, []) == 0.0  # no quota: no wait


@given(n=st.integers(0, 400), quota=st.integers(1, 70), seconds=st.integers(1, 120))
def test_one_window_gives_the_closed_form(n, quota, seconds):
    expected = max(0, math.ceil(n / quota) - 1) * seconds
    assert report.quota_floor(n, [("w", quota, float(seconds))]) == expected


# -- ratios ------------------------------------------------------------------------------------------------------
def _run(approach, n, wall, requests, rep=0, gap=0.5):
    return {"run_id": RUN, "approach": approach, "n": str(n), "rep": str(rep), "ok": "True",
            "wall_all_reported": str(wall), "slowest_sshd_rel": str(wall - gap), "gap_to_slowest_sshd": str(gap),
            "run_wall": str(wall + 1), "requests_total": str(requests), "creates": str(n), "list_reads": "1",
            "pod_reads": "0", "reads_per_pod": "1.0", "wait_T": "", "wait_reads": "", "wait_read_budget": "",
            "load1_at_start": "0.1", "command": "x"}


RUNS = [
    _run("naive", 1, 20.0, 5), _run("naive", 1, 30.0, 7, rep=1), _run("naive", 100, 90.0, 200, gap=20.0),
    _run("reference", 1, 20.0, 7), _run("reference", 100, 40.0, 800, gap=4.5),
    _run("pod_wait", 1, 24.0, 6), _run("pod_wait", 100, 45.0, 700, gap=0.3),
    _run("pod_count", 1, 30.0, 10), _run("pod_count", 100, 36.0, 64, gap=0.6),
]


def test_ratios_compare_medians_of_the_same_run_at_the_same_n():
    got = report.ratios(RUNS, "wall_all_reported", ["pod_wait", "pod_count"])

    assert got[("pod_wait", "naive", 1)] == pytest.approx(24.0 / 25.0)  # naive's median over its two repeats
    assert got[("pod_wait", "reference", 100)] == pytest.approx(45.0 / 40.0)
    assert got[("pod_count", "naive", 100)] == pytest.approx(36.0 / 90.0)
    assert ("pod_wait", "pod_wait", 1) not in got
    requests = report.ratios(RUNS, "requests_total", ["pod_count"], ["reference"])
    assert requests == {("pod_count", "reference", 1): pytest.approx(10 / 7), ("pod_count", "reference", 100):
                        pytest.approx(64 / 800)}


def test_a_ratio_needs_both_figures_and_a_positive_base():
    assert report.ratio(3.0, 2.0) == 1.5
    assert report.ratio(None, 2.0) is None
    assert report.ratio(3.0, None) is None
    assert report.ratio(3.0, 0.0) is None
    assert report.fmt_ratio(None) == "n/a"
    assert report.ratios([_run("pod_wait", 10, 5.0, 9)], "wall_all_reported", ["pod_wait"]) == {}  # no base ran


# -- the summary -------------------------------------------------------------------------------------------------
QUOTA = [
    {"run_id": RUN, "approach": "fleet", "n": "100", "rc": "0", "created": "100", "created_once": "True",
     "floor_requests": "101", "all_created_s": "61.2", "floor_created_s": "60.0", "all_ready_s": "80.4",
     "floor_s": "73.0", "over_floor_s": "7.4", "requests": "118", "rate_limited_429": "2", "boot_s": "13.0",
     "policy": '"minute";q=60;w=60', "command": "x"},
    {"run_id": RUN, "approach": "fleet", "n": "200", "rc": "2", "created": "201", "created_once": "False",
     "all_created_s": "190.0", "floor_created_s": "180.0", "all_ready_s": "", "floor_s": "193.0",
     "over_floor_s": "", "requests": "250", "rate_limited_429": "9", "boot_s": "13.0",
     "policy": '"minute";q=60;w=60', "command": "x"},
]
TIMINGS = {"run_id": RUN, "figures": {"pod wait ended by a 401, v2": {"seconds_from_fault_to_exit": 0.41}}}


def test_the_summary_fits_one_screen_with_every_approach_the_quota_sweep_and_the_budgets():
    lines = report.summary(RUNS, QUOTA, TIMINGS)
    text = "\n".join(lines)

    assert len(lines) <= 30
    assert ("| approach | N = 1 | N = 100 | past slowest sshd, N = 100 (s) | API requests, N = 100 | N = 100 time vs "
            "naive / reference |") in text
    assert "| naive | 25.0 | 90.0 | 20.00 | 200 | - / 2.25x |" in text
    assert "| reference | 20.0 | 40.0 | 4.50 | 800 | 0.44x / - |" in text
    assert "| pod | 24.0 | 45.0 | 0.30 | 700 | 0.50x / 1.12x |" in text
    assert "| pod with count | 30.0 | 36.0 | 0.60 | 64 | 0.40x / 0.90x |" in text
    assert "| fleet | 100 | 80.4 | 73.0 | 7.4 | 2 | yes |" in text
    assert "| fleet | 200 | not ready (rc 2) | 193.0 | n/a | 9 | **no** |" in text
    assert "pod wait ended by a 401, v2: seconds_from_fault_to_exit 0.41" in text


def test_an_empty_run_says_so():
    assert report.summary([], [], {}) == ["## Summary", "", "Nothing measured in this run.", ""]


def test_the_quota_goal_is_judged_on_the_fleet_of_100():
    assert "7.4 s over the floor, 2 429s, created once: yes: **met**" in report.quota_goal(QUOTA)
    late = [dict(QUOTA[0], over_floor_s="15.1")]
    assert "**missed**" in report.quota_goal(late)
    assert "**missed**" in report.quota_goal([dict(QUOTA[0], created_once="False")])
    assert "**missed**" in report.quota_goal([dict(QUOTA[0], rate_limited_429="6")])
    assert report.quota_goal(QUOTA[1:]) is None


@pytest.mark.parametrize(("load", "warned"), [(0.3, False), (0.5, False), (0.51, True)])
def test_a_busy_machine_is_flagged(load, warned):
    warning = report.load_warning({"machine_before": {"loadavg": [load, 1.0, 1.0]}})
    assert (warning is not None) == warned
    if warned:
        assert "not idle" in warning and "%.2f" % load in warning


def test_an_unrecorded_load_is_flagged():
    assert "not recorded" in report.load_warning({"machine_before": {}})


# -- one run per page --------------------------------------------------------------------------------------------
def _csv(path, rows):
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _meta(load=0.2, **extra):
    machine = {"cores": 2, "loadavg": [load, 0.3, 0.4], "python": "3.11.7", "memory_gb": 23.5,
               "cpu_model": "AMD EPYC", "ansible_core": "2.19.14"}
    return {"run_id": RUN, "command": "make bench", "knobs": [], "quick": False, "sizes": {"1": 2, "100": 1},
            "started": "2026-12-04 10:30:00 UTC", "duration_s": 1490.0, "machine_before": machine,
            "machine_after": dict(machine, loadavg=[1.9, 1.2, 0.8]), "sections": ["sweep", "quota"],
            "all_sections": ["sweep", "quota", "list", "correctness"], "note": "", "commit": "abc1234", **extra}


@pytest.fixture
def docs(tmp_path):
    bench = tmp_path / "benchmarks"
    bench.mkdir()
    (bench / "meta.json").write_text(json.dumps(_meta()))
    _csv(bench / "sweep.csv", RUNS)
    _csv(bench / "quota.csv", QUOTA)
    (bench / "timings.json").write_text(json.dumps(TIMINGS))
    return tmp_path


def _page(docs):
    report.write(docs, plots=False)
    return (docs / "benchmarks.md").read_text()


def test_a_page_comes_from_one_run_with_its_load_and_the_summary_on_top(docs):
    page = _page(docs)

    assert "**`make bench`** at commit `abc1234`, started 2026-12-04 10:30:00 UTC, 1490 s in total (run id " \
        "`20261204T103000Z-abc1234`)" in page
    assert "**Load average** (1/5/15 min): 0.2/0.3/0.4 at the start, 1.9/1.2/0.8 at the end." in page
    assert "not idle" not in page
    assert "Not run: `list`, `correctness` (`BENCH_SECTIONS=all` runs them)." in page
    assert page.index("## Summary") < page.index("## What runs") < page.index("## Side by side")
    assert "Archived" not in page and "earlier run" not in page
    side = page[page.index("## Side by side"):page.index("## Goals")]
    assert "| pod | 24.0 / 0.50 | 45.0 / 0.30 |" in side
    assert "| naive | 25.0 [20.0-30.0] / 0.50 [0.50-0.50] | 90.0 / 20.00 |" in side
    assert "| pod with count | naive | 1.20x / 1.67x | 0.40x / 0.32x |" in side
    assert "| pod with count | reference | 1.50x / 1.43x | 0.90x / 0.08x |" in side
    assert "| fleet | 100 | 61.2 | 60.0 | 80.4 | 73.0 | 7.4 | 118 (101) | 2 | yes | 0 |" in page


def test_a_busy_machine_and_a_reduced_run_are_flagged_at_the_top(docs):
    meta = _meta(load=2.4, knobs=["BENCH_SIZES=1:1"])
    (docs / "benchmarks" / "meta.json").write_text(json.dumps(meta))

    top = _page(docs).split("## Summary")[0]

    assert "> **Warning: the machine was not idle**: its 1-minute load average was 2.40 at the start" in top
    assert "> **Reduced run** (BENCH_SIZES=1:1): not the published figures" in top


@pytest.mark.parametrize("stray", ["other run", "no column"])
def test_a_file_from_another_run_is_refused(docs, stray):
    rows = [dict(r, run_id="20261201T050000Z-0ld0000") for r in RUNS]
    if stray == "no column":
        rows = [{k: v for k, v in r.items() if k != "run_id"} for r in RUNS]
    _csv(docs / "benchmarks" / "latency.csv", rows)

    with pytest.raises(SystemExit, match=r"mixes runs: latency\.csv \(run (20261201T050000Z-0ld0000|no run_id)\) is "
                                         r"not from the run in meta\.json \(20261204T103000Z-abc1234\)"):
        _page(docs)


def test_timings_of_another_run_are_refused(docs):
    (docs / "benchmarks" / "timings.json").write_text(json.dumps(dict(TIMINGS, run_id="older")))
    with pytest.raises(SystemExit, match=r"timings\.json \(run older\)"):
        _page(docs)


def test_without_a_run_the_page_says_run_make_bench(docs):
    removed = report.clear(docs / "benchmarks")
    (docs / "benchmarks" / "README.txt").write_text("not the run's")

    page = _page(docs)

    assert sorted(removed) == ["meta.json", "quota.csv", "sweep.csv", "timings.json"]
    assert (docs / "benchmarks" / "README.txt").exists()
    assert "**No run yet: run `make bench`**" in page
    assert "## Summary" not in page
    # CSVs without the meta.json that names their run are refused, too.
    _csv(docs / "benchmarks" / "sweep.csv", RUNS)
    with pytest.raises(SystemExit, match=r"no meta\.json"):
        _page(docs)


def test_the_summary_shows_the_host_key_checks_cost_beside_off():
    figures = {
        "host key check, one pod, check off": {"p50_s": 0.2, "p95_s": 0.3, "runs": 5},
        "host key check, one pod, prints fingerprints": {"p50_s": 0.25, "p95_s": 0.35, "runs": 5},
        "host key check, one pod, prints none": {"p50_s": 0.45, "p95_s": 0.5, "runs": 5},
        "host key check, pod_info batch wait, 10 pods printing none": {"seconds_after_last_sshd": 0.6},
    }
    text = "\n".join(report.summary([], [], {"run_id": RUN, "figures": figures}))
    # The three modes side by side from one run, each with what it adds to off.
    assert "| check off | 0.2 | 0.3 | - | 5 |" in text
    assert "| prints fingerprints | 0.25 | 0.35 | 0.05 | 5 |" in text
    assert "| prints none | 0.45 | 0.5 | 0.25 | 5 |" in text
    assert "ended 0.6 s after the last pod's sshd answered" in text
    assert report.host_key_cost({"pod wait ended by a 401, v2": {"seconds_from_fault_to_exit": 0.41}}) == []
