# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The serverless runtime API: jobs through /run, /runsync, /status, /stream, /cancel, /retry and /purge-queue,
consistent with /health and the worker list; every answer checked against runpod-api.md section 2."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from simhelpers import wait_for

from runpod_sim import runtime_contract


@pytest.fixture
def rt(sim) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=sim.urls["serverless"], headers={"Authorization": f"Bearer {sim.api_key}"},
                      timeout=20) as client:
        yield client


@pytest.fixture
def endpoint(sim, v2) -> Callable[..., str]:
    def make(workers_min: int = 1, workers_max: int = 3, **extra: Any) -> str:
        body = {"name": "jobs", "type": "QUEUE", "image": "worker:1", "gpu": {"pools": ["ADA_24"]},
                "workers": {"min": workers_min, "max": workers_max, "idleTimeout": 5},
                "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}, **extra}
        created = v2.post("/serverless", json=body)
        assert created.status_code == 201, created.text
        sim.admin.propagate(created.json()["id"])
        return created.json()["id"]

    return make


def _checked(response: httpx.Response) -> Any:
    """The body, after checking it against the runtime document (the simulator checks it too)."""
    problems = runtime_contract.check(response.request.method, response.request.url.path, response.status_code,
                                      response.json())
    assert problems == [], problems
    return response.json()


def test_a_job_queues_runs_on_a_worker_and_completes_with_its_output(sim, v2, rt, endpoint):
    endpoint_id = endpoint()
    sim.admin.job_script(endpoint_id, queue_delay=20, run_time=40)  # 0.2 s, 0.4 s at time_scale 0.01
    wait_for(lambda: v2.get(f"/serverless/{endpoint_id}/workers").json()["summary"]["idle"] == 1)
    submitted = _checked(rt.post(f"/{endpoint_id}/run", json={"input": {"prompt": "hi", "n": 2}}))
    assert submitted["status"] == "IN_QUEUE"
    job_id = submitted["id"]
    queued = _checked(rt.get(f"/{endpoint_id}/status/{job_id}"))
    assert queued["status"] == "IN_QUEUE" and queued["executionTime"] == 0 and "output" not in queued
    health = _checked(rt.get(f"/{endpoint_id}/health"))
    assert health["jobs"]["inQueue"] == 1
    running = wait_for(lambda: (body := rt.get(f"/{endpoint_id}/status/{job_id}").json())["status"] == "IN_PROGRESS"
                       and body)
    assert running["delayTime"] >= 20000  # simulated ms: the queue delay
    workers = v2.get(f"/serverless/{endpoint_id}/workers").json()
    health = rt.get(f"/{endpoint_id}/health").json()
    if rt.get(f"/{endpoint_id}/status/{job_id}").json()["status"] == "IN_PROGRESS":
        assert workers["summary"]["running"] == 1 and health["jobs"]["inProgress"] == 1
    done = wait_for(lambda: (body := _checked(rt.get(f"/{endpoint_id}/status/{job_id}")))["status"] == "COMPLETED"
                    and body)
    assert done["output"] == {"prompt": "hi", "n": 2}  # echo: the default output is the input
    assert done["executionTime"] >= 40000
    assert _checked(rt.get(f"/{endpoint_id}/health"))["jobs"]["completed"] == 1
    assert v2.get(f"/serverless/{endpoint_id}/workers").json()["summary"]["idle"] == 1


def test_runsync_answers_a_finished_job_inside_its_wait_and_the_id_outside_it(sim, rt, endpoint):
    endpoint_id = endpoint()
    sim.admin.job_script(endpoint_id, run_time=5, output="format", output_format="Hello {name}")
    wait_for(lambda: rt.get(f"/{endpoint_id}/health").json()["workers"]["ready"] == 1)
    done = _checked(rt.post(f"/{endpoint_id}/runsync", params={"wait": 60000}, json={"input": {"name": "Ada"}}))
    assert done["status"] == "COMPLETED" and done["output"] == "Hello Ada" and done["id"].startswith("sync-")
    sim.admin.job_script(endpoint_id, run_time=600)
    pending = _checked(rt.post(f"/{endpoint_id}/runsync", params={"wait": 1000}, json={"input": {"name": "B"}}))
    assert pending["status"] in ("IN_QUEUE", "IN_PROGRESS") and set(pending) == {"id", "status"}
    assert rt.post(f"/{endpoint_id}/runsync", params={"wait": "soon"}, json={"input": {}}).status_code == 400


def test_failed_and_timed_out_jobs_carry_their_error_and_can_be_retried(sim, rt, endpoint):
    endpoint_id = endpoint()
    sim.admin.job_script(endpoint_id, run_time=5, rules=[
        {"match": {"mode": "crash"}, "outcome": "FAILED", "error": "CUDA out of memory"},
        {"match": {"mode": "slow"}, "run_time": 100},
    ])
    failed = _checked(rt.post(f"/{endpoint_id}/runsync", json={"input": {"mode": "crash"}}))
    assert failed["status"] == "FAILED" and failed["error"] == "CUDA out of memory" and "output" not in failed
    slow = _checked(rt.post(f"/{endpoint_id}/runsync", json={"input": {"mode": "slow"},
                                                             "policy": {"executionTimeout": 10000}}))
    assert slow["status"] == "TIMED_OUT" and "10000 ms" in slow["error"]
    assert 9000 <= slow["executionTime"] <= 12000
    health = _checked(rt.get(f"/{endpoint_id}/health"))
    assert health["jobs"]["failed"] == 2
    retried = _checked(rt.post(f"/{endpoint_id}/retry/{failed['id']}"))
    assert retried == {"id": failed["id"], "status": "IN_QUEUE"}
    assert _checked(rt.get(f"/{endpoint_id}/health"))["jobs"]["retried"] == 1
    wait_for(lambda: rt.get(f"/{endpoint_id}/status/{failed['id']}").json()["status"] == "FAILED")
    ok = _checked(rt.post(f"/{endpoint_id}/runsync", json={"input": {"mode": "fine"}}))
    assert rt.post(f"/{endpoint_id}/retry/{ok['id']}").status_code == 400  # only FAILED / TIMED_OUT


def test_cancel_ends_an_active_job_and_leaves_a_terminal_one_alone(sim, rt, endpoint):
    endpoint_id = endpoint()
    sim.admin.job_script(endpoint_id, run_time=3000)
    job_id = _checked(rt.post(f"/{endpoint_id}/run", json={"input": {}}))["id"]
    cancelled = _checked(rt.post(f"/{endpoint_id}/cancel/{job_id}"))
    assert cancelled == {"id": job_id, "status": "CANCELLED"}
    assert _checked(rt.get(f"/{endpoint_id}/status/{job_id}"))["status"] == "CANCELLED"
    sim.admin.job_script(endpoint_id, run_time=1)
    done = _checked(rt.post(f"/{endpoint_id}/runsync", json={"input": {"x": 1}}))
    assert _checked(rt.post(f"/{endpoint_id}/cancel/{done['id']}")) == {"id": done["id"], "status": "COMPLETED"}
    assert rt.post(f"/{endpoint_id}/cancel/no-such-job").status_code == 404


def test_stream_delivers_each_chunk_once_and_purge_empties_the_queue(sim, rt, endpoint):
    endpoint_id = endpoint(workers_max=1)
    sim.admin.job_script(endpoint_id, run_time=20, stream=["a", "b", "c", "d"])
    job_id = _checked(rt.post(f"/{endpoint_id}/run", json={"input": {}}))["id"]
    seen: list[Any] = []

    def finished() -> bool:
        body = _checked(rt.get(f"/{endpoint_id}/stream/{job_id}"))
        seen.extend(chunk["output"] for chunk in body["stream"])
        return body["status"] == "COMPLETED" and len(seen) == 4

    wait_for(finished)
    assert seen == ["a", "b", "c", "d"]
    sim.admin.job_script(endpoint_id, run_time=3000)
    for _ignored in range(3):
        _checked(rt.post(f"/{endpoint_id}/run", json={"input": {}}))
    purged = _checked(rt.post(f"/{endpoint_id}/purge-queue"))
    assert purged["removed"] == 2  # one runs on the only worker, two were queued
    assert _checked(rt.get(f"/{endpoint_id}/health"))["jobs"]["inQueue"] == 0


def test_an_endpoint_without_workers_starts_one_for_a_queued_job(sim, v2, rt, endpoint):
    endpoint_id = endpoint(workers_min=0)
    assert v2.get(f"/serverless/{endpoint_id}/workers").json()["workers"] == []
    sim.admin.job_script(endpoint_id, run_time=1)
    job_id = _checked(rt.post(f"/{endpoint_id}/run", json={"input": {"k": "v"}}))["id"]
    assert v2.get(f"/serverless/{endpoint_id}/workers").json()["summary"]["initializing"] == 1
    wait_for(lambda: rt.get(f"/{endpoint_id}/status/{job_id}").json()["status"] == "COMPLETED")
    # Idle beyond idleTimeout (5 s = 0.05 s here) with workers.min 0: the worker goes again.
    wait_for(lambda: v2.get(f"/serverless/{endpoint_id}/workers").json()["workers"] == [])


def test_bad_requests_unknown_ids_and_the_propagation_lag(sim, v2, rt, endpoint):
    endpoint_id = endpoint()
    for body in ({}, {"input": "text"}, {"input": {}, "policy": {"ttl": -1}}, {"input": {}, "bogus": 1},
                 {"input": {}, "policy": {"lowPriority": "yes"}}):
        answer = rt.post(f"/{endpoint_id}/run", json=body)
        assert answer.status_code == 400 and set(answer.json()) == {"error"}, body
    assert rt.get(f"/{endpoint_id}/status/nope").status_code == 404
    assert rt.post("/unknown/run", json={"input": {}}).status_code == 404
    assert httpx.post(f"{sim.urls['serverless']}/{endpoint_id}/run", json={"input": {}}).status_code == 401
    sim.admin.configure(propagation_lag=3000)
    fresh = v2.post("/serverless", json={"name": "new", "type": "QUEUE", "image": "w", "gpu": {"pools": ["ADA_24"]},
                                         "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}}).json()
    assert rt.post(f"/{fresh['id']}/run", json={"input": {}}).json() == {"error": "endpoint not found"}
    assert sim.admin.jobs(fresh["id"]) == []  # nothing was queued


def test_deleting_the_endpoint_cancels_its_jobs(sim, v2, rt, endpoint):
    endpoint_id = endpoint()
    sim.admin.job_script(endpoint_id, run_time=3000)
    job_id = _checked(rt.post(f"/{endpoint_id}/run", json={"input": {}}))["id"]
    assert v2.delete(f"/serverless/{endpoint_id}").status_code == 204
    assert sim.admin.job(job_id)["status"] == "CANCELLED"


@pytest.mark.parametrize(
    ("method", "path", "status", "body", "needle"),
    [
        ("GET", "/invoke/v2/e/status/j", 200, {"id": "j", "status": "DONE", "delayTime": 1, "executionTime": 1},
         "DONE"),
        ("GET", "/invoke/v2/e/status/j", 200, {"id": "j", "status": "COMPLETED", "delayTime": 1}, "executionTime"),
        ("GET", "/invoke/v2/e/status/j", 200,
         {"id": "j", "status": "COMPLETED", "delayTime": 1, "executionTime": 1, "workerId": "w"}, "workerId"),
        ("POST", "/invoke/v2/e/run", 200, {"id": "j", "status": "IN_PROGRESS"}, "IN_QUEUE"),
        ("POST", "/invoke/v2/e/cancel/j", 200, {"id": "j"}, "status"),
        ("GET", "/invoke/v2/e/stream/j", 200, {"status": "IN_PROGRESS", "stream": ["a"]}, "object"),
        ("GET", "/invoke/v2/e/health", 200, {"workers": {"ready": -1}}, "-1"),
        ("POST", "/invoke/v2/e/run", 400, {"message": "bad"}, "error"),
        ("POST", "/invoke/v2/e/run", 201, {"id": "j", "status": "IN_QUEUE"}, "200"),
    ],
)
def test_the_runtime_contract_catches_what_the_document_does_not_allow(method, path, status, body, needle):
    problems = runtime_contract.check(method, path, status, body)
    assert problems and needle in " ".join(problems), problems


def test_the_runtime_contract_accepts_the_documented_shapes():
    job = {"id": "j", "status": "COMPLETED", "delayTime": 3, "executionTime": 4, "output": [1, 2]}
    assert runtime_contract.check("GET", "/invoke/v2/e/status/j", 200, job) == []
    assert runtime_contract.check("POST", "/invoke/v2/e/runsync", 200, {"id": "j", "status": "IN_PROGRESS"}) == []
    assert runtime_contract.check("POST", "/invoke/v2/e/runsync", 200, job) == []
    assert runtime_contract.check("GET", "/invoke/v2/e/health", 200, {}) == []  # every counter optional
    assert runtime_contract.check("GET", "/invoke/v2/e/stream/j", 200,
                                  {"status": "COMPLETED", "stream": [{"output": "x"}]}) == []
