# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod's paged lists (docs/dev/api-notes.md, section 7.1) against the simulator at two entries a page (the
integration default, conftest.py): the name lookup that makes a create idempotent (of a pod, a fleet, a template,
an endpoint: one walk for all, the modules run in this process), ``pod_info``, ``endpoint_info``, a fleet's batch
wait, the inventory and the EDA source see every entry of every page, and no cursor ever leaves its query."""

from __future__ import annotations

import asyncio
import importlib.util
import json

from helpers.in_process import ModuleRuns
from helpers.paths import REPO_ROOT
from test_inventory import ansible_inventory

PAGE_SIZE = 2
GPU = "NVIDIA GeForce RTX 4090"
IMAGE = "runpod/base:1.0"
LIST = "/v2/pods"


def pod_reads(sim):
    return [entry for entry in sim.admin.requests() if entry["method"] == "GET" and entry["path"] == LIST]


def walks(sim):
    """Walks of the pod list: reads without a cursor (each starts one)."""
    return [entry for entry in pod_reads(sim) if "cursor=" not in entry["query"]]


def assert_no_cursor_refused(sim):
    refused = [entry for entry in sim.admin.requests() if entry["status"] == 422]
    assert refused == [], refused


def seed_one(sim, prefix, **options):
    (pod_id,) = sim.admin.seed(1, name_prefix=prefix, ports=["22/tcp"], **options)
    return pod_id


def fleet_args(**extra):
    return {"name": "fleet", "count": 3, "image": IMAGE, "gpu_type_ids": [GPU], "wait": True,
            "wait_interval": "100ms", "wait_timeout": "60s", **extra}


def run_templates_and_endpoints(result):
    """Templates tpl-a..c and endpoints ep-a..c (two pages of each), their reruns and an endpoint_info: steps of
    the first walk of test_lookups_waits_and_info_span_every_page_of_pods_templates_and_endpoints."""
    template = {"image": "runpod/serverless-hello-world:1", "serverless": True}
    for name in "abc":
        result.run(f"template {name}", "template", {"name": f"tpl-{name}", **template})
    tpl = result.run("rerun template a", "template", {"name": "tpl-a", **template})
    endpoint = {"template_id": tpl["template"]["id"], "gpu_type_ids": [GPU], "workers_min": 0}
    for name in "abc":
        result.run(f"endpoint {name}", "endpoint", {"name": f"ep-{name}", **endpoint})
    result.run("rerun template c", "template", {"name": "tpl-c", **template})
    result.run("rerun endpoint a", "endpoint", {"name": "ep-a", **endpoint})
    result.run("rerun endpoint c", "endpoint", {"name": "ep-c", **endpoint})
    result.run("endpoint info", "endpoint_info", {})


def assert_template_and_endpoint_lookups_spanned_pages(sim, result):
    assert result.task_result("template a")["changed"] is True  # the first tpl-a step created it
    for name in ("rerun template a", "rerun template c", "rerun endpoint a", "rerun endpoint c"):
        assert result.task_result(name)["changed"] is False, name
    # Three of each, never a second one: the lookups read both pages of each list.
    assert sim.admin.count("POST", r"^/v2/templates$") == 3
    assert sim.admin.count("POST", r"^/v2/serverless$") == 3
    listed = {endpoint["name"] for endpoint in result.task_result("endpoint info")["endpoints"]}
    assert listed == {"ep-a", "ep-b", "ep-c"}
    for path in ("/v2/templates", "/v2/serverless"):
        assert any("cursor=" in entry["query"] for entry in sim.admin.requests() if entry["path"] == path), path
    assert_no_cursor_refused(sim)


def test_lookups_waits_and_info_span_every_page_of_pods_templates_and_endpoints(sim, capsys):
    """Two walks over pods seeded across pages; the first also creates three templates and three endpoints (two
    pages of each) and reruns them. Each step is a module call in this process (helpers.in_process): the subject
    is what the lookups, the batch wait (module-side) and the info modules read; their playbook path is the
    targets' (pod, template, endpoint, pod_info, endpoint_info) and test_wait_progress*'s."""
    assert sim.admin.config()["page_size"] == PAGE_SIZE
    # Newest first: the oldest pod, "target-00000", sits behind four newer ones, on page 3.
    target = seed_one(sim, "target", image=IMAGE, gpu_type=GPU)
    for index in range(4):
        seed_one(sim, f"filler{index}")
    adopt = {"name": "target-00000", "image": IMAGE, "gpu_type_ids": [GPU]}
    first = ModuleRuns(sim, capsys)
    first.run("adopt", "pod", adopt)
    first.run("fleet", "pod", fleet_args())
    first.run("info", "pod_info", {})
    run_templates_and_endpoints(first)
    assert not first.failed(), first.results

    adopted = first.task_result("adopt")
    assert adopted["changed"] is False and adopted["pod"]["id"] == target, adopted
    # Only the fleet's three creates: the lookup found the pod on page 3 and bought no second one.
    assert sim.admin.count("POST", r"^/v2/pods$") == 3
    fleet = first.task_result("fleet")
    assert fleet["changed"] is True and len(fleet["ids"]) == 3
    assert set(fleet["wait"]["last_states"]) == set(fleet["ids"])
    listed = {pod["name"] for pod in first.task_result("info")["pods"]}
    assert listed == {"target-00000", "fleet-1", "fleet-2", "fleet-3", *(f"filler{i}-00000" for i in range(4))}
    assert len(pod_reads(sim)) > len(walks(sim))  # the reads crossed pages
    assert_template_and_endpoint_lookups_spanned_pages(sim, first)

    # Three newer pods push the fleet to pages 2 and 3 and the target to page 6: a rerun still finds all of them
    # (one walk per lookup) and its batch wait sees every member.
    for index in range(3):
        seed_one(sim, f"late{index}")
    sim.admin.clear_requests()
    second = ModuleRuns(sim, capsys)
    second.run("rerun fleet", "pod", fleet_args())
    second.run("adopt again", "pod", adopt)
    assert not second.failed(), second.results
    rerun = second.task_result("rerun fleet")
    assert rerun["changed"] is False and rerun["ids"] == fleet["ids"], rerun
    assert second.task_result("adopt again")["changed"] is False
    assert sim.admin.count("POST", r"^/v2/pods$") == 0
    # Eleven pods at two a page: every walk reads six pages, each page after the first with its cursor.
    reads, started = pod_reads(sim), walks(sim)
    assert started and len(reads) == 6 * len(started), [entry["query"] for entry in reads]
    assert_no_cursor_refused(sim)


def test_inventory_and_eda_source_see_every_pod_across_pages(sim, tmp_path):
    ids = [seed_one(sim, f"inv{index}") for index in range(5)]
    names = {f"inv{index}-00000" for index in range(5)}
    data, completed = ansible_inventory(sim, tmp_path, "plugin: runpod.cloud.runpod\ninclude_unreachable: true\n")
    assert completed.returncode == 0, completed.stderr
    assert set(data["_meta"]["hostvars"]) == names, json.dumps(data)[:2000]

    events = asyncio.run(eda_initial_events(sim))
    assert sorted(event["runpod"]["id"] for event in events if event["runpod"]["event"] == "seen") == sorted(ids)
    assert len(pod_reads(sim)) == 3 * len(walks(sim)) > 0  # five pods: three pages a walk
    assert_no_cursor_refused(sim)


async def eda_initial_events(sim):
    """The ``runpod.cloud.watch`` source's first read (``emit_initial``), run in this process for one poll."""
    path = REPO_ROOT / "extensions" / "eda" / "plugins" / "event_source" / "watch.py"
    spec = importlib.util.spec_from_file_location("runpod_cloud_watch_source_paged", path)
    source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    queue: asyncio.Queue = asyncio.Queue()
    env = sim.env()
    await source.main(queue, {"api_key": env["RUNPOD_API_KEY"], "api_url": env["RUNPOD_API_URL"],
                              "interval": "1s", "emit_initial": True, "run_time": "10ms"})
    return [queue.get_nowait() for _event in range(queue.qsize())]
