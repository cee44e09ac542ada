# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Plumbing for the benchmark harness: paths, the simulator, boot schedules, the banner watcher, playbook runs.

Every timestamp here is ``time.time()`` (wall clock), so times taken in the harness, in Ansible's callback
and in the simulator's request log (``started_at``/``finished_at``) are comparable on this one machine.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent.parent
PLAYBOOKS = BENCH_DIR / "playbooks"
CALLBACK_DIR = BENCH_DIR / "callback"
VENV_BIN = Path(sys.executable).parent
PYTHON = sys.executable


# The tests' helpers package builds the ansible_collections symlink tree and puts the simulator on sys.path.
if str(REPO_ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(REPO_ROOT / "tests"))
from helpers.paths import COLLECTIONS_ROOT  # noqa: E402 - needs the sys.path above

from runpod_sim.testing import SimAdmin, SimProcess, start_simulator  # noqa: E402 - needs the sys.path above

IMAGE = "runpod/pytorch:2.8.0-py3.11-cuda12.8.1-cudnn-devel-ubuntu22.04"
GPU = "NVIDIA GeForce RTX 4090"
WAIT_INTERVAL = 5.0


# -- boot schedules -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Boot:
    """Per-pod delays (seconds) given to the simulator at create time through ``name_overrides``."""

    provisioning_delay: float
    starting_delay: float
    ssh_delay: float

    @property
    def sshd_after_create(self) -> float:
        return self.provisioning_delay + self.starting_delay + self.ssh_delay

    def overrides(self) -> dict[str, float]:
        # The port is mapped at RUNNING (port_map_delay 0), as in the runs before the simulator learned RunPod's
        # lag: a naive `until: RUNNING` loop would otherwise find no port and never reach its wait_for.
        return {
            "provisioning_delay": round(self.provisioning_delay, 3),
            "starting_delay": round(self.starting_delay, 3),
            "ssh_delay": round(self.ssh_delay, 3),
            "port_map_delay": 0.0,
        }


def boot_schedule(seed: int, count: int, *, prov=(4.0, 20.0), start=(2.0, 8.0), ssh=(1.0, 12.0)) -> list[Boot]:
    """Randomized but reproducible: the same seed gives every approach the same delays per pod index.

    The shape follows production RunPod, compressed in time so a run stays short: PROVISIONING 4-20 s,
    STARTING 2-8 s, then RUNNING with the port mapped 1-12 s before sshd answers (RunPod reports RUNNING
    seconds to minutes before sshd listens; the reference measured ~25 s for a bare pod). ``ssh_delay``
    is at least 1 s so the watcher (which learns mapped ports every 0.1 s) is already connecting when
    sshd starts.
    """
    rng = random.Random(seed)
    return [Boot(rng.uniform(*prov), rng.uniform(*start), rng.uniform(*ssh)) for _ignored in range(count)]


# -- simulator ------------------------------------------------------------------------------------------------
def start_sim() -> SimProcess:
    return start_simulator(time_scale=1.0, log_level="error")


def prepare(sim: SimProcess, names: list[str], boots: list[Boot], extra: dict[str, dict] | None = None) -> None:
    """Reset the simulator and give each name its boot schedule (applied when a pod of that name is created)."""
    sim.admin.reset()
    overrides = {name: boot.overrides() for name, boot in zip(names, boots, strict=True)}
    for name, more in (extra or {}).items():
        overrides.setdefault(name, {}).update(more)
    sim.admin.configure(name_overrides=overrides)


def api_requests(sim: SimProcess) -> list[dict[str, Any]]:
    return [entry for entry in sim.admin.requests() if entry.get("surface") != "admin"]


# -- ground truth: when did each pod's sshd first answer? --------------------------------------------------------
class BannerWatcher(threading.Thread):
    """Connects to every mapped public port of private 22 every ``tick`` seconds until it reads ``SSH-``.

    Independent of every approach measured: it learns ports from the admin API (not logged as API
    requests) every ``discover_every`` seconds and records, per pod id, the first moment a banner arrived.
    """

    def __init__(self, admin_url: str, tick: float = 0.02, discover_every: float = 0.1) -> None:
        super().__init__(daemon=True, name="banner-watcher")
        self._admin = SimAdmin(admin_url, timeout=10)
        self.tick = tick
        self.discover_every = discover_every
        self._lock = threading.Lock()
        self._halt = threading.Event()
        self._ports: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.first_banner: dict[str, float] = {}
        self.first_accept: dict[str, float] = {}

    def reset(self) -> None:
        with self._lock:
            self._ports.clear()
            self.names.clear()
            self.first_banner.clear()
            self.first_accept.clear()

    def stop(self) -> None:
        self._halt.set()
        self.join(5)
        self._admin.close()

    def banner_by_name(self) -> dict[str, float]:
        with self._lock:
            return {self.names[pod_id]: t for pod_id, t in self.first_banner.items() if pod_id in self.names}

    def ids_by_name(self) -> dict[str, str]:
        with self._lock:
            return {name: pod_id for pod_id, name in self.names.items()}

    def _discover(self) -> None:
        try:
            states = self._admin.pods()
        except Exception:
            return
        with self._lock:
            for state in states:
                self.names[state["id"]] = state["name"]
                port = (state.get("listeners") or {}).get("22", {}).get("port")
                if port and state["id"] not in self.first_banner:
                    self._ports[state["id"]] = port

    def _check(self, pod_id: str, port: int) -> None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                accepted = time.time()
                sock.settimeout(0.5)
                data = b""
                while len(data) < 4:
                    chunk = sock.recv(4 - len(data))
                    if not chunk:
                        break
                    data += chunk
                now = time.time()
        except OSError:
            return
        with self._lock:
            self.first_accept.setdefault(pod_id, accepted)
            if data == b"SSH-":
                self.first_banner.setdefault(pod_id, now)
                self._ports.pop(pod_id, None)

    def run(self) -> None:
        next_discover = 0.0
        while not self._halt.is_set():
            now = time.time()
            if now >= next_discover:
                self._discover()
                next_discover = now + self.discover_every
            with self._lock:
                targets = list(self._ports.items())
            for pod_id, port in targets:
                self._check(pod_id, port)
            self._halt.wait(self.tick)


# -- ansible-playbook runs ------------------------------------------------------------------------------------
@dataclass
class PlaybookRun:
    rc: int
    started: float
    finished: float
    events: list[dict[str, Any]]
    log: str
    workdir: Path
    command: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def task_events(self, task: str, kinds: tuple[str, ...] = ("ok", "failed", "item_ok", "item_failed")):
        return [e for e in self.events if e.get("task") == task and e["ev"] in kinds]

    def task_window(self, task: str) -> tuple[float, float] | None:
        starts = [e["t"] for e in self.events if e["ev"] == "task_start" and e.get("task") == task]
        ends = [e["t"] for e in self.task_events(task, ("ok", "failed", "unreachable"))]
        if not starts or not ends:
            return None
        return min(starts), max(ends)


def ansible_env(sim: SimProcess, workdir: Path, forks: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update(sim.env())
    env.update(
        {
            "PATH": f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}",
            "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
            "ANSIBLE_CALLBACK_PLUGINS": str(CALLBACK_DIR),
            "ANSIBLE_CALLBACKS_ENABLED": "bench_events",
            "RUNPOD_BENCH_EVENTS": str(workdir / "events.jsonl"),
            "ANSIBLE_FORKS": str(forks),
            "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_RETRY_FILES_ENABLED": "0",
            "ANSIBLE_HOST_KEY_CHECKING": "0",
            "ANSIBLE_LOCALHOST_WARNING": "0",
            "ANSIBLE_INVENTORY_UNPARSED_WARNING": "0",
            "ANSIBLE_PYTHON_INTERPRETER": PYTHON,
            "ANSIBLE_ASYNC_DIR": str(workdir / "async"),
            "ANSIBLE_LOCAL_TEMP": str(workdir / "tmp"),
            "ANSIBLE_REMOTE_TEMP": str(workdir / "rtmp"),
        }
    )
    return env


def write_inventory(workdir: Path, hosts: dict[str, dict[str, Any]], group: str = "bench_pods") -> Path:
    """A YAML inventory of local-connection hosts (one per pod) plus localhost."""
    local = {"ansible_connection": "local", "ansible_python_interpreter": PYTHON}
    inventory = {
        "all": {
            "hosts": {"localhost": dict(local)},
            "children": {group: {"hosts": {name: {**local, **hv} for name, hv in hosts.items()}}},
        }
    }
    path = workdir / "inventory.json"  # JSON is YAML; the yaml inventory plugin reads it
    path.write_text(json.dumps(inventory))
    return path


def run_playbook(
    sim: SimProcess,
    playbook: str,
    extra_vars: dict[str, Any],
    *,
    hosts: dict[str, dict[str, Any]] | None = None,
    forks: int = 5,
    timeout: float = 900,
    env_extra: dict[str, str] | None = None,
) -> PlaybookRun:
    workdir = Path(tempfile.mkdtemp(prefix="runpod_bench_"))
    for sub in ("async", "tmp", "rtmp"):
        (workdir / sub).mkdir()
    inventory = write_inventory(workdir, hosts or {})
    vars_file = workdir / "vars.json"
    vars_file.write_text(json.dumps(extra_vars))
    argv = [str(VENV_BIN / "ansible-playbook"), "-i", str(inventory), "-e", f"@{vars_file}", str(PLAYBOOKS / playbook)]
    env = ansible_env(sim, workdir, forks)
    env.update(env_extra or {})
    started = time.time()
    proc = subprocess.run(
        argv, env=env, cwd=str(REPO_ROOT), capture_output=True, text=True, timeout=timeout, check=False
    )
    finished = time.time()
    events_path = workdir / "events.jsonl"
    events = [json.loads(line) for line in events_path.read_text().splitlines()] if events_path.exists() else []
    (workdir / "ansible.log").write_text(proc.stdout + proc.stderr)
    return PlaybookRun(
        proc.returncode,
        started,
        finished,
        events,
        proc.stdout + proc.stderr,
        workdir,
        command=f"ansible-playbook tests/bench/playbooks/{playbook} (forks={forks})",
    )


def machine_info() -> dict[str, Any]:
    load = os.getloadavg()
    info: dict[str, Any] = {
        "cores": os.cpu_count(),
        "loadavg": [round(x, 2) for x in load],
        "python": sys.version.split()[0],
        "platform": sys.platform,
    }
    try:
        import psutil

        info["memory_gb"] = round(psutil.virtual_memory().total / 2**30, 1)
        info["cpu_model"] = _cpu_model()
    except ImportError:  # pragma: no cover - requirements-bench installs it
        pass
    try:
        from ansible.release import __version__ as ansible_version

        info["ansible_core"] = ansible_version
    except ImportError:  # pragma: no cover
        pass
    return info


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"
