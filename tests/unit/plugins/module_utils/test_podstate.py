"""Derived runtime status, public SSH address and not-ready explanations (reference §5.3, §9)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils import _podstate as ps
from ansible_collections.runpod.cloud.plugins.module_utils._models import PodView, PortMapping, SshAddress


def v1_pod(desired="RUNNING", change=None, probed=True, reported=True, ports=("8888/http", "22/tcp"),
           runtime_ports=(), **extra):
    return PodView(id="pod-1", name="trainer", api_version="v1", status=desired, desired_status=desired,
                   last_status_change=change, runtime_probed=probed, runtime_reported=reported, ports=list(ports),
                   runtime_ports=[PortMapping(**port) for port in runtime_ports], **extra)


def v2_pod(status="RUNNING", reported=True, ports=("8888/http", "22/tcp"), runtime_ports=(), direct=None, **extra):
    return PodView(id="pod-2", name="trainer", api_version="v2", status=status, runtime_reported=reported,
                   ports=list(ports), runtime_ports=[PortMapping(**port) for port in runtime_ports],
                   ssh_direct=SshAddress(**direct) if direct else None, **extra)


PUBLIC_22 = {"private": 22, "public": 51227, "ip": "1.2.3.4", "type": "tcp", "is_public": True}


# -- §9.3 table, every row -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("desired", "change", "probed", "reported", "expected"),
    [
        ("RUNNING", None, False, False, ("unknown", "runtime_unavailable")),
        ("RUNNING", None, True, True, ("running", None)),
        ("RUNNING", None, True, False, ("initializing", "awaiting_container")),
        ("EXITED", "Terminated by user: Wed Jul 29 2026", True, False, ("terminated", "terminated_by_user")),
        ("EXITED", "Terminated by RunPod: x", True, False, ("terminated", "terminated_by_runpod")),
        ("EXITED", "Terminated by Runpod: x", True, False, ("terminated", "terminated_by_runpod")),
        ("EXITED", "Exited by user: Fri Jul 12 2024", True, False, ("stopped", "stopped_by_user")),
        ("EXITED", "Exited by RunPod: Insufficient balance", True, False, ("stopped", "stopped_by_runpod")),
        ("EXITED", "Exited by Runpod: x", True, False, ("stopped", "stopped_by_runpod")),
        ("EXITED", "Outbid: x", True, False, ("stopped", "stopped_outbid")),
        ("EXITED", "Rented by User: x", True, False, ("stopped", None)),
        ("EXITED", None, True, False, ("stopped", None)),
        ("TERMINATED", "Terminated by user: x", True, False, ("terminated", "terminated_by_user")),
        ("TERMINATED", "terminated by runpod", True, False, ("terminated", "terminated_by_runpod")),
        ("TERMINATED", "Outbid: x", True, False, ("terminated", "terminated_outbid")),
        ("TERMINATED", "something", True, False, ("terminated", None)),
        ("CREATED", None, True, True, ("unknown", None)),
        ("RESTARTING", None, True, True, ("unknown", None)),
        ("PAUSED", None, True, True, ("unknown", None)),
        ("DEAD", None, True, True, ("unknown", None)),
        ("", None, True, True, ("unknown", None)),
        (" running ", None, True, True, ("running", None)),
        ("exited", "exited by user", True, True, ("stopped", "stopped_by_user")),
    ],
)
def test_v1_decision_table(desired, change, probed, reported, expected):
    assert ps.derive_v1(desired, change, probed, reported) == expected
    assert ps.derive(v1_pod(desired, change, probed, reported)) == expected


def test_non_string_last_status_change_is_ignored():
    assert ps.derive_v1("EXITED", 12345) == ("stopped", None)
    assert ps.derive_v1(None) == ("unknown", None)


def test_stopped_with_stale_runtime_is_stopped_by_user():
    pod = v1_pod("EXITED", "Exited by user: x", reported=True, runtime_ports=[PUBLIC_22], uptime_seconds=111)
    assert ps.derive(pod) == ("stopped", "stopped_by_user")
    described = ps.describe(pod)
    assert described["uptime_seconds"] is None
    assert described["ssh"] is None
    assert described["ssh_not_ready"] == (
        "pod not ready: pod is stopped; start it with runpod.cloud.pod id=pod-1 state=running")


def test_rest_running_but_graphql_exited_is_stopped():
    # The backend folds GraphQL's desiredStatus into desired_status; the REST status stays in status.
    pod = PodView(id="p", api_version="v1", status="RUNNING", desired_status="EXITED",
                  last_status_change="Exited by user: x")
    assert ps.derive(pod) == ("stopped", "stopped_by_user")
    assert ps.describe(pod)["status"] == "RUNNING"


# -- v2 mapping ----------------------------------------------------------------------------------


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


def test_v2_running_without_a_successful_read_of_runtime_is_unknown():
    assert ps.derive(v2_pod("RUNNING", runtime_probed=False)) == ("unknown", "runtime_unavailable")


def test_v2_terminal_and_error_statuses():
    assert ps.is_terminal(v2_pod("EXITED")) and ps.is_terminal(v2_pod("terminated"))
    assert not ps.is_terminal(v2_pod("ERROR"))
    assert ps.is_terminal(v1_pod("DEAD")) and not ps.is_terminal(v2_pod("DEAD"))


# -- public ssh ----------------------------------------------------------------------------------


def test_v1_public_22_gives_a_connection():
    pod = v1_pod(runtime_ports=[{"private": 8888, "public": 60141, "ip": "100.65.0.101", "is_public": False},
                                PUBLIC_22])
    assert ps.public_ssh(pod) == {"host": "1.2.3.4", "port": 51227, "user": "root",
                                  "command": "ssh root@1.2.3.4 -p 51227"}
    assert ps.ssh_not_ready(pod) is None


def test_v1_22_only_on_a_private_ip_is_not_publicly_routable():
    pod = v1_pod(runtime_ports=[{"private": 22, "public": 40022, "ip": "10.0.0.1", "is_public": False}])
    assert ps.public_ssh(pod) is None
    assert ps.ssh_not_ready(pod) == "pod not ready: port 22 is mapped but not publicly routable on this machine"


def test_v1_runtime_unavailable_falls_back_to_rest_mapping():
    pod = v1_pod(probed=False, reported=False, public_ip="5.6.7.8", port_mappings={"22": 10341})
    assert ps.derive(pod) == ("unknown", "runtime_unavailable")
    assert ps.public_ssh(pod)["command"] == "ssh root@5.6.7.8 -p 10341"
    assert ps.public_ssh(v1_pod(probed=False, reported=False)) is None
    assert ps.ssh_not_ready(v1_pod(probed=False, reported=False)) == "pod not ready"


def test_v1_initializing_has_reason_and_explanation():
    pod = v1_pod(reported=False)
    described = ps.describe(pod)
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
    assert ps.describe(pod)["ssh"] is None
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
    text = ps.ssh_not_ready(PodView(id="", api_version="v2", status="RUNNING", runtime_reported=True, ports=[]))
    assert "runpod.cloud.pod id=<pod-id> ports=22/tcp " in text


def test_declared_but_not_yet_published():
    assert ps.ssh_not_ready(v2_pod(ports=["22/tcp"])) == (
        "pod not ready: port 22 is declared but the host has not published a mapping for it yet")


@pytest.mark.parametrize("ports", [["22"], ["22/tcp"], [" 22 /udp"], "8888/http, 22/tcp", "22"])
def test_any_22_counts_as_declared(ports):
    assert ps.declares_22(ports)
    # model_construct: the engine reads views, and ``ports`` may still arrive as GraphQL's comma string.
    pod = PodView.model_construct(id="pod-1", api_version="v2", status="RUNNING", runtime_reported=True, ports=ports)
    assert "does not publish" not in ps.ssh_not_ready(pod)


@pytest.mark.parametrize("ports", [[], None, "", ["2222/tcp", "220/tcp"], "8888/http,122/tcp"])
def test_ports_without_22(ports):
    assert not ps.declares_22(ports)


def test_port_splitting():
    assert ps.split_ports("8888/http, 22/tcp,,") == ["8888/http", "22/tcp"]
    assert ps.split_ports(["8888/http", " "]) == ["8888/http"]
    assert ps.split_ports(None) == []


def test_messages_never_suggest_recreating():
    texts = [ps.ssh_not_ready(pod) for pod in (v2_pod(ports=[]), v2_pod("EXITED"), v2_pod("TERMINATED"),
                                               v1_pod(reported=False), v2_pod(ports=["22/tcp"]))]
    assert all(text and "recreate" not in text and "does not exist" not in text for text in texts)


# -- describe ------------------------------------------------------------------------------------


def test_describe_running_v2_shape():
    pod = v2_pod(direct={"host": "8.8.4.4", "port": 40123}, uptime_seconds=111, image="runpod/pytorch",
                 gpu_type="NVIDIA RTX A4000", gpu_count=1, cost_per_hr=0.17, data_center_id="EU-RO-1",
                 public_ip="8.8.4.4", created_at="2026-01-01T00:00:00Z", last_status_change="ignored on v2")
    described = ps.describe(pod)
    assert described == {
        "id": "pod-2", "name": "trainer", "status": "RUNNING", "runtime_status": "running",
        "runtime_status_reason": None, "uptime_seconds": 111, "image": "runpod/pytorch",
        "gpu": {"type": "NVIDIA RTX A4000", "count": 1}, "cost_per_hr": 0.17, "data_center_id": "EU-RO-1",
        "ports": ["8888/http", "22/tcp"], "public_ip": "8.8.4.4",
        "ssh": {"host": "8.8.4.4", "port": 40123, "user": "root", "command": "ssh root@8.8.4.4 -p 40123"},
        "ssh_not_ready": None, "created_at": "2026-01-01T00:00:00Z", "last_status_change": None,
    }
    json.dumps(described)


def test_describe_v1_keeps_raw_last_status_change_and_drops_uptime_when_not_running():
    pod = v1_pod("EXITED", "Outbid: Wed Jul 29 2026 21:51:59 GMT+0000", reported=False, uptime_seconds=5)
    described = ps.describe(pod)
    assert described["last_status_change"] == "Outbid: Wed Jul 29 2026 21:51:59 GMT+0000"
    assert (described["runtime_status"], described["runtime_status_reason"]) == ("stopped", "stopped_outbid")
    assert described["uptime_seconds"] is None


def test_is_public_ip_rule():
    assert ps.is_public_ip("8.8.8.8")
    for ip in ("10.0.0.1", "192.168.1.1", "172.16.0.1", "127.0.0.1", "169.254.1.1", "100.64.0.1",
               "100.127.255.255", "0.0.0.0", "::1", "fe80::1", "not-an-ip", ""):
        assert not ps.is_public_ip(ip), ip
    assert ps.is_public_ip("100.128.0.1")


# -- properties over the table -------------------------------------------------------------------

statuses = st.sampled_from(["RUNNING", "EXITED", "TERMINATED", "CREATED", "RESTARTING", "PAUSED", "DEAD",
                            "PROVISIONING", "STARTING", "ERROR", ""]) | st.text(max_size=12)
changes = st.none() | st.integers() | st.sampled_from(
    ["Exited by user: x", "Exited by RunPod: y", "Terminated by user: z", "Terminated by Runpod: q", "Outbid: w",
     "Rented by User: v"]) | st.text(max_size=30)


@given(statuses, changes, st.booleans(), st.booleans(), st.sampled_from(["v1", "v2"]))
def test_vocabulary_is_closed(status, change, probed, reported, version):
    # model_construct keeps the non-string lastStatusChange values the engine must ignore.
    pod = PodView.model_construct(id="pod-1", api_version=version, status=status, desired_status=status,
                                  last_status_change=change, runtime_probed=probed, runtime_reported=reported)
    runtime_status, reason = ps.derive(pod)
    assert runtime_status in ps.STATUSES
    assert reason is None or reason in ps.REASONS
    assert runtime_status == runtime_status.lower()


@given(statuses, changes, st.booleans(), st.booleans())
def test_runtime_is_ignored_unless_running(status, change, probed, reported):
    if status.strip().upper() != "RUNNING":
        assert ps.derive_v1(status, change, probed, reported) == ps.derive_v1(status, change, True, False)


@given(statuses, changes, st.booleans(), st.booleans(), st.sampled_from(["v1", "v2"]))
def test_known_down_never_yields_ssh(status, change, probed, reported, version):
    pod = PodView.model_construct(
        id="pod-1", name="", api_version=version, status=status, desired_status=status, last_status_change=change,
        runtime_probed=probed, runtime_reported=reported, public_ip="8.8.4.4", port_mappings={"22": 1022},
        runtime_ports=[PortMapping(**PUBLIC_22)], ssh_direct=SshAddress(host="8.8.4.4", port=1022),
    )
    runtime_status, _ignored = ps.derive(pod)
    described = ps.describe(pod)
    if ps.known_down(runtime_status):
        assert described["ssh"] is None
        assert described["ssh_not_ready"].startswith("pod not ready: pod is")
    else:
        assert (described["ssh"] is None) != (described["ssh_not_ready"] is None)
    assert ps.known_down(runtime_status) == (runtime_status in ("stopped", "terminated"))
    assert not ps.known_down("unknown")
