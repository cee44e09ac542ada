"""Account calls (network volumes, registry credentials, SSH keys, billing) on REST v2 and v1, over MockTransport."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from payloads import FakeClock, Router, problem

from ansible_collections.runpod.cloud.plugins.module_utils._account import (
    AccountV1,
    AccountV2,
    account_api,
    amount_key,
    bucket_end,
    normalize_time,
    v1_refusal,
)
from ansible_collections.runpod.cloud.plugins.module_utils._backends import make_backend
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._models import NetworkVolumeSpec
from ansible_collections.runpod.cloud.plugins.module_utils._payloads import POD, TEMPLATE

V2 = "https://rest.example.test/v2"
V1 = "https://rest.example.test/v1"
VOLUME = {"id": "agv6w2qcg7", "name": "data", "size": 50, "dataCenter": "EU-RO-1", "type": "HIGH_PERFORMANCE"}


def account(router, version="v2"):
    options = {"api_key": "k-test-123456", "api_url": V2 if version == "v2" else V1, "api_version": version}
    backend = make_backend(options, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))
    return account_api(backend)


def test_account_api_follows_the_backend_version():
    assert isinstance(account(Router()), AccountV2)
    assert isinstance(account(Router(), "v1"), AccountV1)


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


def test_v1_network_volumes_have_no_type_and_refuse_choosing_one_before_any_call():
    v1_volume = {"id": "v1", "name": "data", "size": 50, "dataCenterId": "EU-RO-1"}
    router = Router().add("GET", "/v1/networkvolumes", [v1_volume]).add("POST", "/v1/networkvolumes", v1_volume)
    api = account(router, "v1")
    assert [(v.id, v.data_center_id, v.type) for v in api.list_network_volumes()] == [("v1", "EU-RO-1", None)]
    with pytest.raises(RunPodError, match="not available on api_version v1"):
        api.create_network_volume(NetworkVolumeSpec(name="d", size_gb=10, data_center_id="EU-RO-1", type="STANDARD"))
    assert router.count("POST", "/v1/networkvolumes") == 0
    api.create_network_volume(NetworkVolumeSpec(name="d", size_gb=10, data_center_id="EU-RO-1"))
    assert router.bodies("POST", "/v1/networkvolumes") == [{"name": "d", "size": 10, "dataCenterId": "EU-RO-1"}]


@pytest.mark.parametrize("version,path", [("v2", "/v2/registries"), ("v1", "/v1/containerregistryauth")])
def test_registry_calls_send_the_credential_and_read_only_id_and_name(version, path):
    listing = {"registries": [{"id": "r1", "name": "hub"}]} if version == "v2" else [{"id": "r1", "name": "hub"}]
    router = (
        Router()
        .add("GET", path, listing)
        .add("POST", path, {"id": "r2", "name": "hub2"})
        .add("DELETE", f"{path}/r1", httpx.Response(204))
    )
    api = account(router, version)
    assert [(r.id, r.name) for r in api.find_registries("hub")] == [("r1", "hub")]
    assert api.create_registry("hub2", "user", "s3cret").id == "r2"
    assert router.bodies("POST", path) == [{"name": "hub2", "username": "user", "password": "s3cret"}]
    api.delete_registry("r1")
    assert router.count("DELETE", f"{path}/r1") == 1


def test_ssh_keys_read_and_replace_the_whole_list_on_v2_only():
    keys = ["ssh-ed25519 AAAA one@example.test"]
    router = (
        Router().add("GET", "/v2/account/ssh-keys", {"keys": keys}).add("PUT", "/v2/account/ssh-keys", {"keys": []})
    )
    api = account(router)
    assert api.get_ssh_keys() == keys
    assert api.set_ssh_keys([]) == []
    assert router.bodies("PUT", "/v2/account/ssh-keys") == [{"keys": []}]
    v1_router = Router()
    with pytest.raises(RunPodError, match="not available on api_version v1") as caught:
        account(v1_router, "v1").get_ssh_keys()
    assert caught.value.code == "bad_request" and v1_router.calls == []


def test_a_v1_refusal_has_one_message_whether_the_module_or_the_v1_account_refuses():
    router = Router()
    api = account(router, "v1")
    volume = NetworkVolumeSpec(name="d", size_gb=10, data_center_id="EU-RO-1", type="STANDARD")
    for feature, call in (
        ("ssh_keys", api.get_ssh_keys),
        ("ssh_keys", lambda: api.set_ssh_keys([])),
        ("network_volume_type", lambda: api.create_network_volume(volume)),
    ):
        with pytest.raises(RunPodError) as caught:
            call()
        assert (caught.value.code, caught.value.message) == ("bad_request", v1_refusal("v1", feature))
        assert "not available on api_version v1" in caught.value.message and v1_refusal("v2", feature) is None
    assert router.calls == []


def test_ssh_keys_bad_response_is_named():
    api = account(Router().add("GET", "/v2/account/ssh-keys", {"nope": 1}))
    with pytest.raises(RunPodError, match="keys") as caught:
        api.get_ssh_keys()
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
    with pytest.raises(ValueError, match="last_n cannot be combined"):
        v2.billing("pods", last_n=2, start_time="2026-06-01T00:00:00Z")
    with pytest.raises(ValueError, match="before end_time"):
        v2.billing("pods", start_time="2026-06-02T00:00:00Z", end_time="2026-06-01T00:00:00Z")
    v1 = account(router, "v1")
    for kwargs in ({"kind": "all"}, {"kind": "endpoints"}, {"kind": "pods", "last_n": 3}):
        with pytest.raises(RunPodError, match="not available on api_version v1"):
            v1.billing(**kwargs)
    assert router.calls == []


def test_v1_billing_groups_by_resource_and_maps_serverless_to_endpoints():
    router = Router().add(
        "GET",
        "/v1/billing/endpoints",
        [{"amount": 2.5, "endpointId": "ep1", "time": "2026-02-01T00:00:00Z", "timeBilledMs": 10}],
    )
    report = account(router, "v1").billing("serverless", bucket_size="month", start_time="2026-02-01T00:00:00Z")
    assert dict(router.calls[0][3].url.params) == {
        "bucketSize": "month",
        "grouping": "endpointId",
        "startTime": "2026-02-01T00:00:00Z",
    }
    assert report.records == [
        {"start_time": "2026-02-01T00:00:00Z", "end_time": "2026-03-01T00:00:00Z", "resource_id": "ep1", "total": 2.5}
    ]
    assert report.totals == {"total": 2.5}


@pytest.mark.parametrize(
    "value,expected",
    [
        ("2026-06-01", "2026-06-01T00:00:00Z"),
        ("2026-06-01T02:30:00+02:00", "2026-06-01T00:30:00Z"),
        ("2026-06-01T00:00:00z", "2026-06-01T00:00:00Z"),
    ],
)
def test_normalize_time(value, expected):
    assert normalize_time(value) == expected


@pytest.mark.parametrize("value", ["yesterday", "2026-06-01T00:00:00", "2026-13-01", ""])
def test_normalize_time_refuses(value):
    with pytest.raises(ValueError, match="start_time"):
        normalize_time(value, "start_time")


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)))
def test_normalize_time_round_trips_any_utc_moment(moment):
    moment = moment.replace(microsecond=0, tzinfo=UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert normalize_time(text) == text
    assert normalize_time(moment.isoformat()) == text


def test_bucket_end_and_amount_keys():
    assert bucket_end("2024-02-01T00:00:00Z", "month") == "2024-03-01T00:00:00Z"
    assert bucket_end("2024-12-30T00:00:00Z", "week") == "2025-01-06T00:00:00Z"
    assert bucket_end("2024-01-01T00:00:00Z", "year") == "2025-01-01T00:00:00Z"
    assert amount_key("storageHighPerformanceAmount") == "storage_high_performance"
    assert amount_key("totalAmount") == "total"


# -- registry_id on pods, templates and endpoints (the ``registry`` field of the container settings) ---------------


def test_registry_id_reaches_the_v2_and_v1_bodies_and_views():
    from ansible_collections.runpod.cloud.plugins.module_utils import _backend, _backend_v1, _backend_v2
    from ansible_collections.runpod.cloud.plugins.module_utils._models import PodSpec, TemplateSpec

    spec = PodSpec(name="p", image="me/private:1", gpu_type_ids=["g"], registry_id="reg1")
    assert _backend_v2.pod_create_body(spec, "g")["registry"] == "reg1"
    assert _backend_v1.pod_create_body(spec, "g")["containerRegistryAuthId"] == "reg1"
    assert _backend_v2.pod_update_body({"registry_id": "reg2"}) == {"registry": "reg2"}
    assert _backend_v1.pod_update_body({"registry_id": "reg2"}) == {"containerRegistryAuthId": "reg2"}
    template = TemplateSpec(name="t", image="i", registry_id="reg1").model_dump()
    assert _backend.build_template_body("v2", template, creating=True)["registry"] == "reg1"
    assert _backend_v1.template_body(template, creating=True)["containerRegistryAuthId"] == "reg1"
    assert (
        _backend_v2.endpoint_body({"name": "e", "gpu_pools": ["ADA_24"], "registry_id": "reg1"}, True)["registry"]
        == "reg1"
    )
    with pytest.raises(ValueError, match="not available for endpoints on api_version v1"):
        _backend_v1.endpoint_body({"name": "e", "template_id": "t", "gpu_type_ids": ["g"], "registry_id": "r"}, True)
    assert POD.read("v2", {"id": "p1", "registry": "reg1"}).registry_id == "reg1"
    assert POD.read("v1", {"id": "p1", "containerRegistryAuthId": "reg1"}).registry_id == "reg1"
    assert TEMPLATE.read("v2", {"id": "t1", "registry": None}).registry_id is None
