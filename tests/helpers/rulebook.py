"""Running a shipped rulebook with the real ``ansible-rulebook`` against the simulator (tests/integration), and
polling for what it does (never sleeping for time to pass)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

from helpers.paths import COLLECTIONS_ROOT, VENV_BIN
from helpers.playbooks import DEPRECATION

ANSIBLE_RULEBOOK = VENV_BIN / "ansible-rulebook"


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def start_rulebook(sim: Any, tmp_path: Path, rulebook: str, variables: str) -> subprocess.Popen:
    """``ansible-rulebook -r runpod.cloud.<rulebook>`` on localhost with ``variables`` (YAML) and the simulator's
    ``RUNPOD_*`` env; stdout and stderr together in ``stdout``."""
    assert ANSIBLE_RULEBOOK.exists(), "ansible-rulebook is missing: make venv installs requirements-dev.txt"
    (tmp_path / "inventory.yml").write_text(
        "all:\n  hosts:\n    localhost:\n      ansible_connection: local\n"
        "      ansible_python_interpreter: \"{{ ansible_playbook_python }}\"\n"
    )
    (tmp_path / "vars.yml").write_text(variables)
    env = {
        **os.environ,
        **sim.env(),
        "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible-local"),
        "ANSIBLE_NOCOLOR": "1",
    }
    command = [str(ANSIBLE_RULEBOOK), "-r", f"runpod.cloud.{rulebook}", "-i", str(tmp_path / "inventory.yml"),
               "--vars", str(tmp_path / "vars.yml"), "--shutdown-delay", "30"]
    return subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(process: subprocess.Popen, timeout: float = 120) -> str:
    """The rulebook's output once it ended by itself (its source's ``run_time``); killed if it did not.
    ``AssertionError`` when its playbooks printed a deprecation warning (as for any playbook run of the suites)."""
    try:
        output = process.communicate(timeout=timeout)[0]
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    said = [line for line in output.splitlines() if DEPRECATION in line]
    assert not said, "the rulebook's playbooks printed deprecation warnings (fix their cause):\n" + "\n".join(said)
    return output
