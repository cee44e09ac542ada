# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Live wait progress (the action plugin waits on the controller) and the same results as the module's own wait.

One playbook (success, timeout, fatal) runs twice against a reset simulator: through the action plugin on
the controller, and with RUNPOD_CLOUD_CONTROLLER_WAIT=false (the module waits by itself). The interrupt
case is test_pod_wait.py's SIGTERM test, run on both paths (SIGINT: test_wait_progress_controller.py).
"""

from __future__ import annotations

import re

import pytest
from helpers.playbooks import Background, play, pod_task
from helpers.same_results import normalise
from helpers.simulated import FOREVER, fresh_account
from test_pod_wait import start_sshd_once_polled
from test_pod_wait import wait_args as _args

pytestmark = pytest.mark.core

PLAYBOOK = play(
    pod_task("ok", _args("booting")),
    pod_task("timeout", _args("deaf", wait_timeout="2s"), ignore_errors=True),
    pod_task("halt", {**_args("halted"), "wait": False}),
    pod_task("halted", {**_args("halted"), "state": "stopped", "wait": False}),
    pod_task("fatal", {"name": "halted", "wait": True, "wait_for": "running", "wait_timeout": "10s",
                       "wait_interval": "100ms"}, ignore_errors=True),
)
TASKS = ("ok", "timeout", "fatal")


def _playbook(sim):
    # The api key comes from module_defaults through the collection's action group (meta/runtime.yml), not the
    # environment: the action plugin sees the task's args with the defaults applied, so it still waits here.
    defaults = f"  module_defaults:\n    group/runpod.cloud.all:\n      api_key: {sim.api_key}\n"
    return PLAYBOOK.replace("  tasks:\n", defaults + "  tasks:\n", 1)


def _configure(sim, booting_ssh_delay=100):
    # sshd answers 2 s after RUNNING on "booting" (a slow boot with transitions); never on "deaf". The controller
    # path holds it back until its wait has read the pod twice (start_sshd_once_polled): at least two states
    # whatever the machine's speed.
    sim.admin.configure(name_overrides={"booting": {"ssh_delay": booting_ssh_delay},
                                        "deaf": {"ssh_behaviour": "refused"}})


def _results(result):
    tasks = {name: result.task_result(name) for name in TASKS}
    ids = {tasks[name]["pod"]["id"]: f"<{name}>" for name in TASKS}
    return {name: normalise(task, ids) for name, task in tasks.items()}


def test_progress_lines_and_the_same_results_on_both_paths(sim, run_playbook, tmp_path):
    _configure(sim, booting_ssh_delay=FOREVER)
    for part in ("controller", "module"):
        (tmp_path / part).mkdir()
    bg = Background(sim, tmp_path / "controller", _playbook(sim), env={"RUNPOD_API_KEY": None})
    start_sshd_once_polled(sim, bg, "booting")
    live = bg.result(timeout=300)
    assert live.rc == 0, live.stdout + live.stderr
    ok = live.task_result("ok")
    pod_id = ok["pod"]["id"]
    # One line per state change naming the pod and its id, as the wait runs, then the ready line.
    assert f"waiting for ssh on pod {pod_id} (timeout 30s; Ctrl-C keeps the pod, a rerun resumes)" in live.stdout
    changes = re.findall(rf"^pod booting \({pod_id}\): (.*)$", live.stdout, re.M)
    assert changes == [entry["state"] for entry in ok["wait"]["history"]], live.stdout
    assert len(changes) >= 2
    assert re.search(rf"^ssh on pod {pod_id} ready after .*: ssh reachable at 127\.0\.0\.1:\d+$", live.stdout, re.M)
    deaf = live.task_result("timeout")["pod"]["id"]
    assert re.search(rf"^pod deaf \({deaf}\): .*refused", live.stdout, re.M), live.stdout

    fresh_account(sim)
    _configure(sim)
    plain = run_playbook(tmp_path / "module", _playbook(sim),
                         env={"RUNPOD_API_KEY": None, "RUNPOD_CLOUD_CONTROLLER_WAIT": "false"})
    assert plain.rc == 0, plain.stdout + plain.stderr
    assert "pod booting (" not in plain.stdout  # the module waited by itself: no live lines

    live_results, plain_results = _results(live), _results(plain)
    assert live_results["timeout"]["code"] == "wait_timeout"
    assert live_results["fatal"]["failed"] is True
    for name in TASKS:
        assert live_results[name] == plain_results[name], name
    # The whole wait block has the same keys and ends on the same state on both paths.
    for name in TASKS:
        live_wait, plain_wait = live.task_result(name)["wait"], plain.task_result(name)["wait"]
        assert set(live_wait) == set(plain_wait)
        assert _results(live)[name]["wait"]["last_state"] == _results(plain)[name]["wait"]["last_state"]
