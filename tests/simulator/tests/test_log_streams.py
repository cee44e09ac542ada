# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The log streams (``GET /v2/pods/{id}/logs``, ``GET /v2/serverless/{id}/workers/{workerId}/logs``) as the document
describes them: Server-Sent Events, ``tail``/``source``/``since``/``Last-Event-ID``, held open after the backfill,
404 for what does not exist; the admin routes that script them; and the contract check of every event."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from runpod_sim import contract


def read_stream(client: httpx.Client, path: str, *, seconds: float = 1.0, until: int | None = None,
                **kwargs: Any) -> tuple[httpx.Response, list[tuple[str, dict[str, Any]]]]:
    """The events of one stream read for at most ``seconds`` (or until ``until`` events came)."""
    events: list[tuple[str, dict[str, Any]]] = []
    ends = time.monotonic() + seconds
    # The headers may take seconds on a loaded machine; only the body's reads stop at ``seconds`` of quiet (httpcore
    # takes the read timeout from the request's extension when the body is first read).
    with client.stream("GET", path, timeout=httpx.Timeout(10), **kwargs) as response:
        if response.status_code != 200:
            response.read()
            return response, events
        response.request.extensions["timeout"]["read"] = seconds
        buffer = ""
        try:
            for text in response.iter_text():
                buffer += text
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.split("\n"))
                    events.append((fields["id"], json.loads(fields["data"])))
                if (until is not None and len(events) >= until) or time.monotonic() > ends:
                    break
        except httpx.ReadTimeout:
            pass  # held open after the backfill: nothing more came
    return response, events


@pytest.fixture
def pod_id(sim) -> str:
    return sim.admin._call("POST", "/seed", {"count": 1, "image": "runpod/base:1.0"})["ids"][0]


def test_a_pod_stream_is_the_documented_event_stream_and_honours_tail_and_source(sim, v2, pod_id):
    sim.admin.script_pod_logs(pod_id, preset="crash_loop", every=0, repeat=3)
    response, events = read_stream(v2, f"/pods/{pod_id}/logs", params={"tail": 4})
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache" and response.headers["x-accel-buffering"] == "no"
    assert [data["line"] for _id, data in events] == [  # the newest 4 of 12: the last loop
        "start container",
        "Starting server on :8000",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "container exited with code 1, restarting",
    ]
    for event_id, data in events:
        assert event_id == data["ts"] and set(data) == {"ts", "source", "line"}
    assert [event[0] for event in events] == sorted({event[0] for event in events})  # unique, in order
    _response, system = read_stream(v2, f"/pods/{pod_id}/logs", params={"source": "system"})
    assert [data["line"] for _id, data in system] == ["start container", "container exited with code 1, restarting"] * 3
    _response, none = read_stream(v2, f"/pods/{pod_id}/logs", params={"tail": 0}, seconds=0.3)
    assert none == []
    _response, default = read_stream(v2, f"/pods/{pod_id}/logs")
    assert len(default) == 12  # every line: fewer than the default tail of 100


def test_last_event_id_and_since_resume_where_they_say(sim, v2, pod_id):
    sim.admin.script_pod_logs(pod_id, preset="traceback", every=0)
    _response, everything = read_stream(v2, f"/pods/{pod_id}/logs")
    third = everything[2][0]
    _response, after = read_stream(v2, f"/pods/{pod_id}/logs", params={"tail": 1}, headers={"Last-Event-ID": third})
    assert after == everything[3:]  # tail is ignored with Last-Event-ID
    _response, since = read_stream(v2, f"/pods/{pod_id}/logs", params={"since": third, "tail": 1})
    assert since == everything[2:]


def test_the_stream_stays_open_and_sends_new_lines_as_they_come(sim, v2, pod_id):
    # At time_scale 0.01, a line 30 simulated seconds from now comes 0.3 s into the stream.
    sim.admin.script_pod_logs(pod_id, lines=[
        {"at": 0, "source": "system", "line": "pulling"}, {"at": 30, "source": "system", "line": "pulled"}])
    started = time.monotonic()
    _response, events = read_stream(v2, f"/pods/{pod_id}/logs", seconds=5, until=2)
    assert [data["line"] for _id, data in events] == ["pulling", "pulled"]
    assert time.monotonic() - started >= 0.2  # the second line came live, after the backfill


def test_unknown_pods_and_workers_are_404_and_bad_queries_400(sim, v2, pod_id):
    assert read_stream(v2, "/pods/nope/logs")[0].status_code == 404
    assert read_stream(v2, "/serverless/nope/workers/w/logs")[0].status_code == 404
    for params in ({"tail": 5001}, {"tail": "x"}, {"source": "kernel"}, {"since": "yesterday"}):
        response = read_stream(v2, f"/pods/{pod_id}/logs", params=params)[0]
        assert response.status_code == 400 and response.headers["content-type"] == "application/problem+json"
    sim.admin._call("POST", f"/pods/{pod_id}/terminate")
    assert read_stream(v2, f"/pods/{pod_id}/logs")[0].status_code == 404


def test_every_worker_of_an_endpoint_gets_the_star_script(sim, v2):
    created = v2.post("/serverless", json={"name": "logs", "type": "QUEUE", "image": "img:1", "gpu": {
        "pools": ["ADA_24"]}, "workers": {"min": 0, "max": 2}, "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}})
    assert created.status_code == 201, created.text
    endpoint_id = created.json()["id"]
    workers = sim.admin._call("POST", f"/endpoints/{endpoint_id}/workers", {"statuses": ["UNHEALTHY", "IDLE"]})
    sim.admin._call("POST", f"/endpoints/{endpoint_id}/workers/*/logs", {"preset": "traceback", "every": 0})
    for worker in workers["workers"]:
        _response, events = read_stream(v2, f"/serverless/{endpoint_id}/workers/{worker['id']}/logs")
        assert events[-2][1]["line"] == "ModuleNotFoundError: No module named 'vllm'"
    assert read_stream(v2, f"/serverless/{endpoint_id}/workers/nope/logs")[0].status_code == 404


BAD_SCRIPTS = [
    {},
    {"preset": "nope"},
    {"lines": [{"source": "kernel", "line": "x"}]},
    {"lines": [{"at": -1, "source": "system", "line": "x"}]},
    {"preset": "traceback", "repeat": 0},
]


@pytest.mark.parametrize("body", BAD_SCRIPTS)
def test_bad_scripts_are_refused(sim, pod_id, body):
    response = httpx.post(f"{sim.urls['admin']}/pods/{pod_id}/logs", json=body)
    assert response.status_code == 400 and response.json()["error"]


def test_the_contract_check_refuses_events_the_document_does_not_describe():
    good = {"ts": "2026-06-01T12:02:03.000001Z", "source": "container", "line": "Model loaded."}
    assert contract.check_log_event("/v2/pods/p/logs", good) == []
    for bad in ({**good, "source": "kernel"}, {**good, "extra": 1}, {"ts": good["ts"], "source": "system"},
                {**good, "ts": "not a time"}, {**good, "line": 3}):
        assert contract.check_log_event("/v2/pods/p/logs", bad), bad
    # The stream's status and media type are checked like any response: an event stream is what the document says.
    assert contract.check("GET", "/v2/pods/p/logs", 200, "text/event-stream", "") == []
    assert contract.check("GET", "/v2/pods/p/logs", 200, "application/json", "")
