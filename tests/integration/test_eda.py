"""One real ``ansible-rulebook`` run of extensions/eda/rulebooks/heal_stopped_pods.yml against the simulator: a pod
named with the prefix that is stopped out of band is started again by the rulebook's playbook, a pod without the
prefix is left stopped, and the run ends by itself (the source's ``run_time``)."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from helpers.paths import COLLECTIONS_ROOT, VENV_BIN

# make compat skips this file: what it proves does not depend on ansible-core
# (the EDA source plugin, run by ansible-rulebook's contract, not ansible-core).
pytestmark = pytest.mark.core_neutral

ANSIBLE_RULEBOOK = VENV_BIN / "ansible-rulebook"
INTERVAL = 2.0


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def pod_reads(sim):
    return [request for request in sim.admin.requests() if request["method"] == "GET" and request["path"] == "/v2/pods"]


def test_heal_stopped_pods_starts_a_pod_stopped_out_of_band(sim, tmp_path):
    assert ANSIBLE_RULEBOOK.exists(), "ansible-rulebook is missing: make venv installs requirements-dev.txt"
    healed, kept = sim.admin.seed(1, name_prefix="heal", ports=["22/tcp"]) + sim.admin.seed(
        1, name_prefix="keep", ports=["22/tcp"])
    (tmp_path / "inventory.yml").write_text(
        "all:\n  hosts:\n    localhost:\n      ansible_connection: local\n"
        "      ansible_python_interpreter: \"{{ ansible_playbook_python }}\"\n"
    )
    (tmp_path / "vars.yml").write_text(
        f"heal_name_prefix: heal-\nrunpod_watch_interval: {INTERVAL:g}s\nrunpod_watch_run_time: 15s\n")
    env = {
        **os.environ,
        **sim.env(),
        "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible-local"),
        "ANSIBLE_NOCOLOR": "1",
    }
    command = [str(ANSIBLE_RULEBOOK), "-r", "runpod.cloud.heal_stopped_pods", "-i", str(tmp_path / "inventory.yml"),
               "--vars", str(tmp_path / "vars.yml"), "--shutdown-delay", "30"]
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    try:
        # Two reads: the rule engine is up and the source keeps its cadence.
        wait_for(lambda: len(pod_reads(sim)) >= 2 or process.poll() is not None, 60, "two pod reads")
        assert process.poll() is None, process.communicate()[0]
        sim.admin.stop_pod(healed)
        sim.admin.stop_pod(kept)
        stopped_at = time.time()
        output, _ignored = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, output
    elapsed = time.monotonic() - started

    # The next read saw the stop (within two intervals), and the playbook started the pod once.
    reads_after = [request["started_at"] for request in pod_reads(sim) if request["started_at"] > stopped_at]
    assert reads_after and reads_after[0] - stopped_at <= 2 * INTERVAL, (reads_after, stopped_at)
    starts = [request for request in sim.admin.requests() if request["method"] == "POST"]
    assert [request["path"] for request in starts] == [f"/v2/pods/{healed}/action"], starts
    assert starts[0]["started_at"] > stopped_at
    assert sim.admin.pod(healed)["status"] == "RUNNING"
    assert sim.admin.pod(kept)["status"] == "EXITED"  # not named with the prefix: left alone
    assert f"healed pod heal-00000 ({healed}): it went from running to stopped" in " ".join(output.split())
    assert sim.api_key not in output
    print(f"ansible-rulebook run: {elapsed:.1f}s wall")
