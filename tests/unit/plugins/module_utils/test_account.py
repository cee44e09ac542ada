"""Account calls (network volumes, registry credentials, SSH keys, billing) on REST v2, over MockTransport."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import httpx
import pytest
from helpers.fakes import full_backend
from hypothesis import given
from hypothesis import strategies as st
from payloads import FakeClock, Router, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api.billing_input import utc_time
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import Account, amount_key
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import NetworkVolumeSpec
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TEMPLATE
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD

V2 = "https://rest.example.test/v2"
VOLUME = {"id": "agv6w2qcg7", "name": "data", "size": 50, "dataCenter": "EU-RO-1", "type": "HIGH_PERFORMANCE"}


def backend(router):
    options = {"api_key": "k-test-123456", "api_url": V2}
    return full_backend(options, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def account(router):
    return backend(router).account


def test_the_account_is_the_rest_v2_account_over_the_backends_client():
    router = Router()
    backend = full_backend(
        {"api_key": "k-test-123456", "api_url": V2}, transport=httpx.MockTransport(router), clock=FakeClock()
    )
    api = backend.account
    assert isinstance(api, Account) and api.client is backend.client and backend.account is api
    assert (api._volumes.path, api._registries.path) == ("network-volumes", "registries")


def test_v2_network_volume_calls():
    router = (
        Router()
        .add("GET", "/v2/network-volumes", {"networkVolumes": [VOLUME, None, dict(VOLUME, id="b", name="other")]})
        .add("POST", "/v2/network-volumes", httpx.Response(201, json=dict(VOLUME, size=20)))
        .add("PATCH", "/v2/network-volumes/agv6w2qcg7", dict(VOLUME, size=80))
        .add("DELETE", "/v2/network-volumes/agv6w2qcg7", httpx.Response(204))
    )
    api = account(router)
    found = api.find_network_volumes("data")
    assert [(v.id, v.size_gb, v.data_center_id, v.type) for v in found] == [
        ("agv6w2qcg7", 50, "EU-RO-1", "HIGH_PERFORMANCE")
    ]
    spec = NetworkVolumeSpec(name="data", size_gb=20, data_center_id="EU-RO-1", type="HIGH_PERFORMANCE")
    assert api.create_network_volume(spec).size_gb == 20
    assert router.bodies("POST", "/v2/network-volumes") == [
        {"name": "data", "size": 20, "dataCenter": "EU-RO-1", "type": "HIGH_PERFORMANCE"}
    ]
    assert api.update_network_volume("agv6w2qcg7", {"size_gb": 80}).size_gb == 80
    assert router.bodies("PATCH", "/v2/network-volumes/agv6w2qcg7") == [{"size": 80}]
    with pytest.raises(ValueError, match="data_center_id"):
        api.update_network_volume("agv6w2qcg7", {"data_center_id": "US-TX-3"})
    api.delete_network_volume("agv6w2qcg7")
    assert router.count("DELETE", "/v2/network-volumes/agv6w2qcg7") == 1


def test_a_volume_created_without_a_type_leaves_the_tier_to_runpod():
    router = Router().add("POST", "/v2/network-volumes", httpx.Response(201, json=dict(VOLUME, type="STANDARD")))
    assert account(router).create_network_volume(
        NetworkVolumeSpec(name="d", size_gb=10, data_center_id="EU-RO-1")
    ).type == "STANDARD"
    assert router.bodies("POST", "/v2/network-volumes") == [{"name": "d", "size": 10, "dataCenter": "EU-RO-1"}]


def test_a_failed_volume_create_is_not_retried_and_may_exist():
    router = Router().add("POST", "/v2/network-volumes", problem(502, "bad gateway"))
    api = account(router)
    with pytest.raises(RunPodError) as caught:
        api.create_network_volume(NetworkVolumeSpec(name="d", size_gb=10, data_center_id="EU-RO-1"))
    assert caught.value.maybe_created is True
    assert router.count("POST", "/v2/network-volumes") == 1


@pytest.mark.parametrize("status, maybe", [(502, True), (400, False)])
def test_a_failed_registry_create_is_sent_once_and_only_a_5xx_may_exist(status, maybe):
    router = Router().add("POST", "/v2/registries", problem(status, "refused"))
    with pytest.raises(RunPodError) as caught:
        account(router).create_registry("hub", "user", "secret")
    assert caught.value.maybe_created is maybe
    assert router.count("POST", "/v2/registries") == 1


def test_an_attached_volume_delete_surfaces_the_api_text():
    detail = "network volume agv6w2qcg7 is attached to pod p1; terminate or detach them before deleting the volume"
    router = Router().add("DELETE", "/v2/network-volumes/agv6w2qcg7", problem(400, detail))
    with pytest.raises(RunPodError) as caught:
        account(router).delete_network_volume("agv6w2qcg7")
    assert (caught.value.code, caught.value.message) == ("bad_request", detail)


@pytest.mark.parametrize("listing", [{"registries": [{"id": "r1", "name": "hub"}]}, [{"id": "r1", "name": "hub"}]])
def test_registry_calls_send_the_credential_and_read_only_id_and_name(listing):
    path = "/v2/registries"
    router = (
        Router()
        .add("GET", path, listing)
        .add("POST", path, {"id": "r2", "name": "hub2"})
        .add("DELETE", f"{path}/r1", httpx.Response(204))
    )
    api = account(router)
    assert [(r.id, r.name) for r in api.find_registries("hub")] == [("r1", "hub")]
    assert api.create_registry("hub2", "user", "s3cret").id == "r2"
    assert router.bodies("POST", path) == [{"name": "hub2", "username": "user", "password": "s3cret"}]
    api.delete_registry("r1")
    assert router.count("DELETE", f"{path}/r1") == 1


def test_ssh_keys_read_and_replace_the_whole_list():
    keys = ["ssh-ed25519 AAAA one@example.test"]
    router = (
        Router().add("GET", "/v2/account/ssh-keys", {"keys": keys}).add("PUT", "/v2/account/ssh-keys", {"keys": []})
    )
    api = backend(router).sshkeys
    assert api.list() == keys
    assert api.replace([]) == []
    assert router.bodies("PUT", "/v2/account/ssh-keys") == [{"keys": []}]


def test_ssh_keys_bad_response_is_named():
    api = backend(Router().add("GET", "/v2/account/ssh-keys", {"nope": 1})).sshkeys
    with pytest.raises(RunPodError, match="keys") as caught:
        api.list()
    assert caught.value.code == "bad_response"


def test_v2_billing_normalizes_amounts_records_and_window():
    payload = {
        "records": [
            {
                "startTime": "2026-06-01T00:00:00Z",
                "endTime": "2026-06-02T00:00:00Z",
                "podId": "p1",
                "totalAmount": 1.5,
                "gpuAmount": 1.25,
                "cpuAmount": 0,
                "diskAmount": 0.25,
            }
        ],
        "metadata": {
            "query": {"startTime": "2026-06-01T00:00:00Z", "endTime": "2026-06-02T00:00:00Z", "bucketSize": "day"},
            "recordCount": 1,
            "uniquePodCount": 1,
            "totals": {"totalAmount": 1.5, "gpuAmount": 1.25, "cpuAmount": 0, "diskAmount": 0.25},
        },
    }
    router = Router().add("GET", "/v2/billing/pods", payload)
    report = account(router).billing("pods", start_time="2026-06-01T05:00:00Z", resource_id="p1")
    request = router.calls[0][3]
    assert dict(request.url.params) == {"bucketSize": "day", "startTime": "2026-06-01T05:00:00Z", "podId": "p1"}
    assert report.start_time == "2026-06-01T00:00:00Z" and report.end_time == "2026-06-02T00:00:00Z"
    assert report.totals == {"total": 1.5, "gpu": 1.25, "cpu": 0.0, "disk": 0.25}
    assert report.records == [
        {
            "start_time": "2026-06-01T00:00:00Z",
            "end_time": "2026-06-02T00:00:00Z",
            "resource_id": "p1",
            "total": 1.5,
            "gpu": 1.25,
            "cpu": 0.0,
            "disk": 0.25,
        }
    ]


def test_billing_refusals_come_before_any_call():
    router = Router()
    v2 = account(router)
    with pytest.raises(ValueError, match="resource_id"):
        v2.billing("all", resource_id="p1")
    with pytest.raises(ValueError, match="before end_time"):
        v2.billing("pods", start_time="2026-06-02T00:00:00Z", end_time="2026-06-01T00:00:00Z")
    assert router.calls == []


@pytest.mark.parametrize(
    "value,expected",
    [
        ("2026-06-01", "2026-06-01T00:00:00Z"),
        ("2026-06-01T02:30:00+02:00", "2026-06-01T00:30:00Z"),
        ("2026-06-01T00:00:00z", "2026-06-01T00:00:00Z"),
    ],
)
def test_utc_time(value, expected):
    assert utc_time(value, "start_time") == expected


@pytest.mark.parametrize("value", ["yesterday", "2026-06-01T00:00:00", "2026-13-01", ""])
def test_utc_time_refuses(value):
    with pytest.raises(ValueError, match="start_time"):
        utc_time(value, "start_time")


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)))
def test_utc_time_round_trips_any_utc_moment(moment):
    moment = moment.replace(microsecond=0, tzinfo=UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert utc_time(text, "end_time") == text
    assert utc_time(moment.isoformat(), "end_time") == text


def test_amount_keys():
    assert amount_key("storageHighPerformanceAmount") == "storage_high_performance"
    assert amount_key("totalAmount") == "total"


# -- registry_id on pods, templates and endpoints (the ``registry`` field of the container settings) ---------------


def test_registry_id_reaches_the_bodies_and_views():
    from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import endpoint_body
    from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import pod_create_body, pod_update_body
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TemplateSpec
    from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodSpec

    spec = PodSpec(name="p", image="me/private:1", gpu_type_ids=["g"], registry_id="reg1")
    assert pod_create_body(spec, "g")["registry"] == "reg1"
    assert pod_update_body({"registry_id": "reg2"}) == {"registry": "reg2"}
    template = TemplateSpec(name="t", image="i", registry_id="reg1").model_dump()
    assert TEMPLATE.body(template, creating=True)["registry"] == "reg1"
    assert (
        endpoint_body({"name": "e", "gpu_pools": ["ADA_24"], "registry_id": "reg1"}, True)["registry"]
        == "reg1"
    )
    assert POD.read({"id": "p1", "registry": "reg1"}).registry_id == "reg1"
    assert TEMPLATE.read({"id": "t1", "registry": None}).registry_id is None
