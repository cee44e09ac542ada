"""The quota keeper (``_api.quota``): header parsing, pacing on a fake clock, one keeper shared by threads, and the
client's one 429 policy (waited out within the task's budget, else ``rate_limited`` naming the window)."""

from __future__ import annotations

import json
import math
import random
import threading

import httpx
import pytest
from helpers.fakes import FakeClock
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import Client, RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.quota import QuotaKeeper, parse_members

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
    text = ", ".join(f'"{name}";q={quota};w={seconds}' for name, (quota, seconds) in windows.items())
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
    assert clock.sleeps == [41.0] and keeper.windows() == {}


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
    assert clock.sleeps == [] and client.quota.windows() == {}


# -- what is left: RunPod's newest count less what it may not have counted yet (issue 45) ---------------------------


class Server:
    """RunPod's side of one minute window: a request is counted when it arrives, its answer tells what was left
    then (``r``); answers may come back in any order."""

    def __init__(self, keeper, quota=60, reset=41):
        self.keeper, self.quota, self.reset = keeper, quota, reset
        self.used = 0
        self.sent, self.arrived = [], []  # requests on their way / counted, with the r their answer carries

    def send(self):
        """Send one request if the keeper lets it go now (never waits); True when sent."""
        if self.keeper.acquire(deadline=self.keeper.clock.now()) is not None:
            return False
        self.sent.append(None)
        return True

    def arrive(self, index=0):
        self.sent.pop(index % len(self.sent))
        self.used += 1
        self.arrived.append(max(0, self.quota - self.used))

    def answer(self, index=0):
        left = self.arrived.pop(index % len(self.arrived))
        self.keeper.settle(headers(left, reset=self.reset, policy=f'"minute";q={self.quota};w=60'))


def test_ten_workers_spend_the_whole_window_not_51_of_60():
    """A fleet's pipeline: ten requests in flight, each counted by RunPod as it arrives, a new one sent as each
    answer comes back. Every request of the window is spent, none is sent past it (before: each answer's r less
    the ten in flight was kept, the nine RunPod had already counted went twice, and 9 of 60 stayed unused)."""
    clock = FakeClock()
    server = Server(QuotaKeeper(clock))
    server.send()
    server.arrive()
    server.answer()  # the first answer says what the quota is
    for _ignored in range(10):
        assert server.send()
        server.arrive()
    while server.arrived:
        server.answer()
        if server.send():
            server.arrive()
    assert server.used == 60 and clock.sleeps == []
    assert not server.send()  # the window is spent: the next request waits for its reset


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("sav"), st.integers(0, 20)), max_size=150), st.integers(1, 40))
def test_no_order_of_answers_sends_past_the_quota_or_leaves_a_request_unused(steps, quota):
    clock = FakeClock()
    server = Server(QuotaKeeper(clock), quota=quota)
    server.send()
    server.arrive()
    server.answer()
    for action, index in steps:
        if action == "s":
            server.send()
        elif action == "a" and server.sent:
            server.arrive(index)
        elif action == "v" and server.arrived:
            server.answer(index)
        assert server.used <= quota, "a request was sent past the quota (RunPod would answer 429)"
    while server.sent:
        server.arrive()
    while server.arrived:
        server.answer()
    # Every answer is in: what is left is exactly what RunPod said, and all of it is used before any pause.
    while server.send():
        server.arrive()
        server.answer()
    assert server.used == quota and clock.sleeps == []


def test_a_new_window_starts_fresh_and_its_answers_say_exactly():
    clock = FakeClock()
    keeper = QuotaKeeper(clock)
    keeper.acquire()
    keeper.settle(headers(0, reset=10))
    keeper.acquire()  # waits for the reset, then counts against the fresh minute
    assert clock.sleeps == [10.0]
    assert keeper.windows()["minute"][0] == 60 - 1
    keeper.settle(headers(58, reset=59))  # another task of the play sent one too: the answer says so
    assert keeper.windows()["minute"][0] == 58


def test_a_request_without_an_answer_stays_spent_for_the_rest_of_the_window():
    clock = FakeClock()
    keeper = QuotaKeeper(clock)
    keeper.acquire()
    keeper.settle(headers(2, reset=30))
    keeper.acquire()
    keeper.settle(None)  # a lost connection: RunPod may have counted it
    assert keeper.windows()["minute"][0] == 1
    keeper.acquire()
    keeper.settle(headers(1, reset=29))  # the lost one was not counted after all: the newest count says so
    assert keeper.windows()["minute"][0] == 0  # still spent as far as the keeper knows (it cannot tell)


def test_a_loop_of_tasks_each_with_its_own_keeper_meets_at_most_one_429_a_window():
    """``pod`` in a ``loop``: each task is its own process with a fresh keeper, so only its first request can meet a
    window an earlier task spent; that 429 is waited out and teaches the keeper the window, and nothing is lost."""
    clock, window, statuses = FakeClock(), {"start": None, "used": 0}, []

    def handler(request):  # RunPod's fixed window: 5 requests per 10 s, a 429 counted like any request
        now = clock.now()
        if window["start"] is None or now - window["start"] >= 10:
            window.update(start=now, used=0)
        window["used"] += 1
        reset = window["start"] + 10 - now
        left = max(0, 5 - window["used"])
        quota = {"RateLimit-Policy": '"minute";q=5;w=10', "RateLimit": f'"minute";r={left};t={reset:g}'}
        statuses.append(429 if window["used"] > 5 else 200)
        if window["used"] > 5:
            return httpx.Response(429, json={"detail": "rate limit exceeded for the minute window"},
                                  headers={**quota, "Retry-After": str(math.ceil(reset))})
        return httpx.Response(200, json={}, headers=quota)

    for task in range(8):  # three requests a task (the name lookup, the create, the check after it)
        client = Client("rpa_KEY12345", BASE, transport=httpx.MockTransport(handler), clock=clock,
                        rng=random.Random(task))
        client.set_budget(600, "create_timeout 10m")
        for _ignored in range(3):
            assert client.request("GET", "pods") == {}
    assert statuses.count(200) == 24
    windows = math.ceil(clock.elapsed / 10) + 1
    assert 1 <= statuses.count(429) <= windows - 1, (statuses, clock.sleeps)
