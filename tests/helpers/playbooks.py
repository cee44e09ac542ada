# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run the real ``ansible-playbook`` against a simulator, and build the playbook text the tests run.

``run_playbook(sim, tmp_path, text, ...)`` is what the integration fixture of the same name calls;
``Background(sim, tmp_path, text)`` starts the same run without waiting for it (for events during a wait).
Every run keeps its files under its own ``tmp_path`` and its SSH control sockets in a fresh directory, so
runs in parallel pytest-xdist workers never share state.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ansible.release import __version__ as ansible_version

from helpers.paths import COLLECTIONS_ROOT, SIMULATOR_ROOT, VENV_BIN

ANSIBLE_PLAYBOOK = VENV_BIN / "ansible-playbook"
# What ansible-core prints before a deprecation. A run whose output has it fails (no ansible-core from 2.16 to 2.22
# may warn of a deprecation in any suite); a test of the collection's own deprecations passes allow_deprecations.
DEPRECATION = "[DEPRECATION WARNING]"
# ansible-core 2.22 and later mask every registered secret in what callbacks and the display show ($REDACTED$).
MASKS_SECRETS = tuple(int(part) for part in ansible_version.split(".")[:2]) >= (2, 22)
CALLBACK_DIR = SIMULATOR_ROOT / "ansible_plugins" / "callback"
# The harness's ansible.cfg (what only the configuration file can set).
HARNESS_ANSIBLE_CFG = Path(__file__).resolve().parent / "ansible.cfg"


@dataclass
class PlaybookResult:
    """What ``ansible-playbook`` did: ``rc``, ``stdout``, ``stderr`` and the parsed JSON report."""

    rc: int
    stdout: str
    stderr: str
    report: dict[str, Any] | None = None
    command: list[str] = field(default_factory=list)

    @classmethod
    def parse(cls, rc: int, stdout: str, stderr: str, command: list[str],
              allow_deprecations: bool = False) -> PlaybookResult:
        """A result from the raw output of a run with the ``sim_json`` stdout callback; ``AssertionError`` when the
        output has a deprecation warning and ``allow_deprecations`` is false."""
        said = [line for line in (stdout + "\n" + stderr).splitlines() if DEPRECATION in line]
        if said and not allow_deprecations:
            raise AssertionError("the run printed deprecation warnings (fix their cause):\n" + "\n".join(said))
        report = None
        # The report is the last thing printed; at -v and above lines before it may hold a "{" too, so
        # after the first "{" try each line that starts with one.
        starts = [stdout.find("{")] + [match.start() for match in re.finditer(r"(?m)^\{", stdout)]
        for start in (start for start in starts if start != -1):
            try:
                report = json.loads(stdout[start:])
                break
            except ValueError:
                report = None
        return cls(rc, stdout, stderr, report, command)

    def tasks(self) -> list[dict[str, Any]]:
        """Every task entry of every play: ``{"task": {"name", "action", "id"}, "hosts": {host: result}}``."""
        if not self.report:
            return []
        return [task for play in self.report.get("plays", []) for task in play.get("tasks", [])]

    def task_results(self, name: str) -> list[dict[str, Any]]:
        """The result dicts of every run of the task called ``name`` (one per host; ``_host`` added)."""
        results = []
        for task in self.tasks():
            if task["task"]["name"] == name:
                for host, result in task["hosts"].items():
                    results.append({**result, "_host": host})
        if not results and self.report is None:
            raise AssertionError(f"no JSON report (rc={self.rc}); stderr:\n{self.stderr}\nstdout:\n{self.stdout}")
        return results

    def task_result(self, name: str, host: str | None = None) -> dict[str, Any]:
        """The single result of task ``name`` (on ``host`` if given); fails the test if there is not exactly one."""
        results = [r for r in self.task_results(name) if host is None or r["_host"] == host]
        if len(results) != 1:
            raise AssertionError(f"expected one result for task {name!r}, got {len(results)}")
        return results[0]

    @property
    def stats(self) -> dict[str, Any]:
        return (self.report or {}).get("stats", {})


def flat(text: str) -> str:
    """``text`` without any whitespace: how a message is looked for in ansible's output. ansible-core before 2.19
    wraps warnings at 79 columns (after a hyphen too, and inside long words), so only the characters are stable."""
    return "".join(text.split())


def write_playbook(tmp_path: Path, playbook_yaml_text: str) -> tuple[Path, Path]:
    """``playbook.yml`` and (unless the test wrote its own) a localhost ``inventory.ini`` in ``tmp_path``."""
    playbook = tmp_path / "playbook.yml"
    playbook.write_text(playbook_yaml_text)
    inventory = tmp_path / "inventory.ini"
    if not inventory.exists():
        inventory.write_text(f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n")
    return playbook, inventory


# A run whose SSH connections check host keys as a user's do: Ansible's host_key_checking on and no known_hosts of
# the harness's own (ssh takes an option's first value, so the default ANSIBLE_SSH_ARGS' /dev/null would win over a
# host's own UserKnownHostsFile). The role, the inventory and the demo must then bring the pods' keys themselves.
STRICT_SSH_ENV = {
    "ANSIBLE_SSH_ARGS": "-o ControlMaster=auto -o ControlPersist=30s",
    "ANSIBLE_HOST_KEY_CHECKING": "True",
}


def harness_env() -> dict[str, str]:
    """The variables every harness playbook run shares: the harness's ansible.cfg."""
    return {"ANSIBLE_CONFIG": str(HARNESS_ANSIBLE_CFG)}


def playbook_env(
    sim: Any, tmp_path: Path, *, env: dict[str, str | None] | None = None
) -> dict[str, str]:
    """The environment of a playbook run against ``sim``: its ``RUNPOD_*`` set and a quiet, JSON-reporting
    ansible. ``env`` entries override (``None`` removes a variable)."""
    run_env = dict(os.environ)
    run_env.update(sim.env())
    # A HOME of the test's own: what a run writes under ~ (the pod modules' known_hosts files in
    # ~/.cache/runpod.cloud/known_hosts) stays under tmp_path. ssh itself finds ~/.ssh through the password database.
    home = Path(tmp_path) / "home"
    home.mkdir(parents=True, exist_ok=True)
    run_env["HOME"] = str(home)
    run_env.update(
        {
            "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
            "ANSIBLE_STDOUT_CALLBACK": "sim_json",
            "ANSIBLE_CALLBACK_PLUGINS": str(CALLBACK_DIR),
            "ANSIBLE_HOST_KEY_CHECKING": "False",
            "ANSIBLE_RETRY_FILES_ENABLED": "False",
            "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_FORCE_COLOR": "0",
            "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible-local"),
            # An absolute async directory: the async wrapper expands "~" from HOME, while async_status gets the
            # directory as the controller expanded it, "~root" from the password database, so with HOME anywhere
            # else an async task failed with "could not find job" (docs/dev/developing.md).
            "ANSIBLE_ASYNC_DIR": str(tmp_path / "ansible-async"),
            # ControlPath must stay short (unix socket limit), so it cannot live under pytest's tmp_path.
            "ANSIBLE_SSH_CONTROL_PATH_DIR": tempfile.mkdtemp(prefix="rpcp_"),
            "ANSIBLE_SSH_ARGS": "-o ControlMaster=auto -o ControlPersist=30s -o UserKnownHostsFile=/dev/null",
            "ANSIBLE_PYTHON_INTERPRETER": "auto_silent",
            "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            **harness_env(),
        }
    )
    for key, value in (env or {}).items():
        if value is None:
            run_env.pop(key, None)
        else:
            run_env[key] = value
    return run_env


def run_playbook(
    sim: Any,
    tmp_path: Path,
    playbook_yaml_text: str,
    *,
    env: dict[str, str | None] | None = None,
    extra_args: tuple[str, ...] | list[str] = (),
    check: bool = False,
    timeout: float = 300,
    allow_deprecations: bool = False,
) -> PlaybookResult:
    """Run ``<venv>/bin/ansible-playbook`` on ``playbook_yaml_text`` in ``tmp_path`` against ``sim``; a deprecation
    warning in its output fails the test unless ``allow_deprecations`` (``PlaybookResult.parse``)."""
    tmp_path = Path(tmp_path)
    playbook, inventory = write_playbook(tmp_path, playbook_yaml_text)
    run_env = playbook_env(sim, tmp_path, env=env)
    command = [str(ANSIBLE_PLAYBOOK), "-i", str(inventory), str(playbook), *extra_args]
    if check:
        command.append("--check")
    completed = subprocess.run(
        command, cwd=tmp_path, env=run_env, capture_output=True, text=True, timeout=timeout, check=False
    )
    return PlaybookResult.parse(completed.returncode, completed.stdout, completed.stderr, command, allow_deprecations)


# Ctrl-C from a terminal reaches a process whose SIGINT is at its default. A CI runner may start us with SIGINT
# ignored (a background job of a non-interactive shell), and ignored signals survive exec: ansible-core 2.16 then
# never sees the Ctrl-C a test sends (2.21 and 2.22 install their own handler). exec keeps the pid, so the
# signalled process is ansible-playbook itself.
_AS_FROM_A_TERMINAL = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
)


class Background:
    """``ansible-playbook`` started with subprocess.Popen and the same environment as ``run_playbook``."""

    def __init__(self, sim, tmp_path: Path, text: str, env: dict[str, str | None] | None = None,
                 extra_args: tuple[str, ...] | list[str] = (), new_session: bool = False) -> None:
        """``new_session``: the run leads its own process group, so ``os.killpg`` signals it as a terminal's Ctrl-C
        does (ansible-playbook and every worker and module process at once)."""
        tmp_path = Path(tmp_path)
        playbook, inventory = write_playbook(tmp_path, text)
        env = playbook_env(sim, tmp_path, env=env)
        self.stdout_path = tmp_path / "stdout.txt"
        self.stderr_path = tmp_path / "stderr.txt"
        self.command = [str(ANSIBLE_PLAYBOOK), "-i", str(inventory), str(playbook), *extra_args]
        with open(self.stdout_path, "w") as out, open(self.stderr_path, "w") as err:
            launch = [sys.executable, "-c", _AS_FROM_A_TERMINAL, *self.command]
            self.process = subprocess.Popen(launch, cwd=tmp_path, env=env, stdout=out, stderr=err,
                                            start_new_session=new_session)
        # Processes signal_waiter signalled: a later call (the next task's wait) never picks one of them again.
        self.signalled: set[int] = set()

    def result(self, timeout: float = 120):
        try:
            rc = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            raise
        return PlaybookResult.parse(rc, self.stdout_path.read_text(), self.stderr_path.read_text(), self.command)

    def until(self, condition, *, timeout: float = 60.0, what: str = "the condition"):
        """``condition()``'s first truthy value, asked every 50 ms while the run goes on; fails with the run's
        output when the run ends first or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while True:
            found = condition()
            if found:
                return found
            ended = self.process.poll() is not None
            if ended or time.monotonic() >= deadline:
                output = self.stdout_path.read_text()[-4000:] + self.stderr_path.read_text()[-2000:]
                raise AssertionError(f"{'the run ended' if ended else 'timed out'} before {what}:\n{output}")
            time.sleep(0.05)

    def _descendants(self) -> set[int]:
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
        found, todo = set(), [self.process.pid]
        while todo:
            for child in children.get(todo.pop(), []):
                if child not in found:
                    found.add(child)
                    todo.append(child)
        return found

    def worker_pid(self, timeout: float = 20.0) -> int:
        """The ansible-playbook worker running the task (where a controller-side wait runs)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for pid in sorted(self._descendants() - self.signalled):
                try:
                    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if any(arg.endswith(b"ansible-playbook") for arg in argv[:2]):
                    return pid
            time.sleep(0.05)
        raise TimeoutError("no ansible-playbook worker appeared under the playbook")

    def module_pid(self, module: str = "pod", timeout: float = 20.0) -> int:
        """The Python process running ``AnsiballZ_<module>`` under this playbook (never anybody else's)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pgrep = ["pgrep", "-f", f"AnsiballZ_{module}[.]py"]
            listed = subprocess.run(pgrep, capture_output=True, text=True, check=False).stdout.split()
            mine = self._descendants() - self.signalled
            for pid in map(int, listed):
                if pid not in mine:
                    continue
                try:
                    argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
                except OSError:
                    continue
                if b"python" in os.path.basename(argv0):
                    return pid
            time.sleep(0.05)
        raise TimeoutError(f"no AnsiballZ_{module} python process appeared under the playbook")

    def signal_waiter(self, where: str, signum: int, module: str = "pod") -> None:
        """Send ``signum`` to the process that runs the wait: the ansible-playbook worker when the action plugin
        waits on the controller (``where="controller"``), else the ``AnsiballZ_<module>`` process
        (``where="module"``, with RUNPOD_CLOUD_CONTROLLER_WAIT=false)."""
        if where not in ("controller", "module"):
            raise ValueError(f"where must be controller or module, not {where!r}")
        pid = self.module_pid(module) if where == "module" else self.worker_pid()
        self.signalled.add(pid)
        os.kill(pid, signum)


# -- playbook text --------------------------------------------------------------------------------------------


def play(*tasks: str, hosts: str = "localhost", gather: bool = False) -> str:
    """One play running ``tasks`` (YAML task lists, dedented and indented here) on ``hosts``."""
    body = "\n".join(textwrap.indent(textwrap.dedent(task).strip("\n"), "    ") for task in tasks)
    return f"- hosts: {hosts}\n  gather_facts: {str(gather).lower()}\n  tasks:\n{body}\n"


def module_task(
    module: str, name: str, args: dict, *, register: str | None = None, ignore_errors: bool = False
) -> str:
    """A task calling ``runpod.cloud.<module>`` with ``args`` (JSON is YAML), for :func:`play`."""
    lines = [f"- name: {name}", f"  runpod.cloud.{module}: {json.dumps(args)}"]
    if register:
        lines.append(f"  register: {register}")
    if ignore_errors:
        lines.append("  ignore_errors: true")
    return "\n".join(lines)


def pod_task(name: str, args: dict, *, register: str | None = None, ignore_errors: bool = False) -> str:
    """A ``runpod.cloud.pod`` task, for :func:`play`."""
    return module_task("pod", name, args, register=register, ignore_errors=ignore_errors)


def info_task(title: str, task_keys: tuple[str, ...] = (), **args: str) -> str:
    """A ``runpod.cloud.pod_info`` task registering ``out``; ``args`` are YAML text (``ids="[a, b]"``) and
    ``task_keys`` extra task-level lines such as ``check_mode: true``; for :func:`play`."""
    lines = [f"- name: {title}", "  runpod.cloud.pod_info:"]
    lines.extend(f"    {key}: {value}" for key, value in args.items())
    lines.extend(f"  {line}" for line in (*task_keys, "register: out"))
    return "\n".join(lines) + "\n"
