"""The pod backend (``_backend/pods.py``, ``_backend/placement.py``): reading realistic REST v2 pods, listing,
create bodies and GPU fallback, updates, actions and deletes."""

from __future__ import annotations

import httpx
import payloads
import pytest
from hypothesis import given
from hypothesis import strategies as st
from payloads import PODS, Router, backend_with, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.placement import action_for
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import ENDPOINT
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD, PodSpec

# -- pod normalization -------------------------------------------------------------------------------


def test_running_pod_normalization():
    pod = POD.read(payloads.v2_pod())
    assert pod.id == "pod_abc123" and pod.name == "trainer"
    assert pod.status == "RUNNING"
    assert pod.runtime_reported is True
    assert pod.uptime_seconds == 111
    assert pod.actions == ["stop", "restart", "terminate"]
    assert pod.image.startswith("runpod/pytorch")
    assert (pod.compute_type, pod.gpu_type, pod.gpu_count) == ("GPU", "NVIDIA GeForce RTX 4090", 1)
    assert pod.cost_per_hr == 0.69 and pod.data_center_id == "US-TX-3" and pod.cloud_type == "SECURE"
    assert (pod.container_disk_gb, pod.volume_gb, pod.volume_mount_path) == (50, 20, "/workspace")
    assert pod.network_volume_id is None
    assert pod.ports == ["8888/http", "22/tcp"]
    assert pod.env == {"JUPYTER_PASSWORD": "hunter2"}
    assert pod.docker_args is None  # "" = image default
    assert [(p.private, p.public, p.ip, p.type) for p in pod.runtime_ports] == [
        (8888, 43210, "100.65.0.101", "http"),
        (22, 43022, "45.23.12.1", "tcp"),
    ]
    assert pod.ssh_direct.model_dump() == {
        "host": "45.23.12.1",
        "port": 43022,
        "user": "root",
        "command": "ssh root@45.23.12.1 -p 43022",
    }
    assert pod.ssh_proxy.user == "pod_abc123-64411eb2"
    assert pod.created_at == "2026-03-13T20:00:00Z" and pod.started_at == "2026-03-13T20:00:30Z"


def test_provisioning_pod_has_no_runtime():
    pod = POD.read(payloads.v2_provisioning_pod())
    assert pod.status == "PROVISIONING"
    assert pod.runtime_reported is False
    assert pod.uptime_seconds is None
    assert pod.runtime_ports == [] and pod.ssh_direct is None and pod.ssh_proxy is None
    assert pod.data_center_id is None and pod.volume_gb is None


def test_empty_runtime_object_counts_as_no_runtime():
    pod = POD.read(payloads.v2_pod(runtime={}))
    assert pod.runtime_reported is False
    assert pod.uptime_seconds is None


@given(st.one_of(st.none(), st.text(max_size=20)))
def test_the_pod_status_is_read_stripped_and_upper_cased(status):
    read = POD.read(payloads.v2_pod(status=status)).status
    assert read == (status or "").strip().upper()


def test_cpu_pod_with_network_volume():
    pod = POD.read(payloads.v2_cpu_pod())
    assert (pod.compute_type, pod.cpu_flavor, pod.vcpu_count, pod.gpu_type, pod.gpu_count) == (
        "CPU",
        "cpu5c",
        4,
        None,
        0,
    )
    assert (pod.network_volume_id, pod.volume_mount_path, pod.volume_gb) == ("vol_xyz", "/runpod-volume", None)


def test_lenient_decoding_of_field_drift_and_partial_ssh_blocks():
    pod = POD.read(
        payloads.v2_pod(
            args=None,
            cmd=["python", "serve.py"],
            ports="8888/http,22/tcp",
            ssh={"direct": {"ip": "1.2.3.4", "port": "51227"}},
            runtime={"uptime": 5, "ports": [None, {"public": 3}, {"private": 22, "public": 51227}]},
        )
    )
    assert pod.docker_args == "python serve.py"
    assert pod.ports == ["8888/http", "22/tcp"]
    assert pod.ssh_direct.host == "1.2.3.4" and pod.ssh_direct.port == 51227 and pod.ssh_direct.user == "root"
    assert pod.ssh_direct.command == "ssh root@1.2.3.4 -p 51227"
    assert [(p.private, p.public) for p in pod.runtime_ports] == [(22, 51227)]
    assert POD.read(payloads.v2_pod(ssh={"direct": {"host": "1.2.3.4"}})).ssh_direct is None
    assert POD.read(payloads.v2_pod(ssh=None)).ssh_direct is None


@pytest.mark.parametrize("bad", [{"name": "no id"}, {"id": ""}, {"id": None}, ["not", "a", "dict"], None])
def test_missing_id_is_bad_response(bad):
    with pytest.raises(RunPodError) as caught:
        POD.read(bad)
    assert caught.value.code == "bad_response"


@given(
    st.fixed_dictionaries(
        {"id": st.text(min_size=1, max_size=8)},
        optional={
            "status": st.one_of(st.none(), st.text(max_size=12)),
            "runtime": st.one_of(st.none(), st.just({}), st.dictionaries(st.text(max_size=5), st.integers())),
            "ports": st.one_of(st.none(), st.text(max_size=20), st.lists(st.text(max_size=8))),
            "cost": st.one_of(st.none(), st.floats(allow_nan=False), st.text(max_size=5)),
            "ssh": st.one_of(st.none(), st.dictionaries(st.sampled_from(["direct", "proxy"]), st.none())),
            "gpu": st.one_of(st.none(), st.fixed_dictionaries({"id": st.text(max_size=8), "count": st.integers(0, 8)})),
            "env": st.one_of(st.none(), st.dictionaries(st.text(max_size=5), st.text(max_size=5))),
        },
    )
)
def test_pod_normalization_never_crashes_on_partial_payloads(raw):
    pod = POD.read(raw)
    assert pod.id == raw["id"]
    assert pod.runtime_reported == (isinstance(raw.get("runtime"), dict) and bool(raw.get("runtime")))


# -- listing ---------------------------------------------------------------------------------------


def test_list_pods_skips_null_entries_and_tolerates_unknown_fields():
    router = Router().add("GET", PODS, {"pods": [None, payloads.v2_pod(), None, payloads.v2_provisioning_pod()]})
    pods = backend_with(router).pods.list()
    assert [pod.id for pod in pods] == ["pod_abc123", "pod_new"]


def test_list_pods_select_keeps_only_matching_pods_from_one_read():
    listing = {"pods": [payloads.v2_pod(id="a", name="x"), None, payloads.v2_pod(id="b", name="y")]}
    router = Router().add("GET", PODS, listing)
    backend = backend_with(router)
    pods = backend.pods.list(select=lambda pod_id, name: name == "y")
    assert [pod.id for pod in pods] == ["b"]
    assert backend.requests_made == 1


def test_v2_endpoint_template_is_unknown_even_if_a_template_id_is_served():
    # The v2 Endpoint has no templateId (a template is applied once, at create): comparing one never converges.
    assert ENDPOINT.read(payloads.v2_endpoint(templateId="t1", template={"id": "t1"})).template_id is None


def test_list_pods_without_pods_key_is_bad_response():
    router = Router().add("GET", PODS, {"items": []})
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.list()
    assert caught.value.code == "bad_response"


def test_list_pods_attempts_one_disables_retries_for_the_poll_engine():
    router = Router().add("GET", PODS, problem(503, "busy"), {"pods": []})
    backend = backend_with(router)
    with pytest.raises(RunPodError) as caught:
        backend.pods.list(attempts=1)
    assert caught.value.code == "server_error"
    assert router.count("GET", PODS) == 1
    # Without the override the read is retried.
    router2 = Router().add("GET", PODS, problem(503, "busy"), {"pods": []})
    assert backend_with(router2).pods.list() == []
    assert router2.count("GET", PODS) == 2


def test_get_pod_quotes_the_id_and_passes_attempts():
    router = Router().add("GET", "/v2/pods/a%2Fb", problem(500, "x"), payloads.v2_pod(id="a/b"))
    backend = backend_with(router)
    with pytest.raises(RunPodError):
        backend.pods.get("a/b", attempts=1)
    assert backend.pods.get("a/b").id == "a/b"


def test_find_pods_returns_only_live_pods_with_that_exact_name():
    listing = {
        "pods": [
            payloads.v2_pod(id="a", name="web"),
            payloads.v2_pod(id="b", name="web", status="EXITED"),
            payloads.v2_pod(id="c", name="web", status="TERMINATED"),
            payloads.v2_pod(id="d", name="web2"),
        ]
    }
    router = Router().add("GET", PODS, listing)
    assert [pod.id for pod in backend_with(router).pods.find("web")] == ["a", "b"]


# -- create ----------------------------------------------------------------------------------------


def gpu_spec(**overrides):
    fields = {
        "name": "trainer",
        "image": "runpod/pytorch:2.1.0",
        "gpu_type_ids": ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A4000"],
        "gpu_count": 2,
        "container_disk_gb": 40,
        "volume_gb": 20,
        "volume_mount_path": "/workspace",
        "ports": ["8888/http"],
        "env": {"PUBLIC_KEY": "ssh-ed25519 AAAA"},
        "docker_args": "sleep infinity",
        "data_center_ids": ["US-TX-3"],
    }
    fields.update(overrides)
    return PodSpec(**fields)


def test_create_pod_body_matches_create_pod_request():
    router = Router().add("POST", PODS, httpx.Response(201, json=payloads.v2_provisioning_pod()))
    pod, _placement_tried = backend_with(router).pods.create(gpu_spec())
    assert pod.status == "PROVISIONING"
    (body,) = router.bodies("POST", PODS)
    assert body == {
        "name": "trainer",
        "image": "runpod/pytorch:2.1.0",
        "gpu": {"id": "NVIDIA GeForce RTX 4090", "count": 2},
        "cloud": "SECURE",
        "disk": 40,
        "mounts": {"persistent": {"size": 20, "path": "/workspace"}},
        "ports": ["8888/http", "22/tcp"],
        "env": {"PUBLIC_KEY": "ssh-ed25519 AAAA"},
        "args": "sleep infinity",
        "dataCenterIds": ["US-TX-3"],
        "startSsh": True,
    }


def test_create_pod_does_not_duplicate_a_declared_22_and_respects_start_ssh_false():
    router = Router().add("POST", PODS, httpx.Response(201, json=payloads.v2_provisioning_pod()))
    backend = backend_with(router)
    backend.pods.create(gpu_spec(ports=["22/tcp", "8888/http"]))
    backend.pods.create(gpu_spec(ports=["8888/http"], start_ssh=False))
    first, second = router.bodies("POST", PODS)
    assert first["ports"] == ["22/tcp", "8888/http"]
    assert second["ports"] == ["8888/http"] and second["startSsh"] is False


def test_create_cpu_pod_with_template_and_network_volume():
    router = Router().add("POST", PODS, httpx.Response(201, json=payloads.v2_cpu_pod()))
    spec = PodSpec(
        name="cpu-box",
        template_id="tpl_abc",
        compute_type="CPU",
        cpu_flavor_ids=["cpu5c"],
        vcpu_count=4,
        network_volume_id="vol_xyz",
        volume_mount_path="/data",
        start_ssh=False,
    )
    backend_with(router).pods.create(spec)
    (body,) = router.bodies("POST", PODS)
    assert body["cpu"] == {"id": "cpu5c", "vcpuCount": 4}
    assert "gpu" not in body and "image" not in body
    assert body["templateId"] == "tpl_abc"
    assert body["mounts"] == {"network": [{"volumeId": "vol_xyz", "path": "/data"}]}


def test_a_cpu_pod_with_a_pod_volume_raises_value_error_before_any_request():
    router = Router()
    spec = PodSpec(name="cpu-box", image="img:1", compute_type="CPU", cpu_flavor_ids=["cpu5c"], volume_gb=20)
    with pytest.raises(ValueError, match="a CPU pod cannot have a pod volume"):
        backend_with(router).pods.create(spec)
    assert router.calls == []


def test_the_retired_v1_create_fields_are_not_sent():
    router = Router().add("POST", PODS, httpx.Response(201, json=payloads.v2_provisioning_pod()))
    backend_with(router).pods.create(gpu_spec(support_public_ip=True, interruptible=True))
    (body,) = router.bodies("POST", PODS)
    assert "supportPublicIp" not in body and "interruptible" not in body


def test_gpu_pod_without_types_is_refused():
    with pytest.raises(ValueError, match="gpu_type_ids"):
        backend_with(Router()).pods.create(gpu_spec(gpu_type_ids=[]))


@pytest.mark.parametrize(
    "refusal",
    [
        problem(400, "There are no longer any instances available with the requested specifications."),
        problem(400, "no instances currently available"),
        problem(400, "insufficient capacity for NVIDIA GeForce RTX 4090"),
        problem(403, "access denied"),
    ],
)
def test_gpu_fallback_moves_on_only_on_no_capacity(refusal):
    router = Router().add("POST", PODS, refusal, httpx.Response(201, json=payloads.v2_provisioning_pod()))
    backend = backend_with(router)
    backend.pods.create(gpu_spec(gpu_type_ids=["A", "B", "C"]))
    assert [body["gpu"]["id"] for body in router.bodies("POST", PODS)] == ["A", "B"]


def test_gpu_fallback_stops_on_422_and_moves_on_after_any_400():
    # The createPod table: 422 is never retried; a 400 carries stock-outs as free text only, so any moves on.
    router = Router().add("POST", PODS, problem(422, "Request validation failed.", errors=["$.disk: must be >= 1"]))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(gpu_spec(gpu_type_ids=["A", "B"]))
    assert caught.value.code == "unprocessable"
    assert router.count("POST", PODS) == 1
    router = Router().add("POST", PODS, problem(400, "a rule"), httpx.Response(201, json=payloads.v2_pod()))
    _pod, placement = backend_with(router).pods.create(gpu_spec(gpu_type_ids=["A", "B"]))
    assert placement["gpu_type_id"] == "B"


def test_every_candidate_without_capacity_raises_naming_each():
    router = Router().add("POST", PODS, problem(400, "no instances available"))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(gpu_spec(gpu_type_ids=["A", "B"]))
    assert caught.value.code == "no_capacity" and caught.value.status == 400
    assert "A@US-TX-3: no instances available" in caught.value.message and "B@US-TX-3:" in caught.value.message
    assert [a["status"] for a in caught.value.placement["attempts"]] == [400, 400]
    assert caught.value.maybe_created is False
    assert router.count("POST", PODS) == 2


@pytest.mark.parametrize("failure", [problem(500, "internal"), problem(502, "bad gateway"), httpx.ReadTimeout("t")])
def test_5xx_or_lost_connection_on_create_is_maybe_created_and_never_retried(failure):
    router = Router().add("POST", PODS, failure, httpx.Response(201, json=payloads.v2_pod()))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).pods.create(gpu_spec(gpu_type_ids=["A", "B"]))
    assert caught.value.maybe_created is True
    assert router.count("POST", PODS) == 1


def test_429_on_create_is_retried_after_retry_after():
    router = Router().add(
        "POST", PODS, problem(429, "slow", headers={"Retry-After": "2"}), httpx.Response(201, json=payloads.v2_pod())
    )
    backend = backend_with(router)
    assert backend.pods.create(gpu_spec())[0].id == "pod_abc123"
    assert backend.client.clock.sleeps == [2.0]
    assert router.count("POST", PODS) == 2


def test_any_400_moves_on_whatever_its_text_and_other_statuses_follow_the_table():
    assert action_for(RunPodError("bad_request", 400, "request could not be processed")) == "next"
    assert action_for(RunPodError("bad_request", 400, "No instances available")) == "next"
    assert action_for(RunPodError("forbidden", 403, "access denied")) == "skip"
    assert action_for(RunPodError("payment_required", 402, "insufficient funds")) == "stop"
    assert action_for(RunPodError("conflict", 409, "no instances available")) == "raise"
    assert action_for(RunPodError("server_error", 500, "no instances available")) == "raise"


# -- update / actions / delete ------------------------------------------------------------------------


def test_update_pod_translates_fields_and_rejects_unknown_ones():
    router = Router().add("PATCH", "/v2/pods/p1", payloads.v2_pod(id="p1", name="renamed"))
    backend = backend_with(router)
    pod = backend.pods.update("p1", {"name": "renamed", "ports": ["22/tcp"], "docker_args": None, "env": {"A": 1}})
    assert pod.name == "renamed"
    assert router.bodies("PATCH", "/v2/pods/p1") == [
        {"name": "renamed", "ports": ["22/tcp"], "args": "", "env": {"A": "1"}}
    ]
    with pytest.raises(ValueError, match="gpu_count"):
        backend.pods.update("p1", {"gpu_count": 2})


@pytest.mark.parametrize("action", ["start", "stop", "restart"])
def test_actions_post_the_action_and_return_the_pod(action):
    router = Router().add("POST", "/v2/pods/p1/action", payloads.v2_pod(id="p1"))
    pod = backend_with(router).pods.action("p1", action)
    assert pod.id == "p1"
    assert router.bodies("POST", "/v2/pods/p1/action") == [{"action": action}]


def test_action_with_204_returns_none_and_409_is_conflict():
    router = Router().add("POST", "/v2/pods/p1/action", httpx.Response(204), problem(409, "not valid for EXITED"))
    backend = backend_with(router)
    assert backend.pods.action("p1", "stop") is None
    with pytest.raises(RunPodError) as caught:
        backend.pods.action("p1", "restart")
    assert caught.value.code == "conflict"


def test_delete_pod_and_404():
    router = Router().add("DELETE", "/v2/pods/p1", httpx.Response(204), problem(404, "pod not found"))
    backend = backend_with(router)
    assert backend.pods.delete("p1") is None
    with pytest.raises(RunPodError) as caught:
        backend.pods.delete("p1")
    assert caught.value.code == "not_found"
