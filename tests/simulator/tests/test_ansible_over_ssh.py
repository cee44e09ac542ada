# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The real ``ansible-playbook`` connects to a simulated pod over OpenSSH (ssh + sftp) and runs real tasks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import asyncssh
import pytest

from runpod_sim.testing import SIMULATOR_ROOT

PLAYBOOK = """
- hosts: pod
  gather_facts: true
  tasks:
    - name: gpu
      ansible.builtin.command: nvidia-smi --query-gpu=name --format=csv,noheader
      changed_when: false
      register: gpu
    - name: pod id
      ansible.builtin.command: sh -c 'echo $RUNPOD_POD_ID'
      changed_when: false
    - name: upload
      ansible.builtin.copy:
        content: "hello from ansible\\n"
        dest: "{{ pod_home }}/uploaded.txt"
"""


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")
def test_ansible_playbook_runs_setup_command_and_copy_on_a_pod(sim, v2, tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(key.export_private_key("openssh"))
    key_file.chmod(0o600)
    created = v2.post(
        "/pods",
        json={
            "name": "ansible-target",
            "image": "ubuntu",
            "ports": ["22/tcp"],
            "gpu": {"id": "NVIDIA L4", "count": 1},
            "env": {"PUBLIC_KEY": key.export_public_key().decode().strip()},
        },
    ).json()
    state = sim.admin.wait_pod(created["id"], "RUNNING", listening=True)
    port = v2.get(f"/pods/{created['id']}").json()["ssh"]["direct"]["port"]
    (tmp_path / "inventory.ini").write_text(
        f"pod ansible_host=127.0.0.1 ansible_port={port} ansible_user=root "
        f"ansible_ssh_private_key_file={key_file} ansible_python_interpreter=auto_silent pod_home={state['home']}\n"
    )
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    control_dir = tempfile.mkdtemp(prefix="rpcp_")
    env = {
        **os.environ,
        "ANSIBLE_STDOUT_CALLBACK": "sim_json",
        "ANSIBLE_CALLBACK_PLUGINS": str(SIMULATOR_ROOT / "ansible_plugins" / "callback"),
        "ANSIBLE_HOST_KEY_CHECKING": "False",
        "ANSIBLE_SSH_CONTROL_PATH_DIR": control_dir,
        "ANSIBLE_SSH_ARGS": "-o ControlMaster=auto -o ControlPersist=30s -o UserKnownHostsFile=/dev/null",
        "ANSIBLE_LOCAL_TEMP": str(tmp_path / "local-tmp"),
        "ANSIBLE_NOCOLOR": "1",
    }
    playbook = Path(sys.executable).parent / "ansible-playbook"
    done = subprocess.run(
        [str(playbook), "-i", "inventory.ini", "site.yml"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    shutil.rmtree(control_dir, ignore_errors=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(done.stdout[done.stdout.index("{") :])
    tasks = {task["task"]["name"]: task["hosts"]["pod"] for task in report["plays"][0]["tasks"]}
    assert tasks["Gathering Facts"]["ansible_facts"]["ansible_env"]["RUNPOD_POD_ID"] == created["id"]
    assert tasks["gpu"]["stdout"] == "NVIDIA L4"
    assert tasks["pod id"]["stdout"] == created["id"]
    assert tasks["upload"]["changed"] is True
    assert Path(state["home"], "uploaded.txt").read_text() == "hello from ansible\n"
    assert report["stats"]["pod"]["failures"] == 0 and report["stats"]["pod"]["unreachable"] == 0
