# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Module process cost of an ``_info`` task against ``ansible.builtin.uri`` for the same GET, in one run.

Starts the simulator (one pod), runs ``tests/bench/playbooks/import_cost.yml`` (``ping``, ``uri`` GET /v2/pods and
``runpod.cloud.pod_info``, alternating, ``--rounds`` each) with every module process under the interpreter shim
(``measure_python.py``: wall and CPU time of that one process). ``make bench`` runs it as its section
``import_cost`` (``measure``); alone it writes ``tests/output/bench/import_cost.csv`` and prints the medians.
The figure is each module's median cost over ``ping`` (the floor every module pays: the interpreter, AnsiballZ,
``ansible.module_utils.basic``) and the ratio ``pod_info`` / ``uri`` of those costs; the issue's goal is <= 2.

    .venv/bin/python tests/bench/import_cost.py --rounds 15
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import stat
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib

MODULES = ("ping", "uri", "pod_info")
OUT = benchlib.REPO_ROOT / "tests" / "output" / "bench" / "import_cost.csv"


def measure(rounds: int) -> tuple[list[dict], str]:
    sim = benchlib.start_sim()
    try:
        sim.admin.reset()
        sim.admin.seed(1, ports=["8888/http"], name_prefix="cost")
        workdir = Path(tempfile.mkdtemp(prefix="runpod_bench_cost_"))
        records_file = workdir / "records.jsonl"
        shim = workdir / "python-measured"
        shim.write_text("#!/bin/sh\nexec %s %s \"$@\"\n" % (
            benchlib.PYTHON, Path(__file__).resolve().parent / "measure_python.py"))
        shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
        run = benchlib.run_playbook(
            sim, "import_cost.yml", {"bench_rounds": rounds, "bench_interpreter": str(shim)},
            forks=1, env_extra={"RUNPOD_BENCH_MEM": str(records_file), "RUNPOD_BENCH_PYTHON": benchlib.PYTHON},
        )
        if run.rc != 0:
            raise SystemExit("the playbook failed:\n" + run.log[-3000:])
        records = [json.loads(line) for line in records_file.read_text().splitlines()]
    finally:
        sim.stop()
    command = "python tests/bench/import_cost.py --rounds %d" % rounds
    rows = []
    for module in MODULES:
        for index, record in enumerate(r for r in records if r["module"] == module):
            rows.append({
                "module": module,
                "round": index,
                "module_process_wall_s": round(record["wall"], 4),
                "module_cpu_s": round(record["user"] + record["sys"], 4),
                "peak_rss_mb": round(record["maxrss_mb"], 1),
                "load1": round(os.getloadavg()[0], 2),
                "command": command,
            })
    return rows, command


def summary(rows: list[dict]) -> dict[str, dict[str, float]]:
    """Median wall and CPU per module, each module's cost over ping, and pod_info's over uri's."""
    medians = {
        module: {key: statistics.median(float(r[key]) for r in rows if r["module"] == module)
                 for key in ("module_process_wall_s", "module_cpu_s")}
        for module in MODULES
    }
    out: dict[str, dict[str, float]] = {}
    for key in ("module_process_wall_s", "module_cpu_s"):
        floor = medians["ping"][key]
        over = {module: medians[module][key] - floor for module in MODULES}
        out[key] = {**{f"{m}": medians[m][key] for m in MODULES}, **{f"{m}_over_ping": over[m] for m in MODULES},
                    "ratio": over["pod_info"] / over["uri"] if over["uri"] > 0 else float("nan")}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows, _command = measure(args.rounds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    for key, values in summary(rows).items():
        print(key, json.dumps({name: round(value, 3) for name, value in values.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
