# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The autumn 2026 fields: a pod's GPU host share and its placement floors, exec-form cmd/entrypoint, a cluster
from a template, the 413 on a large pod create, and the two quirks RunPod's clients report."""

from __future__ import annotations

import pytest
from openapi_core import OpenAPI
from simhelpers import GPU, pod_body
from test_openapi_contract import CONFIG, _spec_path, check_v2

from runpod_sim import container


@pytest.fixture(scope="module")
def openapi_v2() -> OpenAPI:
    return OpenAPI.from_file_path(str(_spec_path("runpod-rest-v2-openapi.json")), config=CONFIG)


# -- the GPU host share and the placement floors -------------------------------------------------------------------
def test_a_gpu_pod_answers_its_vcpus_and_memory(sim, v2, openapi_v2):
    created = check_v2(openapi_v2, v2.post("/pods", json=pod_body(gpu={"id": GPU, "count": 2})))
    assert created["gpu"] == {"id": GPU, "count": 2, "vcpuCount": 16, "memory": 62}
    h100 = check_v2(openapi_v2, v2.post("/pods", json=pod_body(gpu={"id": "NVIDIA H100 PCIe"})))
    assert (h100["gpu"]["vcpuCount"], h100["gpu"]["memory"]) == (16, 188)
    listed = check_v2(openapi_v2, v2.get("/pods"))["pods"]
    assert all({"vcpuCount", "memory"} <= set(pod["gpu"]) for pod in listed)


@pytest.mark.parametrize(
    ("floors", "gpu", "placed"),
    [
        ({"minRamPerGpu": 31, "minVcpuCountPerGpu": 8}, GPU, True),  # exactly the host share
        ({"minRamPerGpu": 32}, GPU, False),
        ({"minVcpuCountPerGpu": 9}, GPU, False),
        ({"minRamPerGpu": 100, "minVcpuCountPerGpu": 16}, "NVIDIA H100 PCIe", True),
    ],
)
def test_placement_floors_refuse_gpu_types_below_them(sim, v2, openapi_v2, floors, gpu, placed):
    response = v2.post("/pods", json=pod_body(gpu={"id": gpu, **floors}))
    assert (response.status_code == 201) is placed, response.text
    body = check_v2(openapi_v2, response)
    if not placed:
        assert response.status_code == 400 and "no longer any instances" in body["detail"]
        assert v2.get("/pods").json()["pods"] == []


def test_placement_floors_are_positive_integers(sim, v2):
    response = v2.post("/pods", json=pod_body(gpu={"id": GPU, "minRamPerGpu": 0}))
    assert response.status_code == 422 and response.json()["errors"][0].startswith("$.gpu.minRamPerGpu")


# -- cmd and entrypoint -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "entrypoint", "cmd"),
    [
        ("", [], []),
        ("python -u main.py --name 'a b'", [], ["python", "-u", "main.py", "--name", "a b"]),
        ('{"entrypoint":["/bin/bash","-c"],"cmd":["python -u main.py"]}', ["/bin/bash", "-c"], ["python -u main.py"]),
        ('{"cmd":["serve"]}', [], ["serve"]),
        ("echo 'unbalanced", [], ["echo", "'unbalanced"]),
    ],
)
def test_the_command_codec(args, entrypoint, cmd):
    assert container.decode(args) == (entrypoint, cmd)
    assert container.decode(container.encode(entrypoint, cmd)) == (entrypoint, cmd)


def test_a_pod_takes_and_answers_both_forms(sim, v2, openapi_v2):
    body = pod_body(entrypoint=["/bin/bash", "-c"], cmd=["python -u main.py"])
    pod = check_v2(openapi_v2, v2.post("/pods", json=body))
    assert (pod["entrypoint"], pod["cmd"]) == (["/bin/bash", "-c"], ["python -u main.py"])
    assert container.decode(pod["args"]) == (["/bin/bash", "-c"], ["python -u main.py"])
    # An omitted array is left alone; [] clears.
    patched = check_v2(openapi_v2, v2.patch(f"/pods/{pod['id']}", json={"cmd": ["serve"]}))
    assert (patched["entrypoint"], patched["cmd"]) == (["/bin/bash", "-c"], ["serve"])
    cleared = check_v2(openapi_v2, v2.patch(f"/pods/{pod['id']}", json={"entrypoint": [], "cmd": []}))
    assert (cleared["args"], cleared["entrypoint"], cleared["cmd"]) == ("", [], [])
    # A read-modify-write client sends back all three: allowed when they agree.
    shell = check_v2(openapi_v2, v2.patch(f"/pods/{pod['id']}", json={"args": "sleep 10"}))
    assert (shell["entrypoint"], shell["cmd"]) == ([], ["sleep", "10"])
    echoed = {key: shell[key] for key in ("args", "entrypoint", "cmd")}
    assert v2.patch(f"/pods/{pod['id']}", json=echoed).status_code == 200
    clash = v2.patch(f"/pods/{pod['id']}", json={"args": "sleep 10", "cmd": ["sleep", "20"]})
    assert clash.status_code == 400 and "different commands" in check_v2(openapi_v2, clash)["detail"]


def test_templates_and_endpoints_take_both_forms(sim, v2, openapi_v2):
    sim.admin.configure(quirk_template_mounts_omitted=False)  # openapi-core checks these templates whole
    template = check_v2(openapi_v2, v2.post("/templates", json={"name": "t", "image": "i", "cmd": ["run"]}))
    assert (template["entrypoint"], template["cmd"]) == ([], ["run"])
    pod = check_v2(openapi_v2, v2.post("/pods", json={"name": "p", "gpu": {"id": GPU}, "templateId": template["id"],
                                                      "entrypoint": ["/init"]}))
    assert (pod["entrypoint"], pod["cmd"]) == (["/init"], ["run"])  # the template's cmd, the body's entrypoint
    endpoint = check_v2(openapi_v2, v2.post("/serverless", json={
        "name": "e", "type": "QUEUE", "image": "img", "gpu": {"pools": ["ADA_24"]},
        "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}, "entrypoint": ["python"], "cmd": ["handler.py"]}))
    assert (endpoint["entrypoint"], endpoint["cmd"]) == (["python"], ["handler.py"])
    patched = check_v2(openapi_v2, v2.patch(f"/serverless/{endpoint['id']}", json={"cmd": ["other.py"]}))
    assert (patched["entrypoint"], patched["cmd"]) == (["python"], ["other.py"])
    releases = v2.get(f"/serverless/{endpoint['id']}/releases").json()["releases"]
    assert releases[0]["version"] == 2 and releases[0]["diff"][0]["field"] == "args"


# -- clusters from a template -------------------------------------------------------------------------------------
CLUSTER = {
    "name": "c",
    "type": "SLURM",
    "compute": {"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 8, "podCount": 2},
}


def test_a_cluster_from_a_template_keeps_the_link(sim, v2, openapi_v2):
    template = v2.post("/templates", json={"name": "private", "image": "ghcr.io/me/private:1", "cmd": ["train"],
                                           "env": {"A": "1"}, "ports": ["22/tcp"]}).json()
    cluster = check_v2(openapi_v2, v2.post("/clusters", json={**CLUSTER, "templateId": template["id"]}))
    assert cluster["template"] == template["id"]
    assert check_v2(openapi_v2, v2.get(f"/clusters/{cluster['id']}"))["template"] == template["id"]
    members = check_v2(openapi_v2, v2.get(f"/clusters/{cluster['id']}/pods"))["pods"]
    assert {(pod["image"], tuple(pod["cmd"]), pod["env"]["A"]) for pod in members} == {
        ("ghcr.io/me/private:1", ("train",), "1")}
    plain = check_v2(openapi_v2, v2.post("/clusters", json={**CLUSTER, "name": "d", "image": "img", "cmd": ["x"]}))
    assert "template" not in plain
    pods = check_v2(openapi_v2, v2.get(f"/clusters/{plain['id']}/pods"))["pods"]
    assert {tuple(pod["cmd"]) for pod in pods} == {("x",)}


@pytest.mark.parametrize("extra", [{"image": "img"}, {"cmd": ["x"]}, {"env": {}}, {"ports": []}, {"disk": 20}])
def test_a_template_id_excludes_the_container_settings(sim, v2, openapi_v2, extra):
    template = v2.post("/templates", json={"name": "t", "image": "i"}).json()
    refused = v2.post("/clusters", json={**CLUSTER, "templateId": template["id"], **extra})
    assert refused.status_code == 400 and "cannot be combined" in check_v2(openapi_v2, refused)["detail"]
    assert v2.get("/clusters").json()["clusters"] == []


def test_a_cluster_template_must_be_a_pod_template(sim, v2, openapi_v2):
    serverless = v2.post("/templates", json={"name": "s", "image": "i", "serverless": True}).json()
    assert v2.post("/clusters", json={**CLUSTER, "templateId": serverless["id"]}).status_code == 400
    missing = v2.post("/clusters", json={**CLUSTER, "templateId": "nope"})
    assert missing.status_code == 404
    registry = v2.post("/clusters", json={**CLUSTER, "image": "i", "registry": "r"})
    assert registry.status_code == 422  # the private-image path for a cluster is a template


# -- the 413 --------------------------------------------------------------------------------------------------------
def test_a_pod_create_over_102400_bytes_is_a_413_before_authentication(sim, v2, openapi_v2):
    import httpx

    small = pod_body(env={"PAD": "x" * 1000})
    assert v2.post("/pods", json=small).status_code == 201
    big = pod_body(env={"PAD": "x" * 102400})
    refused = v2.post("/pods", json=big)
    assert refused.status_code == 413
    assert check_v2(openapi_v2, refused)["status"] == 413
    anonymous = httpx.post(f"{sim.urls['api_v2']}/pods", json=big)
    assert anonymous.status_code == 413  # checked before the API key
    assert httpx.post(f"{sim.urls['api_v2']}/pods", json=small).status_code == 401
    assert len(v2.get("/pods").json()["pods"]) == 1
    # Only the pod create is bounded.
    assert v2.post("/templates", json={"name": "t", "image": "i", "env": {"PAD": "x" * 102400}}).status_code == 201


# -- the quirks -----------------------------------------------------------------------------------------------------
def test_an_endpoint_created_without_timeout_reads_back_zero_but_runs_with_the_default(sim, v2):
    body = {"name": "e", "type": "QUEUE", "image": "img", "gpu": {"pools": ["ADA_24"]},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}}
    quirky = v2.post("/serverless", json=body).json()
    assert quirky["timeout"] == 0 and v2.get(f"/serverless/{quirky['id']}").json()["timeout"] == 0
    given = v2.post("/serverless", json={**body, "timeout": 300000}).json()
    assert given["timeout"] == 300000
    assert v2.patch(f"/serverless/{quirky['id']}", json={"timeout": 600000}).json()["timeout"] == 600000
    sim.admin.configure(quirk_endpoint_timeout_zero=False)
    assert v2.post("/serverless", json=body).json()["timeout"] == 300000


def test_a_template_without_mounts_omits_them(sim, v2):
    bare = v2.post("/templates", json={"name": "t", "image": "i"}).json()
    assert "mounts" not in bare and "mounts" not in v2.get(f"/templates/{bare['id']}").json()
    mounted = v2.post("/templates", json={"name": "m", "image": "i",
                                          "mounts": {"persistent": {"size": 20, "path": "/data"}}}).json()
    assert mounted["mounts"] == {"persistent": {"size": 20, "path": "/data"}}
    listed = {t["id"]: t for t in v2.get("/templates").json()["templates"]}
    assert "mounts" not in listed[bare["id"]] and "mounts" in listed[mounted["id"]]
    sim.admin.configure(quirk_template_mounts_omitted=False)
    assert v2.get(f"/templates/{bare['id']}").json()["mounts"] == {}
