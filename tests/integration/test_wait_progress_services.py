# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Live wait progress of endpoints and clusters (the action plugin waits on the controller) and the same results
as the module's own wait.

Each playbook (a wait that succeeds, one that times out, one that fails at once) runs twice against a reset
simulator: through the action plugin on the controller, and with RUNPOD_CLOUD_CONTROLLER_WAIT=false (the module
waits by itself). The live lines name the resource and its id; the results match once ids, ports and times are
replaced by placeholders. test_wait_progress.py does the same for pods.

The interrupt runs in the background on both paths: once the simulator's request log shows the wait polling a
resource that never gets ready, a signal goes to the process that waits (test_wait_progress_controller.py and
test_pod_wait.py do the same for pods).
"""

from __future__ import annotations

import json
import re
import signal

import httpx
import pytest
from helpers.playbooks import Background, module_task, play
from helpers.same_results import collect_ids, normalise
from helpers.simulated import FOREVER, fresh_account

pytestmark = pytest.mark.timeout(240)

GPU = "NVIDIA GeForce RTX 4090"
CLUSTER_GPU = "NVIDIA H100 80GB HBM3"
FAST = {"wait": True, "wait_interval": "200ms"}


def _results(run, tasks):
    found = {}
    results = {name: run.task_result(name) for name in tasks}
    for name in tasks:
        collect_ids(results[name], found)
    return {name: normalise(result, found) for name, result in results.items()}


def _both_paths(sim, run_playbook, tmp_path, text, configure):
    """The playbook on the controller path, then (after a reset) with the module waiting by itself."""
    for part in ("controller", "module"):
        (tmp_path / part).mkdir()
    configure()
    live = run_playbook(tmp_path / "controller", text)
    assert live.report is not None, live.stdout[-4000:] + live.stderr[-2000:]
    fresh_account(sim)
    configure()
    plain = run_playbook(tmp_path / "module", text, env={"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"})
    assert plain.report is not None, plain.stdout[-4000:] + plain.stderr[-2000:]
    return live, plain


def _display(run):
    """What ansible-playbook displayed before its JSON report (the live lines)."""
    start = run.stdout.find("{")  # where PlaybookResult.parse finds the report (no live line has a brace)
    return run.stdout if start == -1 else run.stdout[:start]


def _transitions(stdout, kind, name, resource_id):
    return re.findall(rf"^{kind} {re.escape(name)} \({re.escape(resource_id)}\): (.*)$", stdout, re.M)


def _assert_same_results(live, plain, tasks):
    live_results, plain_results = _results(live, tasks), _results(plain, tasks)
    for name in tasks:
        assert live_results[name] == plain_results[name], name
        assert set(live.task_result(name)["wait"]) == set(plain.task_result(name)["wait"]), name
    return live_results


# --- endpoint ----------------------------------------------------------------------------------------------------

ENDPOINT = {"image": "my-org/worker:1", "gpu_type_ids": [GPU], "workers_max": 1}
ENDPOINT_TASKS = ("ok", "timeout", "fatal")


def _endpoint_playbook(admin):
    script = json.dumps({"sequence": [{"workers": {"initializing": 1}},
                                      {"status": 401, "error": "invalid api key"}]})
    return play(
        module_task("endpoint", "ok", {**ENDPOINT, **FAST, "name": "ok-ep", "workers_min": 1, "wait_timeout": "30s"}),
        # workers_min 0: no worker ever starts (and the wait warns so).
        module_task("endpoint", "timeout", {**ENDPOINT, **FAST, "name": "idle-ep", "workers_min": 0,
                                            "wait_timeout": "1s"}, ignore_errors=True),
        module_task("endpoint", "setup", {**ENDPOINT, "name": "locked-ep", "workers_min": 0}, register="setup"),
        f"""
        - name: script a 401 on the second health read
          ansible.builtin.uri:
            url: "{admin}/endpoints/{{{{ setup.endpoint.id }}}}/health-sequence"
            method: POST
            body_format: json
            body: {script}
        """,
        module_task("endpoint", "fatal", {**ENDPOINT, **FAST, "name": "locked-ep", "workers_min": 0,
                                          "wait_timeout": "30s"}, ignore_errors=True),
    )


def test_endpoint_progress_lines_and_the_same_results_on_both_paths(sim, run_playbook, tmp_path):
    def configure():
        # A worker boots (initializing, then idle) at its endpoint's third /health read, on both paths: the wait
        # sees at least two states however loaded the machine is, and both reads of a poll see the same worker.
        sim.admin.configure(worker_boot_delay=FOREVER, worker_boot_health_reads=3)

    live, plain = _both_paths(sim, run_playbook, tmp_path, _endpoint_playbook(sim.urls["admin"]), configure)
    assert live.rc == 0 and plain.rc == 0, live.stdout[-3000:] + plain.stdout[-3000:]

    ok = live.task_result("ok")
    endpoint_id = ok["endpoint"]["id"]
    assert ok["ready_signal"] == "worker_idle"
    assert (f"waiting for a ready worker on endpoint {endpoint_id} "
            "(timeout 30s; Ctrl-C keeps the endpoint, a rerun resumes)") in live.stdout
    changes = _transitions(live.stdout, "endpoint", "ok-ep", endpoint_id)
    assert changes == [entry["state"] for entry in ok["wait"]["history"]], live.stdout
    assert len(changes) >= 2 and changes[-1].startswith("workers ready 1")
    assert re.search(rf"^a ready worker on endpoint {endpoint_id} ready after .*: workers ready 1", live.stdout, re.M)
    idle_id = live.task_result("timeout")["endpoint"]["id"]
    assert _transitions(live.stdout, "endpoint", "idle-ep", idle_id)
    locked_id = live.task_result("fatal")["endpoint"]["id"]
    assert _transitions(live.stdout, "endpoint", "locked-ep", locked_id)
    # The module waited by itself: no live line.
    assert "endpoint ok-ep (" not in _display(plain) and "waiting for a ready worker" not in _display(plain)

    results = _assert_same_results(live, plain, ENDPOINT_TASKS)
    assert results["timeout"]["code"] == "wait_timeout" and results["fatal"]["code"] == "unauthorized"
    for name in ("timeout", "fatal"):  # the wait's own warning, on both paths
        assert any("workers_min 0" in json.dumps(warning) for warning in live.task_result(name)["warnings"])
    assert sim.api_key not in live.stdout + plain.stdout


# --- cluster -----------------------------------------------------------------------------------------------------

CLUSTER = {"gpu_type_id": CLUSTER_GPU, "pod_count": 2, "image": "runpod/pytorch:2.8.0"}
CLUSTER_TASKS = ("ok", "timeout", "fatal")


def _cluster_playbook(admin):
    return play(
        module_task("cluster", "ok", {**CLUSTER, **FAST, "name": "ok-cl", "wait_timeout": "30s"}),
        # From here on the node of rank 1 is placed 10000 s (simulated; 200 s real) after the node of rank 0.
        f"""
        - name: stagger the nodes
          ansible.builtin.uri:
            url: "{admin}/clusters/settings"
            method: POST
            body_format: json
            body: {{member_stagger: 10000}}
        """,
        module_task("cluster", "timeout", {**CLUSTER, **FAST, "name": "slow-cl", "wait_timeout": "2s"},
                    ignore_errors=True),
        module_task("cluster", "fatal", {**CLUSTER, **FAST, "name": "flaky", "wait_timeout": "30s"},
                    ignore_errors=True),
    )


def test_cluster_progress_lines_and_the_same_results_on_both_paths(sim, run_playbook, tmp_path):
    def configure():
        # The node of rank 1 is placed 2 s (real) after the node of rank 0, so the first wait counts the nodes;
        # the node of rank 1 of "flaky" errors 3 s after the create (its node of rank 0 answers long before).
        sim.admin.cluster_settings(member_stagger=100,
                                   fail={"cluster_name": "flaky", "rank": 1, "after": 150, "status": "ERROR"})

    live, plain = _both_paths(sim, run_playbook, tmp_path, _cluster_playbook(sim.urls["admin"]), configure)
    assert live.rc == 0 and plain.rc == 0, live.stdout[-3000:] + plain.stdout[-3000:]

    ok = live.task_result("ok")
    cluster_id = ok["cluster"]["id"]
    assert ok["wait"]["ready_detail"] == "all 2 pods ready"
    assert (f"waiting for ssh on every node of cluster {cluster_id} "
            "(timeout 30s; Ctrl-C keeps the cluster, a rerun resumes)") in live.stdout
    changes = _transitions(live.stdout, "cluster", "ok-cl", cluster_id)
    assert changes == [entry["state"] for entry in ok["wait"]["history"]], live.stdout
    # Each node's ssh_args trusts its own checked keys (the hand-off of every cluster node, docs/pods.md).
    for node in ok["pods"]:
        assert node["ssh"]["ssh_args"].endswith(f"/known_hosts_{node['id']}") and node["ssh"]["host_keys"], node
    # A running count of the nodes, naming the ones still waited for.
    assert any(re.match(r"\d of 2 pods ready; waiting for ", change) for change in changes), changes
    assert re.search(rf"^ssh on every node of cluster {cluster_id} ready after .*: all 2 pods ready$", live.stdout,
                     re.M)
    slow = live.task_result("timeout")
    late = slow["not_ready"][0]["id"]
    assert f"1 of 2 pods ready; waiting for {late} (" in "\n".join(
        _transitions(live.stdout, "cluster", "slow-cl", slow["cluster"]["id"]))
    flaky = live.task_result("fatal")
    assert _transitions(live.stdout, "cluster", "flaky", flaky["cluster"]["id"])
    assert "cluster ok-cl (" not in _display(plain) and "waiting for ssh on every node" not in _display(plain)

    results = _assert_same_results(live, plain, CLUSTER_TASKS)
    assert results["timeout"]["code"] == "wait_timeout" and results["fatal"]["code"] == "conflict"
    assert [node["last_state"] for node in results["fatal"]["not_ready"]] == ["pod status error"]
    assert len(results["fatal"]["wait"]["last_states"]) == 2
    assert sim.api_key not in live.stdout + plain.stdout


# --- interrupt ---------------------------------------------------------------------------------------------------

STUCK_TASKS = ("endpoint", "cluster")


def _until_polled(sim, bg, path, reads=2, timeout=60.0):
    """Block until the request log holds ``reads`` answered GETs of ``path`` (a regex with the resource id as its
    group) for one resource; return that id. The resources here never change state, so the wait is then polling
    in a known state."""

    def polled_resource():
        ids = [re.match(path, entry["path"]).group(1) for entry in sim.admin.requests()
               if entry["method"] == "GET" and entry["status"] == 200 and re.match(path, entry["path"])]
        found = [resource_id for resource_id in set(ids) if ids.count(resource_id) >= reads]
        return found[0] if found else None

    return bg.until(polled_resource, timeout=timeout, what=f"the wait polled {path}")


def _api_get(sim, path):
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    return httpx.get(f"{sim.urls['api_v2']}/{path}", headers=headers, timeout=10)


def test_interrupted_endpoint_and_cluster_waits_give_the_same_result_on_both_paths(sim, tmp_path):
    """SIGINT (Ctrl-C) during an endpoint wait, SIGTERM during a cluster wait, to the process that waits: the
    ansible-playbook worker on the controller path, the module with RUNPOD_CLOUD_CONTROLLER_WAIT=false. Both end
    in the same ``wait_interrupted`` result naming the resource, and nothing is deleted."""
    text = play(
        # One worker, booting for good: the endpoint waits with "initializing" workers.
        module_task("endpoint", "endpoint", {**ENDPOINT, **FAST, "name": "stuck-ep", "workers_min": 1,
                                             "wait_timeout": "2m"}, ignore_errors=True),
        # No node is ever placed.
        module_task("cluster", "cluster", {**CLUSTER, **FAST, "name": "stuck-cl", "wait_timeout": "2m"},
                    ignore_errors=True),
    )
    runs, ids = {}, {}
    for where in ("controller", "module"):
        fresh_account(sim, worker_boot_delay=1e6, provisioning_delay=1e6)
        (tmp_path / where).mkdir()
        env = {"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"} if where == "module" else None
        bg = Background(sim, tmp_path / where, text, env=env)
        endpoint_id = _until_polled(sim, bg, r"^/invoke/v2/([^/]+)/health$")
        bg.signal_waiter(where, signal.SIGINT, "endpoint")
        cluster_id = _until_polled(sim, bg, r"^/v2/clusters/([^/]+)/pods$")
        bg.signal_waiter(where, signal.SIGTERM, "cluster")
        runs[where], ids[where] = bg.result(), (endpoint_id, cluster_id)
        assert runs[where].rc == 0, runs[where].stdout[-3000:] + runs[where].stderr[-3000:]

        endpoint, cluster = (runs[where].task_result(name) for name in STUCK_TASKS)
        for outcome, kind, resource_id in ((endpoint, "endpoint", endpoint_id), (cluster, "cluster", cluster_id)):
            assert outcome["failed"] is True and outcome["changed"] is True, outcome
            assert outcome["code"] == "wait_interrupted" and outcome["id"] == outcome[kind]["id"] == resource_id
            assert outcome["msg"].startswith("interrupted after "), outcome["msg"]
            # The remedy: the resource is kept, how to inspect it and how to delete it.
            assert f"{kind} {resource_id} was kept (nothing is deleted)" in outcome["msg"]
            assert f"runpod.cloud.{kind}_info id={resource_id}" in outcome["msg"]
            assert f"runpod.cloud.{kind} id={resource_id} state=absent" in outcome["msg"]
            assert {"elapsed", "polls", "last_state"} <= set(outcome["wait"])
            assert f"; last known state: {outcome['wait']['last_state']}; " in outcome["msg"]
        assert endpoint["wait"]["last_state"].startswith("workers ready 0,"), endpoint["wait"]
        assert len(cluster["not_ready"]) == 2 and len(cluster["pods"]) == 2, cluster
        # Nothing deleted: both still exist, no node is terminated.
        assert sim.admin.count("DELETE") == 0
        assert _api_get(sim, f"serverless/{endpoint_id}").status_code == 200
        assert _api_get(sim, f"clusters/{cluster_id}").status_code == 200
        assert all(pod["status"] != "TERMINATED" for pod in sim.admin.pods())

    # The controller showed the wait live; the module waited by itself.
    endpoint_id, cluster_id = ids["controller"]
    assert _transitions(runs["controller"].stdout, "endpoint", "stuck-ep", endpoint_id), runs["controller"].stdout
    assert _transitions(runs["controller"].stdout, "cluster", "stuck-cl", cluster_id), runs["controller"].stdout
    quiet = _display(runs["module"])
    assert "endpoint stuck-ep (" not in quiet and "cluster stuck-cl (" not in quiet, quiet
    shaped = {where: _results(runs[where], STUCK_TASKS) for where in runs}
    for results in shaped.values():
        # Nodes not placed yet have no rank, so the result lists them by id: random here, the same on both paths.
        results["cluster"]["pods"].sort(key=lambda pod: pod["name"])
    for name in STUCK_TASKS:
        assert shaped["controller"][name] == shaped["module"][name], name
        assert set(runs["controller"].task_result(name)["wait"]) == set(runs["module"].task_result(name)["wait"])
