# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""AWX / ansible-runner: the live lines of a pod wait arrive as ordinary display events while the task runs."""

from __future__ import annotations

import sys
from pathlib import Path

import ansible_runner
import yaml
from conftest import VENV_BIN, assert_no_deprecation
from helpers.paths import COLLECTIONS_ROOT

POD = {
    "name": "runner-progress",
    "image": "runpod/base:1.0",
    "gpu_type_ids": ["NVIDIA GeForce RTX 4090"],
    "wait": True,
    "wait_for": "running",
    "wait_interval": "100ms",
    "wait_timeout": "30s",
}


def test_runner_events_carry_the_wait_lines_before_the_task_ends(sim, tmp_path: Path) -> None:
    private = tmp_path / "private"
    (private / "project").mkdir(parents=True)
    play = [{"hosts": "localhost", "gather_facts": False, "tasks": [{"name": "boot", "runpod.cloud.pod": POD}]}]
    (private / "project" / "play.yml").write_text(yaml.safe_dump(play, sort_keys=False))
    (private / "inventory").mkdir()
    (private / "inventory" / "hosts").write_text(
        f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    )
    result = ansible_runner.run(
        private_data_dir=str(private),
        playbook="play.yml",
        envvars={
            **sim.env(),
            "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
            "ANSIBLE_PYTHON_INTERPRETER": "auto_silent",
            "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
        },
        suppress_env_files=True,
        quiet=True,
        timeout=300,
    )
    assert result.status == "successful", result.stdout.read()[-4000:]
    assert_no_deprecation(result)
    events = list(result.events)
    ok = next(e for e in events if e["event"] == "runner_on_ok")
    pod_id = ok["event_data"]["res"]["pod"]["id"]
    lines = [(index, e["stdout"]) for index, e in enumerate(events) if e["event"] == "verbose"]
    first = f"waiting for running on pod {pod_id} (timeout 30s; Ctrl-C keeps the pod, a rerun resumes)"
    waiting = [index for index, text in lines if text == first]
    changes = [index for index, text in lines if text.startswith(f"pod runner-progress ({pod_id}): ")]
    assert waiting and changes, [text for _index, text in lines]
    # Display events of the wait come between the task's start and its result, as AWX shows them live.
    start = next(i for i, e in enumerate(events) if e["event"] == "playbook_on_task_start")
    end = events.index(ok)
    assert start < waiting[0] < changes[0] < end
