"""The endpoint backend (``_backend/endpoints.py``): reading REST v2 endpoints, create and update bodies,
the serverless health read."""

from __future__ import annotations

import httpx
import payloads
import pytest
from payloads import Router, backend_with, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import EndpointSpec

# -- serverless endpoints ------------------------------------------------------------------------------


def endpoint_spec(**overrides):
    fields = {
        "name": "inference",
        "template_id": "tpl_sls",
        "gpu_pools": ["ADA_24", "AMPERE_16"],
        "gpu_count": 1,
        "workers_min": 1,
        "workers_max": 3,
        "idle_timeout": 5,
        "scaler_type": "QUEUE_DELAY",
        "scaler_value": 4,
        "flashboot": True,
        "network_volume_id": "vol_abc",
        "data_center_ids": ["US-TX-3"],
        "execution_timeout_ms": 300000,
    }
    fields.update(overrides)
    return EndpointSpec(**fields)


def test_endpoint_normalization():
    router = Router().add("GET", "/v2/serverless/ep_abc123", payloads.v2_endpoint())
    endpoint = backend_with(router).endpoints.get("ep_abc123")
    assert endpoint.model_dump() == {
        "id": "ep_abc123",
        "name": "inference",
        "template_id": None,
        "gpu_type_ids": [],
        "gpu_pools": ["ADA_24", "AMPERE_16"],
        "gpu_count": 1,
        "workers_min": 1,
        "workers_max": 3,
        "idle_timeout": 5,
        "scaler_type": "QUEUE_DELAY",
        "scaler_value": 4.0,
        "flashboot": True,
        "network_volume_id": "vol_abc",
        "data_center_ids": ["US-TX-3"],
        "execution_timeout_ms": 300000,
        "registry_id": None,
        "type": "QUEUE",
        "image": "runpod/serverless-hello-world:latest",
        "docker_args": None,
        "cmd": None,
        "entrypoint": None,
        "container_disk_gb": 20,
        "env": {},
        "ports": [],
        "cpu_flavor_ids": [],
        "vcpu_count": None,
        "allowed_cuda_versions": [],
        "min_cuda_version": None,
        "created_at": "2026-03-13T20:00:00Z",
    }


def test_endpoint_request_count_scaler_and_flashboot_off():
    raw = payloads.v2_endpoint(scaling={"type": "REQUEST_COUNT", "requestCount": 2}, flashboot="OFF")
    router = Router().add("GET", "/v2/serverless", {"endpoints": [None, raw]})
    (endpoint,) = backend_with(router).endpoints.list()
    assert (endpoint.scaler_type, endpoint.scaler_value, endpoint.flashboot) == ("REQUEST_COUNT", 2.0, False)


def test_create_endpoint_body():
    router = Router().add("POST", "/v2/serverless", httpx.Response(201, json=payloads.v2_endpoint()))
    assert backend_with(router).endpoints.create(endpoint_spec()).id == "ep_abc123"
    assert router.bodies("POST", "/v2/serverless") == [
        {
            "name": "inference",
            "type": "QUEUE",
            "templateId": "tpl_sls",
            "gpu": {"pools": ["ADA_24", "AMPERE_16"], "count": 1},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4.0},
            "workers": {"min": 1, "max": 3, "idleTimeout": 5},
            "flashboot": "FLASHBOOT",
            "timeout": 300000,
            "networkVolumes": ["vol_abc"],
            "dataCenterIds": ["US-TX-3"],
        }
    ]


def test_create_endpoint_request_count_drops_idle_timeout_and_flashboot_false_is_off():
    router = Router().add("POST", "/v2/serverless", httpx.Response(201, json=payloads.v2_endpoint()))
    backend_with(router).endpoints.create(endpoint_spec(scaler_type="REQUEST_COUNT", scaler_value=3, flashboot=False))
    (body,) = router.bodies("POST", "/v2/serverless")
    assert body["scaling"] == {"type": "REQUEST_COUNT", "requestCount": 3}
    assert body["workers"] == {"min": 1, "max": 3}
    assert body["flashboot"] == "OFF"


def test_create_endpoint_needs_pools_on_v2():
    router = Router()
    with pytest.raises(ValueError, match="gpu_pools"):
        backend_with(router).endpoints.create(endpoint_spec(gpu_pools=[], gpu_type_ids=["NVIDIA A40"]))
    assert router.calls == []


def test_create_endpoint_5xx_is_maybe_created():
    router = Router().add("POST", "/v2/serverless", problem(500, "oops"))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).endpoints.create(endpoint_spec())
    assert caught.value.maybe_created is True
    assert router.count("POST", "/v2/serverless") == 1


def test_update_endpoint_sends_only_given_fields():
    router = Router().add("PATCH", "/v2/serverless/ep_abc123", payloads.v2_endpoint(workers={"min": 0, "max": 5}))
    backend = backend_with(router)
    endpoint = backend.endpoints.update("ep_abc123", {"workers_max": 5, "workers_min": 0})
    assert endpoint.workers_max == 5
    assert router.bodies("PATCH", "/v2/serverless/ep_abc123") == [{"workers": {"min": 0, "max": 5}}]
    with pytest.raises(ValueError, match="scaler_type"):
        backend.endpoints.update("ep_abc123", {"scaler_value": 2})


def test_find_and_delete_endpoint():
    router = Router().add(
        "GET", "/v2/serverless", {"endpoints": [payloads.v2_endpoint(), payloads.v2_endpoint(id="ep2", name="x")]}
    )
    router.add("DELETE", "/v2/serverless/ep2", httpx.Response(204))
    backend = backend_with(router)
    assert [e.id for e in backend.endpoints.find("x")] == ["ep2"]
    assert backend.endpoints.delete("ep2") is None


def test_endpoint_health_reads_the_data_plane_once_with_missing_counters_zero():
    router = Router().add(
        "GET",
        "/sls/ep_abc123/health",
        {"jobs": {"completed": 3, "inQueue": 1}, "workers": {"idle": 1, "ready": 1}},
    )
    backend = backend_with(router)
    health = backend.endpoints.health("ep_abc123")
    assert (health.idle, health.ready, health.running, health.initializing, health.throttled, health.unhealthy) == (
        1,
        1,
        0,
        0,
        0,
        0,
    )
    assert health.jobs == {"completed": 3, "inQueue": 1}
    (_m, _p, _b, request) = router.calls[0]
    assert str(request.url) == "https://sls.example.test/sls/ep_abc123/health"
    assert request.headers["Authorization"] == "Bearer k-test-123456"


def test_endpoint_health_404_is_not_found_after_one_request():
    router = Router().add("GET", "/sls/ep_new/health", httpx.Response(404, json={"error": "endpoint not found"}))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).endpoints.health("ep_new")
    assert (caught.value.code, caught.value.message) == ("not_found", "endpoint not found")
    assert router.count("GET", "/sls/ep_new/health") == 1


def test_endpoint_health_default_is_one_attempt_even_on_5xx():
    router = Router().add("GET", "/sls/ep/health", problem(502, "bad gateway"), {"workers": {}})
    with pytest.raises(RunPodError):
        backend_with(router).endpoints.health("ep")
    assert router.count("GET", "/sls/ep/health") == 1
    with pytest.raises(ValueError):
        backend_with(router).endpoints.health("")


def test_endpoint_workers_summary():
    router = Router().add(
        "GET",
        "/v2/serverless/ep/workers",
        {
            "workers": [
                {"id": "w1", "status": "RUNNING", "isStale": False, "gpuCount": 1},
                None,
                {"id": "w2", "status": "IDLE", "isStale": True, "gpuCount": 1},
                {"id": "w3", "status": "THROTTLED", "isStale": False, "gpuCount": 1},
            ],
            "summary": {"running": 1, "idle": 1, "initializing": 0, "throttled": 1, "unhealthy": 0, "total": 3},
            "endpointVersion": 4,
        },
    )
    summary = backend_with(router).endpoints.workers("ep")
    assert [(w.id, w.status, w.is_stale) for w in summary.workers] == [
        ("w1", "RUNNING", False),
        ("w2", "IDLE", True),
        ("w3", "THROTTLED", False),
    ]
    assert (summary.running, summary.idle, summary.throttled, summary.total) == (1, 1, 1, 3)


def test_endpoint_workers_counts_from_the_list_when_summary_is_missing():
    router = Router().add(
        "GET",
        "/v2/serverless/ep/workers",
        {"workers": [{"id": "w1", "status": "IDLE"}, {"id": "w2", "status": "idle"}]},
    )
    summary = backend_with(router).endpoints.workers("ep")
    assert (summary.idle, summary.total, summary.running) == (2, 2, 0)
