# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``ssh.ssh_args`` and ``ssh.command``: the hand-off's host key settings the action plugins add on the controller
(plugins/plugin_utils/_known_hosts.py; docs/pods.md, "Trusting the pod's host key")."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from test_wait_action import KEY, _Action, action

from ansible_collections.runpod.cloud.plugins.inventory import runpod as inventory
from ansible_collections.runpod.cloud.plugins.module_utils._module import specs
from ansible_collections.runpod.cloud.plugins.modules import pod
from ansible_collections.runpod.cloud.plugins.plugin_utils import _known_hosts

LINES = ["[203.0.113.7]:40123 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL", "[203.0.113.7]:40123 ecdsa-sha2-nistp256 AAAAE2"]


def _ssh(**extra):
    return {"host": "203.0.113.7", "port": 40123, "user": "root", "command": "ssh root@203.0.113.7 -p 40123", **extra}


def test_a_checked_pod_gets_options_that_trust_only_its_own_known_hosts_file(tmp_path):
    directory = tmp_path / "my dir's keys"
    result = {"pod": {"id": "pod-1", "ssh": _ssh(host_keys=LINES, host_key_check="verified")}}
    _known_hosts.with_ssh_args(result, str(directory))
    ssh = result["pod"]["ssh"]
    path = directory / "known_hosts_pod-1"
    assert path.read_text() == "".join(line + "\n" for line in sorted(LINES))
    # As Ansible's ssh connection splits ansible_ssh_common_args (shlex), and as a shell splits the command.
    assert shlex.split(ssh["ssh_args"]) == ["-o", "StrictHostKeyChecking=yes", "-o", f"UserKnownHostsFile={path}"]
    assert shlex.split(ssh["command"]) == ["ssh", "-o", "StrictHostKeyChecking=yes", "-o", f"UserKnownHostsFile={path}",
                                           "-p", "40123", "root@203.0.113.7"]
    assert "accept-new" not in ssh["command"] and "=no" not in ssh["command"]


def test_nothing_checked_means_no_options_and_the_plain_command(tmp_path):
    result = {"pod": {"id": "pod-1", "ssh": _ssh()}, "pods": [{"id": "pod-2", "ssh": None}, {"id": "pod-3"}]}
    _known_hosts.with_ssh_args(result, str(tmp_path / "k"))
    assert result["pod"]["ssh"]["ssh_args"] is None
    assert result["pod"]["ssh"]["command"] == "ssh root@203.0.113.7 -p 40123"
    assert result["pods"] == [{"id": "pod-2", "ssh": None}, {"id": "pod-3"}]
    assert not (tmp_path / "k").exists()  # nothing trusted, nothing written


def test_every_pod_of_a_fleet_pod_info_or_cluster_gets_its_own_file_and_the_key_file_is_its_dash_i(tmp_path):
    other = [line.replace("40123", "40124") for line in LINES]
    result = {"pods": [{"id": "a", "ssh": _ssh(host_keys=LINES)}, {"id": "b", "ssh": _ssh(port=40124, host_keys=other)},
                       {"id": "c", "ssh": _ssh()}]}
    _known_hosts.with_ssh_args(result, str(tmp_path), "~/keys/id ed25519")
    a, b, c = (pod["ssh"] for pod in result["pods"])
    assert (tmp_path / "known_hosts_a").read_text().count("40123") == 2
    assert (tmp_path / "known_hosts_b").read_text().count("40124") == 2
    key = str(Path("~/keys/id ed25519").expanduser())
    assert shlex.split(b["command"])[-5:] == ["-i", key, "-p", "40124", "root@203.0.113.7"]
    # Unchecked: no options, but the key file still makes the command log in as the task said.
    assert c["ssh_args"] is None and shlex.split(c["command"]) == ["ssh", "-i", key, "-p", "40123", "root@203.0.113.7"]
    assert a["ssh_args"] != b["ssh_args"]


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30))
def test_any_directory_name_survives_the_split_ansible_and_a_shell_make(name):
    path = f"/nonexistent/{name.replace('/', '_')}/known_hosts_x"
    assert shlex.split(_known_hosts.ssh_common_args(path))[-1] == f"UserKnownHostsFile={path}"
    ssh = dict(_ssh(user=name), ssh_args=_known_hosts.ssh_common_args(path))
    assert shlex.split(_known_hosts.ssh_command(ssh, path)) == [
        "ssh", "-o", "StrictHostKeyChecking=yes", "-o", f"UserKnownHostsFile={path}", "-i", path, "-p", "40123",
        f"{name}@203.0.113.7"]


def test_the_action_plugin_writes_the_file_in_known_hosts_dir_whoever_waited(monkeypatch, tmp_path):
    """The module waited by itself (no handoff) on another host: the file is still the controller's."""
    answer = {"changed": True, "pod": {"id": "pod-9", "ssh": _ssh(host_keys=LINES)}}
    monkeypatch.setattr(_Action, "_execute_module", lambda self, task_vars=None, wrap_async=False: dict(answer))
    monkeypatch.setattr(_Action, "_remove_tmp_path", lambda self, path: None)
    args = {"api_key": KEY, "known_hosts_dir": str(tmp_path / "kh"), "ssh_private_key_file": str(tmp_path / "id")}
    result = action(args, transport="ssh").run(task_vars={})
    ssh = result["pod"]["ssh"]
    assert ssh["ssh_args"] == f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={tmp_path}/kh/known_hosts_pod-9"
    assert ssh["command"] == f"ssh {ssh['ssh_args']} -i {tmp_path}/id -p 40123 root@203.0.113.7"
    assert (tmp_path / "kh" / "known_hosts_pod-9").exists()


def test_the_default_directory_is_the_inventorys(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    answer = {"changed": True, "pod": {"id": "pod-9", "ssh": _ssh(host_keys=LINES)}}
    monkeypatch.setattr(_Action, "_execute_module", lambda self, task_vars=None, wrap_async=False: dict(answer))
    monkeypatch.setattr(_Action, "_remove_tmp_path", lambda self, path: None)
    action({"api_key": KEY}, transport="ssh").run(task_vars={})
    assert (tmp_path / ".cache/runpod.cloud/known_hosts/known_hosts_pod-9").exists()


def test_the_modules_and_the_inventory_share_one_default_directory():
    documented = yaml.safe_load(inventory.DOCUMENTATION)["options"]["known_hosts_dir"]["default"]
    assert documented == _known_hosts.DEFAULT_DIR == pod.ARGUMENT_SPEC["known_hosts_dir"]["default"]
    assert specs.HOST_KEY_ARGUMENT_SPEC["known_hosts_dir"]["default"] == _known_hosts.DEFAULT_DIR


@pytest.mark.parametrize("pod_id", ["../../etc/x", "a/b", ".hidden", "", None])
def test_a_pod_id_that_is_no_file_name_trusts_nothing_and_writes_nothing(tmp_path, pod_id):
    result = {"pod": {"id": pod_id, "ssh": _ssh(host_keys=LINES)}}
    _known_hosts.with_ssh_args(result, str(tmp_path / "k"))
    assert result["pod"]["ssh"]["ssh_args"] is None and not (tmp_path / "k").exists()
    with pytest.raises(ValueError, match="refusing"):
        _known_hosts.known_hosts_path(str(tmp_path), pod_id)
