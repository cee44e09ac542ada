# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The controller-side pod wait keeps every Ansible feature working: check mode, diff, no_log, async,
delegation, -v detail, signals and a controller without httpx, with the same results as the module's own wait.

One playbook runs twice against a reset simulator: at -vvvv through the action plugin (the api key only in
module_defaults, from a vault), and with RUNPOD_CLOUD_CONTROLLER_WAIT=false (the module waits by itself).
The decisions themselves (and the 15 s heartbeat, with a FakeClock) are unit-tested in
tests/unit/plugins/action/test_wait_action.py.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from ansible.parsing.vault import VaultLib, VaultSecret
from helpers.playbooks import Background, play, pod_task
from helpers.same_results import normalise
from helpers.simulated import FOREVER, fresh_account
from test_pod_wait import (
    assert_failure_names_pod,
    assert_kept,
    list_gets,
    start_sshd_once_polled,
    wait_args,
    wait_until_polling,
)

pytestmark = pytest.mark.core

# Compared on both paths; "delegated" runs on the controller path only (it is the module's own wait anyway).
COMPARED = ("check", "diff", "secret", "async")
# What differs between two runs of an async task and is no part of the module's result.
ASYNC_KEYS = ("ansible_job_id", "results_file", "started", "finished")


def _task(name: str, args: dict, *keywords: str) -> str:
    return pod_task(name, args) + "".join(f"\n  {line}" for line in keywords)


def _playbook(sim, key_file=None) -> str:
    running = {"wait_for": "running", "wait_timeout": "20s"}
    tasks = [
        _task("check", wait_args("checked"), "check_mode: true"),
        # sshd answers 2 s after RUNNING: a few state changes to show with their times at -v.
        _task("diff", wait_args("booting"), "diff: true"),
        _task("secret", wait_args("hidden"), "no_log: true"),
        _task("async", wait_args("background", **running), "async: 60", "poll: 1"),
    ]
    plays = [tasks]
    if key_file is not None:
        public = (key_file.parent / f"{key_file.name}.pub").read_text().strip()
        tasks += [
            pod_task("jump", wait_args("jump", ssh_public_key=public), register="jump"),
            textwrap.dedent(
                f"""\
                - name: add the pod as a host
                  ansible.builtin.add_host:
                    name: gpu-pod
                    ansible_connection: ssh
                    ansible_host: "{{{{ jump.pod.ssh.host }}}}"
                    ansible_port: "{{{{ jump.pod.ssh.port }}}}"
                    ansible_user: root
                    ansible_ssh_private_key_file: {key_file}
                    ansible_python_interpreter: {sys.executable}
                """
            ),
            # The module runs on the pod, over ssh, and reaches the API there: it waits by itself.
            _task("delegated", wait_args("remote", api_url=sim.urls["api_v2"], **running), "delegate_to: gpu-pod"),
        ]
        # A play on the pod host with its API task delegated back to the controller: waits here again.
        plays.append([_task("back", wait_args("back", **running), "delegate_to: localhost")])
    # The key as users keep it: vaulted, in module_defaults only.
    defaults = "".join(f"  {line}\n" for line in (
        "vars_files: [vault.yml]", "module_defaults:", "  group/runpod.cloud.all:", '    api_key: "{{ key }}"'))
    hosts = ("localhost", "gpu-pod")
    return "".join(play(*each, hosts=host).replace("  tasks:\n", defaults + "  tasks:\n", 1)
                   for each, host in zip(plays, hosts[: len(plays)], strict=True))


def _vault(sim, directory):
    """``vault.yml`` with the api key vaulted as ``key``; returns the ansible-playbook options that open it."""
    (directory / "vault-password").write_text("correct horse\n")
    vaulted = VaultLib([("default", VaultSecret(b"correct horse"))]).encrypt(sim.api_key).decode()
    (directory / "vault.yml").write_text("key: !vault |\n" + textwrap.indent(vaulted, "  "))
    return ["--vault-password-file", str(directory / "vault-password")]


def _configure(sim, booting_ssh_delay=100):
    # The async task waits for RUNNING only, and the pod it returns is the wait's last read. The host publishes a
    # pod's port mappings 3 simulated seconds after RUNNING, so whether that read showed them (ssh, or
    # ssh_not_ready) depended on how long a loaded machine took between two polls. The background pod's mappings
    # never come, so both paths return it running without ports, whatever the machine's speed.
    sim.admin.configure(name_overrides={"booting": {"ssh_delay": booting_ssh_delay},
                                        "background": {"port_map_delay": FOREVER}})


def _pod_id(sim, name: str) -> str:
    (pod_id,) = [pod["id"] for pod in sim.admin.pods() if pod["name"] == name]
    return pod_id


def _compared(result, sim) -> dict:
    ids = {_pod_id(sim, name): f"<{name}>" for name in ("booting", "hidden", "background")}
    shaped = {}
    for name in COMPARED:
        task = {key: value for key, value in result.task_result(name).items() if key not in ASYNC_KEYS}
        shaped[name] = normalise(task, ids)
    return shaped


def test_check_diff_no_log_async_and_delegation_on_both_paths(sim, run_playbook, tmp_path):
    key_file = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key_file)], check=True)
    for part in ("controller", "module"):
        (tmp_path / part).mkdir()
    _configure(sim, booting_ssh_delay=FOREVER)
    bg = Background(sim, tmp_path / "controller", _playbook(sim, key_file), env={"RUNPOD_API_KEY": None},
                    extra_args=["-vvvv", *_vault(sim, tmp_path / "controller")])
    start_sshd_once_polled(sim, bg, "booting")
    live = bg.result(timeout=300)
    assert live.rc == 0, live.stdout[-4000:] + live.stderr[-4000:]
    out = live.stdout
    # The key was only in module_defaults (vaulted): never in the output, even at -vvvv.
    assert sim.api_key not in out and sim.api_key not in live.stderr

    # Check mode: nothing created, no handoff, no wait, no line.
    check = live.task_result("check")
    assert check["changed"] is True and "wait" not in check and "_runpod_wait_handoff" not in check
    assert "pod checked" not in out and not [pod for pod in sim.admin.pods() if pod["name"] == "checked"]

    # Diff on the controller path: the module's diff, and the live lines with their times at -v.
    diff = live.task_result("diff")
    booting = diff["pod"]["id"]
    assert diff["diff"]["before"] == {} and diff["diff"]["after"]["name"] == "booting"
    changes = re.findall(rf"^pod booting \({booting}\): (.*) \[\+(\d+\.\d)s\]$", out, re.M)
    assert [state for state, _stamp in changes] == [entry["state"] for entry in diff["wait"]["history"]], out[-4000:]
    assert [float(stamp) for _state, stamp in changes] == [
        round(entry["elapsed"], 1) for entry in diff["wait"]["history"]]
    assert len(changes) >= 2

    # no_log: the wait ran (the pod is up) but printed nothing about it, not even its start.
    hidden = _pod_id(sim, "hidden")
    assert hidden not in out and "pod hidden" not in out
    assert "censored" in live.task_result("secret")

    # async: the plain module ran and waited by itself: its result, no live line.
    background = live.task_result("async")
    assert background["wait"]["ready_detail"] == "pod running" and background["pod"]["runtime_status"] == "running"
    assert f"waiting for running on pod {background['pod']['id']}" not in out
    assert "pod background (" not in out

    # Delegated to a host reached over ssh: the module waited there, without an error and without lines.
    jump = live.task_result("jump")["pod"]["id"]
    assert f"pod jump ({jump}): " in out  # the local task before it did wait here
    delegated = live.task_result("delegated")
    assert delegated["wait"]["ready_detail"] == "pod running"
    assert "pod remote (" not in out and f"waiting for running on pod {delegated['pod']['id']}" not in out
    # delegate_to: localhost from a play on that host: the local connection again, so the wait runs here.
    back = live.task_result("back")
    assert back["_host"] == "gpu-pod" and back["wait"]["ready_detail"] == "pod running"
    assert re.search(rf"^pod back \({back['pod']['id']}\): pod running \[\+\d+\.\ds\]$", out, re.M), out[-4000:]

    live_results = _compared(live, sim)
    fresh_account(sim)
    _configure(sim)
    plain = run_playbook(tmp_path / "module", _playbook(sim), extra_args=_vault(sim, tmp_path / "module"),
                         env={"RUNPOD_API_KEY": None, "RUNPOD_CLOUD_CONTROLLER_WAIT": "false"})
    assert plain.rc == 0, plain.stdout[-4000:] + plain.stderr[-4000:]
    assert "pod booting (" not in plain.stdout
    plain_results = _compared(plain, sim)
    for name in COMPARED:
        assert live_results[name] == plain_results[name], name


def _until_refusing(sim, bg, pod_id, timeout=60.0):
    """Block until the wait has read the pod twice since its ssh port was mapped (and refusing): both paths
    are then interrupted in the same state."""
    deadline = time.monotonic() + timeout
    while "22" not in (sim.admin.pod(pod_id).get("listeners") or {}):
        assert time.monotonic() < deadline and bg.process.poll() is None, bg.stdout_path.read_text()
        time.sleep(0.05)
    mapped = time.time()
    while len(list_gets(sim, after=mapped)) < 2:
        assert time.monotonic() < deadline and bg.process.poll() is None, bg.stdout_path.read_text()
        time.sleep(0.05)


def test_sigint_during_the_wait_is_wait_interrupted_on_both_paths(sim, tmp_path):
    """SIGINT to the process that waits (the ansible-playbook worker, or the module) ends the wait cleanly.

    Ctrl-C at a terminal reaches ansible-playbook itself, which passes it on to its worker and stops
    (test_pod_wait.py: rc 99, the pod kept); what the worker then reports is this result.
    """
    outcomes = {}
    for where in ("controller", "module"):
        fresh_account(sim, name_overrides={"web": {"ssh_behaviour": "refused"}})
        (tmp_path / where).mkdir()
        env = {"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"} if where == "module" else None
        bg = Background(sim, tmp_path / where, play(pod_task("create", wait_args())), env=env)
        pod_id = wait_until_polling(sim, bg, polls=3)
        _until_refusing(sim, bg, pod_id)
        bg.signal_waiter(where, signal.SIGINT)
        result = bg.result()
        outcome = result.task_result("create")
        assert_failure_names_pod(outcome, pod_id, "wait_interrupted")
        assert outcome["msg"].startswith("interrupted after ")
        assert_kept(sim, pod_id, "RUNNING")
        if where == "controller":
            assert re.search(rf"^pod web \({pod_id}\): .*refused", result.stdout, re.M), result.stdout
        # Where the pod had got to when the signal came is a race (starting, or refusing on its ssh port).
        state = outcome["wait"]["last_state"]
        assert f"; last known state: {state}; " in outcome["msg"]
        outcome["wait"]["last_state"] = "<state>"
        outcome["msg"] = outcome["msg"].replace(f"; last known state: {state}; ", "; last known state: <state>; ")
        outcomes[where] = normalise(outcome, {pod_id: "<web>"})
    assert outcomes["controller"] == outcomes["module"]


def test_a_controller_without_httpx_or_pydantic_lets_the_module_wait(run_playbook, tmp_path):
    """The action plugin imports without them and runs the plain module, whose own Python has them."""
    # Packages that fail to import, as a missing one does, ahead of the installed ones on the controller's path.
    blocker = tmp_path / "no-httpx"
    for name in ("httpx", "pydantic"):
        (blocker / name).mkdir(parents=True)
        (blocker / name / "__init__.py").write_text(f"raise ImportError({f'No module named {name!r}'!r})\n")
    # PYTHONPATH reaches the controller (ansible-playbook) only: the task gives the module an empty one.
    text = play(_task("lean", wait_args("lean", wait_for="running"), "environment: {PYTHONPATH: ''}"))
    result = run_playbook(tmp_path, text, env={"PYTHONPATH": str(blocker)})
    assert result.rc == 0, result.stdout[-4000:] + result.stderr[-4000:]
    lean = result.task_result("lean")
    assert lean["wait"]["ready_detail"] == "pod running" and lean["pod"]["runtime_status"] == "running"
    assert "pod lean (" not in result.stdout and "waiting for running on pod" not in result.stdout
