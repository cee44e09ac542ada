# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A fleet at the quota's floor (issue 45, docs/pods.md "Fleets and RunPod's quotas"): the creates spend every
window whole, so the fleet needs no window more than its requests do, with at most a handful of 429s and every
pod created once.

A scaled-down policy keeps it to seconds: 30 requests a minute at time scale 1/15 (a 4 s window; the simulator's
``t`` is then a decimal, where RunPod's whole seconds would add up to a second a window), a 40-pod fleet with the
default 10 workers: 43 requests, two windows. Before, each answer's ``r`` less the requests then in flight was kept
as a floor for the rest of the window, so the ones RunPod had already counted went twice: 10 workers left 9 of each
window unused and the fleet needed a third window.
"""

from __future__ import annotations

import math

from helpers.playbooks import play, pod_task

# (the quota keeper's pacing (module_utils), the same code on every core).

GPU = "NVIDIA GeForce RTX 4090"
QUOTA, SCALE = 30, 1 / 15
POLICY = f'"minute";q={QUOTA};w=60'
WINDOW = 60 * SCALE  # real seconds


def test_a_fleet_spends_each_window_whole_and_ends_near_the_floor(sim, run_playbook, tmp_path):
    # A create answers in 0.3 s (4.5 simulated), so requests are in flight when answers come back, and each answer's r
    # is counted as it leaves (the RunPod-like plane): it counts the requests still in flight too.
    sim.admin.configure(rate_limit=POLICY, time_scale=SCALE, page_size=1000, create_latency=4.5,
                        rate_limit_counted_at="answer")
    args = {"name": "floor", "count": 40, "image": "runpod/base:1.0", "gpu_type_ids": [GPU]}
    result = run_playbook(tmp_path, play(pod_task("create", args)))
    assert result.rc == 0, result.stdout + result.stderr
    created = result.task_result("create")
    assert len(created["ids"]) == 40 == len(set(created["ids"]))

    # Every pod created once: 40 creates answered 201, one pod per name.
    assert sim.admin.count("POST", r"^/v2/pods$", status=201) == 40
    assert sorted(p["name"] for p in sim.admin.pods()) == sorted(f"floor-{index}" for index in range(1, 41))

    log = [entry for entry in sim.admin.requests() if entry["surface"] == "v2"]
    rejected = [entry for entry in log if entry["status"] == 429]
    assert len(rejected) <= 3, f"at most a handful of 429s, got {len(rejected)}"
    # The floor: the windows a fixed-window quota needs for these requests (the 429s were requests too), the last
    # one sent at the start of the last window. Within half a window of it: no window's requests are left unused
    # (before, the name check after the creates waited for a third window: over 8 s).
    sent = len(log)
    floor = (math.ceil(sent / QUOTA) - 1) * WINDOW
    start = min(entry["started_at"] for entry in log)
    took = max(entry["started_at"] for entry in log) - start  # the task's last request: the name check after
    assert took <= floor + WINDOW / 2, f"the last request after {took:.2f} s; {sent} requests, floor {floor:.1f} s"
    # Each pause was said once, naming the window.
    lines = [w for w in created.get("warnings", []) if isinstance(w, str) and w.startswith("quota:")]
    assert lines and all("left this minute, resuming in" in line for line in lines), created.get("warnings")
    assert len(lines) <= math.ceil(sent / QUOTA)
