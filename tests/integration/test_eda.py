"""One real ``ansible-rulebook`` run of extensions/eda/rulebooks/heal_stopped_pods.yml against the simulator: a pod
named with the prefix that is stopped out of band is started again by the rulebook's playbook, a pod without the
prefix is left stopped, and the run ends by itself (the source's ``run_time``)."""

from __future__ import annotations

import time

from helpers.rulebook import finish, start_rulebook, wait_for

# (the EDA source plugin, run by ansible-rulebook's contract, not ansible-core).

INTERVAL = 2.0


def pod_reads(sim):
    return [request for request in sim.admin.requests() if request["method"] == "GET" and request["path"] == "/v2/pods"]


def test_heal_stopped_pods_starts_a_pod_stopped_out_of_band(sim, tmp_path):
    healed, kept = sim.admin.seed(1, name_prefix="heal", ports=["22/tcp"]) + sim.admin.seed(
        1, name_prefix="keep", ports=["22/tcp"])
    started = time.monotonic()
    variables = f"heal_name_prefix: heal-\nrunpod_watch_interval: {INTERVAL:g}s\nrunpod_watch_run_time: 15s\n"
    process = start_rulebook(sim, tmp_path, "heal_stopped_pods", variables)
    try:
        # Two reads: the rule engine is up and the source keeps its cadence.
        wait_for(lambda: len(pod_reads(sim)) >= 2 or process.poll() is not None, 60, "two pod reads")
        assert process.poll() is None, process.communicate()[0]
        sim.admin.stop_pod(healed)
        sim.admin.stop_pod(kept)
        stopped_at = time.time()
    finally:
        output = finish(process)
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
