"""Clusters on REST v2: payload reader, create body, backend calls and the cluster wait (cluster_poller)."""

from __future__ import annotations

import random

import httpx
import pytest
from helpers.fakes import full_backend
from payloads import FakeClock, Router, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import cluster_create_body
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError, WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import cluster_poller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import until
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import ProbeResult
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import CLUSTER as CLUSTERS
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import ClusterSpec
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TemplateView
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView, SshAddress

API = "https://rest.example.test/v2"


def cluster_from_v2(payload):
    return CLUSTERS.read(payload)


H100 = "NVIDIA H100 80GB HBM3"
CLUSTER = {
    "id": "c1",
    "name": "train",
    "type": "SLURM",
    "compute": {"gpuTypeId": H100, "gpuCountPerPod": 8, "podCount": 3},
    "dataCenterId": "US-TX-3",
    "pods": {"total": 3, "byStatus": {"RUNNING": 2, "PROVISIONING": 1}},
    "network": {"cidr": "10.65.0.0/16", "vxlanId": 42, "vxlanPort": 4789},
    "primary": {"podId": "p0", "status": "RUNNING", "sshEndpoint": "1.2.3.4:22001"},
    "createdAt": "2026-06-29T20:00:00Z",
}


def backend_with(router, **options):
    opts = {"api_key": "k-test-123456", "api_url": API, **options}
    return full_backend(opts, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def member(pod_id, rank=None, ip=None, role=None, status="RUNNING", port=None):
    raw = {"id": pod_id, "name": pod_id, "status": status, "ports": ["22/tcp"], "cluster": {"id": "c1", "rank": rank}}
    if ip:
        raw["cluster"]["ip"] = ip
    if role:
        raw["cluster"]["role"] = role
    if port:
        raw["runtime"] = {"uptime": 3, "ports": []}
        raw["ssh"] = {"proxy": None, "direct": {"host": "1.2.3.4", "port": port, "username": "root", "command": "x"}}
    return raw


def test_cluster_payload_is_normalized_and_late_fields_stay_none():
    view = cluster_from_v2(CLUSTER)
    assert (view.type, view.gpu_type_id, view.gpu_count_per_pod, view.pod_count) == ("SLURM", H100, 8, 3)
    assert (view.network_cidr, view.vxlan_id, view.primary_pod_id, view.primary_ssh_endpoint) == (
        "10.65.0.0/16", 42, "p0", "1.2.3.4:22001")
    assert view.pods_by_status == {"RUNNING": 2, "PROVISIONING": 1}
    fresh = cluster_from_v2({"id": "c2", "name": "n", "type": "TRAINING", "compute": {}, "pods": {}})
    assert (fresh.data_center_id, fresh.network_cidr, fresh.primary_pod_id, fresh.pods_total) == (None, None, None, 0)
    with pytest.raises(RunPodError, match="without an id"):
        cluster_from_v2({"name": "x"})


def test_create_body_spreads_a_template_under_the_tasks_settings_and_adds_ssh():
    spec = ClusterSpec(name="train", type="ray", gpu_type_id=H100, gpu_count_per_pod=2, pod_count=4,
                       template_id="t1", env={"A": "task"}, network_volume_id="vol1", volume_mount_path="/data",
                       data_center_ids=["EU-RO-1"])
    template = TemplateView(id="t1", image="tpl/image:1", env={"A": "template", "B": "b"}, ports=["8888/http"],
                            container_disk_gb=40)
    body = cluster_create_body(spec, template)
    assert body == {
        "name": "train", "type": "RAY", "compute": {"gpuTypeId": H100, "gpuCountPerPod": 2, "podCount": 4},
        "image": "tpl/image:1", "disk": 40, "env": {"A": "task", "B": "b"}, "ports": ["8888/http", "22/tcp"],
        "mounts": {"network": [{"volumeId": "vol1", "path": "/data"}]}, "dataCenterIds": ["EU-RO-1"],
        "startSsh": True,
    }
    with pytest.raises(ValueError, match="needs an image"):
        cluster_create_body(ClusterSpec(name="x", gpu_type_id=H100))


def test_backend_calls_one_request_each_and_marks_a_5xx_create_maybe_created():
    router = (
        Router()
        .add("GET", "/v2/clusters", {"clusters": [CLUSTER, {**CLUSTER, "id": "c9", "name": "other"}]})
        .add("GET", "/v2/clusters/c1/pods", {"pods": [
            member("p1", 1, "10.65.0.3"), member("p0", 0, "10.65.0.2", role="SLURM_CONTROLLER")]})
        .add("GET", "/v2/templates/t1", {"id": "t1", "name": "t", "image": "tpl/img", "env": {}, "ports": []})
        .add("POST", "/v2/clusters", problem(502, "bad gateway"))
        .add("PATCH", "/v2/clusters/c1", {**CLUSTER, "name": "renamed"})
        .add("DELETE", "/v2/clusters/c1", httpx.Response(204))
    )
    backend = backend_with(router)
    assert [c.id for c in backend.clusters.find("train")] == ["c1"]
    pods = sorted(backend.clusters.pods("c1"), key=lambda pod: pod.cluster_rank)
    assert [(p.id, p.cluster_rank, p.cluster_ip, p.cluster_role) for p in pods] == [
        ("p0", 0, "10.65.0.2", "SLURM_CONTROLLER"), ("p1", 1, "10.65.0.3", None)]
    with pytest.raises(RunPodError) as info:
        backend.clusters.create(ClusterSpec(name="n", gpu_type_id=H100, template_id="t1"))
    assert info.value.maybe_created and router.count("POST", "/v2/clusters") == 1
    assert router.bodies("POST", "/v2/clusters")[0]["image"] == "tpl/img"
    assert backend.clusters.rename("c1", "renamed").name == "renamed"
    assert router.bodies("PATCH", "/v2/clusters/c1") == [{"name": "renamed"}]
    backend.clusters.delete("c1")
    assert router.count("DELETE", "/v2/clusters/c1") == 1


def test_list_pods_asks_for_cluster_members_only_when_told():
    router = Router().add("GET", "/v2/pods", {"pods": [member("p0", 0)]})
    backend = backend_with(router)
    backend.pods.list()
    backend.pods.list(include_cluster_pods=True)
    queries = [req.url.params.get("includeClusterPods") for (_m, _p, _b, req) in router.calls]
    assert queries == [None, "true"]


# -- cluster_poller ----------------------------------------------------------------------------


class Members:
    """A backend whose ``clusters.pods`` replays scripted reads (lists of PodView or an exception); the last
    repeats."""

    def __init__(self, *reads):
        self.reads = list(reads)
        self.calls = []
        self.clusters = self

    def pods(self, cluster_id, attempts=None):
        self.calls.append((cluster_id, attempts))
        step = self.reads[min(len(self.calls) - 1, len(self.reads) - 1)]
        if isinstance(step, BaseException):
            raise step
        return step


def view(pod_id, rank, status="RUNNING", port=None):
    return PodView(id=pod_id, status=status, runtime_reported=port is not None, ports=["22/tcp"], cluster_id="c1",
                   cluster_rank=rank, ssh_direct=SshAddress(host="1.2.3.4", port=port) if port else None)


class ProbeMany:
    def __init__(self, open_ports):
        self.open_ports = set(open_ports)
        self.rounds = []

    def __call__(self, targets, **kwargs):
        self.rounds.append(sorted(targets))
        return {key: ProbeResult(port in self.open_ports, "refused" if port not in self.open_ports else "ok",
                                 "%s:%s" % (host, port)) for key, (host, port) in targets.items()}


def test_cluster_wait_needs_every_member_listed_and_answering(fake_clock):
    members = Members(
        [view("p0", 0, port=1)],
        [view("p0", 0, port=1), view("p1", 1, status="PROVISIONING"), view("p2", None, status="PROVISIONING")],
        [view("p0", 0, port=1), view("p1", 1, port=2), view("p2", 2, port=3)],
    )
    probe_many = ProbeMany({1, 2, 3})
    poller = cluster_poller(members, "c1", 3, probe_many=probe_many)
    first = poller.poll()
    assert not first.ready and first.detail == "1 of 3 pods ready; waiting for 2 more member(s) not listed yet"
    second = poller.poll()
    assert second.detail == ("1 of 3 pods ready; waiting for p1 (pod status provisioning), "
                             "p2 (pod status provisioning)")
    outcome = until(poller, label="ssh on cluster c1", timeout=60, interval=5, clock=fake_clock)
    assert list(outcome.value) == ["p0", "p1", "p2"]
    assert all(call == ("c1", 1) for call in members.calls)  # one read per poll, never retried inside it
    assert probe_many.rounds == [["p0"], ["p1", "p2"]]  # p0 answered once and was left alone


@pytest.mark.parametrize("status", ["ERROR", "EXITED", "TERMINATED"])
def test_a_member_that_goes_down_fails_the_wait_at_once_with_every_members_state(status, fake_clock):
    members = Members([view("p0", 0, port=1), view("p1", 1, status=status), view("p2", 2, status="STARTING")])
    poller = cluster_poller(members, "c1", 3, probe_many=ProbeMany({1}))
    with pytest.raises(WaitError) as info:
        until(poller, label="ssh on cluster c1", timeout=600, interval=5, clock=fake_clock)
    assert info.value.code == "conflict" and info.value.polls == 1
    assert str(info.value).endswith("pod p1 is %s, so the wait cannot succeed" % status.lower())
    assert poller.states == {"p0": "ssh port 1.2.3.4:1 allocated", "p1": "pod status %s" % status.lower(),
                             "p2": "pod status starting"}


def test_a_deleted_cluster_fails_the_wait_with_not_found():
    members = Members(RunPodError("not_found", 404, "cluster not found"))
    poller = cluster_poller(members, "c1", 2, probe_many=ProbeMany(()))
    with pytest.raises(PollError) as info:
        poller.poll()
    assert info.value.code == "not_found" and info.value.fatal and "cluster c1 no longer exists" in str(info.value)


def test_cluster_wait_reads_sooner_while_a_member_is_starting():
    members = Members([view("p0", 0, port=1), view("p1", 1, status="PROVISIONING")],
                      [view("p0", 0, port=1), view("p1", 1, status="PROVISIONING")],
                      [view("p0", 0, port=1), view("p1", 1, status="STARTING")],
                      [view("p0", 0, port=1), view("p1", 1)])  # RUNNING, port 22 not mapped yet
    poller = cluster_poller(members, "c1", 2, probe_many=ProbeMany(set()))
    # first sighting (a change), steady PROVISIONING, STARTING, RUNNING without its port
    assert [poller.poll().imminent for _ignored in range(4)] == [True, False, True, True]
