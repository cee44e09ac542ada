# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``module_defaults: group/runpod.cloud.all`` sets the connection options once for every module on disk.

The play below is generated from ``plugins/modules``: info modules run as they are, the others in check
mode with ``state: absent`` on a name that does not exist (harmless), endpoint_job in check mode cancelling a job
that already completed (a read). No ``RUNPOD_*`` variable is set, so
the connection options can only come from the group defaults.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import ansible_runner
import httpx
import yaml
from conftest import REPO_ROOT, VENV_BIN, assert_no_deprecation
from helpers.paths import COLLECTIONS_ROOT
from helpers.playbooks import harness_env
from helpers.simulated import queue_endpoint

# Modules with no ``name``: options that make ``state: absent`` a harmless no-op.
ABSENT_ARGS = {"ssh_key": {"key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEcosystemDefaultsMissingKey x"}}
# Modules without ``state: absent``: their whole harmless task (the placeholders are filled in by the test).
TASK_ARGS = {"endpoint_job": {"endpoint_id": "{endpoint_id}", "id": "{job_id}", "state": "cancelled"}}


def _task(module: str, **values: str) -> dict:
    fqcn = f"runpod.cloud.{module}"
    if module in TASK_ARGS:  # a job already over: cancelling it (in check mode) is a no-op read
        args = {key: value.format(**values) for key, value in TASK_ARGS[module].items()}
        return {"name": f"defaults {module}", fqcn: args, "check_mode": True}
    if module.endswith("_info"):
        return {"name": f"defaults {module}", fqcn: {}, "register": f"ecosystem_{module}"}
    args = ABSENT_ARGS.get(module, {"name": f"ecosystem-defaults-missing-{module}"})
    return {"name": f"defaults {module}", fqcn: {**args, "state": "absent"}, "check_mode": True}


def _finished_job(sim) -> dict[str, str]:
    """An endpoint and a job on it that has completed (for endpoint_job's harmless task)."""
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    endpoint_id = queue_endpoint(sim, "defaults-jobs")
    done = httpx.post(f"{sim.urls['serverless']}/{endpoint_id}/runsync", json={"input": {}}, headers=headers,
                      timeout=60).json()
    assert done["status"] == "COMPLETED", done
    return {"endpoint_id": endpoint_id, "job_id": done["id"]}


def _run(tmp_path: Path, plays: list[dict]) -> ansible_runner.Runner:
    private = tmp_path / "private"
    (private / "project").mkdir(parents=True)
    (private / "project" / "play.yml").write_text(yaml.safe_dump(plays, sort_keys=False))
    (private / "inventory").mkdir()
    (private / "inventory" / "hosts").write_text(
        f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    )
    runner = ansible_runner.run(
        private_data_dir=str(private),
        playbook="play.yml",
        envvars={
            "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
            "ANSIBLE_PYTHON_INTERPRETER": "auto_silent",
            "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
            **harness_env(),
        },
        suppress_env_files=True,
        quiet=True,
        timeout=300,
    )
    assert_no_deprecation(runner)
    return runner


def _results(runner: ansible_runner.Runner) -> dict[str, tuple[str, dict]]:
    out = {}
    for event in runner.events:
        if event["event"] in ("runner_on_ok", "runner_on_failed"):
            data = event["event_data"]
            out[data["task"]] = (event["event"], data["res"])
    return out


def test_action_group_lists_every_module_on_disk(modules_on_disk: list[str]) -> None:
    runtime = yaml.safe_load((REPO_ROOT / "meta" / "runtime.yml").read_text())
    assert sorted(runtime["action_groups"]["all"]) == modules_on_disk


def test_group_defaults_reach_every_module(sim, modules_on_disk: list[str], tmp_path: Path, monkeypatch) -> None:
    for name in list(os.environ):
        if name.startswith("RUNPOD_"):
            monkeypatch.delenv(name)
    seeded = sim.admin.seed(2, name_prefix="defaults")
    finished = _finished_job(sim)
    sim.admin.clear_requests()
    defaults = {
        "api_key": sim.api_key,
        "api_url": sim.urls["api_v2"],
        "serverless_url": sim.urls["serverless"],
        "request_timeout": 10,
    }
    plays = [
        {
            "name": "Connection options set once",
            "hosts": "localhost",
            "gather_facts": False,
            "module_defaults": {"group/runpod.cloud.all": defaults},
            "tasks": [_task(m, **finished) for m in modules_on_disk],
        },
        {
            "name": "Control: the same module without the defaults",
            "hosts": "localhost",
            "gather_facts": False,
            "tasks": [{"name": "no defaults", "runpod.cloud.pod_info": {}, "ignore_errors": True}],
        },
    ]
    runner = _run(tmp_path, plays)
    results = _results(runner)
    for module in modules_on_disk:
        event, res = results.get(f"defaults {module}", (None, {}))
        assert event == "runner_on_ok", f"{module}: {res.get('msg', res)}"
        assert res.get("changed") is False, f"{module}: {res}"
    if "pod_info" in modules_on_disk:
        pods = results["defaults pod_info"][1]["pods"]
        assert {p["id"] for p in pods} >= set(seeded)
    # Without module_defaults (and without RUNPOD_*), the key is missing: the defaults were what worked.
    event, res = results["no defaults"]
    assert event == "runner_on_failed" and "api_key" in res["msg"], res
    # Harmless: check mode and info modules only read.
    methods = {entry["method"] for entry in sim.admin.requests()}
    assert methods <= {"GET"}, methods
    assert sim.admin.count("GET") >= len(modules_on_disk)


def test_task_options_override_group_defaults(sim, tmp_path: Path, monkeypatch) -> None:
    """A task-level option wins over the group default: a wrong default key, the right key on the task."""
    for name in list(os.environ):
        if name.startswith("RUNPOD_"):
            monkeypatch.delenv(name)
    plays = [
        {
            "name": "Task overrides group",
            "hosts": "localhost",
            "gather_facts": False,
            "module_defaults": {
                "group/runpod.cloud.all": {"api_key": "wrong-key", "api_url": sim.urls["api_v2"]},
            },
            "tasks": [
                {"name": "overridden", "runpod.cloud.pod_info": {"api_key": sim.api_key}},
                {"name": "default key", "runpod.cloud.pod_info": {}, "ignore_errors": True},
            ],
        }
    ]
    results = _results(_run(tmp_path, plays))
    assert results["overridden"][0] == "runner_on_ok", results["overridden"][1]
    event, res = results["default key"]
    assert event == "runner_on_failed" and res.get("code") == "unauthorized", res
    assert "wrong-key" not in str(res)
