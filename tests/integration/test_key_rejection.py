# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A private key pasted where a public key is taken is refused before any request, and echoed nowhere.

Real ``ansible-playbook`` at -vvvv against the simulator, with a real ``ssh-keygen`` private key: the pod module's
``ssh_public_key``, the ``ssh_key`` module's ``key`` and the ``hosts`` role's ``hosts_ssh_public_key``.
"""

from __future__ import annotations

import subprocess

import pytest
from helpers.playbooks import MASKS_SECRETS, module_task, play, pod_task

GPU = "NVIDIA RTX A4000"


@pytest.fixture
def private_key(tmp_path):
    path = tmp_path / "leak_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "leak", "-f", str(path)], check=True)
    text = path.read_text()
    # Every line of key material (the header and footer say only what it is).
    secrets = [line for line in text.splitlines() if line and not line.startswith("-----")]
    assert secrets
    return text, secrets


def assert_not_echoed(result, secrets):
    for secret in secrets:
        assert secret not in result.stdout and secret not in result.stderr


@pytest.mark.core  # on ansible-core 2.22 the refused key's masking is the core's part (base.hide_secrets)
def test_a_pod_task_with_a_private_key_fails_before_any_request(sim, run_playbook, tmp_path, private_key):
    text, secrets = private_key
    args = {"name": "leak", "image": "runpod/base:0.6.2-cuda12.4.1", "gpu_type_ids": [GPU], "ssh_public_key": text}
    tasks = [pod_task("leak", args, ignore_errors=True), module_task("ssh_key", "ssh_key", {"key": text},
                                                                     ignore_errors=True)]
    if MASKS_SECRETS:  # the module registered the key (base.hide_secrets): ansible-core 2.22 masks it from then on
        tasks.append(f"""
    - name: show the key
      ansible.builtin.debug:
        msg: "{{{{ lookup('ansible.builtin.file', '{tmp_path / "leak_ed25519"}') }}}}"
""")
    result = run_playbook(tmp_path, play(*tasks), extra_args=["-vvvv"])
    outcome = result.task_result("leak")
    assert outcome["failed"] is True and outcome["code"] == "bad_request"
    assert outcome["msg"].startswith("ssh_public_key looks like a private key")
    keys = result.task_result("ssh_key")
    assert keys["failed"] is True and keys["code"] == "bad_request" and keys["msg"].startswith("key looks like")
    assert sim.admin.requests() == []
    assert_not_echoed(result, secrets)
    if MASKS_SECRETS:
        assert result.task_result("show the key")["msg"] == "$REDACTED$"


@pytest.mark.core
def test_the_hosts_role_refuses_a_private_key_without_echo(sim, run_playbook, tmp_path, private_key):
    text, secrets = private_key
    indented = "".join(f"  {line}\n" for line in text.splitlines())
    (tmp_path / "vars.yml").write_text(f"hosts_ssh_public_key: |\n{indented}")
    playbook = f"""
- name: Provision with the role
  hosts: localhost
  gather_facts: false
  vars_files: [vars.yml]
  tasks:
    - name: Run the hosts role
      ansible.builtin.include_role:
        name: runpod.cloud.hosts
      vars:
        hosts_group: leak
        hosts_work_dir: {tmp_path / "work"}
        hosts_pods:
          - name: leak-a
            image: runpod/base:0.6.2-cuda12.4.1
            gpu_type_ids: ["{GPU}"]
"""
    result = run_playbook(tmp_path, playbook, extra_args=["-vvvv"])
    assert result.rc != 0
    assert "ssh_public_key looks like a private key" in result.stdout
    assert sim.admin.requests() == []
    assert_not_echoed(result, secrets)
