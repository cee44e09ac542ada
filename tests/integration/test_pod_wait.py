# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod waits against the simulator: real ansible-playbook, real loopback SSH ports, real faults.

Out-of-band events that must land *during* a wait (terminate, stop, 401, SIGTERM, an empty read after a
sighting) run the playbook in the background and act once the simulator's request log shows the wait polling.
No test sleeps to let time pass: delays come from the simulator's scaled lifecycle (time_scale 0.02).
The waits that need no event at a moment of their own (ready, timed out and resumed, bursts ridden out) share one
run, each on a pod of its own name, since every ansible-playbook run costs its start-up.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import textwrap
import time

import pytest
from helpers.playbooks import Background, play, pod_task
from helpers.simulated import ACCOUNT_SSH_KEY

GPU = "NVIDIA GeForce RTX 4090"
LIST_ROUTE = "/v2/pods"


def wait_args(name: str = "web", **extra) -> dict:
    args = {
        "name": name,
        "image": "runpod/base:1.0",
        "gpu_type_ids": [GPU],
        "wait": True,
        "wait_interval": "100ms",
        "wait_timeout": "30s",
        # RunPod images start sshd only with a key: every wait brings one, not relying on the account's.
        "ssh_public_key": ACCOUNT_SSH_KEY,
    }
    args.update(extra)
    return args


def fault_task(sim, name: str, **spec) -> str:
    body = json.dumps(spec)
    return textwrap.dedent(
        f"""\
        - name: {name}
          ansible.builtin.uri:
            url: {sim.urls["admin"]}/faults
            method: POST
            body_format: json
            body: {body}
            status_code: [200, 201]
        """
    )


def ssh_port(sim, pod_id: str) -> int:
    return sim.admin.pod(pod_id)["listeners"]["22"]["port"]


def list_gets(sim, *, after: float = 0.0) -> list[dict]:
    return [
        entry
        for entry in sim.admin.requests()
        if entry["method"] == "GET" and entry["path"] == LIST_ROUTE and entry["started_at"] >= after
    ]


def wait_until_polling(sim, bg: Background, *, polls: int, timeout: float = 60.0) -> str:
    """Block until the wait has made ``polls`` list reads after the create; return the pod id."""

    def polled_pod():
        pods = [p for p in sim.admin.pods() if p["status"] != "TERMINATED"]
        creates = [e for e in sim.admin.requests() if e["method"] == "POST" and e["path"] == LIST_ROUTE]
        if pods and creates and len(list_gets(sim, after=creates[-1]["finished_at"])) >= polls:
            return pods[0]["id"]
        return None

    return bg.until(polled_pod, timeout=timeout, what=f"the wait made {polls} list reads")


def start_sshd_once_polled(sim, bg, name, timeout=120.0):
    """Start the sshd of pod ``name`` (created with it held back) once the wait has read the pod twice while it was
    RUNNING without it: the wait then sees at least two states, however long the machine took to reach the wait.
    (With a fixed sshd delay, a loaded machine reached the first poll after sshd was up: one state.)"""
    seen = {}

    def running_and_read_twice():
        pods = [pod for pod in sim.admin.pods() if pod["name"] == name]
        if "since" not in seen and pods and pods[0]["status"] == "RUNNING":
            seen["since"] = time.time()
        return pods[0]["id"] if "since" in seen and len(list_gets(sim, after=seen["since"])) >= 2 else None

    pod_id = bg.until(running_and_read_twice, timeout=timeout, what=f"the wait read {name} twice while RUNNING")
    sim.admin.set_pod_behaviour(pod_id, ssh_delay=0)


# A pod an interrupt kept, whatever point of its boot the signal came at (a loaded machine slows the boot, not the
# signal): never stopped or terminated.
KEPT = ("PROVISIONING", "STARTING", "RUNNING")


def assert_kept(sim, pod_id: str, status: str | tuple[str, ...] | None = None) -> None:
    state = sim.admin.pod(pod_id)
    if status:
        assert state["status"] in ((status,) if isinstance(status, str) else status), state["status"]
    assert sim.admin.count("DELETE") == 0
    assert sim.admin.count("POST", r"/pods/[^/]+/(action|stop|terminate)") == 0


def assert_failure_names_pod(outcome: dict, pod_id: str, code: str) -> None:
    assert outcome["failed"] is True
    assert outcome["changed"] is True
    assert outcome["code"] == code
    assert outcome["id"] == pod_id
    assert outcome["pod"]["id"] == pod_id
    assert {"elapsed", "polls", "last_state"} <= set(outcome["wait"])
    assert f"runpod.cloud.pod_info id={pod_id}" in outcome["msg"]
    assert f"runpod.cloud.pod id={pod_id} state=absent" in outcome["msg"]
    assert "bills by the second" in outcome["msg"]


# --- one run: waits that end well, time out, resume, or ride out bursts -----------------------------------------
# Each subject has a pod of its own name, so the run's tasks are independent; the checks below are grouped by
# subject.


def behaviour_task(sim, name: str, pod_id: str, **overrides) -> str:
    """A task changing a pod's behaviour through the admin API (between two tasks of the same run)."""
    return textwrap.dedent(
        f"""\
        - name: {name}
          ansible.builtin.uri:
            url: "{sim.urls["admin"]}/pods/{pod_id}/behaviour"
            method: POST
            body_format: json
            body: {json.dumps(overrides)}
        """
    )


def test_waits_end_well_time_out_resume_and_ride_out_bursts(sim, run_playbook, tmp_path):
    """slow: wait_for=running returns while sshd is still down; wait_for=ssh keeps probing until the banner.
    web: a wait for a real sshd, the rerun, then a login over real SSH. ac, ns: an sshd that accepts and closes,
    and a port that is not ssh, time out naming the pod and keep it; once ac's sshd answers, the rerun resumes.
    burst: 503 and 429 bursts on the wait's reads are ridden out, Retry-After honoured."""
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    web_args = wait_args(ssh_public_key=(tmp_path / "id_ed25519.pub").read_text().strip())
    # slow: sshd answers 12 s after RUNNING (time_scale 0.02): long enough for the ssh task, right after the
    # running one, to start probing before it even on a loaded machine, where starting a task can take seconds.
    sim.admin.configure(name_overrides={
        "slow": {"ssh_delay": 600},
        "ac": {"ssh_behaviour": "accept_close"},
        "ns": {"ssh_behaviour": "not_ssh"},
    })
    route = LIST_ROUTE
    text = play(
        pod_task("running", wait_args("slow", wait_for="running")),
        pod_task("ssh", wait_args("slow", wait_timeout="60s")),
        pod_task("create", web_args, register="created"),
        pod_task("rerun", web_args),
        textwrap.dedent(
            f"""\
            - name: add pod
              ansible.builtin.add_host:
                name: gpu-pod
                ansible_connection: ssh
                ansible_host: "{{{{ created.pod.ssh.host }}}}"
                ansible_port: "{{{{ created.pod.ssh.port }}}}"
                ansible_user: "{{{{ created.pod.ssh.user }}}}"
                ansible_ssh_private_key_file: {key}
            """
        ),
        pod_task("ac", wait_args("ac", wait_timeout="2s"), register="ac", ignore_errors=True),
        pod_task("ns", wait_args("ns", wait_timeout="2s"), ignore_errors=True),
        behaviour_task(sim, "ac answers now", "{{ ac.id }}", ssh_behaviour="sshd"),
        pod_task("ac rerun", wait_args("ac")),
        # Last of the API tasks: whatever the bursts leave behind meets no other task.
        pod_task("burst create", {k: v for k, v in wait_args("burst").items() if not k.startswith("wait")},
                 register="burst"),
        fault_task(sim, "503s", kind="status", route=route, method="GET", status=503, count=2),
        fault_task(sim, "429s", kind="status", route=route, method="GET", status=429, retry_after=1, count=4),
        pod_task("burst wait", {"id": "{{ burst.pod.id }}", "wait": True, "wait_interval": "100ms"}),
    ) + play("- name: on the pod\n  ansible.builtin.raw: echo hello-$((6 * 7))", hosts="gpu-pod")
    result = run_playbook(tmp_path, text)
    # Four runs' worth of checks in one: the run succeeded, its only failed tasks are ac's and ns's timeouts
    # (ignored), and the login play reached the pod.
    assert result.rc == 0, result.stdout + result.stderr
    assert result.stats["localhost"]["ignored"] == 2, result.stats
    assert result.stats["gpu-pod"]["unreachable"] == 0 and result.stats["gpu-pod"]["failures"] == 0, result.stats
    pods = {p["name"]: p["id"] for p in sim.admin.pods()}
    # One create per name, whatever the reruns and the bursts did.
    assert sorted(pods) == ["ac", "burst", "ns", "slow", "web"]
    assert sim.admin.count("POST", r"^/v2/pods$") == len(pods)

    # -- slow: running long before sshd
    running = result.task_result("running")
    pod_id = running["pod"]["id"]
    assert running["changed"] is True and running["wait"]["ready_detail"] == "pod running"
    assert running["pod"]["runtime_status"] == "running"
    ssh = result.task_result("ssh")
    port = ssh_port(sim, pod_id)
    assert ssh["changed"] is False and ssh["pod"]["id"] == pod_id
    states = [entry["state"] for entry in ssh["wait"]["history"]]
    assert states[0].startswith(f"ssh port 127.0.0.1:{port} allocated but not reachable: dial tcp")
    assert states[-1] == f"ssh reachable at 127.0.0.1:{port}"
    assert ssh["wait"]["polls"] + ssh["wait"]["probes"] >= 3
    assert pods["slow"] == pod_id

    # -- web: a real sshd, the rerun, a login
    created = result.task_result("create")
    pod_id = created["pod"]["id"]
    port = ssh_port(sim, pod_id)
    assert created["changed"] is True and created["actions"] == ["create"]
    assert created["pod"]["runtime_status"] == "running"
    ssh = dict(created["pod"]["ssh"])
    # The wait checked the host key against the container log (host_key_checking: log, test_host_keys.py).
    assert ssh.pop("host_key_check") == "verified"
    assert ssh.pop("host_key_fingerprints") and ssh.pop("host_keys")
    # ssh_args trusts the checked key only (test_handoff.py connects with it), and the command carries it.
    args = ssh.pop("ssh_args")
    assert args.startswith("-o StrictHostKeyChecking=yes -o UserKnownHostsFile=")
    assert args.endswith(f"known_hosts_{pod_id}")
    assert ssh == {
        "host": "127.0.0.1",
        "port": port,
        "user": "root",
        "command": f"ssh {args} -p {port} root@127.0.0.1",
    }
    assert created["wait"]["ready_detail"] == f"ssh reachable at 127.0.0.1:{port}"
    assert created["wait"]["history"][-1]["state"] == created["wait"]["ready_detail"]
    assert created["wait"]["polls"] >= 1 and created["wait"]["elapsed"] >= 0
    rerun = result.task_result("rerun")
    assert rerun["changed"] is False and rerun["pod"]["id"] == pod_id
    assert rerun["wait"]["ready_detail"] == created["wait"]["ready_detail"]
    assert "hello-42" in result.task_result("on the pod")["stdout"]
    assert pods["web"] == pod_id

    # -- ac, ns: never ready, timed out and kept
    for name, why in (("ac", "but got no ssh banner"), ("ns", "answered but is not an ssh server")):
        outcome = result.task_result(name)
        pod_id = pods[name]
        assert_failure_names_pod(outcome, pod_id, "wait_timeout")
        port = ssh_port(sim, pod_id)
        # The wait's measured time (docs/dev/wait-and-status.md section 1), whole seconds: at least the 2 s budget
        # (it times out only once its deadline has passed); the final read at the deadline can end later on a
        # loaded machine, so the number is the one in wait.elapsed, not a constant.
        elapsed = outcome["wait"]["elapsed"]
        assert elapsed >= 2, outcome["wait"]
        head = f"timed out after {elapsed}s waiting for ssh on pod {pod_id}; last known state: "
        assert outcome["msg"].startswith(head)
        assert outcome["wait"]["last_state"].startswith(f"ssh port 127.0.0.1:{port} allocated but not reachable")
        # The wait saw why; on a loaded machine the very last probe, cut short by the deadline, may only
        # report a read timeout, so look at every state of the wait, the last one included.
        states = [entry["state"] for entry in outcome["wait"]["history"]] + [outcome["wait"]["last_state"]]
        assert any(why in state for state in states), states
        assert outcome["pod"]["runtime_status"] == "running"
        assert_kept(sim, pod_id, "RUNNING")
    assert result.task_result("ac answers now")["status"] == 200  # the admin API took the new behaviour
    # ... and once ac's sshd answers, the rerun resumes on the same pod (no second create: see the count above).
    rerun = result.task_result("ac rerun")
    assert rerun["changed"] is False and rerun["pod"]["id"] == pods["ac"]
    assert rerun["wait"]["ready_detail"] == f"ssh reachable at 127.0.0.1:{ssh_port(sim, pods['ac'])}"

    # -- burst: 5xx and 429 bursts ridden out
    created, waited = result.task_result("burst create"), result.task_result("burst wait")
    assert waited["changed"] is False and waited["pod"]["id"] == created["pod"]["id"] == pods["burst"]
    assert waited["wait"]["ready_detail"].startswith("ssh reachable at 127.0.0.1:")
    assert waited["wait"]["polls"] >= 5
    gets = list_gets(sim)
    statuses = [entry["status"] for entry in gets]
    assert statuses.count(503) == 2 and statuses.count(429) == 2
    last_429 = max(i for i, status in enumerate(statuses) if status == 429)
    # Retry-After: 1 is honoured before the next read (the interval alone is 100 ms).
    assert gets[last_429 + 1]["started_at"] - gets[last_429]["finished_at"] >= 0.9
    states = " ".join(entry["state"] for entry in waited["wait"]["history"])
    assert "service unavailable" in states and "too many requests" in states


# --- transient faults ridden out during a wait ---------------------------------------------------------------


def test_one_empty_read_and_a_null_entry_tolerated(sim, tmp_path):
    sim.admin.configure(name_overrides={"web": {"ssh_delay": 150}})  # sshd 3 s after RUNNING
    bg = Background(sim, tmp_path, play(pod_task("create", wait_args())))
    pod_id = wait_until_polling(sim, bg, polls=2)
    route = LIST_ROUTE
    for kind in ("empty_list", "null_entry"):
        sim.admin.inject_fault(route, kind, method="GET", count=1)
        deadline = time.monotonic() + 20
        while sim.admin.faults() and time.monotonic() < deadline:
            time.sleep(0.05)
    result = bg.result()
    assert result.rc == 0, result.stdout + result.stderr
    created = result.task_result("create")
    assert created["changed"] is True and created["pod"]["id"] == pod_id
    assert created["wait"]["ready_detail"] == f"ssh reachable at 127.0.0.1:{ssh_port(sim, pod_id)}"
    assert "pod not listed in the last read" in [entry["state"] for entry in created["wait"]["history"]]
    kinds = [kind for entry in list_gets(sim) for kind in entry["faults"]]
    assert kinds == ["empty_list", "null_entry"]
    assert sim.admin.count("POST", r"^/v2/pods$") == 1


# --- fatal: out-of-band terminate/stop, 401 -----------------------------------------------------------------


def test_terminated_out_of_band_is_not_found_after_two_reads(sim, tmp_path):
    sim.admin.configure(name_overrides={"web": {"ssh_behaviour": "refused"}})
    bg = Background(sim, tmp_path, play(pod_task("create", wait_args())))
    pod_id = wait_until_polling(sim, bg, polls=2)
    sim.admin.terminate_pod(pod_id)
    after = time.time()
    result = bg.result()
    outcome = result.task_result("create")
    assert outcome["failed"] is True and outcome["changed"] is True and outcome["code"] == "not_found"
    assert outcome["id"] == pod_id and outcome["pod"]["id"] == pod_id
    assert f"pod {pod_id} is no longer listed, so it was terminated or deleted while waiting" in outcome["msg"]
    # A pod that is gone neither bills nor needs deleting: the message says so instead of the usual remedy.
    assert "bills" not in outcome["msg"] and "state=absent" not in outcome["msg"]
    assert "no longer exists" in outcome["msg"]
    assert 1 <= len(list_gets(sim, after=after)) <= 2
    assert sim.admin.count("DELETE") == 0


def test_stopped_out_of_band_is_a_conflict_at_once(sim, tmp_path):
    sim.admin.configure(name_overrides={"web": {"ssh_behaviour": "refused"}})
    bg = Background(sim, tmp_path, play(pod_task("create", wait_args())))
    pod_id = wait_until_polling(sim, bg, polls=2)
    sim.admin.stop_pod(pod_id)
    after = time.time()
    result = bg.result()
    outcome = result.task_result("create")
    assert_failure_names_pod(outcome, pod_id, "conflict")
    assert f"pod {pod_id} is exited, so the wait cannot succeed" in outcome["msg"]
    assert outcome["pod"]["runtime_status"] == "stopped"
    assert len(list_gets(sim, after=after)) <= 1
    assert_kept(sim, pod_id, "EXITED")


def test_401_in_the_middle_of_a_wait_fails_at_the_first_401(sim, tmp_path):
    sim.admin.configure(name_overrides={"web": {"ssh_behaviour": "refused"}})
    bg = Background(sim, tmp_path, play(pod_task("create", wait_args())))
    pod_id = wait_until_polling(sim, bg, polls=3)
    sim.admin.inject_fault(LIST_ROUTE, "status", method="GET", status=401, duration=60)
    result = bg.result()
    outcome = result.task_result("create")
    assert_failure_names_pod(outcome, pod_id, "unauthorized")
    assert outcome["status"] == 401
    # Never retried: the first 401 read ended the wait (how fast is measured by make bench).
    assert sim.admin.count("GET", rf"^{LIST_ROUTE}$", status=401) == 1
    assert_kept(sim, pod_id, "RUNNING")


@pytest.mark.core
@pytest.mark.parametrize("where", ["controller", "module"])
def test_sigterm_during_wait_is_wait_interrupted(sim, tmp_path, where):
    # The action plugin waits in the ansible-playbook worker; RUNPOD_CLOUD_CONTROLLER_WAIT=false makes the
    # module wait by itself. Either way SIGTERM to the waiting process gives the same wait_interrupted result.
    env = {"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"} if where == "module" else None
    sim.admin.configure(name_overrides={"web": {"ssh_behaviour": "refused"}})
    bg = Background(sim, tmp_path, play(pod_task("create", wait_args())), env=env)
    # Three list reads after the create: the name re-check after a create, then two of the wait's polls.
    pod_id = wait_until_polling(sim, bg, polls=3)
    bg.signal_waiter(where, signal.SIGTERM)
    result = bg.result()
    outcome = result.task_result("create")
    assert_failure_names_pod(outcome, pod_id, "wait_interrupted")
    assert outcome["msg"].startswith("interrupted after ")
    # A RUNNING pod whose mappings are not yet published is re-read sooner (an imminent state), so two list
    # reads may be one counted poll.
    assert outcome["wait"]["polls"] >= 1
    assert_kept(sim, pod_id, "RUNNING")


@pytest.mark.core
def test_interrupts_outside_the_wait_still_name_the_pod_and_ctrl_c_keeps_it(sim, run_playbook, tmp_path):
    """SIGTERM while the create is in flight: the pod it made is reported. Ctrl-C on ansible-playbook: kept."""
    for part in ("term", "int", "rerun"):
        (tmp_path / part).mkdir()
    # The create is held in the simulator (a barrier for two, listed until deleted: count 2) until the signal is
    # sent, so the signal always lands while the create is in flight. (The request log shows a request once
    # answered: a signal sent then could reach a module that had already returned.)
    hold = sim.admin.inject_fault(LIST_ROUTE, "hold", method="POST", parties=2, timeout=120, count=2)
    bg = Background(sim, tmp_path / "term", play(pod_task("create", wait_args())))
    module = bg.module_pid()
    bg.until(lambda: any(rule["id"] == hold["id"] and rule["waiting"] == 1 for rule in sim.admin.faults()),
             timeout=30, what="the create held in the simulator")
    os.kill(module, signal.SIGTERM)
    sim.admin.delete_fault(hold["id"])
    outcome = bg.result().task_result("create")
    (pod_id,) = [pod["id"] for pod in sim.admin.pods()]
    assert outcome["failed"] is True and outcome["changed"] is True and outcome["code"] == "interrupted"
    assert outcome["id"] == pod_id and outcome["pod"]["id"] == pod_id
    assert f"runpod.cloud.pod id={pod_id} state=absent" in outcome["msg"]
    assert "wait" not in outcome  # the wait never started
    assert_kept(sim, pod_id)

    # Ctrl-C reaches ansible-playbook itself: Ansible drops the task's result and prints only its own line.
    sim.admin.reset()
    sim.admin.configure(name_overrides={"web": {"ssh_behaviour": "refused"}})
    bg = Background(sim, tmp_path / "int", play(pod_task("create", wait_args(name="web"))))
    web = wait_until_polling(sim, bg, polls=2)
    bg.process.send_signal(signal.SIGINT)
    interrupted = bg.result()
    assert interrupted.rc == 99 and "User interrupted execution" in interrupted.stderr, (
        interrupted.stdout[-3000:] + interrupted.stderr[-3000:]
    )
    assert_kept(sim, web, KEPT)
    # The documented way back to the id: the task again (or pod_info by name) finds the pod, never a second one.
    rerun = run_playbook(tmp_path / "rerun", play(pod_task("find", {"name": "web", "state": "present"})))
    found = rerun.task_result("find")
    assert found["changed"] is False and found["pod"]["id"] == web
    assert sim.admin.count("POST", r"^/v2/pods$") == 1


# --- create that answered 5xx -------------------------------------------------------------------------------


def test_500_after_create_adopts_and_rerun_makes_no_second_pod(sim, run_playbook, tmp_path):
    route = LIST_ROUTE
    sim.admin.inject_fault(route, "error_after_create", method="POST", status=500)
    args = {k: v for k, v in wait_args().items() if not k.startswith("wait")}
    result = run_playbook(tmp_path, play(pod_task("create", args), pod_task("rerun", args)))
    assert result.rc == 0, result.stdout + result.stderr
    created, rerun = result.task_result("create"), result.task_result("rerun")
    pod_id = created["pod"]["id"]
    assert created["changed"] is True and created["actions"] == ["adopt"]
    assert any(f"pod {pod_id} named 'web' is listed" in warning for warning in created["warnings"])
    assert rerun["changed"] is False and rerun["pod"]["id"] == pod_id
    assert sim.admin.count("POST", rf"^{route}$") == 1
    assert [p["id"] for p in sim.admin.pods()] == [pod_id]


def test_500_without_a_pod_fails_and_never_reposts(sim, run_playbook, tmp_path):
    route = LIST_ROUTE
    sim.admin.inject_fault(route, "status", method="POST", status=500)
    args = {k: v for k, v in wait_args().items() if not k.startswith("wait")}
    text = play(pod_task("create", args, ignore_errors=True), pod_task("rerun", args))
    result = run_playbook(tmp_path, text)
    failed = result.task_result("create")
    assert failed["failed"] is True and failed["changed"] is False and failed["code"] == "server_error"
    assert "no pod with that name is listed" in failed["msg"]
    rerun = result.task_result("rerun")
    assert rerun["changed"] is True and rerun["actions"] == ["create"]
    assert sim.admin.count("POST", rf"^{route}$") == 2
    assert [p["id"] for p in sim.admin.pods()] == [rerun["pod"]["id"]]


# --- secrets ------------------------------------------------------------------------------------------------


@pytest.mark.core
def test_api_key_never_in_verbose_output(run_playbook, tmp_path):
    from runpod_sim.testing import start_simulator

    key = "rpa_NEVERLEAK_5f0c2b9e7d41a8"
    wrong = "rpa_WRONGKEY_1a2b3c4d5e6f70"
    with start_simulator(api_key=key, time_scale=0.02) as own:
        env = own.env()
        text = play(
            pod_task("create", wait_args(api_key=key)),
            pod_task("wrong key", wait_args(api_key=wrong), ignore_errors=True),
        )
        result = run_playbook(tmp_path, text, env=env, extra_args=["-vvvv"])
    assert result.rc == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.task_result("create")["wait"]["ready_detail"].startswith("ssh reachable at")
    wrong_outcome = result.task_result("wrong key")
    assert wrong_outcome["failed"] is True and wrong_outcome["code"] == "unauthorized"
    for secret in (key, wrong):
        assert secret not in result.stdout and secret not in result.stderr
