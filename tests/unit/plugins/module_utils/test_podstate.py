"""Derived runtime status, public SSH address and not-ready explanations (reference §5.3, §9)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from payloads import partial

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as ps
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import declares_port
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import (
    PodView,
    PortMapping,
    SshAddress,
    describe_pod,
)


def v2_pod(status="RUNNING", reported=True, ports=("8888/http", "22/tcp"), runtime_ports=(), direct=None, **extra):
    return PodView(id="pod-2", name="trainer", status=status, runtime_reported=reported,
                   ports=list(ports), runtime_ports=[PortMapping(**port) for port in runtime_ports],
                   ssh_direct=SshAddress(**direct) if direct else None, **extra)


PUBLIC_22 = {"private": 22, "public": 51227, "ip": "1.2.3.4", "type": "tcp"}


# -- the REST v2 status table, every row --------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "reported", "expected"),
    [
        ("PROVISIONING", False, ("initializing", "provisioning")),
        ("PROVISIONING", True, ("initializing", "provisioning")),
        ("STARTING", False, ("initializing", "starting_container")),
        ("STARTING", True, ("initializing", "starting_container")),
        ("RUNNING", True, ("running", None)),
        ("RUNNING", False, ("initializing", "awaiting_container")),
        ("EXITED", False, ("stopped", None)),
        ("EXITED", True, ("stopped", None)),
        ("TERMINATED", False, ("terminated", None)),
        ("TERMINATED", True, ("terminated", None)),
        ("ERROR", False, ("stopped", "container_error")),
        ("ERROR", True, ("stopped", "container_error")),
        (" running ", True, ("running", None)),
        ("exited", False, ("stopped", None)),
        ("Terminated", False, ("terminated", None)),
        ("SOMETHING_NEW", True, ("unknown", None)),
        ("DEAD", True, ("unknown", None)),
        ("CREATED", True, ("unknown", None)),
        ("", True, ("unknown", None)),
        (None, True, ("unknown", None)),
        (12345, True, ("unknown", None)),
    ],
)
def test_derive_status_table(status, reported, expected):
    assert ps.derive_status(status, reported) == expected


def test_derive_status_without_runtime_by_default():
    assert ps.derive_status("RUNNING") == ("initializing", "awaiting_container")


def test_the_reasons_are_the_rest_v2_ones_only():
    assert set(ps.REASONS) == {"awaiting_container", "provisioning", "starting_container", "container_error"}
    assert sorted(ps.TERMINAL_STATUSES) == ["EXITED", "TERMINATED"]


def test_stopped_with_stale_runtime_is_stopped():
    pod = v2_pod("EXITED", reported=True, runtime_ports=[PUBLIC_22], uptime_seconds=111)
    assert ps.derive(pod) == ("stopped", None)
    described = describe_pod(pod)
    assert described["uptime_seconds"] is None
    assert described["ssh"] is None
    assert described["ssh_not_ready"] == (
        "pod not ready: pod is stopped; start it with runpod.cloud.pod id=pod-2 state=running")


# -- derive(pod) ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "reported", "expected"),
    [
        ("PROVISIONING", False, ("initializing", "provisioning")),
        ("STARTING", False, ("initializing", "starting_container")),
        ("RUNNING", True, ("running", None)),
        ("RUNNING", False, ("initializing", "awaiting_container")),
        ("EXITED", False, ("stopped", None)),
        ("ERROR", False, ("stopped", "container_error")),
        ("TERMINATED", False, ("terminated", None)),
        ("SOMETHING_NEW", True, ("unknown", None)),
    ],
)
def test_v2_mapping(status, reported, expected):
    assert ps.derive(v2_pod(status, reported=reported)) == expected


def test_terminal_and_error_statuses():
    assert ps.is_terminal(v2_pod("EXITED")) and ps.is_terminal(v2_pod("terminated"))
    assert not ps.is_terminal(v2_pod("ERROR"))
    assert not ps.is_terminal(v2_pod("DEAD")) and not ps.is_terminal(v2_pod("RUNNING"))


# -- public ssh ----------------------------------------------------------------------------------


def test_22_only_on_a_private_ip_is_not_publicly_routable():
    pod = v2_pod(runtime_ports=[{"private": 8888, "public": 60141, "ip": "100.65.0.101", "type": "http"},
                                {"private": 22, "public": 40022, "ip": "10.0.0.1", "type": "tcp"}])
    assert ps.public_ssh(pod) is None
    assert ps.ssh_not_ready(pod) == "pod not ready: port 22 is mapped but not publicly routable on this machine"


def test_running_without_runtime_is_initializing_with_reason_and_explanation():
    described = describe_pod(v2_pod(reported=False))
    assert (described["runtime_status"], described["runtime_status_reason"]) == ("initializing", "awaiting_container")
    assert described["ssh_not_ready"] == ("pod not ready: no container reported yet (image pull, container create or"
                                          " boot)")


def test_v2_ssh_direct_is_authoritative_even_on_loopback():
    pod = v2_pod(direct={"host": "127.0.0.1", "port": 40123, "user": "root", "command": "ssh root@127.0.0.1 -p 40123"})
    assert ps.public_ssh(pod) == {"host": "127.0.0.1", "port": 40123, "user": "root",
                                  "command": "ssh root@127.0.0.1 -p 40123"}


def test_v2_runtime_fallback_applies_the_public_ip_rule():
    routable = v2_pod(runtime_ports=[{"private": 22, "public": 41000, "ip": "8.8.4.4", "type": "tcp"}])
    expected = {"host": "8.8.4.4", "port": 41000, "user": "root", "command": "ssh root@8.8.4.4 -p 41000"}
    assert ps.public_ssh(routable) == expected
    cgnat = v2_pod(runtime_ports=[{"private": 22, "public": 41000, "ip": "100.65.17.95", "type": "tcp"}])
    assert ps.public_ssh(cgnat) is None
    assert ps.ssh_not_ready(cgnat) == "pod not ready: port 22 is mapped but not publicly routable on this machine"
    http = v2_pod(runtime_ports=[{"private": 22, "public": 41000, "ip": "8.8.4.4", "type": "http"}])
    assert ps.public_ssh(http) is None


def test_known_down_pod_never_gets_an_address_even_with_stale_direct():
    pod = v2_pod("EXITED", reported=False, direct={"host": "8.8.4.4", "port": 1, "user": "root"})
    assert ps.public_ssh(pod) is None
    assert describe_pod(pod)["ssh"] is None
    assert ps.ssh_not_ready(pod).startswith("pod not ready: pod is stopped; start it with runpod.cloud.pod id=pod-2")


def test_v2_error_explains_the_container_error():
    assert ps.ssh_not_ready(v2_pod("ERROR", reported=False)) == (
        "pod not ready: pod is stopped after a container error; start it with runpod.cloud.pod id=pod-2 state=running")


def test_terminated_explain():
    assert ps.ssh_not_ready(v2_pod("TERMINATED", reported=False)) == "pod not ready: pod is terminated"


# -- §5.3 running but no 22 ----------------------------------------------------------------------


def test_running_without_22_declared_suggests_keeping_every_port():
    text = ps.ssh_not_ready(v2_pod(ports=["8888/http", "6006/http"]))
    assert text == ("pod not ready: pod does not publish 22/tcp; add 22/tcp to the pod's ports option, e.g. "
                    "runpod.cloud.pod id=pod-2 ports=8888/http,6006/http,22/tcp (the whole list is replaced, and "
                    "changing it may restart the container)")


def test_running_without_any_port_and_unknown_id():
    text = ps.ssh_not_ready(PodView(id="", status="RUNNING", runtime_reported=True, ports=[]))
    assert "runpod.cloud.pod id=<pod-id> ports=22/tcp " in text


def test_declared_but_not_yet_published():
    assert ps.ssh_not_ready(v2_pod(ports=["22/tcp"])) == (
        "pod not ready: port 22 is declared but the host has not published a mapping for it yet")


@pytest.mark.parametrize("ports", [["22"], ["22/tcp"], [" 22 /udp"], "8888/http, 22/tcp", "22"])
def test_any_22_counts_as_declared(ports):
    assert declares_port(ports, 22)
    # model_construct: the engine reads views, and ``ports`` may still arrive as a comma string.
    pod = partial(PodView, id="pod-1", status="RUNNING", runtime_reported=True, ports=ports)
    assert "does not publish" not in ps.ssh_not_ready(pod)


@pytest.mark.parametrize("ports", [[], None, "", ["2222/tcp", "220/tcp"], "8888/http,122/tcp"])
def test_ports_without_22(ports):
    assert not declares_port(ports, 22)


def test_port_splitting():
    assert ps.split_ports("8888/http, 22/tcp,,") == ["8888/http", "22/tcp"]
    assert ps.split_ports(["8888/http", " "]) == ["8888/http"]
    assert ps.split_ports(None) == []


def test_messages_never_suggest_recreating():
    texts = [ps.ssh_not_ready(pod) for pod in (v2_pod(ports=[]), v2_pod("EXITED"), v2_pod("TERMINATED"),
                                               v2_pod(reported=False), v2_pod(ports=["22/tcp"]))]
    assert all(text and "recreate" not in text and "does not exist" not in text for text in texts)


# -- describe ------------------------------------------------------------------------------------


def test_describe_running_v2_shape():
    pod = v2_pod(direct={"host": "8.8.4.4", "port": 40123}, uptime_seconds=111, image="runpod/pytorch",
                 gpu_type="NVIDIA RTX A4000", gpu_count=1, cost_per_hr=0.17, data_center_id="EU-RO-1",
                 created_at="2026-01-01T00:00:00Z")
    described = describe_pod(pod)
    assert described == {
        "id": "pod-2", "name": "trainer", "status": "RUNNING", "runtime_status": "running",
        "runtime_status_reason": None, "uptime_seconds": 111, "image": "runpod/pytorch",
        "gpu": {"type": "NVIDIA RTX A4000", "count": 1, "vcpu_count": None, "memory_gb": None}, "cost_per_hr": 0.17,
        "data_center_id": "EU-RO-1",
        "ports": ["8888/http", "22/tcp"],
        "ssh": {"host": "8.8.4.4", "port": 40123, "user": "root", "command": "ssh root@8.8.4.4 -p 40123"},
        "ssh_not_ready": None, "created_at": "2026-01-01T00:00:00Z", "lease": None, "utilization": None,
        "global_networking": False, "global_ip": None, "internal_dns": None,
    }
    json.dumps(described)


def test_is_public_ip_rule():
    assert ps.is_public_ip("8.8.8.8")
    for ip in ("10.0.0.1", "192.168.1.1", "172.16.0.1", "127.0.0.1", "169.254.1.1", "100.64.0.1",
               "100.127.255.255", "0.0.0.0", "::1", "fe80::1", "not-an-ip", ""):
        assert not ps.is_public_ip(ip), ip
    assert ps.is_public_ip("100.128.0.1")


# -- properties over the table -------------------------------------------------------------------

statuses = st.sampled_from(["RUNNING", "EXITED", "TERMINATED", "PROVISIONING", "STARTING", "ERROR", "DEAD",
                            "CREATED", "", " running ", "exited"]) | st.text(max_size=12)
any_status = statuses | st.none() | st.integers()


@given(any_status, st.booleans())
def test_derive_status_vocabulary_is_closed(status, reported):
    runtime_status, reason = ps.derive_status(status, reported)
    assert runtime_status in ps.STATUSES
    assert reason is None or reason in ps.REASONS
    assert runtime_status == runtime_status.lower()
    # A reason always belongs to its status.
    if reason in ("awaiting_container", "provisioning", "starting_container"):
        assert runtime_status == "initializing"
    if reason == "container_error":
        assert runtime_status == "stopped"


@given(any_status, st.booleans())
def test_runtime_only_matters_for_running(status, reported):
    if isinstance(status, str) and status.strip().upper() == "RUNNING":
        assert ps.derive_status(status, reported) == (
            ("running", None) if reported else ("initializing", "awaiting_container"))
    else:
        assert ps.derive_status(status, reported) == ps.derive_status(status, not reported)


@given(any_status, st.booleans())
def test_derive_of_a_pod_is_derive_status_of_its_status(status, reported):
    pod = partial(PodView, id="pod-1", status=status, runtime_reported=reported)
    assert ps.derive(pod) == ps.derive_status(status, reported)


@given(statuses, st.booleans())
def test_known_down_never_yields_ssh(status, reported):
    pod = partial(
        PodView, id="pod-1", name="", status=status, runtime_reported=reported, ports=["22/tcp"],
        runtime_ports=[PortMapping(**PUBLIC_22)], ssh_direct=SshAddress(host="8.8.4.4", port=1022),
    )
    runtime_status, _ignored = ps.derive(pod)
    described = describe_pod(pod)
    if ps.known_down(runtime_status):
        assert described["ssh"] is None
        assert described["ssh_not_ready"].startswith("pod not ready: pod is")
    else:
        assert (described["ssh"] is None) != (described["ssh_not_ready"] is None)
    assert ps.known_down(runtime_status) == (runtime_status in ("stopped", "terminated"))
    assert not ps.known_down("unknown")
