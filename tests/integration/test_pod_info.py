# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod_info against the simulator: the status table, API costs, batch waits."""

from __future__ import annotations

import itertools
import math
import threading
import time

from helpers.playbooks import info_task, play
from helpers.simulated import FOREVER, list_reads, staggered_pods

V2_LIST = r"^/v2/pods$"


def hold_new_pods(sim):
    """New PROVISIONING pods stay there until a test sets their own delays (no race with the seed)."""
    sim.admin.configure(provisioning_delay=FOREVER)


def seed_one(sim, prefix, status="RUNNING", ports=("22/tcp",), **behaviour):
    (pod_id,) = sim.admin.seed(1, status=status, name_prefix=prefix, ports=list(ports))
    if behaviour:
        sim.admin.set_pod_behaviour(pod_id, **behaviour)
    return pod_id


def by_name(pods):
    return {pod["name"].rsplit("-", 1)[0]: pod for pod in pods}


# -- the status table ----------------------------------------------------------------------------------------

# lifecycle point -> (runtime_status, reason, ssh expected). REST v2 does not say why a pod stopped: every stopped or
# terminated pod has reason null, however it got there (the user, RunPod, an outbid).
STATUS_TABLE = {
    "provisioning": ("initializing", "provisioning", False),
    "starting": ("initializing", "starting_container", False),
    "running": ("running", None, True),
    "nossh": ("running", None, False),
    "byuser": ("stopped", None, False),
    "byrunpod": ("stopped", None, False),
    "outbid": ("stopped", None, False),
    "outbidterm": ("terminated", None, False),
    "terminated": ("terminated", None, False),
    "error": ("stopped", "container_error", False),
}


def make_status_table_pods(sim):
    hold_new_pods(sim)
    ids = {
        "provisioning": seed_one(sim, "provisioning", "PROVISIONING", provisioning_delay=FOREVER),
        "starting": seed_one(sim, "starting", "PROVISIONING", provisioning_delay=0, starting_delay=FOREVER),
        "running": seed_one(sim, "running"),
        "nossh": seed_one(sim, "nossh", ports=("8888/http",)),
        "byuser": seed_one(sim, "byuser", "EXITED"),
        "byrunpod": seed_one(sim, "byrunpod"),
        "outbid": seed_one(sim, "outbid"),
        "outbidterm": seed_one(sim, "outbidterm"),
        "terminated": seed_one(sim, "terminated"),
    }
    sim.admin.stop_pod(ids["byrunpod"])
    sim.admin.outbid_pod(ids["outbid"], "EXITED")
    sim.admin.outbid_pod(ids["outbidterm"], "TERMINATED")
    sim.admin.terminate_pod(ids["terminated"])
    ids["error"] = seed_one(sim, "error")
    sim.admin.error_pod(ids["error"])
    sim.admin.wait_pod(ids["running"], "RUNNING", listening=True)
    return ids


def test_status_table_across_lifecycle_points_and_bad_input(sim, run_playbook, tmp_path):
    """The status table; first in the same run, bad input that fails before any API call (so the run's only
    requests are the table's four)."""
    ids = make_status_table_pods(sim)
    sim.admin.clear_requests()
    id_list = "[" + ", ".join(ids.values()) + "]"
    result = run_playbook(
        tmp_path,
        play(
            info_task("bad timeout", ["ignore_errors: true"], wait="true", wait_timeout="later"),
            info_task("exclusive", ["ignore_errors: true"], id="abc", name="def"),
            info_task("by ids", ids=id_list),
            info_task("check mode wait returns at once", ["check_mode: true"], id=ids["provisioning"], wait="true",
                      wait_timeout="1h"),
        ),
    )
    assert result.rc == 0, result.stdout + result.stderr
    out = result.task_result("by ids")
    assert out["changed"] is False
    pods = by_name(out["pods"])
    assert set(pods) == set(ids), out["missing"]
    assert out["missing"] == []
    assert set(STATUS_TABLE) == set(ids)
    for point, (status, reason, has_ssh) in STATUS_TABLE.items():
        pod = pods[point]
        assert (pod["runtime_status"], pod["runtime_status_reason"]) == (status, reason), (point, pod)
        assert pod["id"] == ids[point]
        if has_ssh:
            assert pod["ssh"]["host"] == "127.0.0.1" and pod["ssh"]["user"] == "root"
            assert pod["ssh"]["command"] == f"ssh root@127.0.0.1 -p {pod['ssh']['port']}"
            assert pod["ssh_not_ready"] is None
            assert isinstance(pod["uptime_seconds"], int)
        else:
            assert pod["ssh"] is None
            assert pod["ssh_not_ready"].startswith("pod not ready"), (point, pod)
        if pod["runtime_status"] != "running":
            assert pod["uptime_seconds"] is None, point
        # REST v1's keys are gone from the result, not left null.
        assert "last_status_change" not in pod and "public_ip" not in pod, (point, pod)
    assert "does not publish 22/tcp" in pods["nossh"]["ssh_not_ready"]
    assert f"id={ids['byuser']} state=running" in pods["byuser"]["ssh_not_ready"]
    assert pods["terminated"]["ssh_not_ready"] == "pod not ready: pod is terminated"
    assert pods["provisioning"]["ssh_not_ready"] == (
        "pod not ready: no container reported yet (image pull, container create or boot)"
    )
    # Cost: one list read for the lot; ids the list does not show (terminated) are read once each.
    assert len(list_reads(sim)) == 2  # the two tasks: one list read (every page of it) each
    # v2 drops terminated pods from its list: the two terminated ids are read once each by id.
    assert sim.admin.count("GET", r"^/v2/pods/[^/]+$") == 2
    check = result.task_result("check mode wait returns at once")
    assert "wait" not in check
    assert check["pods"][0]["runtime_status"] == "initializing"

    bad = result.task_result("bad timeout")
    assert bad["failed"] is True and bad["code"] == "bad_request"
    assert 'invalid wait_timeout: invalid duration "later"' in bad["msg"]
    exclusive = result.task_result("exclusive")
    assert exclusive["failed"] is True and "mutually exclusive" in exclusive["msg"]
    # The reads above (the pages of two list reads, two reads by id) are every request of the run: the refused
    # tasks made none.
    requests = sim.admin.requests()
    assert {entry["method"] for entry in requests} == {"GET"}
    assert len([entry for entry in requests if entry["path"] != "/v2/pods"]) == 2


def test_runtime_status_filter_and_selection_by_name(sim, run_playbook, tmp_path):
    running = seed_one(sim, "alpha")
    seed_one(sim, "beta", "EXITED")
    twin_a, twin_b = sim.admin.seed(2, status="EXITED", name_prefix="twin")
    sim.admin.wait_pod(running, "RUNNING", listening=True)
    result = run_playbook(
        tmp_path,
        play(
            info_task("running only", runtime_status="[running]"),
            info_task("stopped only", runtime_status="[stopped, terminated]"),
            info_task("by names", names="[alpha-00000, nosuch]"),
            info_task("by name", name="twin-00001"),
        ),
    )
    assert result.rc == 0, result.stdout + result.stderr
    assert [pod["id"] for pod in result.task_result("running only")["pods"]] == [running]
    stopped = result.task_result("stopped only")["pods"]
    assert sorted(pod["name"] for pod in stopped) == ["beta-00000", "twin-00000", "twin-00001"]
    by_names = result.task_result("by names")
    assert [pod["id"] for pod in by_names["pods"]] == [running]
    assert by_names["missing"] == ["nosuch"]
    assert [pod["id"] for pod in result.task_result("by name")["pods"]] == [twin_b]
    assert twin_a != twin_b


# -- API costs -----------------------------------------------------------------------------------------------


def test_one_list_read_for_200_pods(sim, run_playbook, tmp_path):
    sim.admin.seed(200, name_prefix="bulk")
    sim.admin.clear_requests()
    result = run_playbook(tmp_path, play(info_task("all")))
    assert result.rc == 0, result.stdout + result.stderr
    pods = result.task_result("all")["pods"]
    assert len(pods) == 200
    assert {pod["runtime_status"] for pod in pods} == {"running"}
    requests = sim.admin.requests()
    assert len(list_reads(sim)) == 1
    # One read (a walk of every page: 200 pods at the simulator's page size) carries status and runtime: nothing
    # else.
    pages = math.ceil(200 / sim.admin.config()["page_size"])
    assert [(entry["method"], entry["path"]) for entry in requests] == [("GET", "/v2/pods")] * pages


# -- batch wait ----------------------------------------------------------------------------------------------


def test_batch_wait_for_20_pods_finishes_right_after_the_last(sim, run_playbook, tmp_path):
    ids, ready_at = staggered_pods(sim, 20)
    sim.admin.clear_requests()
    result = run_playbook(
        tmp_path,
        play(info_task("wait for all", ids="[" + ", ".join(ids) + "]", wait="true", wait_interval="1s",
                       wait_timeout="2m")),
    )
    assert result.rc == 0, result.stdout + result.stderr
    out = result.task_result("wait for all")
    # In the list's order: RunPod's v2 (autumn 2026 document) lists pods newest first.
    assert [pod["id"] for pod in out["pods"]] == ids[::-1]
    assert all(pod["ssh"] is not None and pod["runtime_status"] == "running" for pod in out["pods"])
    wait = out["wait"]
    # A list read is a walk of every page (20 pods span pages): ``lists`` holds the first page of each.
    pages = [entry for entry in sim.admin.requests() if entry["method"] == "GET" and entry["path"] == "/v2/pods"]
    lists = list_reads(sim)
    # The first list read is both the selection and the wait's first poll.
    assert len(lists) == wait["polls"]
    assert len(pages) == len(lists) * math.ceil(20 / sim.admin.config()["page_size"])
    started = lists[0]["started_at"]
    assert wait["history"][-1]["state"] == "all 20 pods ready"
    # The read the wait ended on was answered after the last pod could answer on ssh: never done early (how soon
    # after is measured by make bench: tests/bench/timing/test_wait_latency.py). Both are the machine's clock.
    assert pages[-1]["finished_at"] >= max(ready_at), (pages[-1]["finished_at"] - max(ready_at), wait)
    # wait_interval (1 s) is the average: by its k-th list read a wait has lasted at least (k - 3) intervals,
    # and no two reads are closer than half an interval (pods about to map port 22 are read sooner).
    for count, entry in enumerate(lists, start=1):
        assert count <= (entry["started_at"] - started) / 1.0 + 3 + 0.05, (count, wait)
    for earlier, later in itertools.pairwise(lists):
        assert later["started_at"] - earlier["started_at"] >= 0.45


def run_in_thread(run_playbook, tmp_path, text, **kwargs):
    box = {}

    def target():
        box["result"] = run_playbook(tmp_path, text, **kwargs)

    thread = threading.Thread(target=target)
    thread.start()
    return thread, box


def wait_for_request(sim, route, timeout=60.0):
    deadline = time.monotonic() + timeout
    while sim.admin.count("GET", route) == 0:
        assert time.monotonic() < deadline, "the module never read the pod list"
        time.sleep(0.05)  # polling for an event (the module's first read), not letting simulated time pass


def test_batch_wait_fails_fast_when_a_pod_is_stopped_out_of_band(sim, run_playbook, tmp_path):
    hold_new_pods(sim)
    ids = sim.admin.seed(3, status="PROVISIONING", name_prefix="fast", ports=["22/tcp"])
    sim.admin.clear_requests()
    text = play(info_task("wait", names="[fast-00000, fast-00001, fast-00002]", wait="true",
                          wait_interval="1s", wait_timeout="10m"))
    thread, box = run_in_thread(run_playbook, tmp_path, text)
    wait_for_request(sim, V2_LIST)
    sim.admin.stop_pod(ids[1], reason="Exited by user")
    stopped_at = time.time()  # the simulator's request log uses the same clock
    thread.join(120)
    result = box["result"]
    assert result.rc != 0
    out = result.task_result("wait")
    assert out["failed"] is True
    assert out["code"] == "conflict"
    assert f"pod {ids[1]} is exited, so the wait cannot succeed" in out["msg"]
    assert ids[0] in out["msg"] and ids[2] in out["msg"]  # the not-ready ones are named too
    assert [entry["id"] for entry in out["not_ready"]] == ids[::-1]  # the list's order: newest first
    # Failed at the first read after the stop, not at the 10 m timeout: every list read that started after the
    # stop was in place saw it, so there is at most one (how many came before depends on how soon this test
    # got to stop the pod on a loaded machine).
    lists = list_reads(sim)
    assert len([entry for entry in lists if entry["started_at"] > stopped_at]) <= 1, (stopped_at, lists)
    assert out["wait"]["elapsed"] < 60


def test_batch_wait_timeout_names_each_pod_not_ready(sim, run_playbook, tmp_path):
    hold_new_pods(sim)
    up = seed_one(sim, "up")
    late = seed_one(sim, "late", "PROVISIONING")
    refused = seed_one(sim, "refused")
    sim.admin.set_pod_behaviour(refused, ssh_behaviour="refused")
    sim.admin.wait_pod(up, "RUNNING", listening=True)
    sim.admin.clear_requests()
    began = time.monotonic()
    result = run_playbook(
        tmp_path,
        play(info_task("wait", ids=f"[{up}, {late}, {refused}]", wait="true", wait_interval="1s",
                       wait_timeout="3s")),
    )
    took = time.monotonic() - began
    out = result.task_result("wait")
    assert out["failed"] is True and out["code"] == "wait_timeout"
    states = {entry["id"]: entry["state"] for entry in out["not_ready"]}
    assert set(states) == {late, refused}
    assert states[late] == "pod status provisioning"
    assert states[refused].startswith("ssh port 127.0.0.1:") and "allocated but not reachable" in states[refused]
    # The message reports the wait's measured time (docs/dev/wait-and-status.md section 1: "timed out after
    # <elapsed>"), not the 3 s budget: what is left of it after the first read, plus the final read at the
    # deadline. So the number depends on the machine's speed (the unit tests pin it with a fake clock); here
    # it is the one in wait.elapsed and lies between what the simulator saw and what the playbook took.
    elapsed = out["wait"]["elapsed"]
    assert f"Timed out after {elapsed}s waiting for ssh on 3 pods (1 of 3 ready)" in out["msg"]
    lists = list_reads(sim)
    # The wait started before its first API read (lists[1]; lists[0] is the selection) and ended after its last.
    seen = lists[-1]["started_at"] - lists[1]["started_at"] if len(lists) > 1 else 0.0
    assert math.floor(seen - 0.01 + 0.5) <= elapsed <= math.floor(took + 0.5), (seen, took, out["wait"])
    assert f"{late} (late-00000): pod status provisioning" in out["msg"]
    assert f"{refused} (refused-00000): ssh port" in out["msg"]
    assert up not in [entry["id"] for entry in out["not_ready"]]
    assert out["wait"]["polls"] <= 5
    assert out["wait"]["probes"] >= 1


def test_batch_wait_rides_out_a_503_burst_on_its_first_read(sim, run_playbook, tmp_path):
    pod_id = seed_one(sim, "burst")
    sim.admin.wait_pod(pod_id, "RUNNING", listening=True)
    list_path = "/v2/pods"
    sim.admin.inject_fault(list_path, "status", method="GET", status=503, count=3)
    sim.admin.clear_requests()
    result = run_playbook(
        tmp_path,
        play(info_task("wait", names="[burst-00000]", wait="true", wait_interval="1s", wait_timeout="30s")),
    )
    out = result.task_result("wait")
    assert out.get("failed") is not True, out.get("msg")
    assert [pod["id"] for pod in out["pods"]] == [pod_id]
    assert out["pods"][0]["ssh"] is not None
    # Three answered 503, then one good read; the reads kept to the 1 s cadence instead of a tight retry loop.
    assert sim.admin.count("GET", f"^{list_path}$", status=503) == 3
    assert sim.admin.count("GET", f"^{list_path}$") >= 4


def test_batch_wait_still_fails_at_once_on_401_before_the_first_read(sim, run_playbook, tmp_path):
    list_path = "/v2/pods"
    sim.admin.inject_fault(list_path, "status", method="GET", status=401, count=5)
    sim.admin.clear_requests()
    result = run_playbook(
        tmp_path,
        play(info_task("wait", names="[anything]", wait="true", wait_interval="1s", wait_timeout="60s")),
    )
    out = result.task_result("wait")
    assert out["failed"] is True and out["code"] == "unauthorized"
    assert out["wait"]["polls"] == 1
    assert sim.admin.count("GET", f"^{list_path}$") == 1
