"""The ``runpod.cloud.watch`` event source against httpx.MockTransport and a fake clock: every event, the reads it
costs, backoff on 429/5xx, the end on 401, no ``gone`` from a failed read, and the key never leaking."""

from __future__ import annotations

import asyncio
import copy
import importlib.util
import json

import httpx
import pytest
import yaml
from helpers.fakes import FakeClock
from helpers.paths import REPO_ROOT

from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult

SOURCE_PATH = REPO_ROOT / "extensions" / "eda" / "plugins" / "event_source" / "watch.py"
KEY = "rpa_unit-watch-secret-key-1234"
API = "https://rest.example.test/v2"


def load_source():
    spec = importlib.util.spec_from_file_location("runpod_cloud_watch_source", SOURCE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


watch = load_source()


def pod(pod_id, name, status="RUNNING", port=43022, **extra):
    payload = {
        "id": pod_id,
        "name": name,
        "status": status,
        "image": "runpod/pytorch:2.8.0",
        "ports": ["22/tcp"],
        "gpu": {"id": "NVIDIA GeForce RTX 4090", "count": 1},
        "runtime": None,
        "ssh": None,
    }
    if status == "RUNNING":
        ports = [{"private": 22, "public": port, "type": "tcp", "ip": "45.23.12.1"}]
        payload["runtime"] = {"uptime": 5, "ports": ports}
        payload["ssh"] = {"direct": {"host": "45.23.12.1", "port": port, "username": "root"}}
    payload.update(extra)
    return payload


def endpoint(endpoint_id, name, **extra):
    payload = {"id": endpoint_id, "name": name, "type": "QUEUE", "gpu": {"pools": ["ADA_24"], "count": 1},
               "workers": {"min": 1, "max": 3}, "env": {}}
    payload.update(extra)
    return payload


def workers(*statuses, version=1, stale=()):
    return {
        "endpointVersion": version,
        "workers": [
            {"id": f"w{index}", "status": status, "isStale": index in stale, "version": version - (index in stale)}
            for index, status in enumerate(statuses)
        ],
    }


class World:
    """What the fake API serves; ``fail`` queues error answers per path (consumed one per request)."""

    def __init__(self):
        self.pods = []
        self.endpoints = []
        self.workers = {}
        self.clusters = []
        self.fail = {}
        self.requests = []

    def __call__(self, request):
        path = request.url.path.removeprefix("/v2")
        self.requests.append((request.method, path, request.url.query.decode()))
        assert request.headers["Authorization"] == f"Bearer {KEY}"
        queued = self.fail.get(path)
        if queued:
            return queued.pop(0)
        if path == "/pods":
            include = "includeClusterPods=true" in request.url.query.decode()
            return httpx.Response(200, json={"pods": [p for p in self.pods if include or not p.get("cluster")]})
        if path == "/serverless":
            return httpx.Response(200, json={"endpoints": self.endpoints})
        if path.startswith("/serverless/") and path.endswith("/workers"):
            endpoint_id = path.split("/")[2]
            if endpoint_id not in self.workers:
                return httpx.Response(404, json={"title": "Not Found", "status": 404, "detail": "no endpoint"})
            return httpx.Response(200, json=self.workers[endpoint_id])
        if path == "/clusters":
            return httpx.Response(200, json={"clusters": self.clusters})
        raise AssertionError(f"unexpected request {request.method} {path}")

    def gets(self, path):
        return sum(1 for method, seen, _query in self.requests if method == "GET" and seen == path)


def error(status, detail="nope", headers=None):
    return httpx.Response(status, json={"title": "Error", "status": status, "detail": detail}, headers=headers)


class Probe:
    def __init__(self, ok=True):
        self.ok = ok
        self.calls = []

    async def __call__(self, targets):
        self.calls.append(dict(targets))
        return {key: ProbeResult(self.ok, "probe", f"{host}:{port}") for key, (host, port) in targets.items()}


def make(world, probe=None, **args):
    lines = []
    clock = FakeClock()
    options = {"api_key": KEY, "api_url": API, "interval": "10s", **args}
    source = watch.WatchSource.from_args(options, transport=httpx.MockTransport(world), clock=clock,
                                         probe=probe or Probe(), wall=lambda: "2026-12-01T00:00:00Z",
                                         warn=lines.append, now=clock.now)
    return source, lines


def poll(source):
    return asyncio.run(source.poll_once())


def names(events):
    return [(item["runpod"]["event"], item["runpod"]["name"]) for item in events]


# -- pods ----------------------------------------------------------------------------------------------------


def test_the_first_read_only_learns_then_created_status_changed_and_gone_follow():
    world = World()
    world.pods = [pod("p1", "heal-a")]
    source, _lines = make(world)
    assert poll(source) == ([], 10.0)
    world.pods.append(pod("p2", "heal-b", status="PROVISIONING"))
    events, _delay = poll(source)
    assert names(events) == [("created", "heal-b")]
    created = events[0]["runpod"]
    assert created["kind"] == "pod" and created["id"] == "p2" and created["runtime_status"] == "initializing"
    assert created["reason"] == "provisioning" and created["at"] == "2026-12-01T00:00:00Z"
    # The resource is what pod_info describes.
    assert created["resource"]["id"] == "p2" and created["resource"]["status"] == "PROVISIONING"

    world.pods[0] = pod("p1", "heal-a", status="EXITED")
    events, _delay = poll(source)
    assert names(events) == [("status_changed", "heal-a")]
    body = events[0]["runpod"]
    assert (body["from"], body["to"], body["runtime_status"]) == ("running", "stopped", "stopped")

    world.pods = [world.pods[1]]
    assert poll(source)[0] == []  # one read without it is not enough
    events, _delay = poll(source)
    assert names(events) == [("gone", "heal-a")]
    assert events[0]["runpod"]["from"] == "stopped"
    assert poll(source)[0] == []  # reported once


def test_emit_initial_sends_one_seen_event_per_resource():
    world = World()
    world.pods = [pod("p1", "a"), pod("p2", "b", status="EXITED")]
    source, _lines = make(world, emit_initial=True)
    events, _delay = poll(source)
    assert names(events) == [("seen", "a"), ("seen", "b")]
    assert [item["runpod"]["runtime_status"] for item in events] == ["running", "stopped"]


def test_ready_probes_only_pods_that_just_turned_running_until_the_banner_answers():
    world = World()
    world.pods = [pod("p1", "old"), pod("p2", "new", status="PROVISIONING")]
    probe = Probe(ok=False)
    source, _lines = make(world, probe=probe)
    poll(source)
    assert probe.calls == []  # running at start: never probed
    world.pods[1] = pod("p2", "new", port=40001)
    events, _delay = poll(source)
    assert names(events) == [("status_changed", "new")]
    assert probe.calls == [{"p2": ("45.23.12.1", 40001)}]
    probe.ok = True
    events, _delay = poll(source)
    assert names(events) == [("ready", "new")]
    assert events[0]["runpod"]["ssh"]["port"] == 40001
    poll(source)
    assert len(probe.calls) == 2  # proven once, never probed again


def test_one_list_read_per_interval_whatever_the_number_of_pods():
    world = World()
    world.pods = [pod(f"p{index}", f"heal-{index}") for index in range(50)] + [pod("x", "other")]
    source, _lines = make(world, name_prefix="heal-")
    for _cycle in range(3):
        poll(source)
    assert world.requests == [("GET", "/pods", "")] * 3
    world.pods[0] = pod("p0", "heal-0", status="EXITED")
    world.pods[-1] = pod("x", "other", status="EXITED")
    assert names(poll(source)[0]) == [("status_changed", "heal-0")]


# -- failures ------------------------------------------------------------------------------------------------


def test_429_and_5xx_back_off_with_a_line_and_no_event_then_the_interval_returns():
    world = World()
    world.pods = [pod("p1", "a")]
    source, lines = make(world)
    poll(source)
    world.pods = []
    world.fail["/pods"] = [error(429, "slow down", {"Retry-After": "45"}), error(503), error(502)]
    events, delay = poll(source)
    assert events == [] and delay == 45.0
    assert len(lines) == 1 and "rate_limited" in lines[0] and "429" in lines[0] and "next read in 45s" in lines[0]
    assert poll(source) == ([], 40.0)  # second failure in a row: 10s * 2**2
    assert poll(source) == ([], 80.0)
    assert len(lines) == 3 and "server_error" in lines[2]
    events, delay = poll(source)
    assert events == [] and delay == 10.0  # one successful read without p1: not gone yet
    assert names(poll(source)[0]) == [("gone", "a")]


def test_backoff_is_capped_at_five_minutes():
    world = World()
    source, _lines = make(world)
    world.fail["/pods"] = [error(500)] * 8
    delays = [poll(source)[1] for _index in range(8)]
    assert delays[:4] == [20.0, 40.0, 80.0, 160.0] and set(delays[5:]) == {300.0}


def test_a_failed_read_never_produces_gone_and_restarts_the_miss_count():
    world = World()
    world.pods = [pod("p1", "a")]
    source, _lines = make(world)
    poll(source)
    world.pods = []
    assert poll(source)[0] == []  # miss 1
    world.fail["/pods"] = [error(500), httpx.Response(200, content=b"not json")]
    assert poll(source)[0] == []  # failed read: nothing believed, the run starts over
    assert poll(source)[0] == []  # an unreadable answer is a failed read too
    assert poll(source)[0] == []  # miss 1 again
    assert names(poll(source)[0]) == [("gone", "a")]


def test_a_network_error_backs_off_too():
    world = World()
    source, lines = make(world)
    world.fail["/pods"] = [httpx.ConnectError("connection refused")]

    def transport(request):
        queued = world.fail.get("/pods")
        if queued and isinstance(queued[0], Exception):
            raise queued.pop(0)
        return world(request)

    source.backend.client._http._transport = httpx.MockTransport(transport)
    events, delay = poll(source)
    assert events == [] and delay == 20.0 and "network_error" in lines[0]


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_ends_the_source_with_a_clear_error(status):
    world = World()
    world.fail["/pods"] = [error(status, f"key {KEY} is not valid")]
    source, lines = make(world)
    with pytest.raises(watch.WatchError) as raised:
        poll(source)
    message = str(raised.value)
    assert "refused the API key" in message and "RUNPOD_API_KEY" in message and str(status) in message
    assert KEY not in message and lines == []
    assert raised.value.__suppress_context__ and raised.value.__cause__ is None


def test_the_key_never_appears_in_an_event_or_a_line():
    world = World()
    world.endpoints = [endpoint("e1", "api")]
    world.workers["e1"] = workers("IDLE")
    source, lines = make(world, kinds=["endpoints"], emit_initial=True)
    world.endpoints[0]["env"] = {"RUNPOD_API_KEY": KEY}
    events, _delay = poll(source)
    world.fail["/serverless"] = [error(500, f"upstream said Bearer {KEY}")]
    poll(source)
    text = json.dumps(events) + "\n".join(lines)
    assert events and lines and KEY not in text
    assert "<redacted>" in text


# -- endpoints and clusters ---------------------------------------------------------------------------------


def test_endpoint_events_and_their_reads():
    world = World()
    world.endpoints = [endpoint("e1", "api-one"), endpoint("e2", "other")]
    world.workers = {"e1": workers("IDLE", "IDLE"), "e2": workers("IDLE")}
    source, _lines = make(world, kinds=["endpoints"], name_prefix="api-")
    poll(source)
    assert world.requests == [("GET", "/serverless", ""), ("GET", "/serverless/e1/workers", "")]

    world.workers["e1"] = workers("IDLE", "UNHEALTHY")
    events, _delay = poll(source)
    assert names(events) == [("workers_unhealthy", "api-one")]
    assert (events[0]["runpod"]["from"], events[0]["runpod"]["to"]) == (0, 1)
    assert events[0]["runpod"]["workers"]["unhealthy"] == 1
    assert poll(source)[0] == []  # still unhealthy: no new event

    world.workers["e1"] = workers("IDLE", "INITIALIZING", version=2, stale=(0,))
    events, _delay = poll(source)
    assert names(events) == [("status_changed", "api-one"), ("rollout_started", "api-one")]
    assert events[0]["runpod"]["to"] == "initializing" and events[0]["runpod"]["reason"] == "rollout"
    assert events[1]["runpod"]["version"] == 2

    world.workers["e1"] = workers("IDLE", "IDLE", version=2)
    events, _delay = poll(source)
    assert names(events) == [("status_changed", "api-one"), ("rollout_finished", "api-one")]

    world.workers["e1"] = workers("UNHEALTHY", version=2)
    events, _delay = poll(source)
    assert names(events) == [("status_changed", "api-one"), ("workers_unhealthy", "api-one")]
    assert events[0]["runpod"]["to"] == "unhealthy"


def test_a_failed_worker_read_reports_nothing_for_that_endpoint():
    world = World()
    world.endpoints = [endpoint("e1", "api")]
    world.workers = {"e1": workers("IDLE")}
    source, lines = make(world, kinds=["endpoints"])
    poll(source)
    world.fail["/serverless/e1/workers"] = [error(500)]
    events, delay = poll(source)
    assert events == [] and delay == 20.0 and "workers of endpoint e1" in lines[0]
    world.workers["e1"] = workers("UNHEALTHY")
    assert names(poll(source)[0]) == [("status_changed", "api"), ("workers_unhealthy", "api")]


def member(pod_id, cluster_id, rank, status="RUNNING"):
    return pod(pod_id, f"node-{rank}", status=status, cluster={"id": cluster_id, "rank": rank, "role": None})


def test_cluster_member_status_changes_from_one_cluster_read_and_one_pod_read():
    world = World()
    world.clusters = [{"id": "c1", "name": "ring", "type": "TRAINING"}]
    world.pods = [member("m0", "c1", 0), member("m1", "c1", 1), pod("p9", "solo")]
    source, _lines = make(world, kinds=["pods", "clusters"])
    poll(source)
    assert world.requests == [("GET", "/clusters", ""), ("GET", "/pods", "includeClusterPods=true")]

    world.pods[1] = member("m1", "c1", 1, status="EXITED")
    events, _delay = poll(source)
    assert names(events) == [("status_changed", "ring"), ("member_status_changed", "ring")]
    assert (events[0]["runpod"]["from"], events[0]["runpod"]["to"]) == ("running", "degraded")
    changed = events[1]["runpod"]
    assert (changed["from"], changed["to"], changed["member"]["id"], changed["member"]["rank"]) == (
        "running", "stopped", "m1", 1)

    del world.pods[1]
    assert poll(source)[0] == []  # a member missing once is not gone
    events, _delay = poll(source)
    assert names(events) == [("status_changed", "ring"), ("member_status_changed", "ring")]
    assert events[1]["runpod"]["to"] == "gone" and events[0]["runpod"]["to"] == "running"
    assert poll(source)[0] == []
    assert world.gets("/pods") == 5 and world.gets("/clusters") == 5


# -- the loop and the options --------------------------------------------------------------------------------


def test_run_puts_every_event_on_the_queue_and_ends_after_run_time():
    world = World()
    world.pods = [pod("p1", "a")]
    clock = FakeClock()
    slept = []

    async def sleep(seconds):
        slept.append(seconds)
        clock.current += seconds
        world.pods = [pod("p1", "a", status="EXITED")]

    source = watch.WatchSource.from_args({"api_key": KEY, "api_url": API, "interval": "10s", "run_time": "25s"},
                                         transport=httpx.MockTransport(world), clock=clock, now=clock.now,
                                         sleep=sleep, probe=Probe(), warn=print)
    queue = asyncio.Queue()
    asyncio.run(source.run(queue))
    assert slept == [10.0, 10.0, 5.0] and world.gets("/pods") == 3
    item = queue.get_nowait()
    assert item["runpod"]["event"] == "status_changed" and queue.empty()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ({"interval": "soon"}, "interval"),
        ({"interval": "500ms"}, "at least 1s"),
        ({"kinds": ["pods", "volumes"]}, "kinds must be"),
        ({"kinds": []}, "kinds must be"),
        ({"emit_initial": "maybe"}, "emit_initial"),
        ({"intervall": "5s"}, "unknown option(s) intervall"),
        ({"run_time": "-1s"}, "run_time"),
    ],
)
def test_bad_options_fail_before_any_request(args, needle):
    with pytest.raises(watch.WatchError) as raised:
        watch.configure({"api_key": KEY, **args}, environ={})
    assert needle in str(raised.value) and KEY not in str(raised.value)


def test_options_fall_back_to_the_environment_and_the_defaults():
    config = watch.configure({"kinds": "clusters, pods", "eda_feedback_queue": object()},
                             environ={"RUNPOD_API_KEY": KEY, "RUNPOD_API_URL": API})
    assert config["api_key"] == KEY and config["api_url"] == API and config["interval"] == 30.0
    assert config["kinds"] == ["pods", "clusters"] and config["emit_initial"] is False and config["run_time"] is None
    with pytest.raises(watch.WatchError, match="RUNPOD_API_KEY"):
        watch.configure({}, environ={})


def test_main_is_the_documented_coroutine_with_docs():
    assert asyncio.iscoroutinefunction(watch.main)
    # Galaxy reads DOCUMENTATION with ansible-doc (as a module's): it has to be YAML, module-style.
    doc = yaml.safe_load(watch.DOCUMENTATION)
    assert {"short_description", "description", "options", "author", "version_added"} <= set(doc)
    assert not doc["short_description"].endswith(".")
    assert sorted(doc["options"]) == sorted(watch.OPTIONS)
    for name, option in doc["options"].items():
        assert option["description"] and option["type"] and option.get("required") is False, name
    examples = yaml.safe_load(watch.EXAMPLES)
    assert examples and all("runpod.cloud.watch" in rulebook["sources"][0] for rulebook in examples)


def test_documented_defaults_are_the_defaults():
    doc = yaml.safe_load(watch.DOCUMENTATION)["options"]
    config = watch.configure({}, environ={"RUNPOD_API_KEY": KEY})
    given = watch.configure({name: doc[name]["default"] for name in doc if "default" in doc[name]},
                            environ={"RUNPOD_API_KEY": KEY})
    assert given == config
    assert doc["kinds"]["choices"] == list(watch.KINDS)


def test_copying_an_event_is_json_safe():
    world = World()
    world.pods = [pod("p1", "a")]
    source, _lines = make(world, emit_initial=True)
    events, _delay = poll(source)
    assert json.loads(json.dumps(events)) == copy.deepcopy(events)


# -- leases and idle -------------------------------------------------------------------------------------------


def leased(pod_id, name, env, util=0, created="2026-01-01T00:00:00Z", **extra):
    payload = pod(pod_id, name, env=env, createdAt=created, **extra)
    if payload["runtime"] is not None:
        payload["runtime"]["gpus"] = [{"util": util, "memoryUtil": 1}]
    return payload


def test_a_lease_that_ran_out_is_sent_once_per_deadline_and_never_for_a_pod_without_one():
    world = World()
    world.pods = [leased("p1", "expired", {"RUNPOD_CLOUD_STOP_AFTER": "60"}),
                  leased("p2", "later", {"RUNPOD_CLOUD_STOP_AFTER": "60"}, created="2999-01-01T00:00:00Z"),
                  leased("p3", "free", {}),
                  leased("p4", "gone-too", {"RUNPOD_CLOUD_STOP_AFTER": "60", "RUNPOD_CLOUD_TERMINATE_AFTER": "120"},
                         status="EXITED")]
    source, _lines = make(world)
    events, _delay = poll(source)  # the first read sends lease events too: a lease is no change to learn
    assert sorted(names(events)) == [("pod_lease_expired", "expired"), ("pod_lease_expired", "gone-too")]
    body = {item["runpod"]["name"]: item["runpod"] for item in events}
    assert (body["expired"]["action"], body["expired"]["rule"], body["expired"]["deadline"]) == (
        "stop", "stop_after", "2026-01-01T00:01:00Z")
    assert (body["gone-too"]["action"], body["gone-too"]["rule"]) == ("terminate", "terminate_after")
    assert poll(source)[0] == []  # once


def test_idle_is_tracked_across_reads_and_a_busy_or_unleased_pod_is_never_idle():
    world = World()
    idle = {"RUNPOD_CLOUD_IDLE_STOP_AFTER": "25", "RUNPOD_CLOUD_IDLE_BELOW": "10"}
    world.pods = [leased("p1", "idle", idle), leased("p2", "busy", idle, util=50), leased("p3", "free", {})]
    epoch = iter(range(1000, 2000, 10))
    options = {"api_key": KEY, "api_url": API, "interval": "10s"}
    source = watch.WatchSource.from_args(options, transport=httpx.MockTransport(world), probe=Probe(),
                                         wall=lambda: "2026-12-01T00:00:00Z", warn=[].append,
                                         epoch=lambda: next(epoch))
    assert [poll(source)[0] for _read in range(3)] == [[], [], []]  # idle since 1000; 1020 is 20 s, below 25 s
    world.pods[0] = leased("p1", "idle", idle, util=10)  # at the threshold: busy, the stretch starts over
    assert poll(source)[0] == []
    world.pods[0] = leased("p1", "idle", idle, util=0)
    assert [poll(source)[0] for _read in range(3)] == [[], [], []]  # 1040 .. 1060
    (event,) = poll(source)[0]  # 1070: 30 s idle
    assert names([event]) == [("pod_idle", "idle")]
    assert (event["runpod"]["rule"], event["runpod"]["action"], event["runpod"]["idle_below"]) == (
        "idle_stop_after", "stop", 10)
    assert event["runpod"]["idle_since"] == "1970-01-01T00:17:20Z" and event["runpod"]["deadline"] == (
        "1970-01-01T00:17:45Z")
    assert poll(source)[0] == []  # once per idle stretch
