"""The quota keeper (``_api.quota``): header parsing, pacing on a fake clock, one keeper shared by threads, and the
client's one 429 policy (waited out within the task's budget, else ``rate_limited`` naming the window)."""

from __future__ import annotations

import json
import random
import threading

import httpx
import pytest
from helpers.fakes import FakeClock
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import Client, RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.quota import (
    QuotaKeeper,
    format_policy,
    parse_members,
)

EXAMPLE_POLICY = '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400'
BASE = "https://api.example.test/v2"


def headers(minute_left, reset=41, policy=EXAMPLE_POLICY):
    return {"RateLimit-Policy": policy,
            "RateLimit": f'"minute";r={minute_left};t={reset}, "hour";r=2800;t=1812, "day";r=49500;t=45012'}


# -- parsing -----------------------------------------------------------------------------------------------------


def test_the_documents_examples_parse():
    assert parse_members(EXAMPLE_POLICY) == {"minute": {"q": 60, "w": 60}, "hour": {"q": 3000, "w": 3600},
                                             "day": {"q": 50000, "w": 86400}}
    assert parse_members('"minute";r=0;t=12, "hour";r=2800;t=1812')["minute"] == {"r": 0, "t": 12}
    assert parse_members("minute;r=1;t=0.82") == {"minute": {"r": 1, "t": 0.82}}  # a token name, a decimal


names = st.text(st.characters(whitelist_categories=("Ll", "Lu", "Nd")), min_size=1, max_size=12)


@given(st.dictionaries(names, st.tuples(st.integers(0, 10**9), st.integers(1, 10**7)), min_size=1, max_size=5))
def test_a_formatted_policy_reads_back(windows):
    text = format_policy([(name, quota, seconds) for name, (quota, seconds) in windows.items()])
    assert parse_members(text) == {name: {"q": quota, "w": seconds} for name, (quota, seconds) in windows.items()}


@given(st.text(max_size=200))
def test_any_header_text_parses_without_an_exception(text):
    members = parse_members(text)
    assert all(isinstance(v, float | int) and v >= 0 for params in members.values() for v in params.values())


@given(st.text(max_size=60))
def test_a_keeper_never_breaks_on_garbage_headers(text):
    keeper = QuotaKeeper(FakeClock())
    keeper.acquire()
    keeper.settle({"RateLimit-Policy": text, "RateLimit": text})
    assert keeper.acquire(deadline=FakeClock().now() + 10**9) is None


# -- pacing ------------------------------------------------------------------------------------------------------


def test_a_spent_window_waits_until_its_reset_and_says_so_once():
    clock, lines = FakeClock(), []
    keeper = QuotaKeeper(clock, report=lines.append)
    keeper.acquire()
    keeper.settle(headers(0, reset=41))
    keeper.acquire()
    assert clock.sleeps == [41.0]
    assert lines == ["quota: 0 of 60 left this minute, resuming in 41 s"]
    keeper.acquire()  # the window reset: a fresh quota, no second pause
    assert clock.sleeps == [41.0] and len(lines) == 1


def test_requests_left_are_used_without_waiting_then_the_keeper_waits():
    clock = FakeClock()
    keeper = QuotaKeeper(clock)
    keeper.acquire()
    keeper.settle(headers(3, reset=20))
    for _ignored in range(3):
        keeper.acquire()  # three in flight at once: each counts before its answer
    assert clock.sleeps == []
    keeper.settle(headers(2, reset=19))
    keeper.settle(headers(1, reset=19))
    keeper.settle(headers(0, reset=19))
    keeper.acquire()
    assert clock.sleeps == [19.0]


def test_answers_without_the_headers_mean_exempt_so_nothing_waits():
    clock = FakeClock()
    keeper = QuotaKeeper(clock)
    keeper.acquire()
    keeper.settle(headers(0))
    keeper.acquire()
    keeper.settle({})  # RunPod stopped sending the headers: exempt
    for _ignored in range(500):
        keeper.acquire()
        keeper.settle({"Content-Type": "application/json"})
    assert clock.sleeps == [41.0] and keeper.exempt


def test_a_reset_after_the_deadline_is_returned_not_waited():
    clock = FakeClock()
    keeper = QuotaKeeper(clock)
    keeper.acquire()
    keeper.settle({"RateLimit-Policy": '"hour";q=3000;w=3600', "RateLimit": '"hour";r=0;t=1812'})
    block = keeper.acquire(deadline=clock.now() + 600)
    assert block is not None and block.window == "hour" and clock.sleeps == []
    message, details = block.failure(clock.now(), "create_timeout 10m")
    assert details["window"] == "hour" and details["quota"] == 3000 and details["resets_in"] == 1812
    assert "the hour window" in message and "create_timeout 10m" in message and "30 min" in message


def test_one_keeper_shared_by_threads_never_lets_more_than_the_quota_through():
    """Twenty workers, five requests left in the window: five go, the rest wait for the reset."""
    clock = FakeClock()
    lock = threading.Lock()
    clock_sleep = clock.sleep

    def sleep(seconds, cancel=None):
        with lock:
            clock_sleep(seconds)

    clock.sleep = sleep
    keeper = QuotaKeeper(clock)
    keeper.acquire()
    keeper.settle(headers(5, reset=30))
    sent_before_reset = []
    start = clock.now()

    def worker():
        keeper.acquire()
        if clock.now() < start + 30:
            sent_before_reset.append(1)
        keeper.settle(None)  # no answer (so the estimate is all the keeper has)

    threads = [threading.Thread(target=worker) for _ignored in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert not any(thread.is_alive() for thread in threads)
    assert len(sent_before_reset) == 5


# -- the client's one policy -------------------------------------------------------------------------------------


def make_client(*answers):
    queue, sent = list(answers), []

    def handler(request):
        sent.append(request)
        return queue.pop(0) if len(queue) > 1 else queue[0]

    clock = FakeClock()
    client = Client("rpa_KEY12345", BASE, transport=httpx.MockTransport(handler), clock=clock, rng=random.Random(1))
    return client, sent, clock


def too_many(retry_after, minute_left=0, reset=41):
    body = json.dumps({"title": "Too Many Requests", "status": 429,
                       "detail": "rate limit exceeded for the minute window"})
    return httpx.Response(429, content=body, headers={"Retry-After": str(retry_after), **headers(minute_left, reset)})


def test_the_client_paces_by_the_headers_of_every_answer():
    client, sent, clock = make_client(httpx.Response(200, json={}, headers=headers(0, reset=41)))
    client.request("GET", "pods")
    client.request("GET", "pods")
    assert len(sent) == 2 and clock.sleeps == [41.0]


def test_a_429_longer_than_30_s_is_waited_out_within_the_budget():
    client, sent, clock = make_client(too_many(41), httpx.Response(201, json={"id": "p1"}))
    client.set_budget(600, "create_timeout 10m")
    assert client.request("POST", "pods", json={"name": "a"}) == {"id": "p1"}
    assert clock.sleeps == [41.0] and len(sent) == 2


def test_a_429_past_the_budget_fails_rate_limited_naming_the_window_and_sends_nothing_more():
    client, sent, clock = make_client(too_many(41), httpx.Response(201, json={"id": "p1"}))
    client.set_budget(30, "create_timeout 30s")
    with pytest.raises(RunPodError) as caught:
        client.request("POST", "pods", json={"name": "a"})
    error = caught.value
    assert error.code == "rate_limited" and error.fatal and error.status == 429
    assert error.quota["window"] == "minute" and error.quota["resets_in"] == 41.0 and error.quota["quota"] == 60
    assert "minute window" in error.message and "create_timeout 30s" in error.message
    assert clock.sleeps == [] and len(sent) == 1
    # The next call of the task is refused before it is sent: the quota cannot reset in time for it either.
    with pytest.raises(RunPodError) as again:
        client.request("POST", "pods", json={"name": "b"})
    assert again.value.code == "rate_limited" and again.value.status is None and len(sent) == 1
    assert again.value.quota["window"] == "minute"


def test_the_serverless_runtimes_answers_do_not_touch_the_apis_quota():
    client, _sent, clock = make_client(httpx.Response(200, json={}, headers=headers(0)))
    client.request("GET", "https://invoke.example.test/v2/abc/health")
    client.request("GET", "https://invoke.example.test/v2/abc/health")
    assert clock.sleeps == [] and client.quota.exempt and client.quota.windows() == {}
