# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod's logs in failed waits, live lines and the info modules (docs/pods.md, "When it is not ready: logs"),
against the simulator's Server-Sent Events streams (held open, as RunPod's are). What the controller path shows
(the crash's failure, the live lines of a pull) is one ansible-playbook run; what the modules decide (the module
path's crash, pod_info, the endpoint's failed wait and endpoint_info, unreadable logs) runs in the test's process
(helpers.in_process); the stream that never closes keeps its two timed runs."""

from __future__ import annotations

import json
import re
import time

from helpers.in_process import ModuleRuns
from helpers.playbooks import play, pod_task
from helpers.simulated import fresh_account
from test_endpoint import GPUS
from test_pod_wait import wait_args

SECRET = "hf_tok-very-secret-4242"
CUDA_ERROR = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
MASK = "********"
BOTH_PATHS = {"controller": {}, "module": {"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"}}


def _script_pod(sim, name, **body):
    sim.admin._call("POST", "/logs/pods", {"pod_name": name, **body})


# Pods whose sshd never answers (every name a test uses at once: name_overrides is replaced, not merged).
REFUSED = {"ssh_behaviour": "refused"}


def _crashing(sim, name):
    """Pod ``name``'s container crash-loops and prints the task's secret once (its sshd: REFUSED, the caller's)."""
    _script_pod(sim, name, preset="crash_loop", every=0, repeat=2,
                lines=[{"at": 0, "source": "container", "line": f"token={SECRET}"}])


def _assert_crash_quoted(failed):
    """A crash-looping container's wait failure: its error line quoted, its secret masked."""
    assert failed["failed"] and failed["code"] == "wait_timeout", failed
    logs = failed["logs"]
    assert logs["unavailable"] is None
    assert logs["container"][-1]["line"] == CUDA_ERROR and logs["container"][-1]["ts"].endswith("Z")
    assert logs["system"][-1]["line"] == "container exited with code 1, restarting"
    assert f'last container line: "{CUDA_ERROR}"' in failed["msg"]
    # The failure is the wait's as before: the timeout, the pod kept, then the quoted line.
    assert "imed out after" in failed["msg"] and failed["msg"].index("was kept") < failed["msg"].index(CUDA_ERROR)
    assert f"token={MASK}" in [entry["line"] for entry in logs["container"]]
    # (The task's own env is in its invocation; the lines and the message never show it.)
    assert SECRET not in json.dumps(logs) + failed["msg"]


def test_failed_waits_and_the_info_modules_show_the_logs(sim, run_playbook, tmp_path, capsys):
    """What the controller path shows runs as tasks, in one playbook run; the rest is what the modules decide, each
    step a module call in this process (helpers.in_process; a wait there is the module-side wait, as with
    RUNPOD_CLOUD_CONTROLLER_WAIT=false: that both paths decide alike is test_wait_progress*'s). Each subject on a
    pod or endpoint of its own:

    * crashy: a crashing container fails the wait with its error line quoted and the secret masked (both paths: a
      task on the controller path, crashy-module in this process);
    * pulling: a slow pull shows its system lines live on the controller, rate-limited (a task);
    * info-*: pod_info returns the newest lines of each pod;
    * ep: an endpoint whose worker dies on an import error quotes it, and endpoint_info lists it;
    * unread: logs that cannot be read (503, injected after every other pod's reads) leave the failure as it was.
"""
    # The pulling pod stays STARTING for the whole test; a layer line every 60 simulated seconds (1.2 s here).
    sim.admin.configure(name_overrides={"crashy": REFUSED, "unread": REFUSED, "crashy-module": REFUSED,
                                        "pulling": {"starting_delay": 100000}})
    for name in ("crashy", "unread", "crashy-module"):
        _crashing(sim, name)
    _script_pod(sim, "pulling", preset="image_pull", every=60)
    ids = sim.admin._call("POST", "/seed", {"count": 2, "name_prefix": "info"})["ids"]
    sim.admin._call("POST", f"/pods/{ids[0]}/logs", {"preset": "traceback", "every": 0})
    crash = pod_task("crash", wait_args("crashy", wait_timeout="2s", env={"HF_TOKEN": SECRET}), ignore_errors=True)
    pull = pod_task("pull", wait_args("pulling", wait_timeout="11s"), ignore_errors=True)
    (tmp_path / "controller").mkdir()
    result = run_playbook(tmp_path / "controller", play(crash, pull), env=BOTH_PATHS["controller"])
    assert result.rc == 0, result.stdout + result.stderr

    steps = ModuleRuns(sim, capsys)
    steps.run("pod info", "pod_info", {"ids": ids, "logs": 2})
    template = steps.run("template", "template",
                         {"name": "worker-tpl", "image": "runpod/serverless-hello-world:latest", "serverless": True})
    endpoint = {"name": "ep", "template_id": template["template"]["id"], "gpu_type_ids": GPUS, "workers_min": 0}
    endpoint_id = steps.run("setup", "endpoint", endpoint)["endpoint"]["id"]
    sim.admin._call("POST", f"/endpoints/{endpoint_id}/workers", {"statuses": ["UNHEALTHY"]})
    sim.admin._call("POST", f"/endpoints/{endpoint_id}/workers/*/logs", {"preset": "traceback", "every": 0})
    steps.run("wait", "endpoint", {**endpoint, "wait": True, "wait_interval": "200ms", "wait_timeout": "1s"})
    steps.run("info", "endpoint_info", {"id": endpoint_id, "logs": 1})
    # After every other pod's log reads: the fault answers each pod's log read with 503 until it is cleared.
    sim.admin.inject_fault(r"/v2/pods/[^/]+/logs", "status", status=503, duration=120)
    steps.run("unread", "pod", wait_args("unread", wait_timeout="2s"))
    sim.admin.clear_faults()
    # crashy again, on the module path (a pod of its own name: the controller run's crashy is still there)
    steps.run("crash on the module path", "pod",
              wait_args("crashy-module", wait_timeout="2s", env={"HF_TOKEN": SECRET}))

    # -- crashy, on the controller path
    _assert_crash_quoted(result.task_result("crash"))
    assert not sim.admin._call("GET", "/contract")["violations"]

    # -- pulling: live system lines
    failed = result.task_result("pull")
    pod_id = failed["pod"]["id"]
    shown = re.findall(rf"^pod pulling \({pod_id}\) \[system\] (.*)$", result.stdout, re.M)
    assert len(shown) >= 2, result.stdout
    assert len(set(shown)) == len(shown)  # a line is shown when it changes, not on every read
    pulled = [entry["line"] for entry in failed["logs"]["system"]]
    positions = [pulled.index(line) for line in shown]
    assert positions == sorted(positions) and pulled[0] == "Pulling image runpod/base:1.0"
    # Rate-limited: one read per 5 s at most, so at most 3 in an 11 s wait.
    assert sim.admin.count("GET", rf"^/v2/pods/{pod_id}/logs$") <= 3 + 2  # + the two reads of the failure

    # -- info-*: pod_info's newest lines
    pods = {pod["id"]: pod for pod in steps.task_result("pod info")["pods"]}
    assert [entry["line"] for entry in pods[ids[0]]["logs"]["container"]] == [
        "    from vllm import LLM", "ModuleNotFoundError: No module named 'vllm'"]
    assert [entry["line"] for entry in pods[ids[0]]["logs"]["system"]] == [
        "start container", "container exited with code 1"]
    assert pods[ids[1]]["logs"] == {"container": [], "system": [], "unavailable": None}

    # -- ep: the endpoint's worker
    failed = steps.task_result("wait")
    assert failed["code"] == "wait_timeout"
    logs = failed["logs"]
    assert logs["worker_id"] and logs["container"][-1]["line"] == "ModuleNotFoundError: No module named 'vllm'"
    assert "last container line: \"ModuleNotFoundError: No module named 'vllm'\"" in failed["msg"]
    assert f"worker {logs['worker_id']}" in failed["msg"]
    listed = steps.task_result("info")["endpoints"][0]["logs"]
    assert listed == [{"worker_id": logs["worker_id"], "status": "UNHEALTHY", "unavailable": None,
                       "container": [logs["container"][-1]], "system": [logs["system"][-1]]}]

    # -- unread: logs unavailable, the failure as it was
    failed = steps.task_result("unread")
    assert failed["code"] == "wait_timeout"
    assert failed["logs"]["container"] == [] and failed["logs"]["unavailable"].endswith("(server_error)")
    head, _sep, tail = failed["msg"].rpartition("; logs unavailable: ")
    assert tail.endswith("(server_error)") and "imed out after" in head and "was kept" in head

    # -- crashy on the module path
    _assert_crash_quoted(steps.task_result("crash on the module path"))
    assert not sim.admin._call("GET", "/contract")["violations"]


def test_a_stream_that_never_closes_does_not_hold_the_task(sim, run_playbook, tmp_path):
    def timed(name):
        started = time.monotonic()
        result = run_playbook(tmp_path / name, play(pod_task(name, wait_args(name, wait_timeout="2s"))))
        return time.monotonic() - started, result.task_result(name)

    fresh_account(sim)
    sim.admin.configure(name_overrides={name: {"ssh_behaviour": "refused"} for name in ("quiet", "chatty")})
    # A container printing every 2 simulated seconds (40 ms here) for hours: its stream never goes quiet, and
    # the simulator holds it open for 10 minutes. The quiet pod's stream is held open too, but says nothing.
    _script_pod(sim, "chatty", preset="crash_loop", every=2, repeat=1000)
    for name in ("quiet", "chatty"):
        (tmp_path / name).mkdir()
    baseline, quiet = timed("quiet")
    elapsed, failed = timed("chatty")
    assert quiet["code"] == failed["code"] == "wait_timeout"
    assert quiet["logs"] == {"container": [], "system": [], "unavailable": None}
    assert len(failed["logs"]["container"]) == 20 and failed["logs"]["unavailable"] is None
    # A reader that waited for the stream to end would take the simulator's 10 minutes; the failure's own bound
    # (a second past the deadline) is pinned in test_fail_on_time.py, on one run's clock.
    assert elapsed < baseline + 5 + 20, (elapsed, baseline)
