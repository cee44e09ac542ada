# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod's own Python SDK (the pinned ``runpod`` release) against the simulator's GraphQL surface.

Every call goes through the SDK's own queries and mutations over real HTTP; what it reads is cross-checked
against REST v2 (and v1) for the same store. The SDK runs with a private HOME (see ``runpod_sim.sdk``).
"""

from __future__ import annotations

from typing import Any

import pytest
from simhelpers import GPU

from runpod_sim.sdk import runpod_sdk

KEY_A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAISdkTestKeyA a@test"
KEY_B = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAISdkTestKeyB b@test"


@pytest.fixture(scope="module")
def sdk_home(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return tmp_path_factory.mktemp("sdk-home")


@pytest.fixture(scope="module")
def runpod(sim, sdk_home) -> Any:
    with runpod_sdk(sim, sdk_home) as module:
        yield module
    # The SDK neither read nor wrote anything under HOME (no ~/.runpod config).
    assert list(sdk_home.iterdir()) == []


def test_pinned_sdk_version(runpod):
    assert runpod.__version__ == "1.12.0"


def test_get_pods_and_get_pod_read_what_rest_shows(sim, runpod, v2, v1, running_pod):
    pod = running_pod(env={"K": "V"}, gpu={"id": GPU, "count": 2}, name="reader")
    v2_pod = v2.get(f"/pods/{pod['id']}").json()
    v1_pod = v1.get(f"/pods/{pod['id']}").json()

    listed = {entry["id"]: entry for entry in runpod.get_pods()}
    assert list(listed) == [pod["id"]]
    single = runpod.get_pod(pod["id"])
    assert single == listed[pod["id"]]
    assert single["name"] == v2_pod["name"] == "reader"
    assert single["imageName"] == v2_pod["image"]
    assert single["desiredStatus"] == v1_pod["desiredStatus"] == "RUNNING"
    assert single["costPerHr"] == v2_pod["cost"] == v1_pod["costPerHr"]
    assert single["gpuCount"] == v2_pod["gpu"]["count"] == 2
    assert single["ports"] == ",".join(v2_pod["ports"])
    assert single["env"] == ["K=V"]
    assert single["containerDiskInGb"] == v2_pod["disk"]
    assert single["machineId"] == v1_pod["machineId"] and single["dockerId"]
    assert single["podType"] == "RESERVED" and single["port"] is None
    assert single["machine"] == {"gpuDisplayName": v1_pod["gpu"]["displayName"]} == {"gpuDisplayName": "RTX 4090"}
    ssh = [port for port in single["runtime"]["ports"] if port["privatePort"] == 22]
    assert ssh == [
        {
            "ip": "127.0.0.1",
            "isIpPublic": True,
            "privatePort": 22,
            "publicPort": v2_pod["ssh"]["direct"]["port"],
            "type": "tcp",
        }
    ]
    assert runpod.get_pod("nosuchpod") is None


def test_get_user_shows_the_account_keys_and_volumes(sim, runpod, v2):
    assert v2.put("/account/ssh-keys", json={"keys": [KEY_A, KEY_B]}).status_code == 200
    assert runpod.get_user() == {"id": "user_sim", "pubKey": f"{KEY_A}\n{KEY_B}", "networkVolumes": []}
    volume = v2.post("/network-volumes", json={"name": "data", "size": 50, "dataCenter": "CA-MTL-1"}).json()
    assert runpod.get_user()["networkVolumes"] == [
        {"id": volume["id"], "name": "data", "size": 50, "dataCenterId": volume["dataCenter"]}
    ]
    # The SDK's write of the same list lands where REST v2 reads it.
    updated = runpod.update_user_settings(KEY_B)
    assert updated["pubKey"] == KEY_B
    assert v2.get("/account/ssh-keys").json() == {"keys": [KEY_B]}


def test_get_endpoints_reads_what_rest_shows(sim, runpod, v2, v1):
    volume = v2.post("/network-volumes", json={"name": "models", "size": 20, "dataCenter": "EU-RO-1"}).json()
    created = v2.post(
        "/serverless",
        json={
            "name": "sdk-endpoint",
            "type": "QUEUE",
            "image": "worker:1",
            "env": {"MODEL": "tiny"},
            "gpu": {"pools": ["ADA_24", "AMPERE_48"], "count": 2},
            "workers": {"min": 1, "max": 4, "idleTimeout": 7},
            "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4},
            "dataCenterIds": ["EU-RO-1"],
            "networkVolumes": [volume["id"]],
        },
    )
    assert created.status_code in (200, 201), created.text
    endpoint = v2.get(f"/serverless/{created.json()['id']}").json()
    v1_endpoint = v1.get(f"/endpoints/{endpoint['id']}").json()

    (entry,) = runpod.get_endpoints()
    assert entry["id"] == endpoint["id"] and entry["name"] == "sdk-endpoint"
    assert entry["gpuIds"] == ",".join(endpoint["gpu"]["pools"]) == "ADA_24,AMPERE_48"
    assert entry["gpuCount"] == endpoint["gpu"]["count"] == 2
    assert (entry["workersMin"], entry["workersMax"]) == (endpoint["workers"]["min"], endpoint["workers"]["max"])
    assert entry["idleTimeout"] == endpoint["workers"]["idleTimeout"] == 7
    assert entry["scalerType"] == "QUEUE_DELAY" and entry["scalerValue"] == 4
    assert entry["env"] == [{"key": "MODEL", "value": "tiny"}]
    assert entry["locations"] == "EU-RO-1"
    assert entry["templateId"] == v1_endpoint["templateId"]
    assert entry["userId"] == v1_endpoint["userId"] and entry["version"] == v1_endpoint["version"]
    assert entry["createdAt"] == endpoint["createdAt"]
    assert entry["networkVolumeId"] == volume["id"]
    assert entry["networkVolume"] == {"id": volume["id"], "dataCenterId": "EU-RO-1"}


def test_get_gpus_and_get_gpu_price_what_pods_cost(sim, runpod, v2):
    gpus = {gpu["id"]: gpu for gpu in runpod.get_gpus()}
    assert gpus[GPU] == {"id": GPU, "displayName": "RTX 4090", "memoryInGb": 24}
    assert gpus["NVIDIA H200"]["memoryInGb"] == 141

    gpu = runpod.get_gpu(GPU, 2)
    assert gpu["id"] == GPU and gpu["maxGpuCount"] == 8 and gpu["manufacturer"] == "Nvidia"
    assert gpu["lowestPrice"] == {"uninterruptablePrice": gpu["securePrice"], "minimumBidPrice": gpu["secureSpotPrice"]}
    assert 0 < gpu["secureSpotPrice"] < gpu["securePrice"]
    # The catalog price is what a pod of that type costs (per GPU) on REST v2.
    created = runpod.create_pod("priced", "ubuntu:22.04", GPU, gpu_count=2)
    assert v2.get(f"/pods/{created['id']}").json()["cost"] == pytest.approx(2 * gpu["securePrice"])

    # More GPUs than one machine holds, or a sold-out type: no price, as RunPod answers.
    assert runpod.get_gpu(GPU, 9)["lowestPrice"] == {"uninterruptablePrice": None, "minimumBidPrice": None}
    sim.admin.configure(out_of_stock_gpu_types=[GPU])
    assert runpod.get_gpu(GPU)["lowestPrice"] == {"uninterruptablePrice": None, "minimumBidPrice": None}
    with pytest.raises(ValueError, match="No GPU found"):
        runpod.get_gpu("NVIDIA Imaginary 9000")


def test_gpu_types_agree_with_the_v2_catalog(sim, gql, v2):
    query = (
        "query { gpuTypes { id displayName memoryInGb maxGpuCount securePrice communityPrice secureCloud"
        ' communityCloud lowestPrice(input: {gpuCount: 1, dataCenterId: "EU-RO-1"}) { stockStatus } } }'
    )
    graphql = {gpu["id"]: gpu for gpu in gql(query).json()["data"]["gpuTypes"]}
    params = {"include": "AVAILABILITY", "product": "POD"}
    catalog = {gpu["id"]: gpu for gpu in v2.get("/catalog/gpus", params=params).json()["gpus"]}
    assert set(graphql) == set(catalog)
    for gpu_id, gpu in graphql.items():
        listed = catalog[gpu_id]
        assert (gpu["displayName"], gpu["memoryInGb"]) == (listed["name"], listed["memory"])
        assert (gpu["secureCloud"], gpu["communityCloud"]) == (listed["secure"], listed["community"])
        assert gpu["securePrice"] == listed["price"]["secure"] and gpu["maxGpuCount"] == listed["maxCount"]["secure"]
        if gpu["communityCloud"]:
            assert gpu["communityPrice"] == listed["price"]["community"]
        in_eu = {center["id"]: center["availability"] for center in listed.get("dataCenters", [])}
        assert gpu["lowestPrice"]["stockStatus"] == in_eu["EU-RO-1"].title()


def test_create_stop_resume_terminate_through_the_sdk(sim, runpod, v2, v1):
    v2.put("/account/ssh-keys", json={"keys": [KEY_A]})
    created = runpod.create_pod(
        "sdk-pod",
        "runpod/base:0.1",
        GPU,
        gpu_count=2,
        data_center_id="EU-RO-1",
        ports="8888/http, 22/tcp",
        env={"MODE": "sdk"},
        container_disk_in_gb=20,
        volume_in_gb=10,  # the v2 document reads a persistent mount of at least 10 GB
    )
    pod_id = created["id"]
    # Find-and-deploy answers with the machine it chose.
    assert created["machineId"] and created["machine"]["podHostId"].startswith(pod_id)
    assert sorted(created["env"]) == sorted(["MODE=sdk", f"PUBLIC_KEY={KEY_A}"])  # startSsh injects account keys

    listed = {pod["id"]: pod for pod in v2.get("/pods").json()["pods"]}
    v2_pod = listed[pod_id]
    assert v2_pod["status"] in ("PROVISIONING", "STARTING")
    assert v2_pod["name"] == "sdk-pod" and v2_pod["image"] == "runpod/base:0.1"
    assert v2_pod["gpu"] == {"id": GPU, "count": 2} and v2_pod["dataCenterId"] == "EU-RO-1"
    assert v2_pod["ports"] == ["8888/http", "22/tcp"] and v2_pod["disk"] == 20
    assert v2_pod["env"] == {"MODE": "sdk", "PUBLIC_KEY": KEY_A}
    assert v2_pod["mounts"] == {"persistent": {"size": 10, "path": "/runpod-volume"}}
    assert v1.get(f"/pods/{pod_id}").json()["interruptible"] is False

    sim.admin.wait_pod(pod_id, "RUNNING", listening=True)
    assert runpod.get_pod(pod_id)["runtime"]["ports"]

    assert runpod.stop_pod(pod_id) == {"id": pod_id, "desiredStatus": "EXITED"}
    assert v2.get(f"/pods/{pod_id}").json()["status"] == "EXITED"
    assert runpod.get_pod(pod_id)["runtime"] is None

    resumed = runpod.resume_pod(pod_id, 1)
    assert resumed["desiredStatus"] == "RUNNING" and resumed["machineId"] == created["machineId"]
    after_resume = v2.get(f"/pods/{pod_id}").json()
    assert after_resume["status"] == "STARTING" and after_resume["gpu"]["count"] == 1
    sim.admin.wait_pod(pod_id, "RUNNING")

    assert runpod.terminate_pod(pod_id) is None
    assert pod_id not in {pod["id"] for pod in v2.get("/pods").json()["pods"]}
    assert v2.get(f"/pods/{pod_id}").json()["status"] == "TERMINATED"
    assert runpod.get_pod(pod_id) is None and runpod.get_pods() == []


def test_a_pod_on_a_network_volume_lands_in_its_data_center(sim, runpod, v2):
    volume = v2.post("/network-volumes", json={"name": "ckpt", "size": 10, "dataCenter": "US-IL-1"}).json()
    # The SDK looks the volume's data center up through get_user() when none is given.
    created = runpod.create_pod("trainer", "ubuntu:22.04", GPU, network_volume_id=volume["id"])
    pod = v2.get(f"/pods/{created['id']}").json()
    assert pod["dataCenterId"] == "US-IL-1"
    assert pod["mounts"] == {"network": [{"volumeId": volume["id"], "path": "/runpod-volume"}]}
    with pytest.raises(runpod.error.QueryError, match="is in US-IL-1"):
        runpod.create_pod("elsewhere", "ubuntu:22.04", GPU, network_volume_id=volume["id"], data_center_id="EU-RO-1")
    with pytest.raises(runpod.error.QueryError, match="Network volume nosuchvolume not found"):
        runpod.create_pod("lost", "ubuntu:22.04", GPU, network_volume_id="nosuchvolume", data_center_id="EU-RO-1")
    assert [pod["name"] for pod in v2.get("/pods").json()["pods"]] == ["trainer"]


def test_sdk_stops_and_resumes_a_pod_rest_created(sim, runpod, v2, running_pod):
    # A type outside the GraphQL GPU catalog still resumes on its host; more GPUs than a host holds do not.
    pod = running_pod(gpu={"id": "NVIDIA RTX A4000", "count": 1})
    runpod.stop_pod(pod["id"])
    with pytest.raises(runpod.error.QueryError, match="not enough free GPUs"):
        runpod.resume_pod(pod["id"], 9)
    assert v2.get(f"/pods/{pod['id']}").json()["status"] == "EXITED"
    assert runpod.resume_pod(pod["id"], 1)["desiredStatus"] == "RUNNING"
    assert v2.get(f"/pods/{pod['id']}").json()["status"] == "STARTING"


def test_sdk_deploys_and_resumes_share_the_gpu_stock_with_rest(sim, runpod, v2):
    sim.admin.configure(gpu_stock={GPU: {"*": 0, "EU-RO-1": 2}})
    assert runpod.get_gpu(GPU, 2)["lowestPrice"]["uninterruptablePrice"] is not None
    first = runpod.create_pod("first", "ubuntu:22.04", GPU, gpu_count=2)
    assert v2.get(f"/pods/{first['id']}").json()["dataCenterId"] == "EU-RO-1"
    # Both GPUs are taken: GraphQL, the price read and REST v2 all see it.
    assert runpod.get_gpu(GPU)["lowestPrice"] == {"uninterruptablePrice": None, "minimumBidPrice": None}
    with pytest.raises(runpod.error.QueryError, match="no longer any instances available"):
        runpod.create_pod("second", "ubuntu:22.04", GPU)
    assert v2.post("/pods", json={"name": "rest", "image": "u", "gpu": {"id": GPU}}).status_code == 400
    # A stop frees them; a pod created meanwhile keeps the stopped one from resuming on its host.
    runpod.stop_pod(first["id"])
    taker = v2.post("/pods", json={"name": "taker", "image": "u", "gpu": {"id": GPU, "count": 2}}).json()
    with pytest.raises(runpod.error.QueryError, match="not enough free GPUs"):
        runpod.resume_pod(first["id"], 2)
    assert v2.get(f"/pods/{first['id']}").json()["gpu"]["count"] == 2
    assert v2.delete(f"/pods/{taker['id']}").status_code in (200, 204)
    assert runpod.resume_pod(first["id"], 2)["desiredStatus"] == "RUNNING"


def test_sdk_meets_the_account_limits_rest_has(sim, runpod, v2):
    running = runpod.create_pod("mine", "ubuntu:22.04", GPU)
    runpod.stop_pod(running["id"])
    sim.admin.configure(balance=0)
    with pytest.raises(runpod.error.QueryError, match="Insufficient balance"):
        runpod.create_pod("broke", "ubuntu:22.04", GPU)
    with pytest.raises(runpod.error.QueryError, match="Insufficient balance"):
        runpod.resume_pod(running["id"], 1)
    sim.admin.configure(balance=100, restricted_gpu_types=[GPU])
    with pytest.raises(runpod.error.QueryError, match="access denied"):
        runpod.create_pod("denied", "ubuntu:22.04", GPU)
    assert [pod["name"] for pod in v2.get("/pods").json()["pods"]] == ["mine"]


def test_sdk_errors_create_nothing(sim, runpod, v2):
    from runpod.error import AuthenticationError, QueryError

    sim.admin.configure(out_of_stock_gpu_types=["NVIDIA RTX A6000"])
    with pytest.raises(QueryError, match="no longer any instances available"):
        runpod.create_pod("sold-out", "ubuntu:22.04", "NVIDIA RTX A6000")
    with pytest.raises(QueryError, match="no longer any instances available"):
        runpod.create_pod("too-many", "ubuntu:22.04", GPU, gpu_count=9)
    with pytest.raises(QueryError, match="no longer any instances available"):
        runpod.create_pod("old-cuda", "ubuntu:22.04", GPU, allowed_cuda_versions=["11.8"])
    with pytest.raises(QueryError, match="no longer any instances available"):
        runpod.create_pod("nowhere", "ubuntu:22.04", GPU, data_center_id="XX-NONE-1")
    assert v2.get("/pods").json() == {"pods": []}

    with pytest.raises(QueryError, match="Pod not found"):
        runpod.stop_pod("nosuchpod")
    with pytest.raises(QueryError, match="Pod not found"):
        runpod.terminate_pod("nosuchpod")
    running = runpod.create_pod("busy", "ubuntu:22.04", GPU)
    with pytest.raises(QueryError, match="already running"):
        runpod.resume_pod(running["id"], 1)
    with pytest.raises(AuthenticationError):
        runpod.get_pods(api_key="not-the-key")


def test_spot_pods_rent_bid_and_refuse_on_demand_resume(sim, runpod, v2, v1, gql):
    floor = runpod.get_gpu(GPU)["lowestPrice"]["minimumBidPrice"]
    rent = (
        'mutation { podRentInterruptable(input: {bidPerGpu: %s, name: "spot", imageName: "ubuntu:22.04", '
        'gpuTypeId: "%s", gpuCount: 2, cloudType: SECURE}) { id podType costPerHr } }'
    )
    too_low = gql(rent % (floor / 2, GPU)).json()
    assert too_low["data"]["podRentInterruptable"] is None and "minimum bid" in too_low["errors"][0]["message"]
    assert v2.get("/pods").json() == {"pods": []}

    spot = gql(rent % (floor, GPU)).json()["data"]["podRentInterruptable"]
    assert spot["podType"] == "INTERRUPTABLE" and spot["costPerHr"] == pytest.approx(2 * floor)
    assert v2.get(f"/pods/{spot['id']}").json()["cost"] == pytest.approx(2 * floor)
    assert v1.get(f"/pods/{spot['id']}").json()["interruptible"] is True

    runpod.stop_pod(spot["id"])
    with pytest.raises(runpod.error.QueryError, match="Cannot resume a spot pod as an on demand pod"):
        runpod.resume_pod(spot["id"], 2)
    bid = gql(
        'mutation { podBidResume(input: {podId: "%s", bidPerGpu: %s, gpuCount: 2}) { id desiredStatus costPerHr } }'
        % (spot["id"], floor * 2)
    ).json()["data"]["podBidResume"]
    assert bid["desiredStatus"] == "RUNNING" and bid["costPerHr"] == pytest.approx(4 * floor)
    assert v2.get(f"/pods/{spot['id']}").json()["status"] == "STARTING"
