# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The pod's own lease watchdog (roles/hosts/files/runpod_cloud_watchdog.sh) armed over real SSH in simulated pods,
and the pod-scoped ``RUNPOD_API_KEY`` it acts with. No test waits for a lease: the pod is aged (its createdAt moves
back) and the test polls for the pod's state with a deadline."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncssh
import httpx
from helpers.paths import REPO_ROOT
from simhelpers import wait_for

WATCHDOG = REPO_ROOT / "roles" / "hosts" / "files" / "runpod_cloud_watchdog.sh"
# What the `pod` action plugin runs: the script on stdin, installed by its own `arm`.
ARM = 'f=$(mktemp) && cat >"$f" && sh "$f" arm; rc=$?; rm -f "$f"; exit $rc'
FAST = {"RUNPOD_CLOUD_WATCHDOG_INTERVAL": "0.2"}


def ssh(pod: dict[str, Any], key: Any, command: str, stdin: str | None = None) -> asyncssh.SSHCompletedProcess:
    direct = pod["ssh"]["direct"]

    async def run() -> asyncssh.SSHCompletedProcess:
        async with asyncssh.connect(direct["host"], direct["port"], username="root", client_keys=[key],
                                    known_hosts=None) as conn:
            return await conn.run(command, input=stdin, check=False)

    return asyncio.run(run())


def leased(running_pod: Any, key: Any, name: str, **env: str) -> dict[str, Any]:
    return running_pod(name=name, env={"PUBLIC_KEY": key.export_public_key().decode().strip(), **FAST, **env})


def arm(pod: dict[str, Any], key: Any) -> asyncssh.SSHCompletedProcess:
    done = ssh(pod, key, ARM, WATCHDOG.read_text())
    assert done.exit_status == 0, done.stderr
    return done


def watchdogs(sim: Any, pod_id: str) -> list[int]:
    """The live watchdog loops of the pod: processes running the script whose env is that pod's."""
    marker = f"RUNPOD_SIM_POD_DIR={Path(sim.admin.pod(pod_id)['home']).parent}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (entry.name.isdigit() and b"runpod_cloud_watchdog.sh\0run" in (entry / "cmdline").read_bytes()
                    and marker in (entry / "environ").read_bytes().split(b"\0")):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def state(sim: Any, pod_id: str) -> dict[str, str]:
    path = Path(sim.admin.pod(pod_id)["home"]) / ".runpod-cloud" / "state"
    try:
        return dict(part.split("=", 1) for part in path.read_text().split() if "=" in part)
    except OSError:
        return {}


def log_shows(v2: httpx.Client, pod_id: str, *needles: str) -> bool:
    """Whether the pod's container lines, as the API serves them, come to show every needle (the stream is held
    open: read until they all came, or until it stays quiet for 10 s)."""
    text = ""
    with v2.stream("GET", f"/pods/{pod_id}/logs", params={"source": "container"}, timeout=10) as response:
        try:
            for chunk in response.iter_text():
                text += chunk
                if all(needle in text for needle in needles):
                    return True
        except httpx.ReadTimeout:
            pass
    return False


def test_a_pods_own_key_acts_on_that_pod_only(sim, v2, running_pod):
    key = asyncssh.generate_private_key("ssh-ed25519")
    mine, other = leased(running_pod, key, "mine"), running_pod(name="other")
    own = ssh(mine, key, 'printf %s "$RUNPOD_API_KEY"').stdout
    assert own.startswith("rpa_pod_") and own != sim.api_key
    with httpx.Client(base_url=sim.urls["api_v2"], headers={"Authorization": f"Bearer {own}"}) as scoped:
        assert scoped.get(f"/pods/{mine['id']}").json()["id"] == mine["id"]
        for method, path, body in (
            ("POST", f"/pods/{other['id']}/action", {"action": "stop"}),
            ("DELETE", f"/pods/{other['id']}", None),
            ("GET", f"/pods/{other['id']}", None),
            ("PATCH", f"/pods/{other['id']}", {"name": "taken"}),
            ("GET", "/pods", None),
            ("GET", "/templates", None),
        ):
            answer = scoped.request(method, path, json=body)
            assert answer.status_code == 403, (method, path, answer.text)
            assert other["id"] not in answer.text or "cannot access" in answer.text
            assert own not in answer.text
        assert v2.get(f"/pods/{other['id']}").json()["status"] == "RUNNING"
        assert scoped.post(f"/pods/{mine['id']}/action", json={"action": "stop"}).json()["status"] == "EXITED"
    # A key no pod has is no key at all.
    with httpx.Client(base_url=sim.urls["api_v2"], headers={"Authorization": "Bearer rpa_pod_guessed"}) as guess:
        assert guess.get(f"/pods/{other['id']}").status_code == 401


def test_rearming_replaces_and_the_pod_stops_itself_at_its_deadline(sim, v2, running_pod):
    key = asyncssh.generate_private_key("ssh-ed25519")
    pod = leased(running_pod, key, "leased", RUNPOD_CLOUD_STOP_AFTER="3600")
    first = arm(pod, key)
    assert f"armed on pod {pod['id']}" in first.stdout
    second = arm(pod, key)
    # Exactly one loop after the second arming, and it is the one the pid file names.

    def single() -> list[int] | None:
        found = watchdogs(sim, pod["id"])
        return found if len(found) == 1 else None

    alive = wait_for(single, timeout=30)
    pid_file = Path(sim.admin.pod(pod["id"])["home"]) / ".runpod-cloud" / "pid"
    assert alive == [int(pid_file.read_text())] and f"(pid {alive[0]})" in second.stdout
    # It checks and leaves a pod inside its lease running.
    wait_for(lambda: state(sim, pod["id"]).get("checked"), timeout=30)
    assert v2.get(f"/pods/{pod['id']}").json()["status"] == "RUNNING"
    sim.admin.age_pod(pod["id"], 3600)
    wait_for(lambda: v2.get(f"/pods/{pod['id']}").json()["status"] == "EXITED", timeout=30)
    assert log_shows(v2, pod["id"], "runpod.cloud watchdog: armed",
                     f"stop pod {pod['id']}: lease stop_after=3600s from createdAt reached")
    assert sim.admin.count("POST", rf"/v2/pods/{pod['id']}/action", status=200) == 1
    # The stopped container took its watchdog with it.
    assert watchdogs(sim, pod["id"]) == []


def test_terminate_after_terminates_and_an_idle_pod_stops_while_a_busy_one_runs(sim, v2, running_pod):
    key = asyncssh.generate_private_key("ssh-ed25519")
    doomed = leased(running_pod, key, "doomed", RUNPOD_CLOUD_STOP_AFTER="3600", RUNPOD_CLOUD_TERMINATE_AFTER="7200")
    idle = leased(running_pod, key, "idle", RUNPOD_CLOUD_IDLE_STOP_AFTER="1")
    busy = leased(running_pod, key, "busy", RUNPOD_CLOUD_IDLE_STOP_AFTER="1", RUNPOD_CLOUD_IDLE_BELOW="50")
    plain = running_pod(name="plain", env={"PUBLIC_KEY": key.export_public_key().decode().strip()})
    sim.admin.set_utilization(busy["id"], gpus=[80])
    sim.admin.set_utilization(idle["id"], gpus=[3])
    assert "has no lease, nothing armed" in arm(plain, key).stdout
    for pod in (doomed, idle, busy):
        arm(pod, key)
    sim.admin.age_pod(doomed["id"], 7200)
    wait_for(lambda: v2.get(f"/pods/{doomed['id']}").json()["status"] == "TERMINATED", timeout=30)
    # Past both deadlines it terminates at once: one terminate (204), no stop first.
    assert sim.admin.count("POST", rf"/v2/pods/{doomed['id']}/action", status=204) == 1
    assert sim.admin.count("POST", rf"/v2/pods/{doomed['id']}/action", status=200) == 0
    wait_for(lambda: v2.get(f"/pods/{idle['id']}").json()["status"] == "EXITED", timeout=30)
    assert log_shows(v2, idle["id"], "GPUs idle below 5% for")
    # The busy pod's loop has checked well past its idle time, and it runs.
    armed_at = int(wait_for(lambda: state(sim, busy["id"]).get("checked"), timeout=30))
    wait_for(lambda: int(state(sim, busy["id"]).get("checked", 0)) >= armed_at + 2, timeout=30)
    assert state(sim, busy["id"])["idle_since"] == "-"
    assert v2.get(f"/pods/{busy['id']}").json()["status"] == "RUNNING"
    assert v2.get(f"/pods/{plain['id']}").json()["status"] == "RUNNING" and watchdogs(sim, plain["id"]) == []
