# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.endpoint_job against the simulator's runtime API: each terminal status and failure code, a job that
outlives wait_timeout (never cancelled), cancel and its rerun, check mode, an endpoint found by name, and one of the
input rules before any call (the rest are unit tests). Cases that need no signal and no request log of their own
share a test, each on its own endpoint: the jobs that complete with the cancels, the jobs that do not complete with
check mode.

Those walks are the module's decisions (results, the request log, its own wait: endpoint_job has no action plugin),
so they run as module calls in the test's process (helpers.in_process). What is Ansible's stays an ansible-playbook
run: no_log (test_no_log_keeps_the_input_and_output_out_of_the_output), a signal to the module's process
(test_an_interrupted_wait_names_the_job_and_leaves_it_running), the module's EXAMPLES (test_doc_examples)."""

from __future__ import annotations

import signal
import time
from typing import Any

import httpx
import pytest
from helpers.in_process import ModuleRuns
from helpers.playbooks import Background, module_task, play
from helpers.simulated import queue_endpoint

pytestmark = pytest.mark.timeout(180)


def make_endpoint(sim, name: str = "smoke", workers_min: int = 1) -> str:
    return queue_endpoint(sim, name, workers_min)


def job_task(name: str, register: str = "out", ignore_errors: bool = True, **args: Any) -> str:
    return module_task("endpoint_job", name, args, register=register, ignore_errors=ignore_errors)


def runtime(sim, endpoint_id: str, what: str = "") -> list[dict[str, Any]]:
    """The runtime requests the simulator logged for ``endpoint_id`` (``what``: run, runsync, status, cancel; all
    when empty)."""
    prefix = f"/invoke/v2/{endpoint_id}/"
    return [entry for entry in sim.admin.requests() if entry["path"].startswith(prefix)
            and (not what or entry["path"][len(prefix):].split("/")[0] == what)]


def test_jobs_that_complete_in_one_runsync_or_polled_and_cancel_its_rerun_and_a_wait_on_a_cancelled_job(
        sim, capsys):
    """One walk in this process, one endpoint per part (each part's runtime requests are its endpoint's): a quick
    job answered in one /runsync request; a longer one polled on /status; a job cancelled then read with a wait
    fails with job_cancelled; a cancel's rerun reads the job and sends nothing."""
    quick_id, longer_id = make_endpoint(sim, name="smoke-quick"), make_endpoint(sim, name="smoke-longer")
    waited_id, rerun_id = make_endpoint(sim, name="smoke-waited"), make_endpoint(sim, name="smoke-rerun")
    sim.admin.job_script(quick_id, run_time=1, output="format", output_format="Hello {name}")
    sim.admin.job_script(longer_id, queue_delay=10, run_time=40)  # 0.2 s + 0.8 s at time_scale 0.02
    sim.admin.job_script(waited_id, run_time=600)
    sim.admin.job_script(rerun_id, run_time=100_000)
    result = ModuleRuns(sim, capsys)
    run = result.run
    run("quick", "endpoint_job", {"endpoint_id": quick_id, "input": {"name": "Ada"}, "wait_interval": "5s"})
    run("longer", "endpoint_job", {"endpoint_id": longer_id, "input": {"n": [1, 2]}, "wait_interval": "1s",
                                   "wait_timeout": "60s"})
    waited_job = run("submit", "endpoint_job", {"endpoint_id": waited_id, "input": {}, "wait": False})["job"]["id"]
    run("cancel to wait on", "endpoint_job", {"endpoint_id": waited_id, "id": waited_job, "state": "cancelled"})
    run("read", "endpoint_job", {"endpoint_id": waited_id, "id": waited_job, "wait_interval": "1s"})
    rerun_job = run("submit to cancel twice", "endpoint_job",
                    {"endpoint_id": rerun_id, "input": {}, "wait": False})["job"]["id"]
    cancel = {"endpoint_id": rerun_id, "id": rerun_job, "state": "cancelled"}
    run("cancel", "endpoint_job", cancel)
    run("rerun", "endpoint_job", cancel)
    # Every step but the read of the cancelled job succeeds (what the playbook's rc said).
    assert result.failed() <= {"read"}, result.results

    # A quick job: the worker's output in one /runsync request.
    out = result.task_result("quick")
    job = out["job"]
    assert out["changed"] is True
    assert job["status"] == "COMPLETED" and job["output"] == "Hello Ada" and job["error"] is None
    assert job["endpoint_id"] == quick_id and job["execution_time"] >= 1000
    assert sim.admin.job(job["id"])["input"] == {"name": "Ada"}
    # /runsync held the request (wait = one wait_interval) and answered terminal: one request, no /status read.
    calls = runtime(sim, quick_id)
    assert [(entry["method"], entry["path"].rsplit("/", 1)[-1]) for entry in calls] == [("POST", "runsync")]
    assert calls[0]["query"] == "wait=5000"
    assert out["wait"]["polls"] == 1

    # A longer job: polled on /status until it completes.
    out = result.task_result("longer")
    assert out["job"]["status"] == "COMPLETED" and out["job"]["output"] == {"n": [1, 2]}
    assert out["job"]["delay_time"] >= 10000 and out["job"]["execution_time"] >= 40000
    assert len(runtime(sim, longer_id, "runsync")) == 1 and runtime(sim, longer_id, "run") == []
    status_reads = runtime(sim, longer_id, "status")
    assert status_reads and out["wait"]["polls"] == 1 + len(status_reads)
    assert "COMPLETED" in out["wait"]["ready_detail"]

    # A job cancelled, then read with a wait: job_cancelled.
    queued = result.task_result("submit")
    assert queued["job"]["status"] == "IN_QUEUE" and queued["changed"] is True
    # (The walk's one check of failures covers both parts; this cancel's own result is checked here.)
    cancelled = result.task_result("cancel to wait on")
    assert cancelled["changed"] is True and cancelled["job"]["status"] == "CANCELLED", cancelled
    assert runtime(sim, waited_id, "run")[0]["method"] == "POST" and runtime(sim, waited_id, "runsync") == []
    read = result.task_result("read")
    assert read["code"] == "job_cancelled" and read["job"]["status"] == "CANCELLED" and read["changed"] is False

    first, second = result.task_result("cancel"), result.task_result("rerun")
    assert first["changed"] is True and first["job"]["status"] == "CANCELLED"
    assert second["changed"] is False and second["job"]["status"] == "CANCELLED"
    assert len(runtime(sim, rerun_id, "cancel")) == 1  # the rerun read the job and sent nothing
    assert sim.admin.job(first["job"]["id"])["status"] == "CANCELLED"


NOT_COMPLETED = {
    # name: (job script, extra task args, code, text in the message, job status)
    "failed": ({"run_time": 1, "outcome": "FAILED", "error": "CUDA out of memory"}, {}, "job_failed",
               "FAILED: CUDA out of memory", "FAILED"),
    "timed_out": ({"run_time": 600}, {"execution_timeout": "5s"}, "job_timed_out", "TIMED_OUT", "TIMED_OUT"),
}


def test_unfinished_jobs_fail_with_their_code_are_never_cancelled_and_check_mode_sends_nothing(sim, capsys):
    """One walk in this process, one endpoint per case (so each case's runtime requests are its endpoint's): a
    failed and a timed-out job fail with their code; a job that outlives wait_timeout fails naming it and is never
    cancelled; the check-mode calls have their own endpoint too. No step of the walk sends a cancel."""
    endpoints = {}
    for name, (script, _args, _code, _needle, _status) in NOT_COMPLETED.items():
        endpoints[name] = make_endpoint(sim, name=f"smoke-{name}")
        sim.admin.job_script(endpoints[name], **script)
    long_id = make_endpoint(sim, name="smoke-long")
    sim.admin.job_script(long_id, run_time=100_000)
    checked_id = make_endpoint(sim, name="smoke-checked")
    sim.admin.job_script(checked_id, run_time=100_000)
    job_id = httpx.post(f"{sim.urls['serverless']}/{checked_id}/run", json={"input": {}},
                        headers={"Authorization": f"Bearer {sim.api_key}"}).json()["id"]
    sim.admin.clear_requests()
    result = ModuleRuns(sim, capsys)
    for name, (_script, args, _code, _needle, _status) in NOT_COMPLETED.items():
        result.run(name, "endpoint_job", {"endpoint_id": endpoints[name], "input": {"x": 1}, "wait_interval": "1s",
                                          "wait_timeout": "60s", **args})
    result.run("outlives", "endpoint_job", {"endpoint_id": long_id, "input": {"long": True},
                                            "wait_interval": "500ms", "wait_timeout": "2s"})
    result.run("check submit", "endpoint_job", {"endpoint_id": checked_id, "input": {"x": 1}}, check_mode=True)
    result.run("check cancel", "endpoint_job", {"endpoint_id": checked_id, "id": job_id, "state": "cancelled"},
               check_mode=True)
    submit, cancel = result.task_result("check submit"), result.task_result("check cancel")
    assert submit["changed"] is True and submit["job"] is None and not submit.get("failed")
    assert cancel["changed"] is True and cancel["job"]["status"] in ("IN_QUEUE", "IN_PROGRESS"), cancel
    assert [entry["method"] for entry in runtime(sim, checked_id)] == ["GET"]  # the one status read
    assert len(sim.admin.jobs(checked_id)) == 1 and sim.admin.job(job_id)["status"] != "CANCELLED"

    for name, (_script, args, code, needle, status) in NOT_COMPLETED.items():
        out = result.task_result(name)
        assert out["failed"] is True and out["code"] == code, out
        assert needle in out["msg"] and out["id"] == out["job"]["id"]
        assert out["job"]["status"] == status and out["changed"] is True
        assert out["job"]["endpoint_id"] == endpoints[name]
        if "execution_timeout" in args:
            assert sim.admin.job(out["id"])["execution_timeout_ms"] == 5000
        assert runtime(sim, endpoints[name], "cancel") == []

    # A job that outlives wait_timeout: the failure names it and how to cancel it.
    out = result.task_result("outlives")
    assert out["code"] == "wait_timeout" and out["changed"] is True
    job_id = out["id"]
    assert out["job"]["id"] == job_id and out["job"]["status"] == "IN_PROGRESS"
    assert f"id={job_id} state=cancelled" in out["msg"] and "was not cancelled" in out["msg"]
    assert out["wait"]["elapsed"] >= 1 and "IN_PROGRESS" in out["wait"]["last_state"]
    # No cancel was sent (by any step of the walk): the simulator's request log and the job itself say so.
    assert not [entry for entry in sim.admin.requests() if "/cancel/" in entry["path"]]
    assert sim.admin.job(job_id)["status"] == "IN_PROGRESS"
    # The reads kept to the cadence: at most T / interval + 3 (the submit counted as the first).
    assert out["wait"]["polls"] <= 2 / 0.5 + 3


def test_an_interrupted_wait_names_the_job_and_leaves_it_running(sim, tmp_path):
    endpoint_id = make_endpoint(sim)
    sim.admin.job_script(endpoint_id, run_time=100_000)
    bg = Background(sim, tmp_path, play(job_task("smoke", endpoint_id=endpoint_id, input={},
                                                 wait_interval="500ms", wait_timeout="60s")))
    deadline = time.monotonic() + 30
    while not sim.admin.jobs(endpoint_id) and time.monotonic() < deadline:
        time.sleep(0.05)
    bg.signal_waiter("module", signal.SIGINT, "endpoint_job")
    out = bg.result().task_result("smoke")
    assert out["code"] == "wait_interrupted" and out["id"] == sim.admin.jobs(endpoint_id)[0]["id"]
    assert "state=cancelled" in out["msg"]
    assert sim.admin.jobs(endpoint_id)[0]["status"] in ("IN_QUEUE", "IN_PROGRESS")
    assert not runtime(sim, endpoint_id, "cancel")


def test_an_endpoint_found_by_name_and_the_names_that_fail(sim, capsys):
    """A job on an endpoint found by name; a name two endpoints share and a name none has fail before any job;
    bad input fails before any call. Module calls in this process."""
    endpoint_id = make_endpoint(sim, name="by-name")
    twins = sorted([make_endpoint(sim, name="twin", workers_min=0), make_endpoint(sim, name="twin", workers_min=0)])
    sim.admin.job_script(endpoint_id, run_time=1, output="constant", output_value={"ok": True})
    sim.admin.clear_requests()  # the three creates above
    result = ModuleRuns(sim, capsys)
    result.run("named", "endpoint_job", {"endpoint_name": "by-name", "input": {"q": 1}, "wait_interval": "2s"})
    result.run("twins", "endpoint_job", {"endpoint_name": "twin", "input": {"q": 1}})
    result.run("nobody", "endpoint_job", {"endpoint_name": "nobody", "input": {"q": 1}})
    # Bad input fails before any call (the whole table of input rules is
    # tests/unit/plugins/modules/test_refused_input.py's, "job ..." rows): the list-read count below shows
    # that this one, against the simulator, read nothing.
    result.run("bad", "endpoint_job", {"endpoint_id": "ep1", "endpoint_name": "x", "input": {}})
    named = result.task_result("named")
    assert named["job"]["output"] == {"ok": True} and named["job"]["endpoint_id"] == endpoint_id
    twin = result.task_result("twins")
    assert twin["code"] == "ambiguous" and twin["ids"] == twins
    assert result.task_result("nobody")["code"] == "not_found"
    bad = result.task_result("bad")
    assert bad["failed"] is True and bad["code"] == "bad_request", bad
    assert "exactly one of endpoint_id and endpoint_name" in bad["msg"]
    # Three list walks (one per call that names an endpoint; a walk spans pages at the suite's page size).
    lists = [entry for entry in sim.admin.requests() if entry["path"] == "/v2/serverless"]
    assert len([entry for entry in lists if "cursor=" not in entry["query"]]) == 3
    assert len(sim.admin.requests()) == len(runtime(sim, endpoint_id)) + len(lists)  # and nothing else either
    assert all(not sim.admin.jobs(twin_id) for twin_id in twins)


@pytest.mark.core
def test_no_log_keeps_the_input_and_output_out_of_the_output(sim, run_playbook, tmp_path):
    endpoint_id = make_endpoint(sim)
    sim.admin.job_script(endpoint_id, run_time=1)
    task = job_task("secret", endpoint_id=endpoint_id, input={"token": "s3cr3t-value"}, ignore_errors=False)
    result = run_playbook(tmp_path, play(task + "\n  no_log: true"))
    assert result.rc == 0, result.stdout
    assert "s3cr3t-value" not in result.stdout and "s3cr3t-value" not in result.stderr
    assert sim.admin.jobs(endpoint_id)[0]["input"] == {"token": "s3cr3t-value"}
