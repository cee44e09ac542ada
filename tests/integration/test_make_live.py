# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``make live`` (hack/integration_targets.py live, docs/dev/live-tests.md) pointed at the simulator, never at RunPod.

Its refusals come before anything is created; a run ends with a sweep that deletes what carries the run's prefix
and nothing else.
"""

from __future__ import annotations

import os
import subprocess

import httpx
import pytest
from helpers.paths import REPO_ROOT, VENV_BIN

pytestmark = pytest.mark.timeout(600)


def make_live(sim, tmp_path, env, target="ssh_key"):
    run_env = {key: value for key, value in os.environ.items() if not key.startswith("RUNPOD_")}
    run_env.update(env)
    run_env["PATH"] = f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    # -o venv: the suite already runs in the project's virtualenv (make live would otherwise check it first).
    command = ["make", "--no-print-directory", "-o", "venv", "live", f"BIN={VENV_BIN}", f"TARGET={target}"]
    return subprocess.run(command, cwd=REPO_ROOT, env=run_env, capture_output=True, text=True, timeout=540,
                          check=False)


def sim_env(sim, **extra):
    return {**sim.env(), **extra}


def api(sim):
    return httpx.Client(base_url=sim.urls["api_v2"], headers={"Authorization": f"Bearer {sim.api_key}"}, timeout=10)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"RUNPOD_LIVE_MAX_USD": "5"}, "RUNPOD_API_KEY is not set"),
        ({"RUNPOD_API_KEY": "x"}, "RUNPOD_LIVE_MAX_USD is not set"),
        ({"RUNPOD_API_KEY": "x", "RUNPOD_LIVE_MAX_USD": "nothing"}, "is not a positive number"),
    ],
)
def test_make_live_refuses_without_a_key_or_a_cap(sim, tmp_path, env, message):
    # No RUNPOD_API_URL either: a refusal must come before any request, so none can reach RunPod.
    completed = make_live(sim, tmp_path, env)
    assert completed.returncode != 0
    assert message in completed.stderr and "nothing was created" in completed.stderr, completed.stderr


def test_make_live_refuses_an_estimate_above_the_cap_before_creating_anything(sim, tmp_path):
    completed = make_live(sim, tmp_path, sim_env(sim, RUNPOD_LIVE_MAX_USD="0.01"), target="pod cluster")
    assert completed.returncode != 0
    assert "exceeds RUNPOD_LIVE_MAX_USD" in completed.stderr, completed.stdout + completed.stderr
    assert "estimated cost" in completed.stdout
    # The catalog read only: nothing created.
    assert [entry["method"] for entry in sim.admin.requests()] == ["GET"]


def test_make_live_runs_the_targets_and_sweeps_only_its_own_prefix(sim, tmp_path):
    for name in ("keeper", "rpct-sweeptest-leftover", "rpct-sweeptest0-lookalike"):
        sim.admin.seed(1, name_prefix=name)  # named <name>-00000
    with api(sim) as client:
        assert client.post("/templates", json={"name": "rpct-sweeptest-tpl", "image": "img"}).status_code == 201
    completed = make_live(sim, tmp_path, sim_env(sim, RUNPOD_LIVE_MAX_USD="5", RUNPOD_LIVE_PREFIX="rpct-sweeptest"))
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output[-6000:]
    assert "run prefix rpct-sweeptest" in output and "sweeping every resource named rpct-sweeptest" in output
    pods = sorted(pod["name"] for pod in sim.listed("/pods", "pods"))
    templates = [template["name"] for template in sim.listed("/templates", "templates")]
    # The prefixed leftovers went; the pod without the prefix and the one that only looks alike stayed.
    assert pods == ["keeper-00000", "rpct-sweeptest0-lookalike-00000"], output[-4000:]
    assert templates == []
    assert "rpct-sweeptest-leftover-00000" in output and "rpct-sweeptest-tpl" in output and "deleted" in output
