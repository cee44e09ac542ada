# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod's logs in failed waits, live lines and the info modules (docs/pods.md, "When it is not ready: logs"),
with real ansible-playbook runs against the simulator's Server-Sent Events streams (held open, as RunPod's are).
The subjects that need no clock of their own share one run (each on a pod or endpoint of its own name), plus the
module path's run; the stream that never closes keeps its two timed runs."""

from __future__ import annotations

import json
import re
import time

from helpers.playbooks import play, pod_task
from helpers.simulated import fresh_account
from test_endpoint import play as endpoint_play
from test_endpoint import scripted, wait_task
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


def test_failed_waits_and_the_info_modules_show_the_logs(sim, run_playbook, tmp_path):
    """One run on the controller path (the default), each subject on a pod or endpoint of its own, then the crash
    again on the module path (RUNPOD_CLOUD_CONTROLLER_WAIT=false: the path is the controller's environment, so it
    takes a run of its own):

    * crashy: a crashing container fails the wait with its error line quoted and the secret masked (both paths);
    * pulling: a slow pull shows its system lines live on the controller, rate-limited;
    * info-*: pod_info returns the newest lines of each pod;
    * ep: an endpoint whose worker dies on an import error quotes it, and endpoint_info lists it;
    * unread: logs that cannot be read (503, injected last, just before it) leave the failure as it was.
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
    pod_tasks = play(
        f"- name: pod info\n  runpod.cloud.pod_info: {json.dumps({'ids': ids, 'logs': 2})}\n  register: out\n",
        crash,
        pod_task("pull", wait_args("pulling", wait_timeout="11s"), ignore_errors=True),
        # Last: the fault stays for the rest of the run (every pod's log reads answer 503).
        f"""- name: logs answer 503
  ansible.builtin.uri:
    url: {sim.urls["admin"]}/faults
    method: POST
    body_format: json
    body: {json.dumps({"route": r"/v2/pods/[^/]+/logs", "kind": "status", "status": 503, "duration": 120})}
    status_code: [200, 201]
""",
        pod_task("unread", wait_args("unread", wait_timeout="2s"), ignore_errors=True),
    )
    endpoint_tasks = scripted("workers", {"statuses": ["UNHEALTHY"]}) + """
    - name: worker logs
      ansible.builtin.uri:
        url: "{{ admin }}/endpoints/{{ setup.endpoint.id }}/workers/*/logs"
        method: POST
        body_format: json
        body: {"preset": "traceback", "every": 0}
""" + wait_task(interval="200ms", timeout="1s") + """      ignore_errors: true
    - name: info
      runpod.cloud.endpoint_info:
        id: "{{ setup.endpoint.id }}"
        logs: 1
      register: info
"""
    # The endpoint's play first: the 503 fault on pods' logs comes at the very end of the pods' play.
    text = endpoint_play(endpoint_tasks, admin=sim.urls["admin"]) + pod_tasks
    (tmp_path / "controller").mkdir()
    result = run_playbook(tmp_path / "controller", text, env=BOTH_PATHS["controller"])
    assert result.rc == 0, result.stdout + result.stderr

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
    pods = {pod["id"]: pod for pod in result.task_result("pod info")["pods"]}
    assert [entry["line"] for entry in pods[ids[0]]["logs"]["container"]] == [
        "    from vllm import LLM", "ModuleNotFoundError: No module named 'vllm'"]
    assert [entry["line"] for entry in pods[ids[0]]["logs"]["system"]] == [
        "start container", "container exited with code 1"]
    assert pods[ids[1]]["logs"] == {"container": [], "system": [], "unavailable": None}

    # -- ep: the endpoint's worker
    failed = result.task_result("wait")
    assert failed["code"] == "wait_timeout"
    logs = failed["logs"]
    assert logs["worker_id"] and logs["container"][-1]["line"] == "ModuleNotFoundError: No module named 'vllm'"
    assert "last container line: \"ModuleNotFoundError: No module named 'vllm'\"" in failed["msg"]
    assert f"worker {logs['worker_id']}" in failed["msg"]
    listed = result.task_result("info")["endpoints"][0]["logs"]
    assert listed == [{"worker_id": logs["worker_id"], "status": "UNHEALTHY", "unavailable": None,
                       "container": [logs["container"][-1]], "system": [logs["system"][-1]]}]

    # -- unread: logs unavailable, the failure as it was
    failed = result.task_result("unread")
    assert failed["code"] == "wait_timeout"
    assert failed["logs"]["container"] == [] and failed["logs"]["unavailable"].endswith("(server_error)")
    head, _sep, tail = failed["msg"].rpartition("; logs unavailable: ")
    assert tail.endswith("(server_error)") and "imed out after" in head and "was kept" in head

    # -- crashy again, on the module path (a pod of its own name: the controller run's crashy is still there)
    sim.admin.clear_faults()  # the controller run's 503s on log reads
    (tmp_path / "module").mkdir()
    module_crash = pod_task("crash", wait_args("crashy-module", wait_timeout="2s", env={"HF_TOKEN": SECRET}))
    result = run_playbook(tmp_path / "module", play(module_crash), env=BOTH_PATHS["module"])
    _assert_crash_quoted(result.task_result("crash"))
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
