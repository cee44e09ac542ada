"""REST v1 + GraphQL backend: the bounded runtime read, normalization, v1-only bodies, 500 stock-outs."""

from __future__ import annotations

import json
import random

import httpx
import payloads
import pytest
from helpers.fakes import FakeClock
from payloads import Router

from ansible_collections.runpod.cloud.plugins.module_utils._backend_v1 import GRAPHQL_TIMEOUT_CAP, BackendV1
from ansible_collections.runpod.cloud.plugins.module_utils._backends import make_backend
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._models import EndpointSpec, PodSpec, TemplateSpec
from ansible_collections.runpod.cloud.plugins.module_utils._payloads import POD

API = "https://rest.example.test/v1"
GQL = "https://gql.example.test/graphql"
SLS = "https://sls.example.test/sls"
PODS = "/v1/pods"


def pod_from_v1(payload, runtime_entry=None):
    return POD.read("v1", payload, graphql=runtime_entry)


def message(status, text):
    return httpx.Response(status, json={"message": text})


def backend_with(router, **options):
    opts = {
        "api_key": "k-test-123456",
        "api_version": "v1",
        "api_url": API,
        "graphql_url": GQL,
        "serverless_url": SLS,
        **options,
    }
    return make_backend(opts, transport=httpx.MockTransport(router), clock=FakeClock(), rng=random.Random(1))


def gql_data(*pods):
    return {"data": {"myself": {"pods": list(pods)}}}


def graphql_timeouts(router):
    return [req.extensions["timeout"]["read"] for (_m, p, _b, req) in router.calls if p == "/graphql"]


# -- the GraphQL bound -----------------------------------------------------------------------------


def test_make_backend_v1_uses_the_v1_url():
    router = Router().add("GET", PODS, [])
    backend = backend_with(router)
    assert isinstance(backend, BackendV1)
    assert backend.list_pods() == []
    # includeMachine: the data center, GPU type and cloud are only in the machine block (v1 document).
    assert str(router.calls[0][3].url) == "https://rest.example.test/v1/pods?includeMachine=true"


def test_no_graphql_read_when_nothing_is_running():
    listing = [
        payloads.v1_pod(id="a", desiredStatus="EXITED", lastStatusChange="Exited by user: Wed Jul 29 2026"),
        payloads.v1_pod(id="b", desiredStatus="TERMINATED"),
    ]
    router = Router().add("GET", PODS, listing).add("POST", "/graphql", gql_data())
    backend = backend_with(router)
    pods = backend.list_pods()
    assert [pod.id for pod in pods] == ["a", "b"]
    assert router.count("POST", "/graphql") == 0
    assert all(pod.runtime_probed is False for pod in pods)
    assert backend.requests_made == 1


def test_exactly_one_graphql_read_for_five_pods_with_the_timeout_capped():
    listing = [payloads.v1_pod(id=f"p{i}") for i in range(5)]
    router = Router().add("GET", PODS, listing)
    router.add("POST", "/graphql", gql_data(*[payloads.gql_pod(f"p{i}") for i in range(5)]))
    backend = backend_with(router, request_timeout=30)
    pods = backend.list_pods()
    assert router.count("POST", "/graphql") == 1
    assert graphql_timeouts(router) == [GRAPHQL_TIMEOUT_CAP] and GRAPHQL_TIMEOUT_CAP <= 5.0
    assert all(pod.runtime_probed and pod.runtime_reported for pod in pods)
    assert backend.requests_made == 2
    (query,) = router.bodies("POST", "/graphql")
    assert "myself" in query["query"] and "isIpPublic" in query["query"]


def test_select_limits_the_runtime_read_to_selected_pods():
    listing = [
        payloads.v1_pod(id="running-other", name="other"),
        payloads.v1_pod(id="stopped-mine", name="mine", desiredStatus="EXITED", lastStatusChange="Exited by user: x"),
    ]
    router = Router().add("GET", PODS, listing).add("POST", "/graphql", gql_data(payloads.gql_pod("running-other")))
    pods = backend_with(router).list_pods(select=lambda pod_id, name: name == "mine")
    assert [pod.id for pod in pods] == ["stopped-mine"]
    # Another pod runs, but none of the selected ones does: no GraphQL read.
    assert router.count("POST", "/graphql") == 0
    pods = backend_with(router).list_pods(select=lambda pod_id, name: pod_id == "running-other")
    assert [pod.id for pod in pods] == ["running-other"] and router.count("POST", "/graphql") == 1


def test_graphql_timeout_follows_a_smaller_request_timeout():
    router = Router().add("GET", PODS, [payloads.v1_pod()]).add("POST", "/graphql", gql_data(payloads.gql_pod()))
    backend_with(router, request_timeout=2).list_pods()
    assert graphql_timeouts(router) == [2.0]


def test_runtime_false_skips_graphql():
    router = Router().add("GET", PODS, [payloads.v1_pod()]).add("POST", "/graphql", gql_data(payloads.gql_pod()))
    (pod,) = backend_with(router).list_pods(runtime=False)
    assert router.count("POST", "/graphql") == 0
    assert pod.runtime_probed is False


@pytest.mark.parametrize(
    "failure",
    [
        httpx.Response(500, json={"errors": [{"message": "internal"}]}),
        httpx.Response(200, json={"data": None, "errors": [{"message": "boom"}]}),
        httpx.Response(200, json={"data": {"myself": None}}),
        httpx.ReadTimeout("slow"),
    ],
)
def test_graphql_failure_degrades_to_not_probed_and_the_listing_succeeds(failure):
    router = Router().add("GET", PODS, [payloads.v1_pod(id="a"), None, payloads.v1_pod(id="b")])
    router.add("POST", "/graphql", failure, gql_data(payloads.gql_pod("a")))
    backend = backend_with(router)
    pods = backend.list_pods()
    assert [pod.id for pod in pods] == ["a", "b"]
    assert all(pod.runtime_probed is False and pod.runtime_reported is False for pod in pods)
    assert all(pod.desired_status == "RUNNING" for pod in pods)
    assert router.count("POST", "/graphql") == 1  # never retried
    assert backend.runtime_error


@pytest.mark.parametrize(("status", "code"), [(401, "unauthorized"), (403, "forbidden")])
def test_graphql_refusing_the_key_is_fatal_not_a_degraded_read(status, code):
    router = Router().add("GET", PODS, [payloads.v1_pod(id="a")])
    router.add("POST", "/graphql", httpx.Response(status, json={"errors": [{"message": "invalid api key"}]}))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).list_pods()
    assert (caught.value.code, caught.value.status) == (code, status)
    assert "refused by GraphQL" in caught.value.message


def test_v1_reads_only_document_fields_and_the_machine_block():
    served = payloads.v1_pod(
        gpu={"id": "NVIDIA A40", "count": 2},
        gpuCount=7,
        computeType="CPU",
        cloudType="COMMUNITY",
        dataCenterId="EU-RO-1",
        createdAt="2026-01-01T00:00:00Z",
        networkVolumeId="nv-undocumented",
        machine={"gpuTypeId": "NVIDIA A40", "dataCenterId": "CA-MTL-1", "secureCloud": True},
    )
    router = Router().add("GET", PODS, [served])
    router.add("POST", "/graphql", gql_data(payloads.gql_pod("xedezhzb9la3ye")))
    (pod,) = backend_with(router).list_pods()
    assert (pod.compute_type, pod.gpu_type, pod.gpu_count) == ("GPU", "NVIDIA A40", 2)
    assert (pod.cloud_type, pod.data_center_id, pod.created_at) == ("SECURE", "CA-MTL-1", None)
    assert pod.network_volume_id is None


def test_pod_missing_from_the_graphql_read_is_not_probed():
    router = Router().add("GET", PODS, [payloads.v1_pod(id="a"), payloads.v1_pod(id="b")])
    router.add("POST", "/graphql", gql_data(None, payloads.gql_pod("a")))
    a, b = backend_with(router).list_pods()
    assert (a.runtime_probed, a.runtime_reported) == (True, True)
    assert (b.runtime_probed, b.runtime_reported) == (False, False)


def test_get_pod_makes_one_rest_and_at_most_one_graphql_read():
    router = Router().add("GET", "/v1/pods/a", payloads.v1_pod(id="a"))
    router.add("POST", "/graphql", gql_data(payloads.gql_pod("a", runtime=None)))
    backend = backend_with(router)
    pod = backend.get_pod("a")
    assert (pod.runtime_probed, pod.runtime_reported) == (True, False)  # running, container not up yet
    assert backend.requests_made == 2
    router2 = Router().add("GET", "/v1/pods/a", payloads.v1_pod(id="a", desiredStatus="EXITED"))
    backend2 = backend_with(router2)
    assert backend2.get_pod("a").status == "EXITED"
    assert backend2.requests_made == 1


def test_graphql_state_wins_for_derivation_while_status_keeps_rest():
    router = Router().add("GET", PODS, [payloads.v1_pod(id="a")])
    stopped = payloads.gql_pod("a", desired="EXITED", lastStatusChange="Exited by user: Wed Jul 29 2026 21:51:59")
    router.add("POST", "/graphql", gql_data(stopped))
    (pod,) = backend_with(router).list_pods()
    assert pod.status == "RUNNING"
    assert pod.desired_status == "EXITED"
    assert pod.last_status_change.startswith("Exited by user")


# -- normalization ---------------------------------------------------------------------------------


def test_running_v1_pod_with_graphql_runtime():
    pod = pod_from_v1(payloads.v1_pod(), payloads.gql_pod())
    assert (pod.id, pod.name, pod.api_version, pod.status, pod.desired_status) == (
        "xedezhzb9la3ye",
        "trainer",
        "v1",
        "RUNNING",
        "RUNNING",
    )
    assert pod.image == "runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04"
    assert pod.cost_per_hr == 0.74  # the spec's string example
    assert (pod.gpu_type, pod.gpu_count, pod.compute_type) == ("NVIDIA GeForce RTX 4090", 1, "GPU")
    assert (pod.container_disk_gb, pod.volume_gb, pod.volume_mount_path) == (50, 20, "/workspace")
    assert pod.public_ip == "45.23.12.1" and pod.port_mappings == {"22": 10341, "8888": 10342}
    assert pod.docker_args == "sleep infinity"
    assert pod.data_center_id == "US-TX-3"
    assert pod.last_status_change.startswith("Rented by User")
    assert pod.uptime_seconds == 111
    assert [(p.private, p.public, p.ip, p.type, p.is_public) for p in pod.runtime_ports] == [
        (8888, 60141, "100.65.0.101", "http", False),
        (22, 10341, "45.23.12.1", "tcp", True),
    ]
    assert pod.ssh_direct is None
    assert pod.started_at == "2024-07-12T19:14:40.144Z"


def test_image_is_read_from_either_key_and_cpu_pods_have_no_gpu():
    raw = payloads.v1_pod(image="img:spec", cpuFlavorId="cpu3c", gpu=None, machine={"gpuTypeId": "unknown"})
    del raw["imageName"]
    pod = pod_from_v1(raw)
    assert pod.image == "img:spec"
    assert (pod.compute_type, pod.gpu_type, pod.gpu_count, pod.cpu_flavor) == ("CPU", None, 0, "cpu3c")


def test_initializing_fields_are_empty_not_errors():
    pod = pod_from_v1(payloads.v1_pod(publicIp="", portMappings=None, costPerHr=None, env=["A=1", "B=x=y"]))
    assert pod.public_ip is None and pod.port_mappings == {} and pod.cost_per_hr is None
    assert pod.env == {"A": "1", "B": "x=y"}


def test_v1_pod_without_id_is_bad_response():
    router = Router().add("GET", PODS, [{"name": "x"}])
    with pytest.raises(RunPodError) as caught:
        backend_with(router).list_pods()
    assert caught.value.code == "bad_response"


def test_v1_error_bodies_use_message():
    router = Router().add("GET", "/v1/pods/nope", message(404, "Pod not found."))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).get_pod("nope")
    assert (caught.value.code, caught.value.message) == ("not_found", "Pod not found.")


def test_find_pods_filters_by_name_server_side_and_drops_terminated():
    router = Router().add(
        "GET",
        PODS,
        [
            payloads.v1_pod(id="a", name="web", desiredStatus="EXITED"),
            payloads.v1_pod(id="b", name="web", desiredStatus="TERMINATED"),
            payloads.v1_pod(id="c", name="webby", desiredStatus="EXITED"),
        ],
    )
    assert [pod.id for pod in backend_with(router).find_pods("web")] == ["a"]
    assert router.calls[0][3].url.params.get("name") == "web"


# -- create ----------------------------------------------------------------------------------------

V1_CREATE_KEYS = {
    "name",
    "imageName",
    "templateId",
    "computeType",
    "cloudType",
    "gpuTypeIds",
    "gpuCount",
    "cpuFlavorIds",
    "vcpuCount",
    "containerDiskInGb",
    "volumeInGb",
    "volumeMountPath",
    "networkVolumeId",
    "ports",
    "env",
    "dockerStartCmd",
    "dataCenterIds",
    "supportPublicIp",
    "interruptible",
}


def spec(**overrides):
    fields = {
        "name": "trainer",
        "image": "runpod/pytorch:2.1.0",
        "gpu_type_ids": ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A4000"],
        "container_disk_gb": 40,
        "volume_gb": 20,
        "volume_mount_path": "/workspace",
        "ports": ["8888/http"],
        "env": {"PUBLIC_KEY": "ssh-ed25519 AAAA"},
        "docker_args": "bash -c 'sleep infinity'",
        "support_public_ip": True,
        "interruptible": False,
        "cloud_type": "COMMUNITY",
    }
    fields.update(overrides)
    return PodSpec(**fields)


def test_create_body_holds_only_v1_spec_keys():
    router = Router().add("POST", PODS, httpx.Response(201, json=payloads.v1_pod()))
    pod, placement = backend_with(router).create_pod(spec())
    assert pod.id == "xedezhzb9la3ye" and pod.runtime_probed is False
    assert placement["gpu_type_id"] == "NVIDIA GeForce RTX 4090"
    (body,) = router.bodies("POST", PODS)
    assert set(body) <= V1_CREATE_KEYS
    assert "startSsh" not in body
    assert body == {
        "name": "trainer",
        "computeType": "GPU",
        "imageName": "runpod/pytorch:2.1.0",
        "gpuTypeIds": ["NVIDIA GeForce RTX 4090"],
        "gpuCount": 1,
        "cloudType": "COMMUNITY",
        "containerDiskInGb": 40,
        "volumeInGb": 20,
        "volumeMountPath": "/workspace",
        "ports": ["8888/http", "22/tcp"],
        "env": {"PUBLIC_KEY": "ssh-ed25519 AAAA"},
        "dockerStartCmd": ["bash", "-c", "sleep infinity"],
        "supportPublicIp": True,
        "interruptible": False,
    }


@pytest.mark.parametrize(
    "stock_out",
    [
        "There are no longer any instances available with the requested specifications. Please refresh and try again.",
        "no instances currently available",
        "This machine does not have the resources to deploy your pod.",
        "not enough free GPUs",
        "could not find any pods with required specifications",
    ],
)
def test_500_stock_outs_try_the_next_type_one_request_at_a_time(stock_out):
    router = Router().add("POST", PODS, message(500, stock_out), httpx.Response(201, json=payloads.v1_pod()))
    backend_with(router).create_pod(spec(gpu_type_ids=["A", "B", "C"]))
    assert [body["gpuTypeIds"] for body in router.bodies("POST", PODS)] == [["A"], ["B"]]


def test_other_500_on_create_is_maybe_created_and_not_retried():
    router = Router().add(
        "POST",
        PODS,
        message(500, "Something went wrong. Please try again later or contact support."),
        httpx.Response(201, json=payloads.v1_pod()),
    )
    with pytest.raises(RunPodError) as caught:
        backend_with(router).create_pod(spec())
    assert caught.value.code == "server_error" and caught.value.maybe_created is True
    assert router.count("POST", PODS) == 1


def test_all_types_out_of_stock_is_not_maybe_created():
    router = Router().add("POST", PODS, message(500, "no instances available"))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).create_pod(spec(gpu_type_ids=["A", "B"]))
    assert caught.value.maybe_created is False
    assert "A: no instances available" in caught.value.message
    assert router.count("POST", PODS) == 2


def test_extra_keys_400_is_surfaced_without_fallback():
    text = "Extra input keys provided in request body: dockerArgs"
    router = Router().add("POST", PODS, message(400, text))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).create_pod(spec(gpu_type_ids=["A", "B"]))
    assert (caught.value.code, caught.value.message) == ("bad_request", text)
    assert router.count("POST", PODS) == 1


def test_cpu_create_uses_cpu_flavors():
    router = Router().add("POST", PODS, httpx.Response(201, json=payloads.v1_pod()))
    backend_with(router).create_pod(
        PodSpec(name="c", image="alpine:3.20", compute_type="CPU", cpu_flavor_ids=["cpu3c"], vcpu_count=2)
    )
    (body,) = router.bodies("POST", PODS)
    assert body["computeType"] == "CPU" and body["cpuFlavorIds"] == ["cpu3c"] and body["vcpuCount"] == 2
    assert "gpuTypeIds" not in body


# -- update / actions --------------------------------------------------------------------------------


def test_update_and_actions():
    router = Router()
    router.add("PATCH", "/v1/pods/a", payloads.v1_pod(id="a", name="b"))
    router.add("POST", "/v1/pods/a/stop", payloads.v1_pod(id="a", desiredStatus="EXITED"))
    router.add("POST", "/v1/pods/a/start", httpx.Response(200))
    router.add("DELETE", "/v1/pods/a", httpx.Response(204))
    backend = backend_with(router)
    assert backend.update_pod("a", {"name": "b", "image": "img:2", "docker_args": "sleep 1"}).name == "b"
    assert router.bodies("PATCH", "/v1/pods/a") == [
        {"name": "b", "imageName": "img:2", "dockerStartCmd": ["sleep", "1"]}
    ]
    assert backend.stop_pod("a").status == "EXITED"
    assert backend.start_pod("a") is None  # v1 documents no body for start
    assert backend.delete_pod("a") is None
    with pytest.raises(ValueError, match="template_id"):
        backend.update_pod("a", {"template_id": "t"})


# -- endpoints and templates -------------------------------------------------------------------------


def v1_endpoint(**overrides):
    endpoint = {
        "id": "jpnw0v75y3qoql",
        "name": "inference",
        "templateId": "tpl1",
        "computeType": "GPU",
        "gpuTypeIds": ["NVIDIA A40"],
        "gpuCount": 1,
        "workersMin": 1,
        "workersMax": 3,
        "idleTimeout": 5,
        "scalerType": "QUEUE_DELAY",
        "scalerValue": 4,
        "dataCenterIds": ["EU-RO-1"],
        "executionTimeoutMs": 600000,
        "networkVolumeId": "vol1",
        "createdAt": "2024-07-12T19:14:40.144Z",
    }
    endpoint.update(overrides)
    return endpoint


def test_endpoint_crud_and_no_workers_on_v1():
    router = Router()
    router.add("GET", "/v1/endpoints", [v1_endpoint(), None])
    router.add("POST", "/v1/endpoints", v1_endpoint())
    router.add("PATCH", "/v1/endpoints/jpnw0v75y3qoql", v1_endpoint(workersMax=5))
    backend = backend_with(router)
    (endpoint,) = backend.find_endpoints("inference")
    assert (endpoint.api_version, endpoint.gpu_type_ids, endpoint.workers_min, endpoint.scaler_value) == (
        "v1",
        ["NVIDIA A40"],
        1,
        4.0,
    )
    assert endpoint.network_volume_id == "vol1" and endpoint.template_id == "tpl1"
    backend.create_endpoint(
        EndpointSpec(
            name="inference",
            template_id="tpl1",
            gpu_type_ids=["NVIDIA A40"],
            workers_min=1,
            workers_max=3,
            scaler_type="QUEUE_DELAY",
            scaler_value=4,
            flashboot=True,
        )
    )
    assert router.bodies("POST", "/v1/endpoints") == [
        {
            "computeType": "GPU",
            "name": "inference",
            "templateId": "tpl1",
            "workersMin": 1,
            "workersMax": 3,
            "flashboot": True,
            "gpuTypeIds": ["NVIDIA A40"],
            "scalerType": "QUEUE_DELAY",
            "scalerValue": 4,
        }
    ]
    assert backend.update_endpoint("jpnw0v75y3qoql", {"workers_max": 5}).workers_max == 5
    assert router.bodies("PATCH", "/v1/endpoints/jpnw0v75y3qoql") == [{"workersMax": 5}]
    assert backend.endpoint_workers("jpnw0v75y3qoql") is None
    with pytest.raises(ValueError, match="gpu_type_ids"):
        backend.create_endpoint(EndpointSpec(name="x", template_id="t", gpu_pools=["ADA_24"]))
    with pytest.raises(ValueError, match="template_id"):
        backend.create_endpoint(EndpointSpec(name="x", gpu_type_ids=["NVIDIA A40"]))


def test_endpoint_health_uses_the_serverless_url_on_v1_too():
    router = Router().add("GET", "/sls/ep1/health", {"workers": {"running": 1}})
    assert backend_with(router).endpoint_health("ep1").running == 1


def test_template_crud_v1_keys():
    raw = {
        "id": "t1",
        "name": "torch",
        "imageName": "img:1",
        "isServerless": True,
        "containerDiskInGb": 10,
        "ports": ["22/tcp"],
        "env": {"A": "1"},
        "dockerStartCmd": ["sleep", "infinity"],
    }
    router = Router().add("GET", "/v1/templates", [raw]).add("POST", "/v1/templates", raw)
    router.add("PATCH", "/v1/templates/t1", raw)
    backend = backend_with(router)
    (template,) = backend.list_templates()
    assert (template.image, template.serverless, template.docker_args) == ("img:1", True, "sleep infinity")
    backend.create_template(TemplateSpec(name="torch", image="img:1", serverless=True, docker_args="sleep infinity"))
    assert router.bodies("POST", "/v1/templates") == [
        {"name": "torch", "imageName": "img:1", "isServerless": True, "dockerStartCmd": ["sleep", "infinity"]}
    ]
    backend.update_template("t1", {"image": "img:2", "serverless": True})
    assert router.bodies("PATCH", "/v1/templates/t1") == [{"imageName": "img:2"}]


def test_graphql_request_carries_bearer_auth_and_no_key_in_url():
    router = Router().add("GET", PODS, [payloads.v1_pod()]).add("POST", "/graphql", gql_data(payloads.gql_pod()))
    backend_with(router).list_pods()
    (request,) = [req for (_m, p, _b, req) in router.calls if p == "/graphql"]
    assert request.headers["Authorization"] == "Bearer k-test-123456"
    assert "k-test-123456" not in str(request.url)
    assert json.loads(request.content)["query"].startswith("query")


def test_endpoint_body_on_v1_carries_cpu_workers_and_cuda_constraints():
    body = BackendV1.endpoint_body(
        {"name": "cpu", "template_id": "t", "cpu_flavor_ids": ["cpu3c"], "vcpu_count": 4,
         "allowed_cuda_versions": [], "min_cuda_version": "12.1"}, creating=True)
    assert body["computeType"] == "CPU" and body["cpuFlavorIds"] == ["cpu3c"] and body["vcpuCount"] == 4
    assert body["allowedCudaVersions"] == [] and body["minCudaVersion"] == "12.1"
    assert BackendV1.endpoint_body({"name": "gpu", "template_id": "t"}, creating=True)["computeType"] == "GPU"
