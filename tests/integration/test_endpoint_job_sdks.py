# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Two clients nobody here wrote, against the simulator's runtime API: runpod-python (tests/sdk-python, its own
virtualenv, ``make sdk-python``) and the JavaScript runpod-sdk (tests/sdk-js, ``make sdk-js``). Both must get the
output runpod.cloud.endpoint_job gets, for a job that ends inside one /runsync and for one that outlasts it (the
SDKs then poll /status or /status-sync). The module's side is a call in the test's process (helpers.in_process: its
result is the module's own); the SDKs run as their own processes, as a user runs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.in_process import ModuleRuns
from helpers.simulated import queue_endpoint as make_endpoint

# (RunPod's SDKs against the simulator (the module's side is test_endpoint_job's)).
pytestmark = pytest.mark.timeout(240)

SDK_JS = Path(__file__).resolve().parents[1] / "sdk-js"
SDK_PYTHON = SDK_JS.parent / "sdk-python"
REPO = SDK_JS.parents[1]
INPUT = {"name": "Ada", "numbers": [1, 2, 3], "nested": {"flag": True, "ratio": 0.5}}


@pytest.fixture(scope="module")
def sdks() -> None:
    """The pinned SDKs, installed by the project's own Makefile targets when missing."""
    if not (SDK_JS / "node_modules" / "runpod-sdk").is_dir() or not (SDK_PYTHON / ".venv" / ".installed").is_file():
        subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "sdk-js", "sdk-python"], check=True,
                       timeout=600)
    assert shutil.which("node"), "Node.js is needed (make sysdeps installs it)"


def run_sdk(command: list[str], cwd: Path, sim, endpoint_id: str, mode: str) -> dict[str, Any]:
    """What ``run_sdk.mjs`` or ``run_sdk.py`` printed for ``mode`` (runSync, run) on ``endpoint_id``."""
    env = {**os.environ, "RUNPOD_API_KEY": sim.api_key}
    completed = subprocess.run(
        [*command, sim.urls["serverless"], endpoint_id, mode, json.dumps(INPUT)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    lines = [line for line in completed.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, completed.stdout
    return json.loads(lines[-1][len("RESULT "):])


def run_js(sim, endpoint_id: str, mode: str) -> dict[str, Any]:
    return run_sdk(["node", "run_sdk.mjs"], SDK_JS, sim, endpoint_id, mode)


def run_python(sim, endpoint_id: str, mode: str) -> dict[str, Any]:
    return run_sdk([str(SDK_PYTHON / ".venv" / "bin" / "python"), "run_sdk.py"], SDK_PYTHON, sim, endpoint_id, mode)


def module_output(sim, capsys, endpoint_id: str) -> Any:
    out = ModuleRuns(sim, capsys).run("smoke", "endpoint_job", {"endpoint_id": endpoint_id, "input": INPUT,
                                                                "wait_interval": "1s", "wait_timeout": "2m"})
    assert not out.get("failed"), out
    return out["job"]["output"]


@pytest.mark.parametrize(
    ("run_time", "polls"),
    [(1, False), (150, True)],  # 150 simulated s = 3 s here, beyond a 90 s (1.8 s) /runsync: the SDKs poll
    ids=["inside-runsync", "outlasts-runsync"],
)
def test_both_sdks_get_the_output_the_module_gets(sim, capsys, sdks, run_time, polls):
    endpoint_id = make_endpoint(sim)
    sim.admin.job_script(endpoint_id, run_time=run_time, output="format",
                         output_format="{name}: {numbers} {nested[flag]}")
    expected = "Ada: [1, 2, 3] True"
    assert module_output(sim, capsys, endpoint_id) == expected
    assert run_python(sim, endpoint_id, "runSync") == {"output": expected}
    assert run_python(sim, endpoint_id, "run") == {"output": expected, "status": "COMPLETED"}
    js_sync = run_js(sim, endpoint_id, "runSync")
    assert js_sync["status"] == "COMPLETED" and js_sync["succeeded"] is True and js_sync["output"] == expected
    js_async = run_js(sim, endpoint_id, "run")
    assert js_async["status"] == "COMPLETED" and js_async["output"] == expected
    paths = [entry["path"].split("/")[4] for entry in sim.admin.requests() if entry["path"].startswith("/invoke/")]
    assert ("status-sync" in paths) is polls  # runpod-sdk's runSync polls /status-sync, which the document omits
    # Every job the four clients submitted got the same input.
    assert [job["input"] for job in sim.admin.jobs(endpoint_id)] == [INPUT] * 5


def test_both_sdks_see_the_failure_the_module_reports(sim, capsys, sdks):
    endpoint_id = make_endpoint(sim)
    sim.admin.job_script(endpoint_id, run_time=1, outcome="FAILED", error="model weights missing")
    out = ModuleRuns(sim, capsys).run("smoke", "endpoint_job", {"endpoint_id": endpoint_id, "input": INPUT})
    assert out["code"] == "job_failed" and out["job"]["error"] == "model weights missing"
    js = run_js(sim, endpoint_id, "runSync")
    assert js["status"] == "FAILED" and js["succeeded"] is False and js["error"] == "model weights missing"
    assert run_python(sim, endpoint_id, "runSync") == {"output": None}  # the SDK drops the error
