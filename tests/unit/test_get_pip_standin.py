# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""hack/get_pip_standin.py: what ansible-test's get-pip call becomes, with uv and without it.

``make sanity`` on a fresh machine (every CI run) goes through it for each sanity virtualenv; a clean run of the
sanity suite proves the whole path, these tests the choices it makes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from helpers.paths import REPO_ROOT

SPEC = importlib.util.spec_from_file_location("get_pip_standin", REPO_ROOT / "hack" / "get_pip_standin.py")
standin = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(standin)

# What ansible-test 2.19 passes (ansible_test/_util/target/setup/requirements.py: bootstrap).
ANSIBLE_TEST_ARGS = ["--disable-pip-version-check", "pip==24.2", "--no-setuptools", "--no-wheel"]


def test_uv_installs_the_pinned_pip_into_the_virtualenv_and_nothing_else():
    command = standin.uv_command("/bin/uv", "/venv/bin/python", ANSIBLE_TEST_ARGS)
    assert command == ["/bin/uv", "pip", "install", "--quiet", "--native-tls", "--python", "/venv/bin/python",
                       "pip==24.2"]


@pytest.mark.parametrize(
    ("flags", "extra"),
    [([], ["setuptools", "wheel"]), (["--no-wheel"], ["setuptools"]), (["--no-setuptools"], ["wheel"])],
)
def test_setuptools_and_wheel_come_along_unless_ansible_test_says_no(flags, extra):
    command = standin.uv_command("uv", "python", ["pip==24.2", *flags])
    assert command[command.index("python") + 1:] == ["pip==24.2", *extra]


def test_an_option_uv_is_not_given_leaves_it_to_pip():
    assert standin.uv_command("uv", "python", ["--index-url", "https://mirror.example.test/simple", "pip"]) is None


class Calls:
    def __init__(self, uv_status):
        self.uv_status = uv_status
        self.commands = []

    def call(self, command):
        self.commands.append(command)
        return self.uv_status if command[0] == "/bin/uv" else 0

    def check_call(self, command):
        self.commands.append(command)
        return 0


@pytest.mark.parametrize(("uv", "uv_status", "pip_runs"), [("/bin/uv", 0, False), ("/bin/uv", 2, True),
                                                           (None, 0, True)])
def test_pip_through_ensurepip_only_without_uv_or_when_uv_fails(monkeypatch, uv, uv_status, pip_runs):
    calls = Calls(uv_status)
    monkeypatch.setattr(standin.shutil, "which", lambda name: uv if name == "uv" else None)
    monkeypatch.setattr(standin.subprocess, "call", calls.call)
    monkeypatch.setattr(standin.subprocess, "check_call", calls.check_call)
    monkeypatch.setattr(standin.sys, "argv", ["get_pip.py", *ANSIBLE_TEST_ARGS])
    monkeypatch.setattr(standin.sys, "executable", "/venv/bin/python")

    assert standin.main() == 0
    pip_commands = [["/venv/bin/python", "-m", "ensurepip", "--upgrade"],
                    ["/venv/bin/python", "-m", "pip", "install", "--disable-pip-version-check", "pip==24.2"]]
    uv_commands = [command for command in calls.commands if command[0] == "/bin/uv"]
    assert len(uv_commands) == (1 if uv else 0)
    assert [command for command in calls.commands if command[0] != "/bin/uv"] == (pip_commands if pip_runs else [])


def test_ansible_test_still_takes_get_pip_from_the_cache_file_make_sanity_fills():
    """The one step ``make sanity`` takes outside ansible-test (docs/dev/developing.md, "Sanity offline") relies on
    two private parts of ansible-test: its pip pin in ``python_requirements.py`` (hack/ansible_test_pip_version.py
    reads it) and the cache file its bootstrap reads before it would download get-pip. When either moves, this
    fails, before a fresh machine's sanity run fails on the download."""
    import subprocess
    import sys

    import ansible_test

    root = Path(ansible_test.__file__).parent
    bootstrap = (root / "_util" / "target" / "setup" / "requirements.py").read_text()
    cache = """cache_path = os.path.expanduser('~/.ansible/test/cache/get_pip_%s.py' % pip_version.replace(".", "_"))"""
    assert cache in bootstrap
    assert "if os.path.exists(cache_path):" in bootstrap  # the cache wins over the download
    assert "env.update(GET_PIP=cache_path)" in bootstrap  # and is what runs
    version = subprocess.run([sys.executable, str(REPO_ROOT / "hack" / "ansible_test_pip_version.py")],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert re.fullmatch(r"\d+(\.\d+)+", version), version
