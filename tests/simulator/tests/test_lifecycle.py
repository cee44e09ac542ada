# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Pod lifecycle over REST v2: timed progression, runtime/ssh blocks, the action table and its 409s."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from simhelpers import wait_for

from runpod_sim.store import ACTIONS_BY_STATUS, Pod, SimConfig, Store

GPU = "NVIDIA GeForce RTX 4090"


def test_pod_moves_through_provisioning_starting_running(sim, v2, create_pod):
    # 0.2 s each at time_scale 0.01; this test polls every 10 ms, far above RunPod's quota: no minute window.
    sim.admin.configure(provisioning_delay=20, starting_delay=20, port_map_delay=30, rate_limit_per_minute=0)
    pod = create_pod()
    assert pod["status"] == "PROVISIONING"
    assert pod["actions"] == ["stop", "terminate"]
    assert pod["runtime"] is None and pod["ssh"] == {"proxy": None, "direct": None}
    assert pod["dataCenterId"] is None and pod["startedAt"] is None
    seen = []

    def status():
        current = v2.get(f"/pods/{pod['id']}").json()
        if not seen or seen[-1] != current["status"]:
            seen.append(current["status"])
        return current if current["status"] == "RUNNING" else None

    running = wait_for(status, interval=0.01)
    assert seen == ["PROVISIONING", "STARTING", "RUNNING"]
    assert running["actions"] == ["stop", "restart", "terminate"]
    # The host publishes the mappings some seconds after RUNNING: no ports, no direct ssh yet.
    assert running["runtime"]["ports"] == [] and running["ssh"]["direct"] is None

    def mapped():
        current = v2.get(f"/pods/{pod['id']}").json()
        return current if current["runtime"]["ports"] else None

    running = wait_for(mapped)
    assert running["runtime"]["ports"][0]["private"] == 22
    assert running["ssh"]["direct"]["host"] == "127.0.0.1"
    assert running["ssh"]["direct"]["command"] == f"ssh root@127.0.0.1 -p {running['ssh']['direct']['port']}"
    assert running["ssh"]["proxy"]["username"].startswith(pod["id"] + "-")
    assert running["dataCenterId"] and running["startedAt"]


def test_starting_pod_has_proxy_but_no_direct_ssh(sim, v2, create_pod):
    sim.admin.configure(provisioning_delay=0, starting_delay=100000)
    pod = create_pod()
    starting = wait_for(lambda: (p := v2.get(f"/pods/{pod['id']}").json())["status"] == "STARTING" and p)
    assert starting["ssh"]["proxy"] is not None and starting["ssh"]["direct"] is None
    assert starting["runtime"] is None


def test_direct_ssh_needs_22_declared(sim, v2, running_pod):
    pod = running_pod(ports=["8888/http"])
    assert pod["status"] == "RUNNING"
    # The mappings are published port_map_delay after RUNNING.
    pod_id = pod["id"]

    def mapped():
        current = v2.get(f"/pods/{pod_id}").json()
        return current if current["runtime"]["ports"] else None

    pod = wait_for(mapped)
    assert pod["ssh"]["direct"] is None
    assert [port["type"] for port in pod["runtime"]["ports"]] == ["http"]


def test_time_scale_makes_a_two_minute_boot_fast(sim, v2, create_pod):
    sim.admin.configure(provisioning_delay=60, starting_delay=60, time_scale=0.002)
    pod = create_pod()
    # 120 simulated seconds take 0.24 s; unscaled, this wait would give up long before the pod ran.
    sim.admin.wait_pod(pod["id"], "RUNNING", timeout=60)


def test_action_table_and_conflicts(sim, v2, running_pod):
    pod = running_pod()
    pod_id = pod["id"]

    def act(action):
        return v2.post(f"/pods/{pod_id}/action", json={"action": action})

    refused = act("start")
    assert refused.status_code == 409
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["title"] == "Conflict" and "RUNNING" in refused.json()["detail"]
    stopped = act("stop")
    assert stopped.status_code == 200 and stopped.json()["status"] == "EXITED"
    assert stopped.json()["actions"] == ["start", "terminate"]
    assert stopped.json()["cost"] == 0.0 and stopped.json()["runtime"] is None
    assert stopped.json()["ssh"]["direct"] is None and stopped.json()["ssh"]["proxy"] is not None
    assert act("stop").status_code == 409
    assert act("restart").status_code == 409
    started = act("start")
    assert started.status_code == 200 and started.json()["status"] == "STARTING"
    sim.admin.wait_pod(pod_id, "RUNNING")
    assert act("restart").json()["status"] == "STARTING"
    assert act("terminate").status_code == 204
    assert v2.get(f"/pods/{pod_id}").json()["status"] == "TERMINATED"
    assert v2.get(f"/pods/{pod_id}").json()["actions"] == []
    assert act("start").status_code == 409
    assert all(p["id"] != pod_id for p in v2.get("/pods").json()["pods"])


def test_unknown_action_and_extra_keys_are_422(sim, v2, create_pod):
    pod = create_pod()
    bad = v2.post(f"/pods/{pod['id']}/action", json={"action": "reset"})
    assert bad.status_code == 422 and bad.json()["detail"] == "Request validation failed."
    extra = v2.post(f"/pods/{pod['id']}/action", json={"action": "stop", "force": True})
    assert extra.json()["errors"] == ["$: additional properties 'force' not allowed"]


def test_locked_pod_cannot_be_stopped(sim, v2, running_pod):
    pod = running_pod()
    locked = v2.patch(f"/pods/{pod['id']}", json={"locked": True}).json()
    assert locked["locked"] is True and "stop" not in locked["actions"]
    assert v2.post(f"/pods/{pod['id']}/action", json={"action": "stop"}).status_code == 409


def test_delete_is_204_and_removes_from_the_list(sim, v2, create_pod):
    pod = create_pod()
    response = v2.delete(f"/pods/{pod['id']}")
    assert response.status_code == 204 and response.content == b""
    assert v2.get("/pods").json() == {"pods": [], "pagination": {"nextCursor": None, "hasNextPage": False}}
    assert v2.delete(f"/pods/{pod['id']}").status_code == 404


def test_create_validation_rules(sim, v2):
    neither = v2.post("/pods", json={"name": "x", "image": "y"})
    assert neither.status_code == 400 and "exactly one of gpu or cpu" in neither.json()["detail"]
    both_cuda = v2.post(
        "/pods",
        json={"name": "x", "image": "y", "gpu": {"id": GPU, "allowedCudaVersions": ["12.8"], "minCudaVersion": "12.1"}},
    )
    assert both_cuda.status_code == 400
    no_name = v2.post("/pods", json={"image": "y", "gpu": {"id": GPU}})
    assert no_name.status_code == 422 and no_name.json()["errors"] == ["$: 'name' is required"]
    unknown_template = v2.post("/pods", json={"name": "x", "templateId": "nope", "gpu": {"id": GPU}})
    assert unknown_template.status_code == 404
    # GpuType.maxCount bounds gpu.count; an absurd count is refused at once instead of being simulated.
    huge = v2.post("/pods", json={"name": "x", "image": "y", "gpu": {"id": GPU, "count": 1_000_000_000}})
    assert huge.status_code == 400 and "more than the 8 GPUs" in huge.text
    assert v2.post("/pods", json={"name": "x", "image": "y", "gpu": {"id": GPU, "count": 8}}).status_code == 201


def test_template_fields_are_merged_into_a_new_pod(sim, v2):
    template = v2.post(
        "/templates",
        json={"name": "base", "image": "tmpl:1", "ports": ["22/tcp"], "env": {"A": "template", "B": "template"}},
    ).json()
    pod = v2.post(
        "/pods", json={"name": "x", "templateId": template["id"], "gpu": {"id": GPU}, "env": {"B": "body"}}
    ).json()
    assert pod["image"] == "tmpl:1" and pod["ports"] == ["22/tcp"]
    assert pod["env"] == {"A": "template", "B": "body"}
    assert pod["template"] is None


def test_start_ssh_injects_registered_account_keys(sim, v2):
    assert v2.put("/account/ssh-keys", json={"keys": ["ssh-ed25519 AAAA one"]}).status_code == 200
    pod = v2.post("/pods", json={"name": "x", "image": "y", "gpu": {"id": GPU}, "startSsh": True}).json()
    assert pod["env"]["PUBLIC_KEY"] == "ssh-ed25519 AAAA one"
    explicit = v2.post(
        "/pods", json={"name": "x", "image": "y", "gpu": {"id": GPU}, "startSsh": True, "env": {"PUBLIC_KEY": "mine"}}
    ).json()
    assert explicit["env"]["PUBLIC_KEY"] == "mine"


def test_patch_ports_maps_22_on_a_running_pod(sim, v2, running_pod):
    pod = running_pod(ports=["8888/http"])
    patched = v2.patch(f"/pods/{pod['id']}", json={"ports": ["8888/http", "22/tcp"]}).json()
    assert patched["ports"] == ["8888/http", "22/tcp"]
    assert patched["ssh"]["direct"]["port"] > 0


# -- the action table as a property of the in-process store (no HTTP, no sockets) -------------------------------
_OPS = st.lists(st.sampled_from(["start", "stop", "restart", "terminate", "advance"]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(_OPS)
def test_actions_always_match_the_published_table(ops):
    store = Store(SimConfig(provisioning_delay=0, starting_delay=0, ssh_delay=0))
    pod = store.add_pod(Pod(id="p1", name="p", image="i", created_at=0.0, ports=["22/tcp"]))
    for op in ops:
        assert pod.actions == list(ACTIONS_BY_STATUS[pod.status])
        if op == "advance":
            store.advance()
        elif op in pod.actions:
            {"start": store.start, "stop": store.stop, "restart": store.restart, "terminate": store.terminate}[op](pod)
        # runtime-relevant invariants that hold in every state
        if pod.status != "RUNNING":
            assert pod.running_since is None or pod.status == "STARTING"
        if pod.status in ("EXITED", "TERMINATED"):
            assert pod.cost_per_hr() == 0.0 and not pod.port_map
    assert pod.status in ACTIONS_BY_STATUS


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(min_value=1, max_value=65535), st.sampled_from(["tcp", "http", "udp", ""])), max_size=6
    )
)
def test_declared_ports_parser_round_trips(entries):
    ports = [f"{number}/{proto}" if proto else str(number) for number, proto in entries]
    pod = Pod(id="p", name="p", image="i", created_at=0.0, ports=ports)
    assert pod.declared_ports() == [(number, proto or "tcp") for number, proto in entries]
    assert pod.declares_ssh() == any(number == 22 and (proto or "tcp") == "tcp" for number, proto in entries)


def test_a_scripted_event_finds_every_step_due_before_it_done(monkeypatch):
    # No request reads the store between the placement (t=7) and a scripted failure (t=8): the one advance()
    # after both must still place the pod first, then fail it (a cluster member keeps the rank it was given).
    clock = [0.0]
    monkeypatch.setattr(Store, "now", staticmethod(lambda: clock[0]))
    store = Store(SimConfig(provisioning_delay=7, starting_delay=100))
    late = store.add_pod(Pod(id="p1", name="late", image="i", created_at=0.0))
    early = store.add_pod(Pod(id="p2", name="early", image="i", created_at=0.0))
    store.schedule(8, lambda: store.fail(late))
    store.schedule(5, lambda: store.fail(early))
    clock[0] = 20.0
    store.advance()
    assert (late.status, late.machine_id is not None) == ("ERROR", True)
    assert (early.status, early.machine_id) == ("ERROR", None)  # failed while it still waited for a host


def test_next_due_is_the_earliest_deadline_advance_acts_on(monkeypatch):
    # The ticker sleeps until next_due(): a deadline it left out would move a port's opening by up to TICK_IDLE.
    clock = [0.0]
    monkeypatch.setattr(Store, "now", staticmethod(lambda: clock[0]))
    store = Store(SimConfig(provisioning_delay=7, starting_delay=100, port_map_delay=3))
    assert store.next_due() is None
    pod = store.add_pod(Pod(id="p1", name="p", image="i", created_at=0.0))
    assert store.next_due() == 7.0  # placed
    store.schedule(5, lambda: None)
    assert store.next_due() == 5.0  # a scripted event first
    clock[0] = 6.0
    store.advance()
    assert store.next_due() == 7.0
    clock[0] = 7.0
    store.advance()
    assert (pod.status, store.next_due()) == ("STARTING", 107.0)
    clock[0] = 107.0
    store.advance()
    assert (pod.status, store.next_due()) == ("RUNNING", 110.0)  # its ports are published 3 s later
    clock[0] = 110.0
    store.advance()
    assert store.next_due() is None
