# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers for tests: start the simulator as a subprocess and drive its admin API.

Example::

    from runpod_sim.testing import start_simulator

    with start_simulator(time_scale=0.01) as sim:
        sim.admin.inject_fault("/v2/pods", "status", method="GET", status=429, retry_after=2)
        httpx.get(sim.urls["api_v2"] + "/pods", headers={"Authorization": f"Bearer {sim.api_key}"})
        assert sim.admin.count("GET", r"^/v2/pods$") == 1
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from . import DEFAULT_API_KEY

SIMULATOR_ROOT = Path(__file__).resolve().parent.parent

# start_simulator keyword -> command-line flag
_FLAGS = {
    "api_key": "--api-key",
    "time_scale": "--time-scale",
    "provisioning_delay": "--provisioning-delay",
    "starting_delay": "--starting-delay",
    "ssh_delay": "--ssh-delay",
    "ssh_behaviour": "--ssh-behaviour",
    "propagation_lag": "--propagation-lag",
    "worker_boot_delay": "--worker-boot-delay",
    "create_latency": "--create-latency",
    "rate_limit_per_minute": "--rate-limit",
    "rate_limit": "--rate-limit",
    "state_dir": "--state-dir",
    "page_size": "--page-size",
    "log_level": "--log-level",
    "port": "--port",
}


class SimAdminError(RuntimeError):
    def __init__(self, status: int, message: str):
        super().__init__(f"admin API answered {status}: {message}")
        self.status = status
        self.message = message


class SimAdmin:
    """A small client for ``/_sim/`` (no API key). Methods raise :class:`SimAdminError` on a 4xx/5xx."""

    def __init__(self, base_url: str, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        # A fresh connection per call: a kept-alive one left idle through a playbook run can be closed by the
        # server's keep-alive timeout just as the next call reuses it ("Server disconnected without sending a
        # response"), which a loaded machine made happen.
        self._client = httpx.Client(
            base_url=self.base_url, timeout=timeout, limits=httpx.Limits(max_keepalive_connections=0)
        )

    def close(self) -> None:
        self._client.close()

    def _call(self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None) -> Any:
        response = self._client.request(method, path, json=body, params=params)
        if response.status_code >= 400:
            try:
                message = response.json().get("error", response.text)
            except ValueError:
                message = response.text
            raise SimAdminError(response.status_code, message)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

    # -- state -----------------------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        return self._call("GET", "/")

    def reset(self) -> dict[str, Any]:
        """Delete every resource and listener; clear faults, the request log and the rate window; restore the config."""
        return self._call("POST", "/reset")

    def config(self) -> dict[str, Any]:
        return self._call("GET", "/config")

    def configure(self, **changes: Any) -> dict[str, Any]:
        """Change config keys (time_scale, provisioning_delay, starting_delay, ssh_delay, ssh_behaviour,
        ssh_host_key_log, ssh_login, propagation_lag, worker_boot_delay, create_latency, rollout_step, rate_limit
        (a RateLimit-Policy text, "example" for the document's), rate_limit_per_minute,
        out_of_stock_gpu_types, name_overrides, page_size (1-1000: the server-side page size of the paged lists),
        quirk_endpoint_timeout_zero, quirk_template_mounts_omitted, ...). Returns the whole config."""
        return self._call("PATCH", "/config", changes)

    # -- faults ----------------------------------------------------------------------------------------------
    def inject_fault(
        self,
        route: str,
        kind: str,
        *,
        method: str = "*",
        count: int | None = None,
        duration: float | None = None,
        **params: Any,
    ) -> dict[str, Any]:
        """Add a fault; ``route`` is a regex matched against the whole path (e.g. ``r"/v2/pods"``).

        Kinds: status (status, detail, retry_after, body), delay (seconds), hold (parties, timeout), stock_out,
        malformed, null_entry, empty_list, error_after_create (status), health_sequence (endpoint_id, sequence).
        Without count/duration the fault applies to the next matching request only.
        """
        spec: dict[str, Any] = {"route": route, "kind": kind, "method": method, **params}
        if count is not None:
            spec["count"] = count
        if duration is not None:
            spec["duration"] = duration
        return self._call("POST", "/faults", spec)

    def faults(self) -> list[dict[str, Any]]:
        return self._call("GET", "/faults")["faults"]

    def clear_faults(self) -> None:
        self._call("DELETE", "/faults")

    def delete_fault(self, fault_id: int) -> None:
        """Remove one fault; the requests a ``hold`` fault holds go on."""
        self._call("DELETE", f"/faults/{fault_id}")

    def health_sequence(self, endpoint_id: str, sequence: list[dict[str, Any]]) -> dict[str, Any]:
        """Script ``/health``: each entry is a body ({"workers": {...}}) or {"status": 404}; the last one repeats."""
        return self._call("POST", f"/endpoints/{endpoint_id}/health-sequence", {"sequence": sequence})

    def set_worker_statuses(self, endpoint_id: str, statuses: list[str]) -> dict[str, Any]:
        return self._call("POST", f"/endpoints/{endpoint_id}/workers", {"statuses": statuses})

    def propagate(self, endpoint_id: str) -> dict[str, Any]:
        return self._call("POST", f"/endpoints/{endpoint_id}/propagate")

    def advance_rate_limit(self, seconds: float) -> dict[str, Any]:
        """Move the rate-limit windows' clock ``seconds`` real seconds ahead (``reset`` puts it back)."""
        return self._call("POST", "/rate-limit/advance", {"seconds": seconds})

    def boot_workers(self, endpoint_id: str) -> dict[str, Any]:
        """End the boot of the endpoint's allocated workers now (the workers view, as ``GET .../workers``)."""
        return self._call("POST", f"/endpoints/{endpoint_id}/boot")

    # -- serverless jobs (jobs.py) ---------------------------------------------------------------------------
    def job_script(self, endpoint_id: str, **script: Any) -> dict[str, Any]:
        """Script the endpoint's next jobs: queue_delay, run_time (simulated s), outcome (COMPLETED, FAILED,
        TIMED_OUT), error, output (echo, constant, format), output_value, output_format, stream, rules."""
        return self._call("POST", f"/endpoints/{endpoint_id}/jobs", script)

    def jobs(self, endpoint_id: str) -> list[dict[str, Any]]:
        """Every job of the endpoint, with its input, worker and status."""
        return self._call("GET", f"/endpoints/{endpoint_id}/jobs")["jobs"]

    def job(self, job_id: str) -> dict[str, Any]:
        return self._call("GET", f"/jobs/{job_id}")

    # -- pods ------------------------------------------------------------------------------------------------
    def pod(self, pod_id: str) -> dict[str, Any]:
        """Internal state: status, port_map, listeners, ssh_behaviour, home, host_keys, host_key_fingerprints, ..."""
        return self._call("GET", f"/pods/{pod_id}")

    def pods(self) -> list[dict[str, Any]]:
        return self._call("GET", "/pods")["pods"]

    def set_pod_behaviour(self, pod_id: str, **overrides: Any) -> dict[str, Any]:
        """Per-pod overrides: provisioning_delay, starting_delay, ssh_delay, ssh_behaviour, port_map_delay,
        banner_delay, ssh_host_key_log (print, none, wrong, started), ssh_login (key, no_key, root_refused)."""
        return self._call("POST", f"/pods/{pod_id}/behaviour", overrides)

    def script_pod_logs(self, pod_id: str, **script: Any) -> dict[str, Any]:
        """The pod's log lines, offsets from now: ``lines=[{"at", "source", "line"}]`` or ``preset=...`` (with
        ``every``, ``repeat``, ``start``), as ``POST /_sim/pods/{pod_id}/logs`` takes them (logs.py)."""
        return self._call("POST", f"/pods/{pod_id}/logs", script)

    def stop_pod(self, pod_id: str, reason: str | None = None) -> dict[str, Any]:
        """Stop out of band ("Exited by Runpod: <date>" unless another reason is given)."""
        return self._call("POST", f"/pods/{pod_id}/stop", {"reason": reason} if reason else {})

    def terminate_pod(self, pod_id: str) -> dict[str, Any]:
        return self._call("POST", f"/pods/{pod_id}/terminate")

    def delete_pod(self, pod_id: str) -> dict[str, Any]:
        """Make the pod vanish from every surface (404)."""
        return self._call("POST", f"/pods/{pod_id}/delete")

    def outbid_pod(self, pod_id: str, desired_status: str = "TERMINATED") -> dict[str, Any]:
        return self._call("POST", f"/pods/{pod_id}/outbid", {"desired_status": desired_status})

    def error_pod(self, pod_id: str) -> dict[str, Any]:
        return self._call("POST", f"/pods/{pod_id}/error")

    def set_utilization(self, pod_id: str, **use: Any) -> dict[str, Any]:
        """``gpus=[util, ...]`` (or ``[{"util", "memoryUtil"}]``), ``cpu=``, ``memory=``: what the pod reports."""
        return self._call("POST", f"/pods/{pod_id}/utilization", use)

    def age_pod(self, pod_id: str, seconds: float) -> dict[str, Any]:
        """Move the pod's ``createdAt`` ``seconds`` back (a lease counted from it runs out)."""
        return self._call("POST", f"/pods/{pod_id}/age", {"seconds": seconds})

    def seed(self, count: int, **options: Any) -> list[str]:
        """Create ``count`` pods at once (RUNNING by default).

        Options: status, name_prefix, ports, gpu_type, image, env.
        """
        return self._call("POST", "/seed", {"count": count, **options})["ids"]

    def wait_pod(
        self,
        pod_id: str,
        status: str = "RUNNING",
        *,
        listening: bool | None = None,
        mapped: bool | None = None,
        timeout: float = 15.0,
    ) -> dict[str, Any]:
        """Poll the admin view until the pod has ``status`` (and, if asked, its port 22 is listening, or mapped:
        the host publishes mappings ``port_map_delay`` after RUNNING)."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.pod(pod_id)
            port22 = state["listeners"].get("22") or {}
            listens = listening is None or bool(port22.get("listening")) == listening
            maps = mapped is None or ("22" in state["port_map"]) == mapped
            if state["status"] == status and listens and maps:
                return state
            if time.monotonic() > deadline:
                raise TimeoutError(f"pod {pod_id} did not reach {status} (listening={listening}): {state}")
            time.sleep(0.02)

    # -- secrets (api_secrets.py) ----------------------------------------------------------------------------
    def secret(self, id_or_name: str) -> dict[str, Any]:
        """A secret with its value (``value``), which REST v2 never returns: a test checks a rotation here."""
        return self._call("GET", f"/secrets/{id_or_name}")

    def secrets(self) -> list[dict[str, Any]]:
        return self._call("GET", "/secrets")["secrets"]

    def worker_envs(self, endpoint_id: str) -> list[dict[str, Any]]:
        """The endpoint's allocated workers: ``{"id", "version", "boot_env"}`` (secrets resolved at allocation)."""
        return self._call("GET", f"/endpoints/{endpoint_id}/workers")["workers"]

    def fail_secret_description_step(self, count: int = 1, status: int = 500) -> dict[str, Any]:
        """The next ``count`` secret PATCHes that carry a description fail at that second step, after the value
        rotated (RunPod applies the two in turn, not atomically)."""
        return self._call("POST", "/secrets/faults", {"description_step": {"count": count, "status": status}})

    # -- builds (api_builds.py) ------------------------------------------------------------------------------
    def add_build(self, endpoint_id: str, **fields: str) -> dict[str, Any]:
        """A new PENDING GitHub build of the endpoint (commitHash, commitMessage, branch, commitDate, imageName)."""
        return self._call("POST", f"/endpoints/{endpoint_id}/builds", fields)

    def move_build(self, endpoint_id: str, build_id: str, status: str, error: str | None = None) -> dict[str, Any]:
        """Move a build on: PENDING, BUILDING, UPLOADING, TESTING forward only, then COMPLETED (a new release of
        the build's image), FAILED, TEST_FAILED or CANCELLED (``error``; a default one for the failures)."""
        body: dict[str, Any] = {"status": status}
        if error is not None:
            body["error"] = error
        return self._call("POST", f"/endpoints/{endpoint_id}/builds/{build_id}", body)

    # -- clusters --------------------------------------------------------------------------------------------
    def cluster_settings(self, **changes: Any) -> dict[str, Any]:
        """Cluster knobs: member_stagger (s per rank), overlay_port, fail ({cluster_name, rank, after, status})."""
        return self._call("POST", "/clusters/settings", changes)

    # -- contract -------------------------------------------------------------------------------------------
    def contract_violations(self) -> list[str]:
        """Every /v2 response since the last reset that the OpenAPI document does not allow."""
        return self._call("GET", "/contract")["violations"]

    def assert_contract(self) -> None:
        """Fail (AssertionError) when any response broke the document; tests call it on teardown."""
        violations = self.contract_violations()
        if violations:
            self._call("DELETE", "/contract")
            raise AssertionError(
                "the simulator served responses the OpenAPI document does not allow:\n" + "\n".join(violations)
            )

    # -- request log -----------------------------------------------------------------------------------------
    def requests(self, *, since: int | None = None) -> list[dict[str, Any]]:
        params = {"since": since} if since is not None else None
        return self._call("GET", "/requests", params=params)["requests"]

    def clear_requests(self) -> None:
        self._call("DELETE", "/requests")

    def count(self, method: str | None = None, path_regex: str | None = None, *, status: int | None = None) -> int:
        """How many API requests matched (``path_regex`` is searched in the path, e.g. ``r"^/v2/pods$"``)."""
        pattern = re.compile(path_regex) if path_regex else None
        total = 0
        for entry in self.requests():
            if method and entry["method"] != method.upper():
                continue
            if pattern and not pattern.search(entry["path"]):
                continue
            if status is not None and entry["status"] != status:
                continue
            total += 1
        return total


class SimProcess:
    """A running simulator subprocess. ``urls`` has api_v2, serverless, admin and base."""

    def __init__(
        self, process: subprocess.Popen[bytes], ready: dict[str, Any], workdir: tempfile.TemporaryDirectory[str]
    ):
        self.process = process
        self.ready = ready
        self.urls = {key: ready[key] for key in ("base", "api_v2", "serverless", "admin")}
        self.api_key: str = ready["api_key"]
        self.port: int = ready["port"]
        self.admin = SimAdmin(self.urls["admin"])
        self._workdir = workdir

    @property
    def base_url(self) -> str:
        return self.urls["base"]

    def env(self) -> dict[str, str]:
        """The RUNPOD_* variables pointing the collection at this simulator."""
        return {
            "RUNPOD_API_KEY": self.api_key,
            "RUNPOD_API_URL": self.urls["api_v2"],
            "RUNPOD_SERVERLESS_URL": self.urls["serverless"],
        }

    def listed(self, path: str, field: str, **params: Any) -> list[dict[str, Any]]:
        """Everything a v2 list (``/pods``, ``/serverless``, ``/templates``) answers, page by page as a client must:
        the simulator pages every list (a test's page size may be 2)."""
        items: list[dict[str, Any]] = []
        cursor = None
        with httpx.Client(base_url=self.urls["api_v2"], headers={"Authorization": f"Bearer {self.api_key}"},
                          timeout=10) as client:
            while True:
                answer = client.get(path, params=dict(params, **({"cursor": cursor} if cursor else {})))
                answer.raise_for_status()
                body = answer.json()
                items.extend(body[field])
                page = body.get("pagination") or {}
                if not page.get("hasNextPage"):
                    return items
                cursor = page["nextCursor"]

    def stop(self, timeout: float = 10.0) -> int | None:
        self.admin.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._workdir.cleanup()
        return self.process.returncode

    def __enter__(self) -> SimProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_simulator(*, startup_timeout: float = 300.0, **config: Any) -> SimProcess:
    """Start ``python -m runpod_sim`` on a free loopback port and wait until it is listening.

    A simulator that exits is reported at once; ``startup_timeout`` only catches one that hangs. It is not a
    speed bound: the start took 0.5 s on an idle 2-core machine and 15 s with 14 busy loops beside it, so the
    former 30 s could fail every test of a loaded xdist worker in its setup.

    Keywords: api_key, time_scale, provisioning_delay, starting_delay, ssh_delay, ssh_behaviour,
    propagation_lag, worker_boot_delay, create_latency, rate_limit (a policy text or "example"),
    rate_limit_per_minute, page_size (the server-side page size of the paged lists), state_dir, log_level. These
    become the startup config that ``/_sim/reset`` restores.
    """
    unknown = set(config) - set(_FLAGS)
    if unknown:
        raise TypeError(f"unknown simulator option(s): {', '.join(sorted(unknown))}")
    workdir = tempfile.TemporaryDirectory(prefix="runpod_sim_run_")
    ready_file = Path(workdir.name) / "ready.json"
    log_file = Path(workdir.name) / "sim.log"
    argv = [sys.executable, "-m", "runpod_sim", "--ready-file", str(ready_file)]
    config.setdefault("api_key", DEFAULT_API_KEY)
    for key, value in config.items():
        argv += [_FLAGS[key], str(value)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SIMULATOR_ROOT), env.get("PYTHONPATH")]))
    with open(log_file, "wb") as log:
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=workdir.name)
    deadline = time.monotonic() + startup_timeout
    while not ready_file.exists():
        if process.poll() is not None:
            output = log_file.read_text(errors="replace")
            workdir.cleanup()
            raise RuntimeError(f"runpod_sim exited with {process.returncode} before listening:\n{output}")
        if time.monotonic() > deadline:
            process.kill()
            process.wait(5)
            output = log_file.read_text(errors="replace")
            workdir.cleanup()
            raise TimeoutError(f"runpod_sim did not start within {startup_timeout}s:\n{output}")
        time.sleep(0.02)
    ready = json.loads(ready_file.read_text())
    return SimProcess(process, ready, workdir)
