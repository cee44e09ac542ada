# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the host key check costs in wall-clock seconds (issue 54; docs/pods.md "What the check costs"), three modes
side by side from one run, each a ``runpod.cloud.pod`` wait on one pod (found by its id): an image that prints its
fingerprints (``host_key_checking: log``, RunPod's start script), one that prints none (a custom image: pinned),
and ``host_key_checking: off``; then a 10-pod ``pod_info`` batch wait with the check on. Each pod is RUNNING with
its port mapped a few seconds before its sshd answers (the fast-boot shape: the wait probes the port every
0.25 s), and the wait uses the default ``wait_interval``.

* a wait on a printing image ends at p95 within 0.4 s of sshd answering, on a silent one within 0.5 s;
* the 10-pod batch wait (every pod silent) ends within 1.5 s of the last pod's sshd.

"Answering" is the earliest moment the schedule allows (the simulator starts a delay when it handles the request that
set it), so the figures are upper bounds.
"""

from __future__ import annotations

import statistics

from helpers.playbooks import info_task, play, pod_task
from helpers.simulated import staggered_pods

REPEATS = 5
RUNNING_AFTER = 3.0  # real seconds from seeding: ansible's start-up takes about 2 s, so the wait sees the port first
SSHD_AFTER = 3.0  # real seconds after RUNNING
# mode -> (what the pod's start script prints, the task's host_key_checking)
MODES = {"prints fingerprints": ("print", "log"), "prints none": ("none", "log"), "check off": ("print", "off")}
BOUNDS = {"prints fingerprints": 0.4, "prints none": 0.5}


def _seed(sim, count, log, prefix, step=0.0):
    """``count`` pods RUNNING at ``RUNNING_AFTER`` whose sshd answers ``SSHD_AFTER`` later (``step`` apart); ids and
    the earliest ``time.time()`` each can answer."""
    return staggered_pods(sim, count, first=RUNNING_AFTER + SSHD_AFTER, step=step, prefix=prefix,
                          running=RUNNING_AFTER, ssh_host_key_log=log)


def _wait(sim, run_playbook, tmp_path, ids, checking):
    """Seconds from the read that started the wait to the state change that ended it (wall clock), the result: a
    ``pod`` wait for one id, a ``pod_info`` batch wait for several."""
    sim.admin.clear_requests()
    if len(ids) == 1:
        task = pod_task("wait", {"id": ids[0], "wait": True, "wait_timeout": "2m", "host_key_checking": checking},
                        register="out")
    else:
        task = info_task("wait", ids="[" + ", ".join(ids) + "]", wait="true", wait_timeout="2m",
                         host_key_checking=checking)
    result = run_playbook(tmp_path, play(task))
    assert result.rc == 0, result.stdout + result.stderr
    out = result.task_result("wait")
    reads = [e for e in sim.admin.requests() if e["method"] == "GET" and "/pods" in e["path"]]
    return reads[0]["started_at"] + out["wait"]["history"][-1]["elapsed"], out


def _p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def test_the_check_costs_little_on_either_image(sim, run_playbook, tmp_path, figures):
    late = {}
    for mode, (log, checking) in MODES.items():
        late[mode] = []
        for repeat in range(REPEATS):
            ids, answers = _seed(sim, 1, log, f"hk{repeat}")
            work = tmp_path / f"{checking}-{log}-{repeat}"
            work.mkdir()
            done, out = _wait(sim, run_playbook, work, ids, checking)
            status = (out["pod"]["ssh"] or {}).get("host_key_check")
            assert status == {"print": "verified", "none": "pinned"}[log] if checking != "off" else status is None
            late[mode].append(done - answers[0])
    for mode, values in late.items():
        figures(f"host key check, one pod, {mode}", p50_s=round(statistics.median(values), 3),
                p95_s=round(_p95(values), 3), runs=len(values))
    base = statistics.median(late["check off"])
    figures("host key check, cost over off (p50)",
            **{mode.replace(" ", "_") + "_s": round(statistics.median(late[mode]) - base, 3) for mode in BOUNDS})
    for mode, bound in BOUNDS.items():
        assert _p95(late[mode]) <= bound, (mode, late)


def test_a_10_pod_batch_wait_with_the_check_ends_right_after_the_last_sshd(sim, run_playbook, tmp_path, figures):
    ids, answers = _seed(sim, 10, "none", "hkbatch", step=0.25)
    done, out = _wait(sim, run_playbook, tmp_path, ids, "log")
    assert {pod["ssh"]["host_key_check"] for pod in out["pods"]} == {"pinned"}
    late = done - max(answers)
    figures("host key check, pod_info batch wait, 10 pods printing none", seconds_after_last_sshd=round(late, 2),
            polls=out["wait"]["polls"], elapsed=out["wait"]["elapsed"])
    assert late <= 1.5, (late, out["wait"])
