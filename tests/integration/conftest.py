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

* ``sim`` (session, so one per pytest-xdist worker: ``make integration`` runs several workers, each with
  its own simulator on its own free port): a :class:`runpod_sim.testing.SimProcess` started with
  ``time_scale=0.02`` (a default 5 s + 10 s boot takes 0.3 s) and ``page_size=2`` (every paged list of more
  than two entries spans pages; ``RUNPOD_SIM_PAGE_SIZE`` overrides). Attributes: ``urls`` (``api_v2``,
  ``serverless``, ``admin``, ``base``), ``api_key``, ``admin`` (:class:`runpod_sim.testing.SimAdmin`),
  ``env()`` (the ``RUNPOD_*`` variables for ansible).
* ``sim_reset`` (autouse): resets the simulator before every test here (resources, faults, request log, config),
  so each test starts clean. Request it explicitly to get the same ``sim`` object.
* ``run_playbook``: ``run_playbook(tmp_path, playbook_yaml_text, *, env=None, extra_args=(), check=False,
  timeout=300) -> PlaybookResult`` runs the real ``ansible-playbook`` with the simulator's ``RUNPOD_*`` env.

Playbook text builders (``play``, ``pod_task``, ``info_task``) and ``Background`` (a run to act on while it
waits) are in tests/helpers/playbooks.py. A test never assumes it is alone on the machine: names only need
to be unique within its own simulator, files go under ``tmp_path``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import playbooks
from helpers.playbooks import PlaybookResult
from helpers.simulated import fresh_account

from runpod_sim.testing import SimProcess, start_simulator


def pytest_configure(config: pytest.Config) -> None:
    # make compat runs ``-m core`` on the oldest and the next ansible-core: the tests whose subject is something
    # ansible-core does for the collection (the action plugins' controller path: interrupts, check and diff mode,
    # async, delegation, display; no_log and verbose output; argument spec validation; the inventory plugin's API;
    # roles and module_defaults groups; the ssh connection's host key checking in a hand-off). The rest (what the
    # modules decide, the simulator, the SDKs, the engine's pacing, the docs' text) proves nothing more on another
    # core, and the targets run on each core as well (docs/dev/developing.md, "Time budget").
    config.addinivalue_line("markers", "core: the subject is ansible-core's part; make compat runs these on each core")


INTEGRATION_TIME_SCALE = float(os.environ.get("RUNPOD_SIM_TIME_SCALE", "0.02"))
# Small pages by default, so every list read of every test crosses pages (RunPod's default is 1000 a page: a
# collection that stopped at the first page would pass every test with it). RUNPOD_SIM_PAGE_SIZE=1000 runs RunPod's.
INTEGRATION_PAGE_SIZE = int(os.environ.get("RUNPOD_SIM_PAGE_SIZE", "2"))


@pytest.fixture(scope="session")
def sim() -> Iterator[SimProcess]:
    """One simulator subprocess for the whole session (see the module docstring)."""
    process = start_simulator(time_scale=INTEGRATION_TIME_SCALE, page_size=INTEGRATION_PAGE_SIZE)
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(autouse=True)
def sim_reset(sim: SimProcess) -> Iterator[SimProcess]:
    """Reset the simulator before each test so no pod, fault, config change or logged request leaks in.

    After the test, every /v2 response it caused must match RunPod's OpenAPI document (an undeclared
    property counts as a mismatch; see tests/simulator/runpod_sim/contract.py): a route added later is covered
    without any change here.
    """
    fresh_account(sim)
    sim.admin.clear_requests()  # tests count their own requests only
    yield sim
    sim.admin.assert_contract()


@pytest.fixture
def run_playbook(sim: SimProcess) -> Callable[..., PlaybookResult]:
    """``run_playbook(tmp_path, playbook_yaml_text, *, env=None, extra_args=(), check=False, timeout=300)``.

    Runs ``<venv>/bin/ansible-playbook`` against an inventory with ``localhost`` (local connection, the venv's
    Python) plus the simulator's ``RUNPOD_*`` env. ``env`` entries override (``None`` removes a variable).
    Output uses the ``sim_json`` stdout callback, so ``result.task_results("task name")`` gives each host's
    result dict. Host key checking is off, so plays can ``add_host`` a simulated pod and connect to it over
    real SSH (add ``ansible_ssh_private_key_file``).
    """

    def runner(tmp_path: Path, playbook_yaml_text: str, **kwargs: Any) -> PlaybookResult:
        return playbooks.run_playbook(sim, tmp_path, playbook_yaml_text, **kwargs)

    return runner
