# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fault injection, the rate limiter, the request log and auth on every surface."""

from __future__ import annotations

import math
import threading
import time

import httpx
import pytest
from simhelpers import GPU, pod_body, wait_for

from runpod_sim.testing import SimAdminError


def test_status_fault_429_carries_retry_after_and_ratelimit_headers(sim, v2):
    sim.admin.inject_fault(r"/v2/pods", "status", method="GET", status=429, retry_after=7)
    limited = v2.get("/pods")
    assert limited.status_code == 429
    assert limited.headers["Retry-After"] == "7"
    assert limited.headers["RateLimit"] == '"minute";r=0;t=7'
    assert "RateLimit-Policy" in limited.headers
    assert limited.json()["status"] == 429
    assert v2.get("/pods").status_code == 200  # count defaults to the next one request
    assert sim.admin.count("GET", r"^/v2/pods$", status=429) == 1


def test_fault_count_and_method_and_route_matching(sim, v2):
    sim.admin.inject_fault(r"/v2/pods/[^/]+", "status", method="GET", status=503, count=2)
    assert v2.get("/pods").status_code == 200  # the list path does not match
    assert [v2.get("/pods/abc").status_code for _ignored in range(3)] == [503, 503, 404]
    assert v2.post("/pods/abc/action", json={"action": "stop"}).status_code == 404


def test_fault_time_window_expires(sim, v2):
    # Within its window a fault answers every matching request (an hour: no machine is that slow).
    sim.admin.inject_fault(r"/v2/pods", "status", status=502, duration=3600)
    assert v2.get("/pods").status_code == 502
    assert v2.get("/pods").status_code == 502
    (listed,) = sim.admin.faults()
    assert 3500 < listed["expires_in"] <= 3600 and listed["remaining"] is None
    sim.admin.clear_faults()
    # After it, none: once the simulator itself says the window is over, the very next request is answered.
    sim.admin.inject_fault(r"/v2/pods", "status", status=502, duration=0.05)
    wait_for(lambda: sim.admin.faults()[0]["expires_in"] == 0, timeout=60)
    assert v2.get("/pods").status_code == 200


def test_delay_fault_slows_the_answer(sim, v2):
    sim.admin.inject_fault(r"/v2/pods", "delay", seconds=0.3)
    started = time.monotonic()
    assert v2.get("/pods").status_code == 200
    assert time.monotonic() - started >= 0.3


def test_hold_fault_lets_requests_go_only_together(sim, v2):
    """A barrier: the first held request answers only once the second has arrived, however long that takes."""
    sim.admin.inject_fault(r"/v2/pods", "hold", method="GET", parties=2, count=2, timeout=30)
    answered = []
    first = threading.Thread(target=lambda: answered.append(v2.get("/pods").status_code))
    first.start()
    first.join(0.5)
    assert first.is_alive() and answered == []  # held: the second request has not come yet
    assert v2.get("/pods").status_code == 200
    first.join(10)
    assert answered == [200]
    with pytest.raises(Exception, match="parties"):
        sim.admin.inject_fault(r"/v2/pods", "hold", parties=0)


def test_a_hold_shows_what_it_holds_and_deleting_it_lets_them_go_on(sim, v2):
    """The way a test acts while a request is in flight: it sees the request held, acts, deletes the fault."""
    hold = sim.admin.inject_fault(r"/v2/pods", "hold", method="GET", parties=2, count=2, timeout=120)
    answered = []
    first = threading.Thread(target=lambda: answered.append(v2.get("/pods").status_code))
    first.start()
    wait_for(lambda: [rule["waiting"] for rule in sim.admin.faults()] == [1])
    assert answered == []
    sim.admin.delete_fault(hold["id"])
    first.join(10)
    assert answered == [200] and sim.admin.faults() == []


def test_malformed_body(sim, v2, create_pod):
    create_pod()
    sim.admin.inject_fault(r"/v2/pods", "malformed", method="GET")
    response = v2.get("/pods")
    assert response.status_code == 200
    with pytest.raises(ValueError):
        response.json()


def test_null_entry_in_a_list(sim, v2, create_pod):
    create_pod()
    create_pod(name="pod-b")
    sim.admin.inject_fault(r"/v2/pods", "null_entry", method="GET")
    pods = v2.get("/pods").json()["pods"]
    assert None in pods and len(pods) == 3


def test_one_empty_list_read(sim, v2, create_pod):
    create_pod()
    sim.admin.inject_fault(r"/v2/pods", "empty_list", method="GET")
    assert v2.get("/pods").json() == {"pods": [], "pagination": {"nextCursor": None, "hasNextPage": False}}
    assert len(v2.get("/pods").json()["pods"]) == 1


def test_500_after_create_still_creates_the_pod(sim, v2):
    sim.admin.inject_fault(r"/v2/pods", "error_after_create", method="POST")
    response = v2.post("/pods", json=pod_body(name="billed"))
    assert response.status_code == 500
    assert [pod["name"] for pod in v2.get("/pods").json()["pods"]] == ["billed"]


def test_stock_out_fault_and_config(sim, v2):
    sim.admin.inject_fault(r"/v2/pods", "stock_out", method="POST")
    stock_out = v2.post("/pods", json=pod_body())
    assert stock_out.status_code == 400 and "no longer any instances available" in stock_out.json()["detail"]
    assert v2.get("/pods").json()["pods"] == []
    sim.admin.configure(out_of_stock_gpu_types=[GPU])
    assert v2.post("/pods", json=pod_body()).status_code == 400
    assert v2.post("/pods", json=pod_body(gpu={"id": "NVIDIA A40"})).status_code == 201


def test_rate_limit_answers_429_after_the_quota(sim, v2):
    sim.admin.configure(rate_limit_per_minute=3, time_scale=1.0)  # real minutes: no window rolls over mid-test
    answers = [v2.get("/pods") for _ignored in range(4)]
    assert [r.status_code for r in answers] == [200, 200, 200, 429]
    assert answers[0].headers["RateLimit"].startswith('"minute";r=2;t=')
    assert answers[0].headers["RateLimit-Policy"] == '"minute";q=3;w=60'
    assert answers[3].json()["detail"] == "rate limit exceeded for the minute window"
    assert 1 <= int(answers[3].headers["Retry-After"]) <= 60


@pytest.mark.parametrize(("counted_at", "left"), [("arrival", [7, 8, 9]), ("answer", [7, 7, 7])])
def test_rate_limit_counted_as_the_request_arrives_or_as_its_answer_leaves(sim, v2, counted_at, left):
    """Three creates sent at once, each handled for 2 s: counted as each arrives, their answers say 9, 8 and 7 left;
    counted as each leaves (a gateway writing the headers after the handler), all three say 7."""
    from concurrent.futures import ThreadPoolExecutor

    sim.admin.configure(rate_limit_per_minute=10, time_scale=1.0, create_latency=2, rate_limit_counted_at=counted_at)
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda _index: v2.post("/pods", json=pod_body()), range(3)))
    assert [answer.status_code for answer in answers] == [201] * 3
    assert sorted(int(a.headers["RateLimit"].split(";r=")[1].split(";")[0]) for a in answers) == left
    with pytest.raises(SimAdminError):
        sim.admin.configure(rate_limit_counted_at="sometimes")


def test_no_quota_by_default_so_answers_carry_no_headers(sim, v2):
    """Off for the quick tests: RunPod's exempt callers get no quota headers and never a 429."""
    answers = [v2.get("/pods") for _ignored in range(70)]
    assert {answer.status_code for answer in answers} == {200}
    assert all("RateLimit" not in a.headers and "RateLimit-Policy" not in a.headers for a in answers)


def test_the_documents_three_window_policy_per_window(sim, v2):
    sim.admin.configure(rate_limit="example", time_scale=1.0)
    answer = v2.get("/pods")
    assert answer.headers["RateLimit-Policy"] == '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400'
    state = answer.headers["RateLimit"].split(", ")
    assert [part.split(";")[:2] for part in state] == [['"minute"', "r=59"], ['"hour"', "r=2999"], ['"day"', "r=49999"]]
    assert 59 <= int(state[0].split("t=")[1]) <= 60
    sim.admin.configure(rate_limit='"minute";q=5;w=60, "hour";q=2;w=3600')
    # The windows keep counting across a policy change: the hour window already counted the read above.
    assert [v2.get("/pods").status_code for _ignored in range(2)] == [200, 429]
    refused = v2.get("/pods")
    assert refused.json()["detail"] == "rate limit exceeded for the hour window"
    assert 3500 <= int(refused.headers["Retry-After"]) <= 3600
    assert refused.headers["RateLimit"].startswith('"minute";r=1;')


def test_windows_run_on_the_scaled_clock_and_t_counts_real_seconds(sim, v2):
    # An hour is 1800 real seconds at time_scale 0.5: the window never turns over by itself during the test, the
    # admin hook moves its clock, so how fast the requests go on a loaded machine changes nothing.
    sim.admin.configure(rate_limit='"hour";q=2;w=3600', time_scale=0.5)
    answers = [v2.get("/pods") for _ignored in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[0].headers["RateLimit-Policy"] == '"hour";q=2;w=3600'
    reset = float(answers[2].headers["RateLimit"].split("t=")[1])
    assert 1700 < reset <= 1800, "t is real seconds (3600 simulated seconds scaled by 0.5)"
    assert answers[2].headers["Retry-After"] == str(max(1, math.ceil(reset))), "an integer, as the document says"
    sim.admin.advance_rate_limit(reset - 60)  # a minute before the window ends: still refused
    still = v2.get("/pods")
    assert still.status_code == 429 and 0 < float(still.headers["RateLimit"].split("t=")[1]) <= 60
    sim.admin.advance_rate_limit(60)
    assert v2.get("/pods").status_code == 200, "the window reopens after t real seconds"


def test_a_bad_policy_is_refused_and_leaves_the_config(sim):
    with pytest.raises(SimAdminError) as caught:
        sim.admin.configure(rate_limit='"minute";q=0;w=60')
    assert caught.value.status == 400 and "q >= 1" in caught.value.message
    assert sim.admin.config()["rate_limit"] == ""


def test_request_log_records_and_resets(sim, v2):
    v2.get("/pods")
    v2.get("/pods/nope")
    entries = sim.admin.requests()
    assert [(e["method"], e["path"], e["status"]) for e in entries] == [
        ("GET", "/v2/pods", 200),
        ("GET", "/v2/pods/nope", 404),
    ]
    assert entries[0]["finished_at"] >= entries[0]["started_at"]
    assert sim.admin.count("GET", r"^/v2/pods") == 2
    sim.admin.clear_requests()
    assert sim.admin.requests() == []


@pytest.mark.parametrize(
    ("surface", "method", "path"),
    [
        ("api_v2", "GET", "/pods"),
        ("api_v2", "POST", "/serverless"),
        ("serverless", "GET", "/abc/health"),
    ],
)
def test_every_surface_requires_the_key(sim, surface, method, path):
    url = sim.urls[surface] + path
    missing = httpx.request(method, url)
    wrong = httpx.request(method, url, headers={"Authorization": "Bearer wrong"})
    assert missing.status_code == 401 and wrong.status_code == 401
    assert "wrong" not in wrong.text
    if surface == "api_v2":
        assert missing.json() == {"title": "Unauthorized", "status": 401, "detail": "missing bearer token"}
        assert missing.headers["content-type"] == "application/problem+json"


def test_serverless_accepts_the_raw_key(sim):
    endpoint = httpx.post(
        sim.urls["api_v2"] + "/serverless",
        headers={"Authorization": f"Bearer {sim.api_key}"},
        json={
            "name": "e",
            "type": "QUEUE",
            "image": "x",
            "gpu": {"pools": ["ADA_24"]},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4},
        },
    ).json()
    sim.admin.propagate(endpoint["id"])
    raw = httpx.get(f"{sim.urls['serverless']}/{endpoint['id']}/health", headers={"Authorization": sim.api_key})
    assert raw.status_code == 200


def test_unknown_paths_answer_in_the_surface_format(sim, v2):
    assert v2.get("/nothing").json()["status"] == 404
    assert v2.put("/pods").status_code == 405


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/pods"),
        ("POST", "/v1/pods"),
        ("GET", "/v1/endpoints"),
        ("GET", "/v1/networkvolumes"),
        ("POST", "/graphql"),
        ("GET", "/graphql"),
    ],
)
def test_rest_v1_and_graphql_are_gone(sim, method, path):
    """RunPod retired REST v1 and is retiring GraphQL: the simulator serves neither, even to a valid key."""
    body = {"query": "query { myself { id } }"} if path == "/graphql" else {"name": "x", "imageName": "ubuntu"}
    answer = httpx.request(
        method,
        sim.urls["base"] + path,
        json=body if method == "POST" else None,
        headers={"Authorization": f"Bearer {sim.api_key}"},
        params={"api_key": sim.api_key} if path == "/graphql" else None,
    )
    assert answer.status_code == 404, answer.text
    assert sim.admin.pods() == []  # nothing was created on the way
