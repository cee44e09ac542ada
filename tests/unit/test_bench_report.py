# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/bench/report.py renders archived runs (docs/benchmarks/<name>/ with a meta.json) from their own CSVs.

A tiny docs tree in tmp_path, the page rendered without plots (no matplotlib needed): milliseconds.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sys

import pytest
from helpers.paths import REPO_ROOT

SPEC = importlib.util.spec_from_file_location("bench_report", REPO_ROOT / "tests" / "bench" / "report.py")
report = importlib.util.module_from_spec(SPEC)
sys.modules[SPEC.name] = report  # dataclasses look their module up there
SPEC.loader.exec_module(report)

LATENCY = [
    "approach", "n", "rep", "pod", "pod_id", "sshd_after_create_schedule", "running_to_sshd_schedule",
    "sshd_answered_rel", "reported_ready_rel", "latency", "async_job_done_latency", "failed", "wait_polls", "wait_T",
    "wait_read_budget", "wait_reads_logged", "engine_latency",
]
SWEEP = [
    "approach", "n", "rep", "ok", "wall_all_reported", "slowest_sshd_rel", "gap_to_slowest_sshd", "run_wall",
    "requests_total", "creates", "list_reads", "pod_reads", "reads_per_pod", "wait_T", "wait_reads",
    "wait_read_budget", "load1_at_start", "command",
]


def _csv(path, columns, rows):
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow(row)


def _machine(load):
    return {"cores": 2, "loadavg": [load, load, load], "python": "3.11.7", "memory_gb": 23.5,
            "cpu_model": "AMD EPYC", "ansible_core": "2.19.14"}


def _meta(started, commit, sizes, load_start, load_end, **extra):
    return {"command": "make bench (test %s)" % commit, "quick": False, "sizes": sizes, "started": started,
            "duration_s": 1639.0, "machine_before": _machine(load_start), "machine_after": _machine(load_end),
            "sections": ["sweep"], "note": "", "commit": commit, **extra}


def _pod(approach, rep, latency, polls=6):
    return {"approach": approach, "n": 1, "rep": rep, "pod": "%s-n1-r%d-000" % (approach, rep), "pod_id": "x",
            "sshd_after_create_schedule": 24.5, "running_to_sshd_schedule": 2.1, "sshd_answered_rel": 30.0,
            "reported_ready_rel": 30.0 + latency, "latency": latency, "wait_polls": polls, "wait_T": 24.6,
            "wait_read_budget": 7.92, "wait_reads_logged": polls, "engine_latency": 0.1}


def _run(approach, rep, requests, wait_reads=""):
    return {"approach": approach, "n": 1, "rep": rep, "ok": True, "wall_all_reported": 31.0,
            "slowest_sshd_rel": 30.0, "gap_to_slowest_sshd": 0.5, "run_wall": 32.0, "requests_total": requests,
            "creates": 1, "list_reads": requests - 1, "pod_reads": 0, "reads_per_pod": requests - 1.0,
            "wait_T": 24.8 if wait_reads else "", "wait_reads": wait_reads, "wait_read_budget": 7.96 if wait_reads
            else "", "load1_at_start": 1.0, "command": "ansible-playbook tests/bench/playbooks/x.yml (forks=1)"}


@pytest.fixture
def docs(tmp_path):
    """docs/ with a top-level run (pod_batch, N = 1 once) and nothing archived yet."""
    bench = tmp_path / "benchmarks"
    bench.mkdir()
    meta = _meta("2026-12-01 06:40:14 UTC", "c575c50", {"1": 1}, 1.0, 2.0)
    (bench / "meta.json").write_text(json.dumps(meta))
    _csv(bench / "latency.csv", LATENCY, [_pod("pod_batch", 0, 0.71)])
    _csv(bench / "sweep.csv", SWEEP, [_run("pod_batch", 0, 10, wait_reads=6)])
    return tmp_path


def _archive(docs, name="cadence_x"):
    archived = docs / "benchmarks" / name
    archived.mkdir()
    info = {"title": "Read cadence: fixed vs adaptive", "results_commit": "a47aa5a",
            "results_subject": "Bench results: fixed vs adaptive cadence",
            "differences": ["**create latency**: the simulator of this run answered creates at once;"]}
    meta = _meta("2026-12-01 05:18:44 UTC", "2c81e11", {"1": 2}, 9.22, 14.12, archive=info,
                 note="reduced run for issue 20")
    (archived / "meta.json").write_text(json.dumps(meta))
    _csv(archived / "latency.csv", LATENCY, [
        _pod("pod_wait_fixed", 0, 1.10), _pod("pod_wait_fixed", 1, 0.90),
        _pod("pod_wait", 0, 0.50), _pod("pod_wait", 1, 0.70),
    ])
    _csv(archived / "sweep.csv", SWEEP, [
        _run("pod_wait_fixed", 0, 8), _run("pod_wait_fixed", 1, 7), _run("pod_wait", 0, 8), _run("pod_wait", 1, 8),
    ])
    return archived


def _page(docs):
    report.write(docs, json.loads((docs / "benchmarks" / "meta.json").read_text()), plots=False)
    return (docs / "benchmarks.md").read_text()


def _section(page, heading, level="## "):
    """The text from ``heading`` up to the next heading of the same level."""
    start = page.index(heading)
    end = page.find("\n" + level, start + len(heading))
    return page[start:] if end < 0 else page[start:end]


def test_an_archived_run_gets_its_own_section_with_its_provenance_and_its_own_figures(docs):
    _archive(docs)
    page = _page(docs)

    heading = "## Read cadence: fixed vs adaptive (run of 2026-12-01 05:18:44 UTC, commit a47aa5a)"
    assert heading in page
    section = _section(page, heading)
    provenance = section.split("### Goals")[0]
    # Provenance: run time, duration, command, code and results commits, and how it differs from the top level.
    assert "bench run of **2026-12-01 05:18:44 UTC** (1639 s), code at commit `2c81e11`" in provenance
    assert 'results committed in `a47aa5a` ("Bench results: fixed vs adaptive cadence")' in provenance
    assert "**`make bench (test 2c81e11)`**" in provenance
    assert "[`docs/benchmarks/cadence_x/`](benchmarks/cadence_x/) (`sweep.csv`, `latency.csv`, `meta.json`)" in (
        provenance)
    assert "The run at the top of this page (2026-12-01 06:40:14 UTC, commit `c575c50`) is a later one" in provenance
    assert ("**approaches and sizes**: this run: `pod_wait_fixed`, `pod_wait`, N = 1 (2 repeats); the top-level "
            "run: `pod_batch`, N = 1 (1 repeat);") in provenance
    assert ("**load**: 1-minute load average 9.22 at the start and 14.12 at the end here against 1.0 / 2.0 in the "
            "top-level run;") in provenance
    assert "**code**: commit `2c81e11` here, `c575c50` in the top-level run;" in provenance
    assert "> * **create latency**: the simulator of this run answered creates at once;" in provenance
    assert "**Note on that run** (its meta.json): reduced run for issue 20" in provenance
    # Its sections, one level down, from its own CSVs, linking into its directory.
    for sub in ("### Goals", "### Readiness detection latency", "### Read cadence: API reads per wait",
                "### API requests", "### Wall time until N pods are SSH-ready"):
        assert sub in section
    latency = _section(section, "### Readiness detection latency", "### ")
    assert "| pod wait:true adaptive | 2 | 0.60 | 0.69 | 0.70 | N=1: 0.60 |" in latency
    assert "| pod wait:true fixed | 2 | 1.00 | 1.09 | 1.10 | N=1: 1.00 |" in latency
    assert "pod + pod_info batch" not in latency  # the top-level run's approach stays out of the archive
    assert "rows in [`latency.csv`](benchmarks/cadence_x/latency.csv)" in latency
    assert "![detection latency](benchmarks/cadence_x/latency.png)" in latency
    assert "![requests](benchmarks/cadence_x/requests.png)" in section
    assert "![wall time](benchmarks/cadence_x/walltime.png)" in section
    assert "Produced by that run's `make bench`" in latency
    # The top level keeps its own figures, without the archived approaches; the archive follows its sections.
    top_latency = _section(page, "## Readiness detection latency")
    assert "| pod + pod_info batch adaptive | 1 | 0.71 |" in top_latency
    assert "pod wait:true" not in top_latency
    assert "](benchmarks/latency.png)" in top_latency
    assert page.index("## Wall time until N pods are SSH-ready") < page.index(heading) < page.index(
        "## Caveats and gaps")
    assert "[Read cadence: fixed vs adaptive](benchmarks/cadence_x/) (run of 2026-12-01 05:18:44 UTC)" in page


def test_a_run_without_archives_renders_no_archived_section(docs):
    page = _page(docs)

    assert "Provenance" not in page
    assert "\n### " not in page
    assert "benchmarks/cadence" not in page
    assert "with its provenance and how it differs from this run: none at present." in page
    assert "## Readiness detection latency" in page


def test_an_archive_without_an_archive_entry_is_still_rendered_under_its_directory_name(docs):
    archived = _archive(docs, "older_run")
    meta = json.loads((archived / "meta.json").read_text())
    del meta["archive"]
    (archived / "meta.json").write_text(json.dumps(meta))

    page = _page(docs)

    assert "## Archived run `older_run` (run of 2026-12-01 05:18:44 UTC, commit 2c81e11)" in page
    assert "[`docs/benchmarks/older_run/`](benchmarks/older_run/) (`sweep.csv`, `latency.csv`, `meta.json`). " in page
    assert "results committed in" not in page
    assert "`archive` entry" not in page.split("## Archived run")[1]


def test_archive_copies_the_top_level_run_and_refuses_to_overwrite(docs):
    bench = docs / "benchmarks"
    (bench / "latency.png").write_bytes(b"png")
    _csv(bench / "overhead.csv", ["module"], [{"module": "uri"}])  # from an earlier run: not this run's section

    target = report.archive(bench, "batch_c575c50", "Batch waits")

    assert sorted(p.name for p in target.iterdir()) == ["latency.csv", "latency.png", "meta.json", "sweep.csv"]
    assert (target / "sweep.csv").read_text() == (bench / "sweep.csv").read_text()
    meta = json.loads((target / "meta.json").read_text())
    assert meta["archive"] == {"title": "Batch waits"}
    assert meta["commit"] == "c575c50"
    with pytest.raises(SystemExit, match="exists already"):
        report.archive(bench, "batch_c575c50", "again")
    with pytest.raises(SystemExit, match="archive name"):
        report.archive(bench, "../elsewhere", "outside")
