"""The table-driven payload readers (``_payloads``): every path a table reads is one RunPod documents, the OpenAPI
documents' own examples read into the views they describe, and the table mechanics (fallbacks, ``@graphql``, cells a
version lacks)."""

from __future__ import annotations

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils import _payloads
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._models import PodView
from ansible_collections.runpod.cloud.plugins.module_utils._payloads import (
    CLUSTER,
    ENDPOINT,
    NETWORK_VOLUME,
    POD,
    REGISTRY,
    TEMPLATE,
    Table,
    as_int,
    as_str,
    via,
)
from runpod_sim.schemas import v1_document, v2_document

DOCUMENTS = {"v2": v2_document, "v1": v1_document}
# table -> the schema it reads, per version (None: the resource does not exist on that version).
SCHEMAS = {
    "POD": {"v2": "Pod", "v1": "Pod"},
    "ENDPOINT": {"v2": "Endpoint", "v1": "Endpoint"},
    "TEMPLATE": {"v2": "Template", "v1": "Template"},
    "CLUSTER": {"v2": "Cluster", "v1": None},
    "NETWORK_VOLUME": {"v2": "NetworkVolume", "v1": "NetworkVolume"},
    "REGISTRY": {"v2": "Registry", "v1": "ContainerRegistryAuth"},
}
# Paths read although the document does not declare them, each with its reason.
UNDOCUMENTED = {
    ("POD", "v1", "imageName"): "live v1 answers send imageName instead of the documented image",
    ("TEMPLATE", "v1", "image"): "a fallback kept since the first v1 reader (the document says imageName)",
    ("ENDPOINT", "v1", "flashboot"): "v1 takes flashboot on create but does not report it (docs/dev/api-notes.md, "
    "section 4): None unless a build echoes it",
    ("NETWORK_VOLUME", "v2", "dataCenterId"): "a fallback to v1's name, kept since the first account reader",
    ("NETWORK_VOLUME", "v1", "dataCenter"): "a fallback to v2's name, kept since the first account reader",
}


def _deref(document, node):
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        target = document
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def _branches(document, node):
    """``node`` and every schema it combines (allOf/anyOf/oneOf), references resolved."""
    node = _deref(document, node)
    if not isinstance(node, dict):
        return []
    found = [node]
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(key, []):
            found += _branches(document, sub)
    return found


def _children(document, nodes, key):
    found = []
    for branch in (branch for node in nodes for branch in _branches(document, node)):
        if key.isdigit() and "items" in branch:
            found.append(branch["items"])
        elif key in branch.get("properties", {}):
            found.append(branch["properties"][key])
    return found


def documented(document, schema, path):
    nodes = [schema]
    for key in path.split("."):
        nodes = _children(document, nodes, key)
        if not nodes:
            return False
    return True


def example(document, node, depth=0):
    """An instance of ``node`` built from the document's own ``example``/``examples`` values."""
    branches = _branches(document, node)
    is_array = any(branch.get("type") == "array" for branch in branches)
    for branch in branches:
        value = branch.get("example", (branch.get("examples") or [None])[0])
        # An array whose example is a comma-separated string (the v1 document does this) is built from its items.
        if value is not None and (not is_array or isinstance(value, list)):
            return value
    properties = {}
    for branch in branches:
        properties.update(branch.get("properties", {}))
    if properties and depth < 6:
        return {key: example(document, schema, depth + 1) for key, schema in properties.items()}
    for branch in branches:
        if is_array and "items" in branch:
            item = example(document, branch["items"], depth + 1)
            return [] if item is None else [item]
        if "enum" in branch:
            return branch["enum"][0]
    return None


def schema_example(version, name):
    document = DOCUMENTS[version]()
    return example(document, document["components"]["schemas"][name])


def read_paths():
    """``(table, version, path)`` for every document path a table reads (``@graphql`` paths have no document)."""
    for table_name, schemas in SCHEMAS.items():
        table = getattr(_payloads, table_name)
        for version, schema in schemas.items():
            for _field, cell in table.columns[version] if schema else ():
                for path in cell.paths if isinstance(cell, via) else ():
                    if not path.startswith("@"):
                        yield table_name, version, path


@pytest.mark.parametrize(("table", "version", "path"), sorted(set(read_paths())))
def test_every_path_a_table_reads_is_in_the_document_or_listed_with_its_reason(table, version, path):
    document = DOCUMENTS[version]()
    schema = document["components"]["schemas"][SCHEMAS[table][version]]
    assert documented(document, schema, path) != ((table, version, path) in UNDOCUMENTED), (table, version, path)


def test_the_list_of_undocumented_paths_holds_only_paths_a_table_reads():
    assert set(UNDOCUMENTED) <= set(read_paths())


def test_the_v2_pod_example_reads_into_the_pod_it_describes():
    pod = POD.read("v2", schema_example("v2", "Pod"))
    assert (pod.id, pod.name, pod.api_version, pod.status, pod.desired_status) == (
        "pod_abc123", "my-training-pod", "v2", "PROVISIONING", "RUNNING")
    assert (pod.image, pod.container_disk_gb, pod.ports, pod.env, pod.docker_args) == (
        "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", 50, ["8888/http", "22/tcp"],
        {"JUPYTER_PASSWORD": "hunter2"}, None)
    # The example carries both gpu and cpu: a pod with a GPU is a GPU pod.
    assert (pod.compute_type, pod.gpu_type, pod.gpu_count, pod.cpu_flavor, pod.vcpu_count) == (
        "GPU", "NVIDIA GeForce RTX 4090", 1, "cpu5c", 4)
    assert (pod.volume_gb, pod.volume_mount_path, pod.network_volume_id) == (20, "/workspace", "vol_xyz")
    assert (pod.cloud_type, pod.data_center_id, pod.cost_per_hr, pod.locked) == ("SECURE", "US-TX-3", 0.35, False)
    assert (pod.runtime_probed, pod.runtime_reported, pod.uptime_seconds) == (True, True, 3600)
    assert [(p.private, p.public, p.type, p.ip, p.is_public) for p in pod.runtime_ports] == [
        (8888, 43210, "http", "45.23.12.1", None)]
    assert pod.ssh_proxy.command == "ssh 7h9k2m4n6p-64411eb2@ssh.runpod.io" and pod.ssh_direct.port == 22
    assert (pod.cluster_id, pod.cluster_rank, pod.cluster_role, pod.cluster_ip) == (
        "cluster_abc123", 0, "SLURM_CONTROLLER", "10.65.0.2")
    assert (pod.template_id, pod.registry_id, pod.created_at, pod.actions) == (
        None, None, "2026-03-13T20:00:00Z", ["start"])


def test_the_v1_pod_example_reads_into_the_pod_it_describes_without_a_runtime_read():
    pod = POD.read("v1", schema_example("v1", "Pod"))
    assert (pod.id, pod.api_version, pod.status, pod.desired_status) == ("xedezhzb9la3ye", "v1", "RUNNING", "RUNNING")
    assert pod.last_status_change.startswith("Rented by User")
    assert (pod.image, pod.container_disk_gb, pod.env, pod.registry_id) == (
        "runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04", 50, {"ENV_VAR": "value"},
        "clzdaifot0001l90809257ynb")
    # The example names a CPU flavor and no GPU type (gpu.id and machine.gpuTypeId are null): a CPU pod.
    assert (pod.compute_type, pod.gpu_type, pod.gpu_count, pod.cpu_flavor) == ("CPU", None, 0, "cpu3c")
    assert pod.cost_per_hr == 0.74  # the document's string example
    assert (pod.interruptible, pod.started_at) == (False, "2024-07-12T19:14:40.144Z")
    assert (pod.runtime_probed, pod.runtime_reported, pod.runtime_ports) == (False, False, [])


def test_the_endpoint_examples_read_into_the_endpoints_they_describe():
    v2 = ENDPOINT.read("v2", schema_example("v2", "Endpoint"))
    assert (v2.id, v2.name, v2.api_version, v2.type, v2.gpu_pools, v2.gpu_count) == (
        "ep_abc123", "my-inference", "v2", "QUEUE", ["ADA_24"], 1)
    assert (v2.workers_min, v2.workers_max, v2.idle_timeout) == (0, 5, 5)
    # The scaler value is the one of the scaler type (REQUEST_COUNT: requestCount).
    assert (v2.scaler_type, v2.scaler_value, v2.flashboot) == ("REQUEST_COUNT", 4.0, False)
    assert (v2.network_volume_id, v2.data_center_ids, v2.execution_timeout_ms) == ("vol_abc", ["US-TX-3"], 300000)
    assert (v2.cpu_flavor_ids, v2.vcpu_count, v2.template_id, v2.gpu_type_ids) == (["cpu5c"], 4, None, [])
    assert (v2.image, v2.container_disk_gb, v2.env) == (
        "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", 50, {"JUPYTER_PASSWORD": "hunter2"})

    v1 = ENDPOINT.read("v1", schema_example("v1", "Endpoint"))
    assert (v1.id, v1.api_version, v1.template_id, v1.gpu_type_ids, v1.gpu_count) == (
        "jpnw0v75y3qoql", "v1", "30zmvf89kd", ["NVIDIA GeForce RTX 4090"], 1)
    assert (v1.scaler_type, v1.scaler_value, v1.idle_timeout, v1.execution_timeout_ms) == (
        "QUEUE_DELAY", 4.0, 5, 600000)
    assert (v1.network_volume_id, v1.allowed_cuda_versions, v1.min_cuda_version) == ("agv6w2qcg7", ["13.0"], "13.0")
    # v1 does not report the container settings: they keep the view's "not said" value.
    assert (v1.image, v1.env, v1.ports, v1.registry_id, v1.gpu_pools) == (None, None, None, None, [])


def test_the_template_examples_read_into_the_same_template_shape():
    v2 = TEMPLATE.read("v2", schema_example("v2", "Template"))
    v1 = TEMPLATE.read("v1", schema_example("v1", "Template"))
    assert (v2.id, v2.name, v2.image, v2.serverless, v2.container_disk_gb, v2.ports) == (
        "tpl_abc", "My PyTorch Template", "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", False, 50,
        ["8888/http", "22/tcp"])
    assert (v1.id, v1.name, v1.image, v1.serverless, v1.container_disk_gb, v1.ports) == (
        "30zmvf89kd", "my template", "runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04", True, 50,
        ["8888/http", "22/tcp"])
    assert not hasattr(v2, "api_version") and v1.docker_args is None and v1.env == {"ENV_VAR": "value"}


def test_the_cluster_volume_and_registry_examples_read_into_their_views():
    cluster = CLUSTER.read("v2", schema_example("v2", "Cluster"))
    assert (cluster.id, cluster.type, cluster.gpu_type_id, cluster.gpu_count_per_pod, cluster.pod_count) == (
        "cluster_abc123", "TRAINING", "NVIDIA H100 80GB HBM3", 8, 4)
    assert (cluster.template_id, cluster.pods_total, cluster.pods_by_status) == (
        "tpl_abc", 4, {"RUNNING": 3, "PROVISIONING": 1})
    assert (cluster.vxlan_id, cluster.primary_pod_id, cluster.primary_status) == (42, "pod_node0", "PROVISIONING")
    v2 = NETWORK_VOLUME.read("v2", schema_example("v2", "NetworkVolume"))
    v1 = NETWORK_VOLUME.read("v1", schema_example("v1", "NetworkVolume"))
    assert (v2.size_gb, v2.data_center_id, v2.type) == (50, "EU-RO-1", "STANDARD")
    assert (v1.size_gb, v1.data_center_id, v1.type) == (50, "EU-RO-1", None)
    for version, schema in SCHEMAS["REGISTRY"].items():
        registry = REGISTRY.read(version, schema_example(version, schema))
        assert registry.id and registry.name


def test_a_v1_pod_reads_its_runtime_and_fresher_intent_from_its_graphql_entry():
    rest = {"id": "p1", "desiredStatus": "RUNNING", "lastStatusChange": "rest", "gpu": {"id": "A40", "count": 2}}
    entry = {
        "desiredStatus": "EXITED",
        "lastStatusChange": "Exited by user",
        "runtime": {"uptimeInSeconds": 9, "ports": [{"privatePort": 22, "publicPort": 40022, "isIpPublic": True},
                                                    {"publicPort": 1}, None]},
    }
    pod = POD.read("v1", rest, graphql=entry)
    assert (pod.status, pod.desired_status, pod.last_status_change) == ("RUNNING", "EXITED", "Exited by user")
    assert (pod.runtime_probed, pod.runtime_reported, pod.uptime_seconds) == (True, True, 9)
    assert [(p.private, p.public, p.is_public) for p in pod.runtime_ports] == [(22, 40022, True)]
    # A GraphQL entry without a runtime block: probed, nothing reported, REST's intent kept when GraphQL says none.
    bare = POD.read("v1", rest, graphql={"runtime": {}})
    assert (bare.runtime_probed, bare.runtime_reported, bare.desired_status, bare.last_status_change) == (
        True, False, "RUNNING", "rest")


def test_a_cell_falls_back_in_order_and_a_missing_cell_keeps_the_views_default():
    table = Table(
        PodView,
        "pod",
        (
            ("image", as_str, ("image", "imageName"), "imageName"),
            ("vcpu_count", as_int, "cpu.0.vcpuCount", None),
        ),
    )
    fallback = table.values("v2", {"id": "p", "image": " ", "imageName": "img"})
    assert fallback == {"id": "p", "image": "img", "vcpu_count": None}
    assert table.values("v2", {"id": "p", "cpu": [None, {"vcpuCount": "4"}]})["vcpu_count"] == 4
    assert table.values("v1", {"id": "p", "image": "ignored"}) == {"id": "p", "image": None}
    assert table.read("v1", {"id": "p", "cpu": [{"vcpuCount": 4}]}).vcpu_count is None


@pytest.mark.parametrize("version", ["v2", "v1"])
@pytest.mark.parametrize(("payload", "message"), [
    ({"name": "x"}, "the API returned a pod without an id"),
    ({"id": ""}, "the API returned a pod without an id"),
    (["p1"], "expected a pod object, got list"),
])
def test_a_pod_without_an_id_is_a_bad_response_on_both_versions(version, payload, message):
    with pytest.raises(RunPodError, match=message) as caught:
        POD.read(version, payload)
    assert caught.value.code == "bad_response"


@pytest.mark.parametrize("junk", [None, "", 0, 1.5, True, [], {}, [None], {"id": 3}, "x"])
def test_any_mistyped_field_reads_as_not_said_never_an_exception(junk):
    for table_name, schemas in SCHEMAS.items():
        table = getattr(_payloads, table_name)
        for version, schema in schemas.items():
            if schema is None:
                continue
            payload = {"id": "r1", **dict.fromkeys(
                path.split(".")[0] for _f, cell in table.columns[version] if isinstance(cell, via)
                for path in cell.paths if not path.startswith("@")
            )}
            payload = {key: (junk if key != "id" else "r1") for key in payload}
            assert table.read(version, payload).id == "r1"
