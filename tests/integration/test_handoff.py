# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The hand-off as a new user runs it (issue 52): runpod.cloud.pod's own ``add_host`` EXAMPLES, as written, on a
controller with Ansible's defaults (host key checking on, ssh's own options) whose known_hosts has never seen the
pod (every pod port is new); the pod's sshd is the simulator's real one. A file of another key refused at the end
shows what trusts the key: ssh_args' own file, nothing learnt on first use.

One scenario, two ``ansible-playbook`` runs: the first is interrupted as a terminal's Ctrl-C does it (SIGINT to the
whole process group) while its wait holds, and must have said up front what that keeps; the second, the same
playbook, resumes on the same pod (no second create), connects over SSH with ``ssh.ssh_args``, and prints an
``ssh.command`` that logs in as printed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from helpers.playbooks import Background
from helpers.simulated import FOREVER
from test_pod_wait import KEPT, assert_kept

from ansible_collections.runpod.cloud.plugins.modules import pod as pod_module

pytestmark = pytest.mark.core

EXAMPLE_TASKS = ("Create a GPU pod and wait until SSH answers", "Add the pod to the inventory",
                 "List the pod's GPUs over SSH", "Show how to log in by hand (the same host key settings)")


def handoff_playbook(key: Path) -> str:
    """The module's EXAMPLES tasks up to the command over SSH, unchanged; the play only polls faster (module_defaults,
    so the tasks stay as written), then logs in again with a key file given (ssh.command's ``-i``)."""
    examples = {task["name"]: task for task in yaml.safe_load(pod_module.EXAMPLES)}
    tasks = [examples[name] for name in EXAMPLE_TASKS]
    tasks.append({"name": "Wait for a login with a key file", "register": "login",
                  "runpod.cloud.pod": {"name": "trainer", "wait": True, "wait_for": "login",
                                       "ssh_private_key_file": str(key)}})
    return yaml.safe_dump([{
        "name": "The pod module's hand-off example", "hosts": "localhost", "gather_facts": False,
        "module_defaults": {"runpod.cloud.pod": {"wait_interval": "200ms"}},
        "tasks": tasks,
    }], sort_keys=False)


def controller_env(home: Path, agent: str) -> dict[str, str | None]:
    """Ansible's defaults for SSH: host key checking on, its own ssh_args (none of the harness's), this HOME and the
    user's key in an agent (ssh finds ``~/.ssh`` through the password database, not HOME)."""
    return {"HOME": str(home), "SSH_AUTH_SOCK": agent, "ANSIBLE_HOST_KEY_CHECKING": "True", "ANSIBLE_SSH_ARGS": None}


def login(command: str, home: Path, agent: str | None = None) -> subprocess.CompletedProcess:
    """``ssh.command`` pasted into a shell, with ``true`` to run; nothing to answer a prompt with."""
    env = {key: value for key, value in os.environ.items() if key != "SSH_AUTH_SOCK"}
    env.update({"HOME": str(home), **({"SSH_AUTH_SOCK": agent} if agent else {})})
    return subprocess.run(f"{command} true", shell=True, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False)


@pytest.fixture
def agent(tmp_path):
    """An ssh-agent of this test's own (a short socket path: unix sockets have a length limit)."""
    socket = os.path.join(tempfile.mkdtemp(prefix="rpag_"), "agent")
    process = subprocess.Popen(["ssh-agent", "-D", "-a", socket], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(socket):
            assert time.monotonic() < deadline and process.poll() is None, "ssh-agent did not start"
            time.sleep(0.02)
        yield socket
    finally:
        process.terminate()
        process.wait(10)


def test_the_add_host_example_connects_checking_the_key_and_an_interrupt_keeps_the_pod_for_a_rerun(
        sim, run_playbook, tmp_path, agent):
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True, mode=0o700)
    key = home / ".ssh" / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    subprocess.run(["ssh-add", "-q", str(key)], env={**os.environ, "SSH_AUTH_SOCK": agent}, check=True,
                   capture_output=True)
    playbook = handoff_playbook(key)
    sim.admin.configure(name_overrides={"trainer": {"ssh_delay": FOREVER}})

    # Ctrl-C while the wait holds: the whole process group gets SIGINT, so nothing can print after it.
    (tmp_path / "interrupted").mkdir()
    bg = Background(sim, tmp_path / "interrupted", playbook, env=controller_env(home, agent), new_session=True)
    first_line = bg.until(lambda: next((line for line in bg.stdout_path.read_text().splitlines()
                                        if line.startswith("waiting for ssh on pod ")), None),
                          what="the wait's first line")
    (pod_id,) = [pod["id"] for pod in sim.admin.pods()]
    os.killpg(bg.process.pid, signal.SIGINT)
    interrupted = bg.result()
    assert interrupted.rc != 0
    # (15m0s, or 15m once durations print as given)
    assert re.fullmatch(rf"waiting for ssh on pod {pod_id} \(timeout 15m(0s)?; Ctrl-C keeps the pod, a rerun resumes\)",
                        first_line), first_line
    assert_kept(sim, pod_id, KEPT)  # at whatever point of its boot Ctrl-C came

    # The rerun resumes on the kept pod and hands off over real SSH, the key checked, known_hosts untouched.
    sim.admin.set_pod_behaviour(pod_id, ssh_delay=0)
    (tmp_path / "rerun").mkdir()
    rerun = run_playbook(tmp_path / "rerun", playbook, env=controller_env(home, agent))
    assert rerun.rc == 0, rerun.stdout[-4000:] + rerun.stderr[-3000:]
    created = rerun.task_result(EXAMPLE_TASKS[0])
    assert created["changed"] is False and created["pod"]["id"] == pod_id
    assert sim.admin.count("POST", r"^/v2/pods$") == 1
    ssh = created["pod"]["ssh"]
    known = home / ".cache" / "runpod.cloud" / "known_hosts" / f"known_hosts_{pod_id}"
    assert ssh["host_key_check"] == "verified"
    assert ssh["ssh_args"] == f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={known}"
    assert sorted(line.split(" ", 1)[1] for line in known.read_text().splitlines()) == sorted(
        sim.admin.pod(pod_id)["host_keys"])
    ran = rerun.task_result(EXAMPLE_TASKS[2])
    assert ran["rc"] == 0 and ran["stdout"].startswith("GPU 0: NVIDIA GeForce RTX 4090"), ran

    # ssh.command logs in as printed: the key checked, the user's key from the agent.
    printed = rerun.task_result(EXAMPLE_TASKS[3])["msg"]
    assert printed == ssh["command"] == f"ssh {ssh['ssh_args']} -p {ssh['port']} root@{ssh['host']}"
    done = login(printed, home, agent)
    assert done.returncode == 0, done.stderr
    # With ssh_private_key_file, -i: it logs in with no agent and a HOME that has no key of its own.
    with_key = rerun.task_result("Wait for a login with a key file")["pod"]["ssh"]["command"]
    assert f" -i {key} " in with_key
    elsewhere = tmp_path / "empty-home"
    elsewhere.mkdir()
    done = login(with_key, elsewhere)
    assert done.returncode == 0, done.stderr
    # Another key in the file is refused: the options trust the file, nothing else.
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "other")], check=True)
    other = (tmp_path / "other.pub").read_text().split()[:2]
    known.write_text(f"[{ssh['host']}]:{ssh['port']} {' '.join(other)}\n")
    refused = login(printed, home, agent)
    assert refused.returncode != 0 and "Host key verification failed" in refused.stderr
