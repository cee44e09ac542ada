# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""How soon waits end, in wall-clock seconds (the behaviour itself is asserted in tests/integration):

* a batch ``pod_info`` wait for 20 pods ends within 1.5 s of the last pod answering on ssh;
* a ``pod`` wait ends within 2 s of its first 401 read.
"""

from __future__ import annotations

import time

from helpers.playbooks import Background, info_task, play, pod_task
from helpers.simulated import staggered_pods

GPU = "NVIDIA GeForce RTX 4090"
LIST_ROUTE = "/v2/pods"


def test_batch_wait_for_20_pods_ends_right_after_the_last(sim, run_playbook, tmp_path, figures):
    ids, ready_at = staggered_pods(sim, 20)
    sim.admin.clear_requests()
    task = info_task("wait for all", ids="[" + ", ".join(ids) + "]", wait="true", wait_interval="1s",
                     wait_timeout="2m")
    result = run_playbook(tmp_path, play(task))
    assert result.rc == 0, result.stdout + result.stderr
    wait = result.task_result("wait for all")["wait"]
    lists = [e for e in sim.admin.requests() if e["method"] == "GET" and e["path"].endswith("/pods")]
    done = lists[0]["started_at"] + wait["history"][-1]["elapsed"]
    late = done - max(ready_at)
    figures("batch wait, 20 pods, v2", seconds_after_last_pod=round(late, 2), polls=wait["polls"],
            probes=wait["probes"], elapsed=wait["elapsed"])
    # Within about a second of the last pod (one interval at most, plus probe rounding).
    assert late < 1.5, (late, wait)


def test_a_401_ends_a_pod_wait_within_two_seconds(sim, tmp_path, figures):
    sim.admin.configure(name_overrides={"web": {"ssh_behaviour": "refused"}})
    args = {"name": "web", "image": "runpod/base:1.0", "gpu_type_ids": [GPU], "wait": True,
            "wait_interval": "100ms", "wait_timeout": "30s"}
    route = LIST_ROUTE
    bg = Background(sim, tmp_path, play(pod_task("create", args)))
    deadline = time.monotonic() + 60
    while sum(1 for e in sim.admin.requests() if e["method"] == "GET" and e["path"] == route) < 3:
        assert bg.process.poll() is None and time.monotonic() < deadline, bg.stderr_path.read_text()
        time.sleep(0.05)  # polling for an event (the wait's reads), not letting simulated time pass
    sim.admin.inject_fault(route, "status", method="GET", status=401, duration=60)
    started = time.monotonic()
    result = bg.result()
    took = time.monotonic() - started
    assert result.task_result("create")["code"] == "unauthorized"
    figures("pod wait ended by a 401, v2", seconds_from_fault_to_exit=round(took, 2))
    assert took < 2.0, took
