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
  ``time_scale=0.02`` (a default 5 s + 10 s boot takes 0.3 s). Attributes: ``urls`` (``api_v2``,
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

# The longest tests first (wall time at 4 workers on 2 cores, measured with --durations; the order matters, the
# figures do not): `make integration` hands tests out one at a time (--dist load --maxschedchunk 1), so the longest
# start first and the short ones fill the gaps; in file order the longest wait-progress files came last and one
# worker ran them alone for minutes at the end of a run. Tests not listed keep their order after these.
LONGEST_FIRST = (
    "test_role_hosts.py::test_rerun_changes_nothing_then_absent_deletes_the_pods_and_the_generated_keys",
    "test_demo.py::test_make_demo_runs_against_its_own_simulator_hands_off_over_ssh_and_leaves_nothing_behind",
    "test_cluster.py::test_example_playbook_checks_the_network_over_ssh_reruns_clean_and_deletes",
    "test_account.py::test_volume_registry_ssh_key_and_billing_in_one_run",
    "test_wait_progress_controller.py::test_check_diff_no_log_async_and_delegation_on_both_paths",
    "test_wait_progress_batch.py::test_batch_waits_show_each_pod_and_the_running_count_with_the_same_results",
    "test_wait_progress.py::test_progress_lines_and_the_same_results_on_both_paths",
    "test_make_live.py::test_make_live_runs_the_targets_and_sweeps_only_its_own_prefix",
    "test_wait_progress_services.py::test_endpoint_progress_lines_and_the_same_results_on_both_paths",
    "test_placement.py::test_every_row_of_the_create_table",
    "test_role_hosts.py::test_the_api_key_can_come_from_module_defaults_only",
    "test_price_placement.py::test_cheapest_in_stock_a_400_moves_on_and_the_cap_on_both_forms",
    "test_endpoint.py::test_ship_a_new_image_waits_for_the_new_release_then_the_rollout",
    "test_wait_progress_services.py::test_cluster_progress_lines_and_the_same_results_on_both_paths",
    "test_serverless_deploy.py::test_a_failing_smoke_test_fails_the_deploy_with_the_job_and_the_workers_error",
    "test_endpoint.py::test_lifecycle_create_wait_rerun_update_info_delete",
    "test_logs.py::test_a_stream_that_never_closes_does_not_hold_the_task",
    "test_pod_wait.py::test_accept_close_and_non_ssh_time_out_then_rerun_resumes",
    "test_wait_progress_batch.py::test_interrupted_fleet_and_pod_info_waits_give_the_same_result_on_both_paths",
    "test_hostile_input.py::test_bad_input_and_connection_options_are_refused_or_warned_before_any_request",
    "test_endpoint_job_sdks.py::test_both_sdks_get_the_output_the_module_gets",
    "test_wait_progress_services.py::test_interrupted_endpoint_and_cluster_waits_give_the_same_result_on_both_paths",
    "test_pod_lifecycle.py::test_missing_or_duplicate_pods_create_and_delete_nothing_and_cpu_community_warnings",
    "test_eda.py::test_heal_stopped_pods_starts_a_pod_stopped_out_of_band",
    "test_endpoint_job.py::test_bad_input_fails_before_any_call",
    "test_quota.py::test_a_100_pod_fleet_paces_itself_within_a_minute_of_the_quotas_floor",
    "test_pod_wait.py::test_interrupts_outside_the_wait_still_name_the_pod_and_ctrl_c_keeps_it",
    "test_template.py::test_template_lifecycle_in_use_and_duplicate_names",
    "test_pod_lifecycle.py::test_an_update_is_one_patch_that_keeps_the_ssh_key_and_check_mode_sends_none",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}

    def position(entry: tuple[int, pytest.Item]) -> tuple[int, int]:
        index, item = entry
        name = f"{item.path.name}::{getattr(item, 'originalname', None) or item.name}"
        return rank.get(name, len(rank)), index

    items[:] = [item for _index, item in sorted(enumerate(items), key=position)]


INTEGRATION_TIME_SCALE = float(os.environ.get("RUNPOD_SIM_TIME_SCALE", "0.02"))


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
