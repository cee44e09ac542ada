# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A pod created with RunPod's own Python SDK (GraphQL) is found and waited for by runpod.cloud.pod.

One playbook run waits on it through REST v2 and then reads it through REST v1 + GraphQL.
"""

from __future__ import annotations

import json
import textwrap
import threading
import time

from runpod_sim.sdk import runpod_sdk

GPU = "NVIDIA GeForce RTX 4090"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAISdkWaitTestKey sdk@test"


def _release_once_polled(sim, pod_id: str, done: threading.Event) -> None:
    """End the pod's provisioning once the module has read it twice (its lookup, then the wait's first poll)."""
    deadline = time.monotonic() + 60
    while not done.is_set() and time.monotonic() < deadline:
        if sim.admin.count("GET", r"^/v2/pods") >= 2:
            sim.admin.set_pod_behaviour(pod_id, provisioning_delay=0)
            return
        done.wait(0.05)


def test_pod_module_waits_for_a_pod_the_sdk_created(sim, run_playbook, tmp_path):
    # The pod provisions until the wait has seen it provisioning (then a helper thread lets it boot).
    sim.admin.configure(name_overrides={"sdk-made": {"provisioning_delay": 100000}})
    home = tmp_path / "home"
    home.mkdir()
    with runpod_sdk(sim, home) as runpod:
        created = runpod.create_pod(
            "sdk-made", "runpod/base:0.1", GPU, ports="8888/http,22/tcp", env={"PUBLIC_KEY": KEY}
        )
    pod_id = created["id"]
    wait = {
        "id": pod_id,
        "state": "running",
        "wait": True,
        "wait_for": "ssh",
        "wait_interval": "100ms",
        "wait_timeout": "60s",
    }
    v1 = {"id": pod_id, "state": "running", "api_version": "v1", "api_url": sim.urls["api_v1"]}
    playbook = textwrap.dedent(
        f"""\
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: wait on v2
              runpod.cloud.pod: {json.dumps(wait)}
            - name: read on v1
              runpod.cloud.pod: {json.dumps(v1)}
        """
    )
    sim.admin.clear_requests()
    done = threading.Event()
    releaser = threading.Thread(target=_release_once_polled, args=(sim, pod_id, done), daemon=True)
    releaser.start()
    try:
        result = run_playbook(tmp_path, playbook)
    finally:
        done.set()
        releaser.join(10)
    assert result.rc == 0, result.stdout + result.stderr

    port = sim.admin.pod(pod_id)["listeners"]["22"]["port"]
    waited = result.task_result("wait on v2")
    assert waited["changed"] is False and waited["actions"] == []
    assert waited["pod"]["id"] == pod_id and waited["pod"]["name"] == "sdk-made"
    assert waited["pod"]["ssh"]["port"] == port
    assert waited["wait"]["history"][0]["state"] == "pod status provisioning"
    assert waited["wait"]["ready_detail"] == f"ssh reachable at 127.0.0.1:{port}"

    read = result.task_result("read on v1")
    assert read["changed"] is False and read["pod"]["status"] == "RUNNING"
    assert read["pod"]["runtime_status"] == "running" and read["pod"]["ssh"]["port"] == port
