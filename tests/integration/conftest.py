# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures for integration tests: one simulator per session, reset before each test, and ``run_playbook``.

Usage in a test module under ``tests/integration/``::

    def test_create_pod(sim, run_playbook, tmp_path):
        result = run_playbook(tmp_path, '''
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: create
              runpod.cloud.pod: {name: web, image: ubuntu, gpu_type_ids: ["NVIDIA GeForce RTX 4090"]}
        ''')
        assert result.rc == 0, result.stderr
        assert result.task_results("create")[0]["changed"] is True
        assert sim.admin.count("POST", r"^/v2/pods$") == 1

Fixtures:

* ``sim`` (session): a :class:`runpod_sim.testing.SimProcess` started with ``time_scale=0.02`` (a default
  5 s + 10 s boot takes 0.3 s). Attributes: ``urls`` (``api_v2``, ``api_v1``, ``graphql``, ``serverless``,
  ``admin``, ``base``), ``api_key``, ``admin`` (:class:`runpod_sim.testing.SimAdmin`), ``env(api_version='v2')``
  (the ``RUNPOD_*`` variables for ansible).
* ``sim_reset`` (autouse): resets the simulator before every test here (resources, faults, request log, config),
  so each test starts clean. Request it explicitly to get the same ``sim`` object.
* ``run_playbook``: ``run_playbook(tmp_path, playbook_yaml_text, *, env=None, extra_args=(), check=False,
  timeout=300) -> PlaybookResult`` runs the real ``ansible-playbook`` with the simulator's ``RUNPOD_*`` env.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest


def _root_conftest() -> Any:
    # tests/conftest.py builds the collection tree and puts tests/simulator on sys.path. pytest imports every
    # conftest under the same module name, so load it by path for its constants (it is idempotent).
    path = Path(__file__).resolve().parent.parent / "conftest.py"
    spec = importlib.util.spec_from_file_location("runpod_cloud_tests_root_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_ROOT = _root_conftest()
COLLECTIONS_ROOT: Path = _ROOT.COLLECTIONS_ROOT
REPO_ROOT: Path = _ROOT.REPO_ROOT

from runpod_sim.testing import SimProcess, start_simulator  # noqa: E402 - needs the sys.path set up above

VENV_BIN = Path(sys.executable).parent
ANSIBLE_PLAYBOOK = VENV_BIN / "ansible-playbook"
CALLBACK_DIR = REPO_ROOT / "tests" / "simulator" / "ansible_plugins" / "callback"
INTEGRATION_TIME_SCALE = float(os.environ.get("RUNPOD_SIM_TIME_SCALE", "0.02"))
# The test account has one SSH key registered (PUT /v2/account/ssh-keys), as a RunPod user who set up SSH does:
# v2 pods created with startSsh (and seeded pods) get it as PUBLIC_KEY, so their sshd starts. Nobody holds its
# private half: tests that log in pass their own key; tests about a keyless account clear the registration.
ACCOUNT_SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com"


def register_account_keys(sim: SimProcess, keys: list[str]) -> None:
    """Replace the account's registered SSH keys through the API (``[]`` leaves the account without any)."""
    response = httpx.put(
        f"{sim.urls['api_v2']}/account/ssh-keys",
        json={"keys": keys},
        headers={"Authorization": f"Bearer {sim.api_key}"},
        timeout=10,
    )
    response.raise_for_status()


@pytest.fixture(scope="session")
def sim() -> Iterator[SimProcess]:
    """One simulator subprocess for the whole session (see the module docstring)."""
    process = start_simulator(time_scale=INTEGRATION_TIME_SCALE)
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(autouse=True)
def sim_reset(sim: SimProcess) -> Iterator[SimProcess]:
    """Reset the simulator before each test so no pod, fault, config change or logged request leaks in.

    After the test, every /v2 and /v1 response it caused must match RunPod's OpenAPI documents (an undeclared
    property counts as a mismatch; see tests/simulator/runpod_sim/contract.py): a route added later is covered
    without any change here.
    """
    sim.admin.reset()
    register_account_keys(sim, [ACCOUNT_SSH_KEY])
    sim.admin.clear_requests()  # tests count their own requests only
    yield sim
    sim.admin.assert_contract()


@dataclass
class PlaybookResult:
    """What ``ansible-playbook`` did: ``rc``, ``stdout``, ``stderr`` and the parsed JSON report."""

    rc: int
    stdout: str
    stderr: str
    report: dict[str, Any] | None = None
    command: list[str] = field(default_factory=list)

    def tasks(self) -> list[dict[str, Any]]:
        """Every task entry of every play: ``{"task": {"name", "action", "id"}, "hosts": {host: result}}``."""
        if not self.report:
            return []
        return [task for play in self.report.get("plays", []) for task in play.get("tasks", [])]

    def task_results(self, name: str) -> list[dict[str, Any]]:
        """The result dicts of every run of the task called ``name`` (one per host; ``_host`` added)."""
        results = []
        for task in self.tasks():
            if task["task"]["name"] == name:
                for host, result in task["hosts"].items():
                    results.append({**result, "_host": host})
        if not results and self.report is None:
            raise AssertionError(f"no JSON report (rc={self.rc}); stderr:\n{self.stderr}\nstdout:\n{self.stdout}")
        return results

    def task_result(self, name: str, host: str | None = None) -> dict[str, Any]:
        """The single result of task ``name`` (on ``host`` if given); fails the test if there is not exactly one."""
        results = [r for r in self.task_results(name) if host is None or r["_host"] == host]
        if len(results) != 1:
            raise AssertionError(f"expected one result for task {name!r}, got {len(results)}")
        return results[0]

    @property
    def stats(self) -> dict[str, Any]:
        return (self.report or {}).get("stats", {})


def _run_playbook(
    sim: SimProcess,
    tmp_path: Path,
    playbook_yaml_text: str,
    *,
    env: dict[str, str | None] | None = None,
    extra_args: tuple[str, ...] | list[str] = (),
    check: bool = False,
    timeout: float = 300,
    api_version: str = "v2",
) -> PlaybookResult:
    tmp_path = Path(tmp_path)
    playbook = tmp_path / "playbook.yml"
    playbook.write_text(playbook_yaml_text)
    inventory = tmp_path / "inventory.ini"
    if not inventory.exists():
        inventory.write_text(f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n")
    # ControlPath must stay short (unix socket limit), so it cannot live under pytest's tmp_path.
    control_dir = tempfile.mkdtemp(prefix="rpcp_")
    run_env = dict(os.environ)
    run_env.update(sim.env(api_version))
    run_env.update(
        {
            "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
            "ANSIBLE_STDOUT_CALLBACK": "sim_json",
            "ANSIBLE_CALLBACK_PLUGINS": str(CALLBACK_DIR),
            "ANSIBLE_HOST_KEY_CHECKING": "False",
            "ANSIBLE_RETRY_FILES_ENABLED": "False",
            "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_FORCE_COLOR": "0",
            "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible-local"),
            "ANSIBLE_SSH_CONTROL_PATH_DIR": control_dir,
            "ANSIBLE_SSH_ARGS": "-o ControlMaster=auto -o ControlPersist=30s -o UserKnownHostsFile=/dev/null",
            "ANSIBLE_PYTHON_INTERPRETER": "auto_silent",
            "ANSIBLE_DEPRECATION_WARNINGS": "False",
            "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        }
    )
    for key, value in (env or {}).items():
        if value is None:
            run_env.pop(key, None)
        else:
            run_env[key] = value
    command = [str(ANSIBLE_PLAYBOOK), "-i", str(inventory), str(playbook), *extra_args]
    if check:
        command.append("--check")
    completed = subprocess.run(
        command, cwd=tmp_path, env=run_env, capture_output=True, text=True, timeout=timeout, check=False
    )
    report = None
    start = completed.stdout.find("{")
    if start != -1:
        try:
            report = json.loads(completed.stdout[start:])
        except ValueError:
            report = None
    return PlaybookResult(completed.returncode, completed.stdout, completed.stderr, report, command)


@pytest.fixture
def run_playbook(sim: SimProcess) -> Callable[..., PlaybookResult]:
    """``run_playbook(tmp_path, playbook_yaml_text, *, env=None, extra_args=(), check=False, timeout=300)``.

    Runs ``<venv>/bin/ansible-playbook`` against an inventory with ``localhost`` (local connection, the venv's
    Python) plus the simulator's ``RUNPOD_*`` env (v2; pass ``api_version="v1"`` for the legacy set). ``env``
    entries override (``None`` removes a variable). Output uses the ``sim_json`` stdout callback, so
    ``result.task_results("task name")`` gives each host's result dict. Host key checking is off, so plays
    can ``add_host`` a simulated pod and connect to it over real SSH (add ``ansible_ssh_private_key_file``).
    """

    def runner(tmp_path: Path, playbook_yaml_text: str, **kwargs: Any) -> PlaybookResult:
        return _run_playbook(sim, tmp_path, playbook_yaml_text, **kwargs)

    return runner
